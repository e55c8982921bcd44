import pytest

from cloudsim_py import Broker, Datacenter, Job, JobState, Simulation
from cloudsim_py.errors import CapacityError, JobStateError, PolicyError
from cloudsim_py.execution.interference import InterferenceModel

# fixed factors: fg loss 2 %, background eff 0.5 for multi-process jobs, 0.9 for single ones
FIXED = InterferenceModel("fixed", loss_low=0.02, loss_high=0.02, single_low=0.9, single_high=0.9,
                          multi_mean=0.5, multi_low=0.5, multi_high=0.5)


class Idle(Broker):
    """A broker that does nothing by itself: tests drive the datacenter directly."""

    def schedule(self, now):
        pass


def world(hosts=4, tiers=1, **kw):
    sim = Simulation(seed=3)
    dc = Datacenter(sim, hosts=hosts, tiers=tiers, interference=FIXED if tiers > 1 else None, check=True, **kw)
    dc.attach(Idle())
    return sim, dc


def submitted(dc, job):
    dc.submit(job)
    return job


def test_start_raises_when_too_few_slots_are_idle():
    sim, dc = world(hosts=4)
    submitted(dc, Job(1, 0, 3, runtime=10))
    dc.start(dc.broker.queue[0])
    big = submitted(dc, Job(2, 0, 2, runtime=10))
    with pytest.raises(CapacityError, match="job 2 needs 2 slots in tier 0, 1 available"):
        dc.start(big)
    assert big.state is JobState.QUEUED and dc.idle(0) == 1


def test_start_on_a_busy_slot_raises_and_changes_nothing():
    sim, dc = world(hosts=4)
    a = submitted(dc, Job(1, 0, 2, runtime=10))
    dc.start(a, hosts=[0, 1])
    b = submitted(dc, Job(2, 0, 2, runtime=10))
    with pytest.raises(CapacityError, match="host 1 tier 0 holds job 1"):
        dc.start(b, hosts=[1, 2])
    assert dc.idle(0) == 2 and b.state is JobState.QUEUED
    dc._check()


def test_a_job_finishes_after_its_runtime_at_full_speed():
    sim, dc = world()
    job = submitted(dc, Job(1, 0, 2, runtime=30))
    dc.start(job)
    sim.run()
    assert job.state is JobState.FINISHED and job.finish_time == 30.0 and dc.idle(0) == 4


def test_kill_throws_the_work_away_and_requeues_the_job():
    sim, dc = world()
    job = submitted(dc, Job(1, 0, 2, runtime=30))
    dc.start(job)
    sim.run(until=12)
    dc.kill(job)
    assert job.state is JobState.QUEUED and job.kills == 1 and job.lost_work == 12.0
    assert dc.remaining_work(job) == 30.0 and dc.idle(0) == 4 and dc.kills == 1
    dc.start(job)
    sim.run()
    assert job.finish_time == 42.0     # restarted from scratch at 12


def test_suspend_keeps_the_work_and_resume_pays_the_migration_cost():
    sim, dc = world(migration_cost=20.0)
    job = submitted(dc, Job(1, 0, 2, runtime=30))
    dc.start(job, hosts=[0, 1])
    sim.run(until=10)
    dc.suspend(job)
    assert job.state is JobState.SUSPENDED and dc.idle(0) == 4
    sim.run(until=15)
    dc.resume(job, hosts=[2, 3])
    sim.run()
    # 10 s done before; resumed at 15, restored at 35, 20 s of work left -> ends at 55
    assert job.finish_time == 55.0 and job.migrations == 1 and dc.migrations == 1
    assert job.context_switches == 0 and dc.suspensions == 1


def test_resume_in_place_is_a_context_switch_without_migration_cost():
    sim, dc = world(migration_cost=20.0)
    job = submitted(dc, Job(1, 0, 2, runtime=30))
    dc.start(job, hosts=[2, 3])
    sim.run(until=10)
    dc.suspend(job)
    sim.run(until=15)
    dc.resume(job)                    # no hosts: where it was suspended
    assert [h.id for h in job.hosts] == [2, 3]
    sim.run()
    # 10 s done before, 20 s left from 15, no migration cost -> ends at 35
    assert job.finish_time == 35.0
    assert (job.suspensions, job.context_switches, job.migrations) == (1, 1, 0)
    assert (dc.suspensions, dc.context_switches, dc.migrations) == (1, 1, 0)


