"""A lease as a job description: what a cloud's datacenter runs for a lease request, on that cloud's
VM type (implements the ``JobDescription`` protocol). Imports nothing but errors, leases and VM
types; knows nothing of schedulers or datacenters.

A :class:`~cloudsim_py.workload.lease.LeaseRequest` asks for ``nodes`` VMs of ``cpus_per_node``
CPUs; on a cloud whose VMs have ``c`` CPUs it needs ``nodes x ceil(cpus_per_node / c)`` VMs
(Li et al., seed 001, section III-B: "a lease of resource is implemented as a set of VMs"). The
description gives the datacenter the lease's *real* run time (``work``), and a broker the
*requested* duration (``runtime_estimate``), which is what a scheduler plans with (Haizea:
a lease that ends before its requested duration frees its slots then).

The same fields describe a DAG task placed on a cloud
(:class:`~cloudsim_py.workload.dag_task.TaskJob`): ``mode``, ``start``, ``preemptible``,
``image_mb`` (``S_I``), ``memory_mb`` (``M_j``) and ``not_before``; the lease scheduler reads only
those and the protocol's fields.
"""

from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

import attrs

from ..errors import JobError
from .description import JobDescription
from .lease import LeaseMode, LeaseRequest


@runtime_checkable
class LeaseDescription(JobDescription, Protocol):
    """What a lease scheduler reads of a lease or task, beyond the job protocol."""

    @property
    def mode(self) -> LeaseMode: ...
    @property
    def start(self) -> float | None: ...
    @property
    def preemptible(self) -> bool: ...
    @property
    def image_mb(self) -> float: ...
    @property
    def memory_mb(self) -> float: ...
    @property
    def not_before(self) -> float: ...
    @property
    def cloud(self) -> str: ...
    @property
    def dag(self) -> Any: ...
    @property
    def task(self) -> Any: ...


def _rigid(kind: str, id: int, procs: int, size: int) -> None:
    if size != procs:
        raise JobError(f"{kind} {id} runs on {procs} VMs, not {size}")


@attrs.frozen(slots=True)
class LeaseJob:
    """A lease on one cloud: ``procs`` VMs for ``runtime`` seconds (real), planned for
    ``runtime_estimate`` seconds (requested).

    >>> from cloudsim_py.workload.lease import LeaseRequest, LeaseMode
    >>> req = LeaseRequest(id=1, submit_time=0.0, mode=LeaseMode.BEST_EFFORT, duration=3600.0,
    ...                    real_duration=2700.0, nodes=2, memory_mb=1024, image_mb=1024)
    >>> job = LeaseJob.of(req)
    >>> job.procs, job.work(2), job.estimate(2), job.preemptible
    (2, 2700.0, 3600.0, True)
    """

    id: int
    submit_time: float
    procs: int                      #: VMs
    runtime: float                  #: real run time (s): when the lease really ends
    runtime_estimate: float         #: requested duration (s): what a scheduler plans with
    mode: LeaseMode = LeaseMode.BEST_EFFORT
    start: float | None = None      #: requested start of an advance reservation
    preemptible: bool = True
    image_mb: float = 0.0           #: disk image transferred before it runs (S_I)
    memory_mb: float = 0.0          #: memory of a VM, saved on suspension (M_j)
    row: int = -1
    cloud: str = ""                 #: the cloud it runs on
    #: an AR's shutdown carved out of its interval (s): it runs ``runtime_estimate`` from its
    #: start and is shut down over the interval's last ``carved`` seconds (Haizea 1.0; set by
    #: ``systems.clouds.lease_jobs``, 0 when nothing is carved)
    carved: float = 0.0
    request: LeaseRequest | None = attrs.field(default=None, repr=False, eq=False)
    #: a lease is no DAG job's task
    dag: None = attrs.field(default=None, init=False, repr=False)
    task: None = attrs.field(default=None, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.procs, bool) or not isinstance(self.procs, int) or self.procs < 1:
            raise JobError(f"lease {self.id}: procs (VMs) must be an integer >= 1, got {self.procs!r}")
        if not 0 < self.runtime <= self.runtime_estimate:
            raise JobError(f"lease {self.id}: run time {self.runtime!r} must be > 0 and at most the "
                           f"requested duration {self.runtime_estimate!r}")

    @classmethod
    def of(cls, lease: LeaseRequest, vm_cpus: int = 1, row: int = -1, cloud: str = "") -> "LeaseJob":
        """The description of ``lease`` on cloud ``cloud``, whose VMs have ``vm_cpus`` CPUs."""
        per_node = max(1, math.ceil(lease.cpus_per_node / vm_cpus - 1e-12))
        return cls(id=lease.id, submit_time=lease.submit_time, procs=int(lease.nodes * per_node),
                   runtime=lease.run_time, runtime_estimate=lease.duration, mode=lease.mode,
                   start=lease.start, preemptible=lease.preemptible, image_mb=lease.image_mb,
                   memory_mb=lease.memory_mb, row=row, cloud=cloud, request=lease)

    @property
    def min_procs(self) -> int:
        return self.procs

    @property
    def not_before(self) -> float:
        """Earliest time it may start: its submission (an AR has its ``start`` as well)."""
        return self.submit_time

    def work(self, size: int) -> float:
        _rigid("lease", self.id, self.procs, size)
        return self.runtime

    def estimate(self, size: int) -> float:
        return self.runtime_estimate

    def usage(self, size: int) -> tuple[float, ...] | None:
        return None

    def usage_estimate(self, size: int) -> tuple[float, ...] | None:
        return None
