"""``pect`` (Scojo-PECT, Sodan 2009 sections 3.1-3.2): one slice per runtime class per interval,
preemption to swap at slice ends, resumption in place with an overhead, FCFS + conservative
backfilling per class, safe non-type slice backfilling under both readings (``preempt``, the
default: a backfill runs until the slice end and goes on in its own class's slices; ``finish``:
it must end within the slice)."""

import pytest

from cloudsim_py import simulate
from cloudsim_py.brokers import PectBroker
from cloudsim_py.errors import PolicySpecError
from tests.helpers import finishes, jobs, starts

# Interval 100 s, shares M 30 % / L 70 %, 5 s overhead per switch, S <= 15 s, M <= 50 s.
PARAMS = {"interval": 100.0, "shares": {"M": 0.3, "L": 0.7}, "overhead": 5.0,
          "classes": {"S": 15, "M": 50}}


def pect(specs, hosts, **extra):
    broker = PectBroker(**{**PARAMS, **extra}, record_slices=True)
    return simulate(jobs(*specs), hosts=hosts, policy=broker, check=True)


def test_an_interval_with_slice_switches_and_a_non_type_backfill_that_must_finish():
    # slice_backfill: finish. 4 hosts. J1 (t=0, 4 procs, 200 s: L), J2 (t=0, 2 procs, 40 s: M), J3 (t=5, 1 proc, 8 s: S),
    # J4 (t=20, 1 proc, 12 s: S).
    # Interval 1 at 0 (no S job waits: no S slice): M 0-30, L 30-100.
    #   0: J2 starts (its class's slice). J1 needs 4 processors: 2 are free, it waits.
    #   5: J3 (S) is backfilled into the M slice: 1 processor is free and 5 + 8 = 13 <= 30.
    #  20: J4 (S) is not: 20 + 12 = 32 > 30, it would outlive the slice.
    #  30: L slice: J2 is preempted with 40 - 30 = 10 s left; J1 starts on the 4 free hosts.
    # Interval 2 at 100: J4 waits, so an S slice as long as it needs, min(15, 12) = 12 s;
    #   M and L share the other 88 s: M 26.4 s, L 61.6 s.
    # 100-112 S: J1 preempted (130 s left); J4 runs 100-112.
    # 112-138.4 M: J2 resumes in place, progresses after the 5 s overhead: 117 + 10 = 127.
    # 138.4-200 L: J1 resumes, progresses from 143.4, 130 s left: it would end at 273.4.
    # Interval 3 at 200: no M job left, so the L slice takes the whole interval and J1, already
    #   running in its own layer, is not preempted: it ends at 273.4. At 300 the broker has no
    #   job and stops asking for wake-ups.
    r = pect([(0, 4, 200), (0, 2, 40), (5, 1, 8), (20, 1, 12)], hosts=4, slice_backfill="finish")
    assert starts(r) == {1: 30.0, 2: 0.0, 3: 5.0, 4: 100.0}
    f = finishes(r)
    assert f[1] == pytest.approx(273.4) and f[2] == pytest.approx(127.0)
    assert (f[3], f[4]) == (13.0, 112.0)
    rec = r.records.by_id()
    assert [rec[i]["suspensions"] for i in (1, 2, 3, 4)] == [1, 1, 0, 0]
    assert r.datacenter.context_switches == 2 and r.datacenter.migrations == 0
    slices = [(round(a, 6), c, round(b, 6)) for a, c, b in r.broker.slices]
    assert slices == [(0.0, "M", 30.0), (30.0, "L", 100.0), (100.0, "S", 112.0),
                      (112.0, "M", 138.4), (138.4, "L", 200.0), (200.0, "L", 300.0)]


