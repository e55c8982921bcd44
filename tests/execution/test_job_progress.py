"""How a job advances from its processes' speeds (``interference.job_progress``; Liu 2013
section 5.1: "the progress of a job depends on the progress of the slowest process in the
job"; docs/progress.md).

The hand-computed case: two hosts, two tiers, no foreground loss, background efficiency 0.5.
Job B (two processes, 10 s of work, CPU 0.5) runs in the background of hosts 0 and 1 from 0.
Job A (one process, CPU 0.5) holds host 0's foreground from 0 to 10, job C host 1's from 10 to
20. Under a busy foreground a background process advances at eff * min(1, 0.5 / 0.5) = 0.5,
under an idle one at 1.

- lockstep: B advances at 0.5 all the time (one of its foregrounds is always busy): done at 20;
- per process: B's process on host 1 does its 10 s by 10 (idle foreground), the one on host 0
  has 5 s at 0.5 by 10 and the other 5 s alone: done at 15;
- barriers every 4 s of work: host 1's process reaches 4 done at 4 and waits, host 0's at 8
  (0.5 a second): first barrier at 8. Both at 0.5 / 1 until 10 (host 0: 5 done, host 1: 6,
  waiting at the second barrier, 8 done); from 10 host 0 runs at 1 (8 done at 13) and host 1
  at 0.5 (8 done at 14): second barrier at 14; then 2 s of work at 1 and at 0.5: done at 18;
- barriers every 6 s: host 1 waits at 6 done from 6, host 0 has 5 done at 10 and 6 at 11
  (speed 1 from 10): barrier at 11; then 4 s at 1 (host 0) and at 0.5 (host 1): done at 19;
- barriers every 10 s or more: no barrier before the end, as per process: 15."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cloudsim_py import Broker, Job, simulate
from cloudsim_py.brokers.base import broker_registry
from cloudsim_py.errors import SpecError
from cloudsim_py.execution.interference import FixedFactors, InterferenceModel
from cloudsim_py.infrastructure.spec import DatacenterSpec

NO_LOSS = FixedFactors(default=(0.5, 0.0))


class Scripted(Broker):
    """Starts A and B at 0 and C when it arrives, each where the case says."""

    name = "scripted"
    WHERE = {1: (0, [0]), 2: (1, [0, 1]), 3: (0, [1])}

    def schedule(self, now: float) -> None:
        for job in list(self.queue):
            tier, hosts = self.WHERE[job.id]
            self.dc.start(job, tier=tier, hosts=hosts)
            self.queue.remove(job)


def run(progress: str) -> dict[int, float]:
    jobs = [Job(1, 0.0, 1, runtime=10.0, cpu_usage=(0.5,)), Job(2, 0.0, 2, runtime=10.0, cpu_usage=(0.5, 0.5)),
            Job(3, 10.0, 1, runtime=10.0, cpu_usage=(0.5,))]
    r = simulate(jobs, hosts=2, tiers=2, policy=Scripted(), interference=InterferenceModel("case", job_progress=progress),
                 factors=NO_LOSS, check=True)
    return {i: row["finish"] for i, row in r.records.by_id().items()}


def test_lockstep_holds_the_job_to_its_slowest_process_at_every_moment():
    assert run("lockstep") == {1: 10.0, 2: 20.0, 3: 20.0}


def test_per_process_ends_the_job_when_its_last_process_has_done_its_work():
    assert run("per_process") == {1: 10.0, 2: 15.0, 3: 20.0}


def run_barriers(step: float) -> dict[int, float]:
    jobs = [Job(1, 0.0, 1, runtime=10.0, cpu_usage=(0.5,)), Job(2, 0.0, 2, runtime=10.0, cpu_usage=(0.5, 0.5)),
            Job(3, 10.0, 1, runtime=10.0, cpu_usage=(0.5,))]
    model = InterferenceModel("case", job_progress="barriers", barrier_work=step)
    r = simulate(jobs, hosts=2, tiers=2, policy=Scripted(), interference=model, factors=NO_LOSS, check=True)
    return {i: row["finish"] for i, row in r.records.by_id().items()}


def test_barriers_make_the_processes_wait_for_each_other_at_every_step():
    assert run_barriers(4.0) == {1: 10.0, 2: 18.0, 3: 20.0}
    assert run_barriers(6.0) == {1: 10.0, 2: 19.0, 3: 20.0}


def test_barriers_further_apart_than_the_work_are_per_process():
    assert run_barriers(10.0) == run_barriers(1e6) == run("per_process")


# ------------------------------------------------------------------ the job-wide idle condition

def run_shared(progress: str, loss: float = 0.0) -> dict[int, float]:
    """Liu 2015 eqs. 1-2 with "its fg VMs are all idle" read for the job
    (``per_process_all_idle``), by hand. Same placement as above, eff 0.5, but A and C use 0.75
    of the CPU: under them a background process of CPU 0.5 gets 0.25 left, a share of 0.5, and
    advances at eff * 0.5 = 0.25; under an idle foreground VM while the job's other one is busy
    at eff = 0.5 (CPU_i = 1 >= CPU_r: eq. 2's second case); with both idle at 1.

    - lockstep: 0-10 min(0.25, 1) = 0.25 (2.5 done); 10-20 min(1, 0.25) = 0.25 (5 done);
      from 20 at 1: done at 25;
    - per process: host 1's process at 1, done at 10; host 0's at 0.25 to 10 (2.5 done), then
      at 1: done at 17.5;
    - all idle (job-wide): 0-10 host 0 at 0.25 (2.5 done), host 1 at 0.5 (5 done); 10-20 host
      0 at 0.5 (7.5 done), host 1 at 0.25 (7.5 done); from 20 both at 1: done at 22.5.

    With a foreground loss of 0.1, A and C run at 0.9 while B is in the background: A ends at
    10 / 0.9 = 11.11 and C (started at 10 in host 1's foreground) at 10 + 10 / 0.9 = 21.11 (B
    is still in the background of both hosts then). B, all idle: 0-10 as above (host 0: 2.5, host 1: 5);
    10-11.11 host 0 still under A (0.25), host 1 under C (0.25): 2.78 and 5.28 done; 11.11-21.11
    host 0 at 0.5 (A gone, C busy) -> 7.78, host 1 at 0.25 -> 7.78; from 21.11 both at 1, 2.22
    left: done at 23.33."""
    jobs = [Job(1, 0.0, 1, runtime=10.0, cpu_usage=(0.75,)), Job(2, 0.0, 2, runtime=10.0, cpu_usage=(0.5, 0.5)),
            Job(3, 10.0, 1, runtime=10.0, cpu_usage=(0.75,))]
    r = simulate(jobs, hosts=2, tiers=2, policy=Scripted(), interference=InterferenceModel("case", job_progress=progress),
                 factors=FixedFactors(default=(0.5, loss)), check=True)
    return {i: row["finish"] for i, row in r.records.by_id().items()}


def test_the_three_readings_on_a_share_below_one():
    assert run_shared("lockstep") == {1: 10.0, 2: 25.0, 3: 20.0}
    assert run_shared("per_process") == {1: 10.0, 2: 17.5, 3: 20.0}
    assert run_shared("per_process_all_idle") == {1: 10.0, 2: 22.5, 3: 20.0}


def test_all_idle_with_a_foreground_loss():
    got = run_shared("per_process_all_idle", loss=0.1)
    assert got == pytest.approx({1: 10.0 / 0.9, 2: 21.0 + 1.0 / 9.0 + 20.0 / 9.0, 3: 10.0 + 10.0 / 0.9})


def test_all_idle_needs_two_tiers():
    with pytest.raises(SpecError, match=r"interference\.job_progress: .* needs tiers: 2"):
        simulate([Job(1, 0.0, 1, runtime=1.0)], hosts=1, tiers=3, policy="ktcbf",
                 interference=InterferenceModel("case", job_progress="per_process_all_idle"))


def test_lockstep_is_the_default_of_a_model_made_from_scratch():
    assert InterferenceModel().job_progress == "lockstep"


def test_the_liu2015_preset_waits_at_barriers_every_1800_s_of_work():
    model = DatacenterSpec(hosts=2, tiers=2).interference_model()
    assert (model.name, model.job_progress, model.barrier_work) == ("liu2015", "barriers", 1800.0)


def test_another_reading_on_the_preset_drops_its_barrier_step():
    model = DatacenterSpec(hosts=2, tiers=2, interference={"job_progress": "lockstep"}).interference_model()
    assert (model.job_progress, model.barrier_work, model.eff_draw) == ("lockstep", 0.0, "mean")


def test_the_preset_takes_another_barrier_step():
    model = DatacenterSpec(hosts=2, tiers=2, interference={"barrier_work": 900}).interference_model()
    assert (model.job_progress, model.barrier_work) == ("barriers", 900.0)


def test_an_unknown_reading_is_refused_naming_the_key():
    with pytest.raises(SpecError, match=r"interference\.job_progress.*lockstep, per_process, per_process_all_idle, barriers"):
        DatacenterSpec(hosts=2, tiers=2, interference={"job_progress": "fastest"})


def test_barriers_without_their_step_are_refused_naming_the_key():
    with pytest.raises(SpecError, match=r"interference\.barrier_work: .*needs the work of one step"):
        DatacenterSpec(hosts=2, tiers=2, interference={"barrier_work": 0, "job_progress": "barriers"})


def test_a_barrier_step_under_another_reading_is_refused_naming_the_key():
    with pytest.raises(SpecError, match=r"interference\.barrier_work: .*only read under job_progress barriers"):
        DatacenterSpec(hosts=2, tiers=2, interference={"barrier_work": 60, "job_progress": "per_process"})


# ------------------------------------------------------------------ random workloads, per process

CONSOLIDATING = ("ccfcfs", "acfcfs", "cmbf", "ambf", "cmcbf", "amcbf", "ktcbf")


@st.composite
def workloads(draw):
    hosts = draw(st.integers(1, 8))
    jobs, t = [], 0.0
    for i in range(1, draw(st.integers(1, 25)) + 1):
        t += draw(st.sampled_from([0.0, 1.0, 30.0, 600.0]))
        procs = draw(st.integers(1, hosts))
        runtime = float(draw(st.integers(1, 3600)))
        cpu = tuple(draw(st.sampled_from([0.3, 0.6, 1.0])) for _ in range(procs))
        jobs.append(Job(i, t, procs, runtime=runtime, runtime_estimate=runtime * draw(st.sampled_from([1.0, 2.0])),
                        cpu_usage=cpu))
    policy = draw(st.sampled_from(CONSOLIDATING))
    cls = broker_registry.get(policy)
    tiers = draw(st.integers(max(2, cls.min_tiers), min(4, cls.max_tiers or 4)))
    return policy, tiers, hosts, jobs


def check_finishes_never_faster(policy: str, tiers: int, hosts: int, jobs: list, interference: dict) -> None:
    """The datacenter's checker passes after every timestamp, every job finishes, and none
    finishes sooner after its last start than its runtime on dedicated processors (no process
    runs faster than 1)."""
    r = simulate(jobs, hosts=hosts, tiers=tiers, policy=policy, seed=len(jobs), check=True,
                 interference=interference)
    assert r.summary["jobs_finished"] == len(jobs)
    rows = r.records.by_id()
    for job in jobs:
        # a job that never paused ran its whole work in its one run, at speed <= 1 (its
        # records' start is its first start, which is its last when it never paused)
        row = rows[job.id]
        if not row["suspensions"]:
            assert row["finish"] >= row["start"] + job.desc.runtime - 1e-6 * job.desc.runtime


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads())
def test_per_process_finishes_every_job_never_faster_than_a_dedicated_machine(case):
    """Under every consolidating policy, 2-4 tiers, per-process progress."""
    policy, tiers, hosts, jobs = case
    check_finishes_never_faster(policy, tiers, hosts, jobs, {"preset": "liu2013", "job_progress": "per_process"})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads())
def test_all_idle_finishes_every_job_never_faster_than_a_dedicated_machine(case):
    """The same under ``per_process_all_idle`` (two tiers: Liu 2015's equations)."""
    policy, _, hosts, jobs = case
    check_finishes_never_faster(policy, 2, hosts, jobs, {"preset": "liu2015", "job_progress": "per_process_all_idle"})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads(), st.sampled_from([1.0, 60.0, 600.0]))
def test_barriers_finish_every_job_never_faster_than_a_dedicated_machine(case, step):
    """The same under ``barriers`` (2-4 tiers), steps short and long against the runtimes."""
    policy, tiers, hosts, jobs = case
    check_finishes_never_faster(policy, tiers, hosts, jobs,
                                {"preset": "liu2013", "job_progress": "barriers", "barrier_work": step})


def test_all_idle_on_more_than_two_tiers_is_refused_naming_the_key():
    # Liu 2015's equations are two-tier: on k > 2 tiers the reading has nothing to read
    with pytest.raises(SpecError, match=r"interference\.job_progress: per_process_all_idle .* not 3"):
        DatacenterSpec(hosts=4, tiers=3, interference={"preset": "liu2015", "job_progress": "per_process_all_idle"})
    DatacenterSpec(hosts=4, tiers=2, interference={"preset": "liu2015", "job_progress": "per_process_all_idle"})