def test_resume_in_place_refuses_hosts_taken_meanwhile():
    sim, dc = world(migration_cost=20.0)
    job = submitted(dc, Job(1, 0, 2, runtime=30))
    dc.start(job, hosts=[0, 1])
    dc.suspend(job)
    other = submitted(dc, Job(2, 0, 1, runtime=5))
    dc.start(other, hosts=[1])
    with pytest.raises(CapacityError, match="host 1 tier 0 holds job 2"):
        dc.resume(job)
    assert job.state is JobState.SUSPENDED


def test_a_forced_migration_pays_the_cost_even_onto_the_same_hosts():
    # Liu 2013's preemption: the saved state is restored wherever the job resumes
    sim, dc = world(migration_cost=20.0)
    job = submitted(dc, Job(1, 0, 1, runtime=30))
    dc.start(job, hosts=[0])
    sim.run(until=10)
    dc.suspend(job)
    dc.resume(job, hosts=[0], migrate=True)
    sim.run()
    # restored at 30, 20 s of work left -> ends at 50
    assert job.finish_time == 50.0 and (job.migrations, job.context_switches) == (1, 0)


def test_illegal_actions_raise():
    sim, dc = world()
    job = submitted(dc, Job(1, 0, 1, runtime=5))
    with pytest.raises(JobStateError):
        dc.resume(job)               # queued, not suspended
    with pytest.raises(JobStateError):
        dc.kill(job)                 # not running
    with pytest.raises(CapacityError, match="tier 1 does not exist"):
        dc.start(job, tier=1)


def test_a_policy_needing_more_tiers_fails_when_attached():
    class TwoTier(Idle):
        name = "twotier"
        min_tiers = 2

    sim = Simulation()
    dc = Datacenter(sim, hosts=4, tiers=1)
    with pytest.raises(PolicyError, match="needs at least 2 tiers; the datacenter has 1"):
        dc.attach(TwoTier())


# ----------------------------------------------------------------- two tiers: progress rates

def test_background_process_speed_is_eff_times_idle_share():
    # host 0: fg process uses 0.7 of the CPU, bg process needs 0.6: idle 0.3 -> speed
    # eff 0.5 * 0.3 / 0.6 = 0.25; the fg job loses 2 % while the bg one is there.
    sim, dc = world(hosts=1, tiers=2)
    fg = submitted(dc, Job(1, 0, 1, runtime=100, cpu_usage=(0.7,), cpu_estimate=(0.7,)))
    bg = submitted(dc, Job(2, 0, 1, runtime=10, cpu_usage=(0.6,), cpu_estimate=(0.6,)))
    dc.start(fg, 0)
    dc.start(bg, 1)
    assert dc.speed_of(fg) == pytest.approx(0.98)
    assert dc.speed_of(bg) == pytest.approx(0.9 * 0.3 / 0.6)   # single-process job: eff 0.9


def test_background_job_runs_at_full_speed_when_the_foreground_is_idle_and_rerates():
    sim, dc = world(hosts=2, tiers=2)
    fg = submitted(dc, Job(1, 0, 1, runtime=10, cpu_usage=(0.5,), cpu_estimate=(0.5,)))
    bg = submitted(dc, Job(2, 0, 2, runtime=20, cpu_usage=(0.5, 0.5), cpu_estimate=(0.5, 0.5)))
    dc.start(fg, 0, hosts=[0])
    dc.start(bg, 1, hosts=[0, 1])
    # process on host 0 under fg: 0.5 * min(1, 0.5/0.5) = 0.5; job speed = slowest = 0.5
    assert dc.speed_of(bg) == pytest.approx(0.5)
    sim.run()
    # fg (speed 0.98 beside the bg) ends at 10/0.98; bg did 0.5 * 10/0.98 by then, then 1.0
    t1 = 10 / 0.98
    assert fg.finish_time == pytest.approx(t1)
    assert bg.finish_time == pytest.approx(t1 + (20 - 0.5 * t1))


def test_idle_floor_keeps_a_background_job_moving_under_a_full_foreground():
    # fg uses 100 %: the bg process still gets the 4 % floor: 0.9 * 0.04 / 1.0
    sim, dc = world(hosts=1, tiers=2)
    fg = submitted(dc, Job(1, 0, 1, runtime=100, cpu_usage=(1.0,), cpu_estimate=None))
    bg = submitted(dc, Job(2, 0, 1, runtime=10, cpu_usage=(1.0,), cpu_estimate=None))
    dc.start(fg, 0)
    dc.start(bg, 1)          # allowed: with unknown usage the threshold cannot be applied
    assert dc.speed_of(bg) == pytest.approx(0.9 * 0.04)


