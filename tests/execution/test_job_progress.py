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

from cloudsim_py import Broker, Job, simulate
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
    simulate(jobs, hosts=2, tiers=2, policy=Scripted(), interference=InterferenceModel("case", job_progress=progress),
             factors=NO_LOSS, check=True)
    return {j.id: j.finish_time for j in jobs}


def test_lockstep_holds_the_job_to_its_slowest_process_at_every_moment():
    assert run("lockstep") == {1: 10.0, 2: 20.0, 3: 20.0}


def test_per_process_ends_the_job_when_its_last_process_has_done_its_work():
    assert run("per_process") == {1: 10.0, 2: 15.0, 3: 20.0}


def test_lockstep_is_the_default():
    assert InterferenceModel().job_progress == "lockstep"


def test_an_unknown_reading_is_refused_naming_the_key():
    with pytest.raises(SpecError, match=r"interference\.job_progress.*lockstep, per_process"):
        DatacenterSpec(hosts=2, tiers=2, interference={"job_progress": "fastest"})
