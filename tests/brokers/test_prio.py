"""``prio`` (Prio10, Sodan 2009 section 3.1): priorities by runtime class, aging after waiting
10 x the runtime, conservative backfilling; ``priorities: false`` is FCFS with conservative
backfilling."""

import numpy as np
import pytest

from cloudsim_py import simulate
from cloudsim_py.brokers import PrioBroker
from cloudsim_py.errors import PolicySpecError
from cloudsim_py.workload import models
from cloudsim_py.workload.table import prepare
from tests.helpers import jobs, run, starts

# Classes S <= 1 s, M <= 50 s, L above. 2 hosts.
#   J1 (t=0, 1 proc, 590 s, L) and J2 (t=0, 1 proc, 630 s, L) start at 0.
#   J3 (t=0, 1 proc, 60 s, L) waits: level 2, one level up after 10 x 60 = 600 s of waiting.
#   J4 (t=150, 2 procs, 50 s, M): level 1 (up at 150 + 500 = 650); reserved at 630 (J2's end).
# t=590, J1 ends: J3 (level 2) is planned after J4: [590, 650) would overlap J4 at 630, so J3
#   is reserved at 680 and nothing starts.
# t=600, no event but the broker's aging wake-up: J3 is level 1 like J4 and arrived first, so it
#   is planned first: host 0 is free, it starts at 600 (ends 660); J4 moves to 660.
SPECS = [(0, 1, 590), (0, 1, 630), (0, 1, 60), (150, 2, 50)]
CLASSES = {"S": 1, "M": 50}


def test_prio10_ages_a_waiting_job_at_10_times_its_runtime_and_starts_it_then():
    r = run(SPECS, hosts=2, policy="prio", params={"classes": CLASSES})
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 600.0, 4: 660.0}


def test_without_aging_the_short_class_keeps_its_priority():
    # J4 (M) goes first at 630; J3 (L) after it, at 680.
    r = run(SPECS, hosts=2, policy="prio", params={"classes": CLASSES, "aging": 0})
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 680.0, 4: 630.0}


def test_without_priorities_it_is_fcfs_with_conservative_backfilling():
    # Arrival order: J3 reserved at 590 (J1's end) to 650; J4 needs both hosts: 650.
    r = run(SPECS, hosts=2, policy="prio", params={"classes": CLASSES, "priorities": False})
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 590.0, 4: 650.0}


def test_the_broker_wakes_itself_for_aging_instead_of_polling():
    # Wake-ups asked for: J3's aging at 600 (asked at t=0; J4's at 650 comes later), then J4's
    # at 650 (asked at 600). 4 arrivals + 4 finishes + 2 timers = 10 events; without aging 8.
    r = run(SPECS, hosts=2, policy="prio", params={"classes": CLASSES})
    assert r.summary["events"] == 10
    r = run(SPECS, hosts=2, policy="prio", params={"classes": CLASSES, "aging": 0})
    assert r.summary["events"] == 8


def test_shorter_classes_go_first_and_backfill_conservatively():
    # Default classes (S <= 600 s, M <= 3 h). 4 hosts. J1 (4 procs, 100 s) runs 0-100.
    # J2 (t=1, 4 procs, L: 20000 s), J3 (t=2, 2 procs, M: 1000 s), J4 (t=3, 4 procs, S: 60 s).
    # Order at 100: J4 (S), J3 (M), J2 (L): J4 100-160, J3 160-1160, J2 1160.
    r = run([(0, 4, 100), (1, 4, 20000), (2, 2, 1000), (3, 4, 60)], hosts=4, policy="prio")
    assert starts(r) == {1: 0.0, 2: 1160.0, 3: 160.0, 4: 100.0}


def test_fcfs_mode_gives_the_conservative_brokers_schedule_with_exact_estimates():
    # Lublin-Feitelson, 600 jobs on 64 processors: planning from scratch at every pass and
    # persistent reservations agree when estimates are exact.
    table = models.generate_from_spec({"name": "lublin03", "jobs": 600, "procs": 64, "load": 0.8},
                                      np.random.default_rng(3))
    table = prepare(table, 64, "actual", False, rng=np.random.default_rng(0))
    a = simulate(table, hosts=64, policy="conservative")
    b = simulate(table, hosts=64, policy="prio", params={"priorities": False}, check=True)
    assert np.array_equal(a.records["start"], b.records["start"])


def test_the_defaults_are_the_papers():
    # Prio10: aging after 10 x the runtime; classes S <= 10 min, M <= 3 h; no reshaping.
    o = PrioBroker().options
    assert (o.aging, o.priorities, o.reshape) == (10.0, True, None)
    assert (o.classes.short, o.classes.medium) == (600.0, 10800.0)


def test_prio10_with_the_default_classes_and_aging():
    # 1 host. J1 (t=0, 8000 s: M) runs 0-8000. J2 (t=0, 700 s: M) and J3 (t=100, 60 s: S) wait.
    # J2 has waited 10 x 700 = 7000 s at t=7000: it rises to S's level and, having arrived
    # first, goes before J3 at 8000: J2 8000-8700, J3 8700. Without aging J3 (S) goes first:
    # J3 8000-8060, J2 8060.
    specs = [(0, 1, 8000), (0, 1, 700), (100, 1, 60)]
    assert starts(run(specs, hosts=1, policy="prio")) == {1: 0.0, 2: 8000.0, 3: 8700.0}
    assert starts(run(specs, hosts=1, policy="prio", params={"aging": 0})) == {1: 0.0, 2: 8060.0, 3: 8000.0}


@pytest.mark.parametrize("params, key", [
    ({"aging": -1}, "aging"),
    ({"classes": {"S": 600, "M": 60}}, "classes.M"),
    ({"reshape": {"preset": "LoadA", "min": 0.8, "max": 0.5}}, "reshape.max"),
    ({"reshape": "LoadB"}, "reshape"),
])
def test_bad_prio_parameters_name_the_key(params, key):
    with pytest.raises(PolicySpecError, match=key.replace(".", r"\.")):
        simulate(jobs((0, 1, 1)), hosts=1, policy="prio", params=params)


def test_prio_is_registered():
    from cloudsim_py.brokers import broker_registry

    assert broker_registry.get("prio") is PrioBroker
