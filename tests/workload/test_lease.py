"""Lease requests: the three modes, their defaults and every validation rule."""

import math

import attrs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.errors import LeaseError
from cloudsim_py.workload import lease as L
from cloudsim_py.workload.lease import LeaseMode, LeaseRequest


def ar(**kw):
    args = dict(id=2, submit_time=900.0, mode=LeaseMode.AR, start=1800.0, duration=1800.0, nodes=4)
    args.update(kw)
    return LeaseRequest(**args)


def test_preemptible_defaults_by_mode_best_effort_yes_ar_and_immediate_no():
    be = LeaseRequest(id=1, submit_time=0.0, mode=LeaseMode.BEST_EFFORT, duration=3600.0, nodes=1)
    im = LeaseRequest(id=3, submit_time=0.0, mode=LeaseMode.IMMEDIATE, duration=60.0, nodes=1)
    assert (be.preemptible, ar().preemptible, im.preemptible) == (True, False, False)


def test_a_best_effort_lease_may_be_made_non_preemptible():
    be = LeaseRequest(id=1, submit_time=0.0, mode=LeaseMode.BEST_EFFORT, duration=10.0, nodes=1, preemptible=False)
    assert be.preemptible is False


def test_ar_end_is_start_plus_requested_duration_and_run_time_is_the_real_duration():
    # Haizea's preemption_prematureend2.lwf lease 2: AR at 00:30 for 15 min that really lasts 10 min
    lease = ar(start=1800.0, duration=900.0, real_duration=600.0)
    assert (lease.end, lease.run_time) == (2700.0, 600.0)


def test_run_time_defaults_to_the_requested_duration():
    assert ar().run_time == 1800.0


def test_cpus_is_nodes_times_cpus_per_node():
    assert ar(nodes=4, cpus_per_node=2.0).cpus == 8.0


def test_ar_starting_before_its_submission_is_an_error_naming_the_lease():
    with pytest.raises(LeaseError, match=r"lease 2: advance reservation starts at 100 s, before its submission at 900 s") as err:
        ar(start=100.0)
    assert err.value.reason == L.AR_BEFORE_SUBMIT


def test_ar_without_start_is_an_error():
    with pytest.raises(LeaseError, match="lease 2: an advance reservation needs a finite start time"):
        ar(start=None)


def test_start_on_a_best_effort_lease_is_an_error():
    with pytest.raises(LeaseError, match="lease 5: start 10.0 given for a best-effort lease"):
        LeaseRequest(id=5, submit_time=0.0, mode=LeaseMode.BEST_EFFORT, duration=1.0, nodes=1, start=10.0)


def test_preemptible_ar_is_an_error():
    with pytest.raises(LeaseError, match="lease 2: an advance reservation cannot be preemptible"):
        ar(preemptible=True)


@pytest.mark.parametrize("duration", [0.0, -5.0, float("inf"), float("nan")])
def test_non_positive_or_infinite_duration_is_an_error_naming_the_key(duration):
    with pytest.raises(LeaseError, match=r"lease 2: duration .* must be > 0") as err:
        ar(duration=duration)
    assert err.value.reason == L.BAD_DURATION


@pytest.mark.parametrize("nodes", [0, -1, 2.0, True])
def test_nodes_must_be_a_positive_integer(nodes):
    with pytest.raises(LeaseError, match=r"lease 2: nodes .* must be a positive integer"):
        ar(nodes=nodes)


def test_real_duration_above_the_requested_duration_is_an_error():
    with pytest.raises(LeaseError, match=r"lease 2: real_duration 1900.0 must be > 0 and at most the requested duration 1800.0"):
        ar(real_duration=1900.0)


@pytest.mark.parametrize("key, value", [("cpus_per_node", 0.0), ("memory_mb", -1.0), ("image_mb", -1.0),
                                        ("disk_mb", -0.5)])
def test_resources_out_of_range_are_errors_naming_the_key(key, value):
    with pytest.raises(LeaseError, match=f"lease 2: {key}"):
        ar(**{key: value})


def test_negative_submit_time_is_an_error():
    with pytest.raises(LeaseError, match="lease 2: submit_time -1.0 must be finite and >= 0"):
        ar(submit_time=-1.0, start=0.0)


# -- the one-expression check of plain best-effort requests --------------------------------------

_values = st.sampled_from([0.0, 1.0, 2.5, 3600.0, -1.0, -0.0, math.inf, -math.inf, math.nan, 0, 3, -2, 10 ** 400,
                           True, False, None])


@settings(max_examples=300, deadline=None)
@given(st.tuples(*[_values] * 8), st.sampled_from(list(LeaseMode)), st.sampled_from([None, 10.0, math.nan]))
def test_the_plain_best_effort_check_passes_only_requests_every_check_passes(values, mode, start):
    # LeaseRequest._plain_best_effort decides in one expression; whenever it says yes,
    # _validate (the checks that name what is wrong) must have nothing to say
    lease = LeaseRequest(id=1, submit_time=0.0, mode=LeaseMode.BEST_EFFORT, duration=10.0, nodes=1)
    keys = ("submit_time", "duration", "real_duration", "nodes", "cpus_per_node", "memory_mb", "image_mb", "disk_mb")
    for key, value in zip(keys, values):
        object.__setattr__(lease, key, value)
    object.__setattr__(lease, "mode", mode)
    object.__setattr__(lease, "start", start)
    if lease._plain_best_effort():
        lease._validate()


def test_a_trace_row_takes_the_plain_check():
    lease = LeaseRequest(id=1, submit_time=5.0, mode=LeaseMode.BEST_EFFORT, duration=60.0, real_duration=30.0,
                         nodes=2, cpus_per_node=1.0, memory_mb=1024.0, image_mb=600.0)
    assert lease._plain_best_effort()
    assert not ar()._plain_best_effort()
    # sizes as a scenario file gives them (ints) take it too
    assert attrs.evolve(lease, memory_mb=1024, image_mb=600, cpus_per_node=1, disk_mb=0)._plain_best_effort()
