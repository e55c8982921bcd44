from tests.helpers import run, starts


def test_backfills_a_short_job_that_ends_before_the_shadow_time():
    # 4 hosts. J1 (2 procs, est 10) runs 0-10. Head J2 needs 4: shadow time 10, extra 0.
    # J3 (1 proc, est 1) arrives at 1: 1 + 1 <= 10, so it is backfilled at 1.
    r = run([(0, 2, 10), (0, 4, 10), (1, 1, 1)], hosts=4, policy="easy")
    assert starts(r) == {1: 0.0, 2: 10.0, 3: 1.0}


def test_refuses_a_job_that_would_delay_the_head():
    # Same, but J3's estimate is 20 (it would end at 21 > shadow 10) and there are no extra
    # processors at the shadow time (4 free, J2 takes 4): J3 waits until J2 ends at 20.
    r = run([(0, 2, 10), (0, 4, 10), (1, 1, 1, 20)], hosts=4, policy="easy")
    assert starts(r) == {1: 0.0, 2: 10.0, 3: 20.0}


def test_backfills_a_long_job_on_the_extra_processors():
    # J2 needs only 3 of the 4 processors free at its shadow time 10: 1 extra processor.
    # J3 (1 proc, est 100) ends long after 10 but fits the extra one: backfilled at 1;
    # J2 still starts at 10.
    r = run([(0, 2, 10), (0, 3, 10), (1, 1, 100)], hosts=4, policy="easy")
    assert starts(r) == {1: 0.0, 2: 10.0, 3: 1.0}


def test_extra_processors_count_every_job_ending_at_the_shadow_time():
    # 4 hosts: J1, J2 (1 proc, est 10) and J3 (1 proc, est 50) run from 0; 1 host idle.
    # Head J4 (2 procs) arrives at 1: 1 free, J1 ends at 10 -> 2 free: shadow time 10. J2
    # also ends at 10, so 3 are free then and 1 is extra. J5 (1 proc, est 100, arriving at
    # 1 behind J4) takes the extra processor at once; J4 still starts at 10.
    # (Stopping at the first job that ends at 10 would leave 0 extra and hold J5 back.)
    r = run([(0, 1, 10), (0, 1, 10), (0, 1, 50), (1, 2, 5), (1, 1, 100)], hosts=4, policy="easy")
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 0.0, 4: 10.0, 5: 1.0}
