import pytest

from cloudsim_py import Job, simulate
from tests.helpers import run, starts


def test_refuses_a_backfill_that_delays_a_later_reservation():
    # 6 hosts. J1 (4 procs, 10 s) runs 0-10. J2 (4 procs) is reserved 10-20, J3 (6 procs)
    # 20-30. J4 (2 procs, 30 s) arrives at 3: 2 processors are free now, and EASY would take
    # them (they are extra at J2's shadow time), but J4 would still hold them at 20 and delay
    # J3. Conservative gives J4 the earliest window that delays nobody: 30-60.
    specs = [(0, 4, 10), (1, 4, 10), (2, 6, 10), (3, 2, 30)]
    assert starts(run(specs, hosts=6, policy="conservative")) == {1: 0.0, 2: 10.0, 3: 20.0, 4: 30.0}
    # EASY on the same jobs: J4 backfilled at 3, J3 waits for it until 33.
    assert starts(run(specs, hosts=6, policy="easy")) == {1: 0.0, 2: 10.0, 3: 33.0, 4: 3.0}


def test_backfills_into_a_hole_that_delays_no_reservation():
    # 4 hosts. J1 (3 procs, 10 s) 0-10; J2 (4 procs) reserved 10-20; J3 (1 proc, est 5)
    # arrives at 2: the idle host is free until 10, so it runs 2-7.
    r = run([(0, 3, 10), (1, 4, 10), (2, 1, 5)], hosts=4, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 10.0, 3: 2.0}


def test_reservations_move_earlier_when_a_job_ends_before_its_estimate():
    # 4 hosts. J1 (4 procs, runs 5 s, est 20) 0-5. J2 (2 procs, est 10) reserved 20-30, J3
    # (2 procs, est 10) reserved 20-30 beside it. J1 ends at 5: compression moves both to 5.
    r = run([(0, 4, 5, 20), (1, 2, 10), (2, 2, 10)], hosts=4, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 5.0, 3: 5.0}


def test_compression_keeps_arrival_order_priority():
    # 4 hosts. J1 (4 procs, 5 s, est 20). J2 (4 procs, est 10) reserved 20-30. J3 (2 procs,
    # est 100) reserved 30-130. J1 ends at 5: J2 moves first, to 5-15; J3 then to 15.
    r = run([(0, 4, 5, 20), (1, 4, 10), (2, 2, 100)], hosts=4, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 5.0, 3: 15.0}


def test_a_job_moving_out_of_a_hole_lets_the_reservation_behind_it_move_up():
    # 6 hosts, all at 0 but J5: J1 (1 proc, runs 25, est 26), J2 (2, 17, est 17), J3 (4, 8,
    # est 10), J4 (5, 1, est 2); J5 (2, 1, est 1) at 17. Reservations: J3 17-27, J4 27-29,
    # J5 in the hole 26-27. J1 and J3 end early at 25. First pass: J4 cannot move (J5 holds 2
    # of 6 in 26-27), J5 moves to 25-26. Second pass: J4 moves into 26-28. (Found by the
    # property test, when compression was a single pass and J4 came due at 27 with no event.)
    r = run([(0, 1, 25, 26), (0, 2, 17, 17), (0, 4, 8, 10), (0, 5, 1, 2), (17, 2, 1, 1)],
            hosts=6, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 17.0, 4: 26.0, 5: 25.0}


def test_a_job_ending_a_hair_before_its_estimate_gives_back_exactly_its_booking():
    # 1 host. J1 (runs 0.001 s, est 0.01) is booked [0, 0.01) and ends at 0.001; its unused
    # booking [0.001, 0.01) goes back to the profile. 0.001 + (0.01 - 0.001) rounds to
    # 0.010000000000000002: a release by duration overshoots the booking. J2 (est 1), reserved
    # at 0.01, moves to 0.001.
    r = simulate([Job(1, 0.0, 1, runtime=0.001, runtime_estimate=0.01),
                  Job(2, 0.0, 1, runtime=1.0, runtime_estimate=1.0)],
                 hosts=1, policy="conservative", check=True)
    assert starts(r) == {1: 0.0, 2: 0.001}


def test_compression_repeats_until_no_reservation_moves():
    # 2 hosts. K (1 proc, 10 s) runs 0-10, R (1 proc, runs 2 s, est 20) 0-20 by its estimate.
    # A (2 procs, 5 s) arrives at 1: reserved 20-25. B (1 proc, 4 s): 10-14 beside K's end.
    # R ends at 2, freeing [2, 20) on one host. First pass, in arrival order: A fits no
    # earlier than 14 (B holds a host in 10-14), so 14-19; B moves to 2-6. B's old spot
    # 10-14 is now free on both hosts: a second pass moves A to 10-15. A third moves nothing.
    r = run([(0, 1, 10, 10), (0, 1, 2, 20), (1, 2, 5, 5), (1, 1, 4, 4)], hosts=2,
            policy="conservative")
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 10.0, 4: 2.0}


