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
  has 5 s at 0.5 by 10 and the other 5 s alone: done at 15."""

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


def test_lockstep_is_the_default():
    assert InterferenceModel().job_progress == "lockstep"


def test_an_unknown_reading_is_refused_naming_the_key():
    with pytest.raises(SpecError, match=r"interference\.job_progress.*lockstep, per_process"):
        DatacenterSpec(hosts=2, tiers=2, interference={"job_progress": "fastest"})


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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads())
def test_per_process_finishes_every_job_never_faster_than_a_dedicated_machine(case):
    """Under every consolidating policy, 2-4 tiers, per-process progress: the datacenter's
    checker passes after every timestamp, every job finishes, and none finishes sooner after its
    last start than its runtime on dedicated processors (no process runs faster than 1)."""
    policy, tiers, hosts, jobs = case
    r = simulate(jobs, hosts=hosts, tiers=tiers, policy=policy, seed=len(jobs), check=True,
                 interference={"preset": "liu2013", "job_progress": "per_process"})
    assert r.summary["jobs_finished"] == len(jobs)
    rows = r.records.by_id()
    for job in jobs:
        # a job that never paused ran its whole work in its one run, at speed <= 1 (its
        # records' start is its first start, which is its last when it never paused)
        row = rows[job.id]
        if not row["suspensions"]:
            assert row["finish"] >= row["start"] + job.desc.runtime - 1e-6 * job.desc.runtime
