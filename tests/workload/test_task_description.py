"""A DAG task's description (:class:`~cloudsim_py.workload.dag_task.TaskJob`) is immutable by
use: an attrs class with slots, not frozen (its creation is on the path of every task), whose
fields no layer writes. These tests hold it to that, and to the frozen class's value equality
and hashing."""

from __future__ import annotations

import attrs
import pytest

from cloudsim_py.infrastructure.listener import DatacenterListener
from cloudsim_py.systems.clouds import build_dag_system
from cloudsim_py.workload.dag_task import TaskJob
from cloudsim_py.workload.lease import LeaseMode
from tests.clouds.test_dag_fast_paths import clouds_of, random_dags


class Fields(DatacenterListener):
    """Each task description's fields when its task is submitted to a datacenter, checked
    against the fields when the task ends (kills, suspensions and restarts included)."""

    def __init__(self) -> None:
        self.made: dict[int, tuple] = {}
        self.checked = 0

    def on_submit(self, job) -> None:
        assert id(job.desc) not in self.made
        self.made[id(job.desc)] = (job.desc, attrs.astuple(job.desc, recurse=False))

    def on_finish(self, job) -> None:
        desc, fields = self.made[id(job.desc)]
        assert desc is job.desc
        assert attrs.astuple(job.desc, recurse=False) == fields
        self.checked += 1


@pytest.mark.parametrize("policy, params, clouds", [("fdls", {}, 1), ("fdls", {"strict": False}, 2),
                                                    ("fdmms", {}, 3), ("fdmms", {"ar_slack": 2.0}, 2)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_layer_writes_a_tasks_description(policy, params, clouds, seed):
    fields = Fields()
    system = build_dag_system(random_dags(seed, jobs=12, clouds=clouds), clouds_of(clouds), policy=policy,
                              params=params, latency=0.1, seed=seed, check=True, listeners=[fields])
    system.run()
    assert fields.checked == len(system.world.log.columns()["id"]) == sum(d.tasks for d in system.log.finished) > 0
    assert all(isinstance(desc, TaskJob) for desc, _ in fields.made.values())


def test_equality_and_hash_are_by_value_without_the_handle():
    a = TaskJob(id=1, submit_time=0.0, procs=2, runtime=5.0, job_id="j", task="t", mode=LeaseMode.AR,
                ref=object())
    b = TaskJob(id=1, submit_time=0.0, procs=2, runtime=5.0, job_id="j", task="t", mode=LeaseMode.AR,
                ref=object())
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != attrs.evolve(b, runtime=6.0)
    assert "ref" not in repr(a)


@pytest.mark.parametrize("procs, runtime", [(0, 1.0), (True, 1.0), (1.5, 1.0), (1, -1.0), (1, float("nan"))])
def test_impossible_tasks_are_refused(procs, runtime):
    from cloudsim_py.errors import JobError
    with pytest.raises(JobError):
        TaskJob(id=1, submit_time=0.0, procs=procs, runtime=runtime)
