"""``fidelity: slice`` cannot run for ever: ``slice_s`` has a floor, a run a most ``MAX_SLICES``
slices, and a slice too short to move the clock is an error naming ``slice_s`` (issue 17)."""

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.errors import LimitError, SpecError
from cloudsim_py.infrastructure import datacenter
from cloudsim_py.infrastructure.spec import DatacenterSpec


@pytest.mark.parametrize("slice_s", [1.0e-300, 1.0e-6, 0.0009])
def test_a_slice_shorter_than_a_millisecond_is_refused(slice_s):
    with pytest.raises(SpecError, match=rf"^slice_s: must be >= 0\.001, got {slice_s:g}$".replace("+", r"\+")):
        DatacenterSpec(hosts=2, tiers=2, fidelity="slice", slice_s=slice_s)


def test_a_slice_that_cannot_move_the_clock_is_an_error_not_a_run_that_never_ends():
    # at t = 1e13 s, 1 ms is below the resolution of a float: the next slice would be now
    with pytest.raises(LimitError) as err:
        simulate([Job(1, 1e13, 2, runtime=100)], hosts=2, tiers=2, policy="fcfs", fidelity="slice", slice_s=0.001)
    assert str(err.value) == ("slice_s: 0.001 s is too short: the clock cannot move by it at t = 1e+13 s; "
                              "give a longer slice_s")


def test_a_run_of_more_slices_than_max_slices_stops_with_the_reason(monkeypatch):
    monkeypatch.setattr(datacenter, "MAX_SLICES", 1000)
    with pytest.raises(LimitError, match=r"^slice_s: 0\.01 s is too short: this run needs more than 1,000 slices "
                                         r"\(MAX_SLICES\) by t = 10 s; give a longer slice_s$"):
        simulate([Job(1, 0.0, 2, runtime=100)], hosts=2, tiers=2, policy="fcfs", fidelity="slice", slice_s=0.01)


def test_a_run_within_max_slices_runs(monkeypatch):
    monkeypatch.setattr(datacenter, "MAX_SLICES", 1000)
    r = simulate([Job(1, 0.0, 2, runtime=100)], hosts=2, tiers=2, policy="fcfs", fidelity="slice", slice_s=0.2)
    assert r.summary["jobs_finished"] == 1


def test_eff_draw_slice_runs_are_held_to_max_slices_too(monkeypatch):
    # interference.eff_draw: slice redraws eff at every slice end, without fidelity: slice
    monkeypatch.setattr(datacenter, "MAX_SLICES", 1000)
    with pytest.raises(LimitError, match=r"^slice_s: 0\.01 s is too short: this run needs more than 1,000 slices "):
        simulate([Job(1, 0.0, 2, runtime=100)], hosts=2, tiers=2, policy="fcfs", slice_s=0.01,
                 interference={"eff_draw": "slice"})
    r = simulate([Job(1, 0.0, 2, runtime=100)], hosts=2, tiers=2, policy="fcfs", slice_s=0.01,
                 interference={"eff_draw": "mean"})
    assert r.summary["jobs_finished"] == 1