def test_no_background_placement_above_the_threshold():
    sim, dc = world(hosts=2, tiers=2)
    fg = submitted(dc, Job(1, 0, 1, runtime=100, cpu_usage=(0.97,), cpu_estimate=(0.97,)))
    dc.start(fg, 0, hosts=[0])
    assert dc.available(1) == 1 and dc.idle(1) == 2
    bg = submitted(dc, Job(2, 0, 1, runtime=10, cpu_usage=(0.5,), cpu_estimate=(0.5,)))
    with pytest.raises(CapacityError, match="higher tiers use >= 0.96"):
        dc.start(bg, 1, hosts=[0])


def test_swap_tiers_moves_a_job_in_place_only_onto_idle_slots():
    sim, dc = world(hosts=2, tiers=2)
    bg = submitted(dc, Job(1, 0, 2, runtime=50, cpu_usage=(0.5, 0.5), cpu_estimate=(0.5, 0.5)))
    fg = submitted(dc, Job(2, 0, 1, runtime=10, cpu_usage=(0.5,), cpu_estimate=(0.5,)))
    dc.start(bg, 1, hosts=[0, 1])
    dc.start(fg, 0, hosts=[1])
    with pytest.raises(CapacityError, match="host 1 holds job 2"):
        dc.swap_tiers(bg)
    sim.run(until=10 / 0.98 + 1)      # fg finished
    dc.swap_tiers(bg)
    assert bg.tier == 0 and [h.id for h in bg.hosts] == [0, 1] and bg.swaps == 1
    assert dc.speed_of(bg) == 1.0 and dc.idle(1) == 2


def test_three_tiers_follow_the_same_rule_tier_by_tier():
    # host 0: tier 0 uses 0.5, tier 1 needs 0.3, tier 2 needs 0.4 (single-process jobs: eff 0.9;
    # tier 0 loses 2 %). Tier 1 gets 1 - 0.5 = 0.5 >= 0.3: 0.9 * 1 = 0.9.
    # Tier 2 gets what tier 1 leaves: 0.5 - 0.3 = 0.2, for 0.4 needed: 0.9 * 0.2 / 0.4 = 0.45.
    sim = Simulation(seed=1)
    dc = Datacenter(sim, hosts=1, tiers=3, interference=FIXED, check=True)
    dc.attach(Idle())
    jobs = [Job(i, 0, 1, runtime=100, cpu_usage=(c,), cpu_estimate=(c,))
            for i, c in ((1, 0.5), (2, 0.3), (3, 0.4))]
    for tier, job in enumerate(jobs):
        submitted(dc, job)
        dc.start(job, tier)
    assert [dc.speed_of(j) for j in jobs] == pytest.approx([0.98, 0.9, 0.45])


def test_jobdispatch_puts_the_heaviest_process_on_the_lightest_host():
    # 3 hosts, background tier: foreground loads 0.8, 0.2, 0.5 (hosts 0, 1, 2). A background job
    # with processes using 0.4, 0.9, 0.6 gets: process 1 (0.9) -> host 1 (0.2), process 2 (0.6)
    # -> host 2 (0.5), process 0 (0.4) -> host 0 (0.8). (Liu 2015 Alg. 2, JobDispatch.)
    sim, dc = world(hosts=3, tiers=2)
    for hid, load in enumerate((0.8, 0.2, 0.5)):
        fg = submitted(dc, Job(10 + hid, 0, 1, runtime=100, cpu_usage=(load,), cpu_estimate=(load,)))
        dc.start(fg, 0, hosts=[hid])
    bg = submitted(dc, Job(1, 0, 3, runtime=10, cpu_usage=(0.4, 0.9, 0.6), cpu_estimate=(0.4, 0.9, 0.6)))
    dc.start(bg, 1)
    assert [h.id for h in bg.hosts] == [0, 1, 2]     # process i runs on bg.hosts[i]


def test_unknown_cpu_usage_places_processes_at_random_and_ignores_the_threshold():
    # with no estimate a broker cannot apply the 96 % rule: a background slot under a 100 %
    # foreground is still available; the choice comes from the 'placement' stream
    sim, dc = world(hosts=4, tiers=2)
    fg = submitted(dc, Job(1, 0, 4, runtime=100, cpu_usage=(1.0,) * 4, cpu_estimate=None))
    dc.start(fg, 0)
    assert dc.available(1) == 4
    bg = submitted(dc, Job(2, 0, 2, runtime=10, cpu_usage=(0.5, 0.5), cpu_estimate=None))
    picks = [h.id for h in dc.start(bg, 1)]
    sim2, dc2 = world(hosts=4, tiers=2)
    fg2 = submitted(dc2, Job(1, 0, 4, runtime=100, cpu_usage=(1.0,) * 4, cpu_estimate=None))
    dc2.start(fg2, 0)
    bg2 = submitted(dc2, Job(2, 0, 2, runtime=10, cpu_usage=(0.5, 0.5), cpu_estimate=None))
    assert [h.id for h in dc2.start(bg2, 1)] == picks          # same seed, same random choice


