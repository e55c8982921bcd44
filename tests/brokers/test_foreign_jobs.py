"""EASY and conservative backfilling keep working when someone else starts jobs (a program
stepping the simulation, another broker): they hear every start and finish as listeners."""

from __future__ import annotations

import pytest

from cloudsim_py import DatacenterSpec, Job, build


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_a_job_started_by_a_program_is_known_to_the_backfilling_policy(policy):
    # 4 hosts. At t=0 the program itself starts job 1 (3 processes, estimate = runtime = 100).
    # Job 2 (4 processes, 10 s) arrives at 1 and must wait for job 1: its reservation is 100.
    # Job 3 (1 process, 150 s) arrives at 2: on the free host it would end at 152 and delay
    # job 2, so neither policy backfills it; it starts when job 2 ends, at 110. A policy that
    # did not know of job 1 would see no reservation for job 2 and backfill job 3 at 2.
    jobs = [Job(2, 1.0, 4, runtime=10.0), Job(3, 2.0, 1, runtime=150.0)]
    world = build(jobs, datacenter=DatacenterSpec(hosts=4, check=True), broker=policy)
    dc, broker = world.datacenter, world.broker
    first = Job(1, 0.0, 3, runtime=100.0)
    dc.submit(first)
    broker.queue.remove(first)          # the program takes it over
    dc.start(first)
    world.run()
    rows = world.log.records().by_id()
    starts = {i: r["start"] for i, r in rows.items()}
    assert starts == {1: 0.0, 2: 100.0, 3: 110.0}


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_finishes_of_jobs_the_policy_never_saw_start_are_ignored(policy):
    # a job submitted to the datacenter and started by the program before the broker's pass:
    # the broker hears its start and its finish without error, and schedules the rest
    jobs = [Job(2, 5.0, 2, runtime=5.0)]
    world = build(jobs, datacenter=DatacenterSpec(hosts=2, check=True), broker=policy)
    dc = world.datacenter
    own = Job(1, 0.0, 2, runtime=5.0)
    dc.submit(own)
    world.broker.queue.remove(own)      # the program takes it over
    dc.start(own)
    world.run()
    assert {i: (r["start"], r["finish"]) for i, r in world.log.records().by_id().items()} == {
        1: (0.0, 5.0), 2: (5.0, 10.0)}


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_a_job_killed_by_a_program_frees_its_processors_for_the_reservation(policy):
    # 2 hosts. The program starts job 1 (2 processes, 100 s) at 0; job 2 (2 processes, 10 s)
    # arrives at 1 and is reserved at 100. At 5 the program kills job 1 (and resubmits
    # nothing): the policy must forget job 1's booking and start job 2 at once, at 5 (ends 15).
    jobs = [Job(2, 1.0, 2, runtime=10.0)]
    world = build(jobs, datacenter=DatacenterSpec(hosts=2, check=True), broker=policy)
    dc, broker = world.datacenter, world.broker
    first = Job(1, 0.0, 2, runtime=100.0)
    dc.submit(first)
    broker.queue.remove(first)
    dc.start(first)
    world.run(until=5.0)
    dc.kill(first)
    world.run()
    assert {i: (r["start"], r["finish"]) for i, r in world.log.records().by_id().items()} == {2: (5.0, 15.0)}
