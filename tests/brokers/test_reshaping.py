"""Reshaping moldable jobs at start (Sodan 2009 section 4.1, Fig. 6): static ``AllA`` and
load-adaptive ``LoadA``, with and without reshaping backfilled jobs (``_noB``)."""

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.reshaping import PRESETS, Reshaper, ReshapeSpec, reshape_spec
from cloudsim_py.errors import SpecError
from cloudsim_py.workload.efficiency import E1
from cloudsim_py.workload.moldable import MoldableJob

M_CLASSES = {"S": 10, "M": 1000}


def moldable(*specs):
    """(submit, procs, runtime) -> moldable E1 jobs (estimates exact), ids 1, 2, ..."""
    return [MoldableJob.of(i, float(t), n, float(rt), model=E1) for i, (t, n, rt) in enumerate(specs, 1)]


def by_id(result, column):
    return {int(i): float(v) for i, v in zip(result.records["id"], result.records[column])}


def test_load_adaptive_reshaping_halves_two_jobs_that_need_twice_the_machine():
    # 8 hosts; two M jobs of 8 processors, 100 s, E1. Needs 16, free 8: F_try = 0.5 = F_dyn.
    # Both run on 4 processors at once for 100 x 8 x 0.65 / (4 x 0.8) = 162.5 s: Theorem 2's
    # N = N_J = 2 case (mean response 1.625 T against 1.5 T serially).
    r = simulate(moldable((0, 8, 100), (0, 8, 100)), hosts=8, policy="prio",
                 params={"classes": M_CLASSES, "reshape": "LoadA"}, check=True)
    assert by_id(r, "procs") == {1: 4, 2: 4}
    assert by_id(r, "finish") == {1: pytest.approx(162.5), 2: pytest.approx(162.5)}
    serial = simulate(moldable((0, 8, 100), (0, 8, 100)), hosts=8, policy="prio",
                      params={"classes": M_CLASSES})
    assert by_id(serial, "finish") == {1: 100.0, 2: 200.0}


def test_a_job_long_in_its_class_is_reshaped_by_f_min():
    # One M job alone: needs 8, free 8, F_dyn = 1; but its 100 s exceed the "long" limit of 50 s
    # set for M, so F_min = 0.5 applies: 4 processors, 162.5 s.
    r = simulate(moldable((0, 8, 100)), hosts=8, policy="prio",
                 params={"classes": M_CLASSES, "reshape": {"preset": "LoadA", "long": {"M": 50}}})
    assert by_id(r, "procs") == {1: 4} and by_id(r, "finish") == {1: pytest.approx(162.5)}


@pytest.mark.parametrize("preset, size, finish", [("AllA", 1, 65.0), ("AllA_noB", 2, 50.0)])
def test_noB_keeps_the_asked_size_of_a_backfilled_job(preset, size, finish):
    # 8 hosts, FCFS with conservative backfilling, static F_A = 0.5 at start.
    # J1 rigid, 6 procs, 100 s: runs 0-100 (a rigid job keeps its size).
    # J2 moldable 8 procs -> 4: 2 processors free, reserved at 100.
    # J3 moldable 2 procs, 50 s, starts now in the hole: a backfill. AllA reshapes it to 1
    # processor: 50 x 2 x 0.65 / (1 x 1.0) = 65 s; AllA_noB keeps 2 processors, 50 s.
    descs = [Job(1, 0.0, 6, runtime=100.0).desc, MoldableJob.of(2, 0.0, 8, 100.0, model=E1),
             MoldableJob.of(3, 0.0, 2, 50.0, model=E1)]
    r = simulate(descs, hosts=8, policy="prio",
                 params={"priorities": False, "reshape": preset}, check=True)
    assert by_id(r, "start") == {1: 0.0, 2: 100.0, 3: 0.0}
    assert by_id(r, "procs") == {1: 6, 2: 4, 3: size}
    assert by_id(r, "finish")[3] == pytest.approx(finish)


def test_load_adaptive_reshaping_works_under_pect():
    # The two jobs of the first test under pect: one M slice (no L job), same outcome.
    r = simulate(moldable((0, 8, 100), (0, 8, 100)), hosts=8, policy="pect",
                 params={"classes": M_CLASSES, "overhead": 5, "reshape": "LoadA"}, check=True)
    assert by_id(r, "procs") == {1: 4, 2: 4}
    assert by_id(r, "finish") == {1: pytest.approx(162.5), 2: pytest.approx(162.5)}


def test_f_dyn_is_clamped_between_f_min_and_f_max():
    r = Reshaper(ReshapeSpec(min=0.5, max=1.0), 128)
    assert [r.factor(f, 128) for f in (16, 64, 96, 128, 256)] == [0.5, 0.5, 0.75, 1.0, 1.0]


def test_presets_name_the_variants_of_fig_6():
    assert set(PRESETS) == {"LoadA", "LoadA_noB", "AllA", "AllA_noB"}
    spec = reshape_spec("LoadA_noB")
    assert (spec.mode, spec.backfilled, spec.classes) == ("load", False, ("M", "L"))
    assert reshape_spec("AllA").classes == ("S", "M", "L")
    # the paper's F_min = 0.5 and F_max = 1.0 (section 3.4)
    assert (spec.min, spec.max) == (0.5, 1.0) and (reshape_spec("LoadA").min, reshape_spec("LoadA").max) == (0.5, 1.0)
    assert reshape_spec("AllA").factor == 0.5


@pytest.mark.parametrize("value, key", [
    ({"preset": "LoadA", "min": 0}, "reshape.min"),
    ({"preset": "LoadA", "min": 0.9, "max": 0.6}, "reshape.max"),
    ({"mode": "dynamic"}, "reshape.mode"),
    ({"preset": "LoadA", "long": {"X": 5}}, "reshape.long.X"),
    ({"preset": "LoadA", "classes": ["M", "XL"]}, "reshape.classes.1"),
    ({"preset": "LoadA", "speed": 2}, "reshape.speed"),
    ({"preset": "LoadC"}, "reshape.preset"),
    ("LoadC", "reshape"),
])
def test_bad_reshaping_options_name_the_key(value, key):
    with pytest.raises(SpecError) as err:
        reshape_spec(value)
    assert err.value.path == key
