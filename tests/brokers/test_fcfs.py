from tests.helpers import run, starts


def test_the_head_job_blocks_everything_behind_it():
    # 4 hosts. J1 (2 procs, 10 s) starts at 0. J2 needs all 4: waits for J1, starts at 10.
    # J3 (1 proc) could use the 2 idle hosts at t=1 but FCFS keeps it behind J2: starts at 20.
    r = run([(0, 2, 10), (0, 4, 10), (1, 1, 1)], hosts=4, policy="fcfs")
    assert starts(r) == {1: 0.0, 2: 10.0, 3: 20.0}


def test_jobs_that_fit_start_in_submit_order_at_once():
    r = run([(0, 1, 5), (0, 1, 5), (0, 2, 5)], hosts=4, policy="fcfs")
    assert starts(r) == {1: 0.0, 2: 0.0, 3: 0.0}


def test_a_finish_and_an_arrival_at_the_same_time_are_seen_together():
    # J1 holds the machine until 10; J2 arrives exactly at 10 and starts at once, because
    # finishes are applied before arrivals and one scheduling pass follows both.
    r = run([(0, 4, 10), (10, 4, 5)], hosts=4, policy="fcfs")
    assert starts(r) == {1: 0.0, 2: 10.0}


def test_a_job_larger_than_the_machine_is_rejected_not_lost():
    r = run([(0, 5, 10), (0, 2, 10)], hosts=4, policy="fcfs")
    assert r.summary["jobs_rejected"] == 1 and r.summary["jobs_finished"] == 1
    assert r.rejected[0].id == 1 and r.datacenter.rejected == 1


def test_a_pass_takes_only_the_head_jobs_that_fit_from_a_long_queue():
    # 4 hosts, J1 holds 3 until 10; 200 jobs of 2 procs queue behind it. Each pass starts the
    # head while it fits: two at a time from 10 on, every 5 s (the queue's front, in O(1) each).
    jobs = [(0, 3, 10)] + [(1, 2, 5)] * 200
    r = run(jobs, hosts=4, policy="fcfs")
    expected = {1: 0.0, **{i: 10.0 + 5.0 * ((i - 2) // 2) for i in range(2, 202)}}
    assert starts(r) == expected
    assert len(r.broker.queue) == 0 and type(r.broker.queue).__name__ == "FrontQueue"
