"""Real workflows (WfFormat) on clouds: the platforms to replay them on and their simulated
makespan. Wiring only (like ``clouds.py``): a workflow, clouds, a policy, a number.

Two platforms (docs/federation.md):

- :func:`unlimited_cloud`: one cloud with a VM for every CPU any task asks for at once (the sum
  over tasks), no image, no memory to save, no latency: every task starts when its last
  predecessor ends, so the makespan is the critical path of the measured runtimes.
- :func:`machine_clouds`: the machines of ``workflow.execution`` (one cloud each, a 1-CPU VM per
  core, speed 1: a task's measured runtime is its time on the machine it ran on, taken here as
  its time on any of them), data between machines at ``bandwidth_mbps``. Fewer cores and
  transfers can only delay tasks: never earlier than the critical path.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..clouds.cloud import CloudSpec
from ..clouds.matrix import ExecutionModel
from ..clouds.vmtypes import VMType
from ..errors import PlatformError
from ..workload.wfformat import Workflow
from .clouds import build_dag_system

#: Chameleon's 10 Gb/s Ethernet, in MB/s
CHAMELEON_MBPS = 1250.0


def unlimited_cloud(workflow: Workflow) -> CloudSpec:
    """One cloud with as many 1-CPU VMs as all the tasks' CPUs together."""
    job = workflow.job
    vm = VMType("cpu", cpus=1, memory_mb=1.0, disk_mb=0.0, bandwidth_mbps=CHAMELEON_MBPS)
    total = sum(vm.vms_for(float(d.get("cpus", 1))) for _, d in job.graph.nodes(data=True))
    return CloudSpec("unlimited", vm, total)


def machine_clouds(workflow: Workflow, bandwidth_mbps: float = CHAMELEON_MBPS) -> list[CloudSpec]:
    """One cloud per machine the workflow ran on: ``cores`` 1-CPU VMs of speed 1. A workflow
    whose file names no machine (a DAX file, a WfFormat file without ``machines``) is a
    :class:`~cloudsim_py.errors.PlatformError`: there is nothing to replay it on."""
    if not workflow.machines:
        raise PlatformError(f"{workflow.source}: the workflow names no machine it ran on; give clouds "
                            "(or use unlimited_cloud)")
    out = []
    for m in workflow.machines or ():
        vm = VMType(m.name, cpus=1, memory_mb=m.memory_mb or 1.0, disk_mb=0.0, bandwidth_mbps=bandwidth_mbps)
        out.append(CloudSpec(m.name, vm, m.cores or 1))
    return out


def simulated_makespan(workflow: Workflow, clouds: Sequence[CloudSpec], policy: str = "fdls",
                       latency: float = 0.0, params: Mapping[str, Any] | None = None) -> float:
    """The workflow's execution time (last finish - submission) on ``clouds`` under ``policy``,
    submitted at 0 to the first cloud; tasks take their runtime divided by the VM speed."""
    job = workflow.job
    if job.cloud is not None or job.submit_time:
        import attrs

        job = attrs.evolve(job, cloud=None, submit_time=0.0)
    run = build_dag_system([job], clouds, policy=policy, params=params, model=ExecutionModel(), latency=latency)
    run.run()
    (row,) = run.log.finished
    return row.finish - row.submit