def test_preempted_jobs_resume_on_the_same_hosts():
    r = simulate(jobs((0, 4, 200), (0, 2, 40), (5, 1, 8), (20, 1, 12)), hosts=4,
                 policy=PectBroker(**PARAMS), record=True)
    log = r.datacenter.log
    for job in (1, 2):
        placed = [hosts for _, action, j, _, hosts in log if j == job and action in ("start", "resume")]
        assert len(placed) == 2 and placed[0] == placed[1]


def test_non_type_backfilling_never_delays_a_reservation_of_the_slice_class():
    # Only M jobs and S jobs: the M slice takes the whole interval (0-100). 4 hosts.
    # Ja (t=0, 2 procs, 20 s, M) runs 0-20; Jb (t=0, 4 procs, 25 s, M) is reserved at 20-45.
    # At 10, Jc (1 proc, 15 s, S) would fit now and end by the slice end (25 <= 100), but it
    # would hold a processor at 20 and delay Jb: refused. Jd (1 proc, 8 s) ends at 18: taken.
    # Jc starts when Jb ends, at 45 (45 + 15 <= 100).
    r = pect([(0, 2, 20), (0, 4, 25), (10, 1, 15), (10, 1, 8)], hosts=4)
    assert starts(r) == {1: 0.0, 2: 20.0, 3: 45.0, 4: 10.0}
    assert [s[1] for s in r.broker.slices] == ["M"]


def test_without_skip_empty_every_class_gets_its_slice():
    # skip_empty false: the L slice (30-100) is kept though no L job exists. The M job of 40 s
    # is preempted at 30 with 10 s left, and at once backfilled into the L slice as a preempted
    # non-type job: 10 s + 5 s overhead end by 100. It resumes in place and ends at 45.
    r = pect([(0, 2, 40)], hosts=4, skip_empty=False)
    assert [(a, c, b) for a, c, b in r.broker.slices[:2]] == [(0.0, "M", 30.0), (30.0, "L", 100.0)]
    assert finishes(r) == {1: 45.0}
    assert r.records.by_id()[1]["suspensions"] == 1 and r.datacenter.context_switches == 1
    # with skip_empty (the default) the M slice takes the interval: no preemption at all
    r = pect([(0, 2, 40)], hosts=4)
    assert finishes(r) == {1: 40.0} and r.datacenter.suspensions == 0


def test_the_broker_asks_no_wake_up_when_it_has_no_job():
    # One S job of 10 s at t=0: interval at 0 with an S slice of 10 s, then the M and L slices
    # (skip_empty keeps both when neither has a job: 27 s, 63 s). After the interval the
    # broker stops; a job at t=1000 starts a new interval at 1000.
    r = pect([(0, 1, 10), (1000, 1, 10)], hosts=2)
    assert starts(r) == {1: 0.0, 2: 1000.0}
    assert r.broker.slices[3][0] == 1000.0 and len(r.broker.slices) == 6


def test_the_defaults_are_the_papers():
    # Sodan 2009 section 3.1: 1 h interval, M 30 % / L 70 %, 60 s per slice switch, the S slice
    # at most the S limit (10 min), classes S <= 10 min, M <= 3 h.
    o = PectBroker().options
    assert (o.interval, o.shares, o.overhead, o.skip_empty) == (3600.0, (0.3, 0.7), 60.0, True)
    assert (o.classes.short, o.classes.medium) == (600.0, 10800.0)
    assert PectBroker().s_max == 600.0 and o.reshape is None


