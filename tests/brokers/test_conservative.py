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


def test_a_reservation_that_comes_due_when_nothing_happens_still_starts():
    # 6 hosts, all at 0 but J5: J1 (1 proc, runs 25, est 26), J2 (2, 17, est 17), J3 (4, 8,
    # est 10), J4 (5, 1, est 2); J5 (2, 1, est 1) at 17. Reservations: J3 17-27, J4 27-29,
    # J5 in the hole 26-27. J1 and J3 end early at 25: J4 still cannot move (J5 holds 2 of 6 in
    # 26-27), J5 moves to 25 and ends at 26. Nothing happens at 27, where J4's reservation
    # comes due: the broker asks to be woken then. (Found by the property test below.)
    r = run([(0, 1, 25, 26), (0, 2, 17, 17), (0, 4, 8, 10), (0, 5, 1, 2), (17, 2, 1, 1)],
            hosts=6, policy="conservative")
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 17.0, 4: 27.0, 5: 25.0}