# ----------------------------------------------------------------- job descriptions and sizes

class Divisible:
    """A description whose work depends on the size: ``total`` processor-seconds split evenly
    over any size from 1 to 8 (a perfectly moldable job), asking for 2 by default."""

    def __init__(self, id: int, total: float) -> None:
        self.id, self.submit_time, self.procs, self.row = id, 0.0, 2, -1
        self.total = total
        self.runtime = self.runtime_estimate = total / 2
        self.min_procs = 1

    def work(self, size: int) -> float:
        if not 1 <= size <= 8:
            raise ValueError(f"size {size}")
        return self.total / size

    def estimate(self, size: int) -> float:
        return self.work(size)

    def usage(self, size: int):
        return None

    def usage_estimate(self, size: int):
        return None


def test_start_with_a_size_asks_the_description_for_its_work_at_that_size():
    # 120 processor-seconds on 4 processors: 30 s; the broker then sees 4 processes
    sim, dc = world(hosts=4)
    job = submitted(dc, Job(Divisible(1, 120.0)))
    assert (job.procs, job.runtime_estimate) == (2, 60.0)
    dc.start(job, size=4)
    assert (job.procs, job.runtime_estimate, len(job.hosts)) == (4, 30.0, 4)
    sim.run()
    assert job.finish_time == 30.0 and job.work == 30.0


def test_a_rigid_job_refuses_another_size():
    from cloudsim_py.errors import JobError

    sim, dc = world(hosts=4)
    job = submitted(dc, Job(1, 0, 2, runtime=10))
    with pytest.raises(JobError, match="job 1 is rigid: it runs on 2 processors, not 3"):
        dc.start(job, size=3)
    assert job.state is JobState.QUEUED and job.procs == 2 and dc.idle(0) == 4


def test_the_arrival_check_uses_the_smallest_size_a_job_can_run_on():
    # asks for 2, can run on 1: accepted on a one-host datacenter; a rigid 2 is rejected
    sim, dc = world(hosts=1)
    moldable = submitted(dc, Job(Divisible(1, 10.0)))
    rigid = submitted(dc, Job(2, 0, 2, runtime=10))
    assert moldable.state is JobState.QUEUED and rigid.state is JobState.REJECTED


def test_a_world_can_be_stepped_one_timestamp_at_a_time():
    from cloudsim_py import DatacenterSpec, build

    jobs = [Job(1, 0.0, 2, runtime=5.0), Job(2, 1.0, 2, runtime=5.0), Job(3, 1.0, 4, runtime=1.0)]
    world = build(jobs, datacenter=DatacenterSpec(hosts=4), broker="fcfs")
    times = []
    while (t := world.step()) is not None:
        times.append((t, world.datacenter.idle(), len(world.broker.queue)))
    # t=0: job 1 starts (2 idle); t=1: job 2 starts, job 3 waits (0 idle, 1 queued);
    # t=5 and t=6: jobs 1 and 2 end (2 idle, then job 3 starts at 6 and ends at 7)
    assert times == [(0.0, 2, 0), (1.0, 0, 1), (5.0, 2, 1), (6.0, 0, 0), (7.0, 4, 0)]


def test_hosts_loaded_lists_the_hosts_at_or_above_a_load():
    # 4 hosts, 2 tiers: job 1 (cpu estimate 0.7) on hosts 0-1, job 2 (0.4) on host 2; host 3
    # idle. At level 0.5 only hosts 0 and 1 count; at 0.4 host 2 joins; an idle host never does.
    sim, dc = world(hosts=4, tiers=2)
    a = submitted(dc, Job(1, 0, 2, runtime=10, cpu_usage=(0.7, 0.7), cpu_estimate=(0.7, 0.7)))
    b = submitted(dc, Job(2, 0, 1, runtime=10, cpu_usage=(0.4,), cpu_estimate=(0.4,)))
    dc.start(a, 0, hosts=[0, 1])
    dc.start(b, 0, hosts=[2])
    assert [h.id for h in dc.hosts_loaded(dc.hosts, 0.5)] == [0, 1]
    assert [h.id for h in dc.hosts_loaded(dc.hosts, 0.4)] == [0, 1, 2]
    assert [dc.host_load(h) for h in dc.hosts] == [0.7, 0.7, 0.4, 0.0]