def test_a_job_overrunning_its_estimate_costs_no_event_per_second():
    # 1 host. J1 (est 1 s) runs 100,000 s. J2 is reserved at 1; at 1 the host is still busy:
    # J1's end is unknown, only later, so J2 waits for J1's finish without any wake-up in
    # between. Events: 2 arrivals, J2's wake-up at 1, 2 finishes.
    r = run([(0, 1, 100_000, 1), (0, 1, 1, 1)], hosts=1, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 100_000.0}
    assert r.sim.events_processed == 5


def test_an_overrunning_job_holds_back_only_the_reservations_needing_its_processors():
    # 2 hosts. J1 (1 proc, est 10) runs 0-100. J2 (2 procs, 5 s) is reserved at 10; at 10 J1
    # is still running, so J2 has no window until J1 ends, whenever that is. J3 (1 proc, 5 s)
    # arrives at 20 and takes the idle host at once, 20-25: it delays no reservation. J2 starts
    # when J1 ends, at 100.
    r = run([(0, 1, 100, 10), (0, 2, 5, 5), (20, 1, 5, 5)], hosts=2, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 100.0, 3: 20.0}


def test_a_job_whose_runtime_vanishes_on_the_clock_does_not_delay_the_next():
    # 1 host at t = 1e6, where 1e-12 s is below the clock's resolution: 1e6 + 1e-12 == 1e6.
    # J1 (runs 1e-12 s) starts and ends at 1e6; J2, queued behind it, starts at 1e6 too.
    t = 1e6
    assert t + 1e-12 == t
    r = simulate([Job(1, t, 1, runtime=1e-12, runtime_estimate=1e-12),
                  Job(2, t, 1, runtime=1.0, runtime_estimate=1.0)],
                 hosts=1, policy="conservative", check=True)
    assert starts(r) == {1: t, 2: t}


def test_slice_fidelity_does_not_swallow_a_reservation_wake_up():
    # 4 hosts, 2 tiers (only tier 0 used), factors redrawn every second. J1 (3 procs, est 10)
    # runs 0-20. J2 (4 procs, runs 0.25 s, est 0.5) is reserved at 10; at 10 J1 is still
    # running, so J2 waits for it; J3 (4 procs, 1 s) arrives at 15 and waits behind J2. J1 ends
    # at 20: J2 runs 20-20.25, J3 is reserved at 20.5 and moves to 20.25 when J2 ends early.
    # Slice ends cause no scheduling pass: a broker that counts on them to wake it up leaves
    # J3 queued for ever.
    r = run([(0, 3, 20, 10), (1, 4, 0.25, 0.5), (15, 4, 1, 1)], hosts=4, tiers=2,
            policy="conservative", fidelity="slice", slice_s=1.0)
    assert r.summary["jobs_unfinished"] == 0
    assert starts(r) == {1: 0.0, 2: 20.0, 3: 20.25}


def _assert_lazy_is_textbook(rng, runs: int, max_hosts: int, max_jobs: int, exact: int) -> None:
    """``runs`` seeded random workloads with long queues and loose estimates (``exact`` in
    ``exact + 2`` of the estimates draw no slack): the lazy compression's starts against the
    textbook compression's, which releases and books every reservation again
    (tests/brokers/test_properties.py)."""
    from tests.brokers.test_properties import FullCompression

    for _ in range(runs):
        hosts = rng.randint(2, max_hosts)
        jobs = []
        sub = 0.0
        for i in range(1, rng.randint(20, max_jobs)):
            sub += rng.choice([0.0, rng.uniform(0, 5), float(rng.randint(0, 8))])
            runtime = rng.choice([float(rng.randint(1, 40)), rng.uniform(0.5, 30)])
            est = runtime * rng.choice([1.0] * exact + [rng.uniform(1, 6), float(rng.randint(2, 10))])
            jobs.append((sub, rng.randint(1, hosts), runtime, est))

        def make():
            return [Job(i, s, p, runtime=rt, runtime_estimate=e)
                    for i, (s, p, rt, e) in enumerate(jobs, 1)]

        fast = simulate(make(), hosts=hosts, policy="conservative", check=True)
        full = simulate(make(), hosts=hosts, policy=FullCompression(), check=True)
        assert fast.records["start"].tolist() == full.records["start"].tolist()


def test_lazy_compression_matches_full_compression_on_long_loose_queues():
    """Seeded random workloads with long queues and loose estimates (many early finishes, many
    moves, several passes per compression): the schedule of the lazy compression, which passes
    over a job when no point gained since it last looked has room for it (the most processors
    free over each gain's interval) and moves a booking by changing only the parts of the old
    and new places that do not overlap, is the textbook compression's."""
    import random

    _assert_lazy_is_textbook(random.Random(1919), runs=40, max_hosts=16, max_jobs=90, exact=2)


@pytest.mark.parametrize("kept", [1, 7])
def test_the_gain_log_kept_between_compressions_changes_no_schedule(monkeypatch, kept):
    """The log of gains is kept after a compression (every job has seen it) and starts afresh
    only once it holds ``_LOG_KEPT`` gains: whether it starts afresh after every compression
    (1) or every few, the next compressions read only the gains logged after it, so the
    schedule is the textbook compression's."""
    import random

    from cloudsim_py.brokers import conservative

    monkeypatch.setattr(conservative, "_LOG_KEPT", kept)
    _assert_lazy_is_textbook(random.Random(kept), runs=15, max_hosts=12, max_jobs=70, exact=1)