def test_hours_of_slices_with_the_papers_defaults_and_backfills_that_must_finish():
    # 1 host, default parameters but slice_backfill: finish. J1 (t=0, 4 h: L), J2 (t=0, 1 h: M), J3 (t=2000, 300 s: S).
    # Interval 1 at 0, no S job: M 0-1080 (30 % of 3600), L 1080-3600.
    #   J2 runs 0-1080 (2520 s left); J1 starts fresh at 1080 (no overhead), 2520 s done,
    #   11880 left. J3 arrives at 2000: the host is taken, it waits.
    # Interval 2 at 3600: J3 waits, so an S slice of its 300 s: 3600-3900 (J1 preempted);
    #   M and L share 3300 s: M 3900-4890 (990 s), L 4890-7200.
    #   J2 resumes at 3900, progresses from 3960: 930 s done, 1590 left.
    #   J1 resumes at 4890, progresses from 4950: 2250 s done, 9630 left.
    # Interval 3 at 7200: M 7200-8280: J2 progresses 7260-8280, 570 left; L 8280-10800: J1
    #   progresses 8340-10800, 7170 left.
    # Interval 4 at 10800: M 10800-11880: J2 ends at 10860 + 570 = 11430; J1 (7170 s + 60 s)
    #   cannot end by 11880, so it is not backfilled; L 11880-14400: J1 progresses from 11940,
    #   4710 left.
    # Interval 5 at 14400: no M job: L alone, J1 is not preempted and ends at 19110.
    # Resumes (context switches): J2 at 3900, 7200, 10800; J1 at 4890, 8280, 11880: 6.
    r = simulate(jobs((0, 1, 14400), (0, 1, 3600), (2000, 1, 300)), hosts=1,
                 policy=PectBroker(record_slices=True, slice_backfill="finish"), check=True)
    assert starts(r) == {1: 1080.0, 2: 0.0, 3: 3600.0}
    assert finishes(r) == {1: pytest.approx(19110.0), 2: pytest.approx(11430.0), 3: 3900.0}
    rec = r.records.by_id()
    assert [rec[i]["suspensions"] for i in (1, 2, 3)] == [3, 3, 0]
    assert r.datacenter.context_switches == 6
    slices = [(round(a, 6), c, round(b, 6)) for a, c, b in r.broker.slices]
    assert slices[:8] == [(0.0, "M", 1080.0), (1080.0, "L", 3600.0), (3600.0, "S", 3900.0),
                          (3900.0, "M", 4890.0), (4890.0, "L", 7200.0), (7200.0, "M", 8280.0),
                          (8280.0, "L", 10800.0), (10800.0, "M", 11880.0)]
    assert slices[8:] == [(11880.0, "L", 14400.0), (14400.0, "L", 18000.0), (18000.0, "L", 21600.0)]


@pytest.mark.parametrize("params, key", [
    ({"shares": {"M": 0.5, "L": 0.6}}, r"shares: the shares sum to 110 %, above 100 %"),
    ({"shares": {"M": -0.1}}, r"shares\.M: must be a share in \[0, 1\]"),
    ({"shares": {"S": 0.1}}, r"shares\.S: unknown key"),
    ({"classes": {"S": 900, "M": 600}}, r"classes\.M: must be above the S limit"),
    ({"interval": 0}, r"interval: must be > 0"),
    ({"overhead": -60}, r"overhead: must be >= 0"),
    # S slice at most 40 s, M slice 0.3 x (200 - 40) = 48 s: an overhead of 40 s or more is refused
    ({"interval": 200, "overhead": 40, "classes": {"S": 40, "M": 100}},
     r"overhead: must be shorter than every slice \(the shortest can be 40 s\), got 40"),
    ({"reshape": {"preset": "LoadA", "factor": 0}}, r"reshape\.factor: must be a finite number > 0"),
])
def test_bad_pect_parameters_name_the_key(params, key):
    with pytest.raises(PolicySpecError, match=key):
        simulate(jobs((0, 1, 1)), hosts=1, policy="pect", params=params)


def test_a_resumed_job_past_its_estimate_keeps_its_processors_in_the_plan():
    # 6 hosts, S <= 5 s, no overhead. J1 (1 proc, runs 2 s, estimate 1) and J2 (6 procs, 1 s)
    # arrive at 0: the S slice is J1's estimate, [0, 1); J2 is reserved at 1. At 1 J1 is
    # preempted for the M slice and at once backfilled into it (an S job is non-type there),
    # with nothing left by its estimate: it is taken to end 1 s from now (as the plan assumes
    # for any overrunning job), so J2 cannot start at 1 beside it. J1 ends at 2, J2 runs 2-3.
    # (Booked for no time at all, J1's processor was offered to J2: a CapacityError.)
    r = pect([(0, 1, 2, 1), (0, 6, 1, 1)], hosts=6, overhead=0.0, classes={"S": 5, "M": 20},
             interval=40.0, skip_empty=False)
    assert starts(r) == {1: 0.0, 2: 2.0} and finishes(r) == {1: 2.0, 2: 3.0}
    assert r.records.by_id()[1]["suspensions"] == 1


# -- slice_backfill: preempt (the default): "valid until the end of the slice" -----------------

def test_a_non_type_backfill_runs_until_the_slice_end_and_goes_on_in_its_own_slice():
    # The jobs of the first test, default slice_backfill (preempt). 4 hosts.
    # Interval 1 at 0 (no S job waits): M 0-30, L 30-100.
    #   0: J2 (M) starts on hosts 0-1. J1 (L, 4 procs) finds 2 hosts: it is reserved in L.
    #   5: J3 (S, 8 s) ends within the slice: backfilled on host 2, ends at 13.
    #  20: J4 (S, 12 s) would outlive the slice (20 + 12 > 30); it is backfilled anyway: it
    #      delays no M reservation until 30 and no S job; it runs 20-30 on host 2 (10 s done).
    #  30: L slice: J2 (10 s left) and J4 (2 s left) are preempted; J1 starts on hosts 0-3.
    # Interval 2 at 100: J4 is preempted, so an S slice of its 2 s + 5 s overhead: 100-107;
    #   M and L share 93 s: M 107-134.9, L 134.9-200.
    # 100 S slice: J1 preempted (130 s left); J4 resumes on host 2, progresses from 105, ends at
    #      107. J2 (M) is backfilled into the S slice until its end: it resumes on hosts 0-1,
    #      progresses 105-107 (8 s left).
    # 107 M slice: J2, of the new slice's layer and running, is not preempted: it ends at 115.
    # 115: J1 (L) is backfilled into the rest of the M slice (19.9 s > the 5 s overhead):
    #      it resumes, progresses from 120, and the L slice at 134.9 keeps it running: 250.
    # Interval 3 at 200: L alone, J1 goes on.
    r = pect([(0, 4, 200), (0, 2, 40), (5, 1, 8), (20, 1, 12)], hosts=4)
    assert starts(r) == {1: 30.0, 2: 0.0, 3: 5.0, 4: 20.0}
    f = finishes(r)
    assert (f[1], f[2], f[3], f[4]) == (pytest.approx(250.0), pytest.approx(115.0), 13.0, pytest.approx(107.0))
    rec = r.records.by_id()
    assert [rec[i]["suspensions"] for i in (1, 2, 3, 4)] == [1, 1, 0, 1]
    assert r.datacenter.context_switches == 3
    slices = [(round(a, 6), c, round(b, 6)) for a, c, b in r.broker.slices]
    assert slices == [(0.0, "M", 30.0), (30.0, "L", 100.0), (100.0, "S", 107.0),
                      (107.0, "M", 134.9), (134.9, "L", 200.0), (200.0, "L", 300.0)]


def test_hours_of_slices_with_the_papers_defaults():
    # The jobs of the hours test above, default slice_backfill (preempt); the same until 10800.
    # Interval 4 at 10800: M 10800-11880: J2 ends at 11430. J1 (7170 s left) is backfilled
    #   into the 450 s left of the M slice: it resumes at 11430 and progresses 11490-11880
    #   (6780 left); at the L slice it is of the new slice's layer and keeps running: no
    #   switch, no overhead; it ends at 11490 + 7170 = 18660.
    r = simulate(jobs((0, 1, 14400), (0, 1, 3600), (2000, 1, 300)), hosts=1,
                 policy=PectBroker(record_slices=True), check=True)
    assert starts(r) == {1: 1080.0, 2: 0.0, 3: 3600.0}
    assert finishes(r) == {1: pytest.approx(18660.0), 2: pytest.approx(11430.0), 3: 3900.0}
    rec = r.records.by_id()
    assert [rec[i]["suspensions"] for i in (1, 2, 3)] == [3, 3, 0]
    assert r.datacenter.context_switches == 6


def test_a_non_type_backfill_never_delays_a_reservation_of_its_own_class():
    # 4 hosts. Ma (t=0, 1 proc, 40 s: M), La (t=0, 4 procs, 100 s: L), Lb (t=0, 1 proc, 150 s: L).
    # 0 M slice (0-30): Ma runs on host 0. La needs 4 hosts: reserved in the L layer at once
    #   (the layer is empty). Lb would fit in the M slice on the 3 free hosts, but in the L
    #   layer it would hold a processor La needs: refused (with ``finish`` it would be too long).
    # 30 L slice: Ma preempted (10 s left); La starts on hosts 0-3 (70 s done by 100).
    # Interval 2 at 100: M 100-130, L 130-200. Ma resumes, progresses from 105, ends at 115;
    #   Lb still cannot start: La holds the L layer until 130 in layer time.
    # 115: La is backfilled into the M slice (resumes, progresses 120-150); kept at 130; ends 150.
    # 150: Lb starts (L slice), runs 150-200, goes on alone in interval 3, ends at 300.
    r = pect([(0, 1, 40), (0, 4, 100), (0, 1, 150)], hosts=4)
    assert starts(r) == {1: 0.0, 2: 30.0, 3: 150.0}
    assert finishes(r) == {1: 115.0, 2: 150.0, 3: 300.0}


def test_a_non_type_backfill_takes_hosts_its_own_layer_does_not_hold():
    # 4 hosts. Ma (t=0, 1 proc, 45 s: M), La (t=0, 2 procs, 300 s: L), Mb (t=90, 4 procs, 26 s: M),
    # Lb (t=101, 2 procs, 100 s: L).
    #  0 M slice (0-30): Ma on host 0; La is backfilled on hosts 1-2 (the L layer is empty).
    # 30 L slice: La keeps running; Ma (15 s left) is backfilled into it: ends at 50.
    # 90: Mb needs 4 hosts: waits (reserved in the M layer).
    # Interval 2 at 100: M 100-130, L 130-200. La preempted (200 s left); Mb runs 100-126.
    # 101: Lb arrives, no host is free.
    # 126: 4 s are left in the slice, less than the 5 s overhead: La is not resumed. Lb is
    #   backfilled, on hosts 0 and 3: hosts 1-2 are free but La, preempted, holds them in the
    #   L layer (the first idle hosts, 0-1, would collide with La in the L slice).
    # 130 L slice: Lb keeps running (ends 226); La resumes on hosts 1-2, from 135: ends 335.
    r = simulate(jobs((0, 1, 45), (0, 2, 300), (90, 4, 26), (101, 2, 100)), hosts=4,
                 policy=PectBroker(**PARAMS), record=True, check=True)
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 100.0, 4: 126.0}
    assert finishes(r) == {1: 50.0, 2: pytest.approx(335.0), 3: 126.0, 4: pytest.approx(226.0)}
    placed = {(j, action): list(hosts) for _, action, j, _, hosts in r.datacenter.log
              if action in ("start", "resume")}
    assert sorted(placed[(4, "start")]) == [0, 3]
    assert sorted(placed[(2, "start")]) == sorted(placed[(2, "resume")]) == [1, 2]


def test_slice_backfill_is_one_of_the_two_readings():
    assert PectBroker().options.slice_backfill == "preempt"
    with pytest.raises(PolicySpecError, match=r"slice_backfill: unknown value 'carry'"):
        simulate(jobs((0, 1, 1)), hosts=1, policy="pect", params={"slice_backfill": "carry"})
