"""A task of a DAG job as a job description: what one cloud runs for a task sent to it
(implements the ``JobDescription`` protocol, with the lease fields the lease scheduler reads).
Imports nothing but errors and the lease mode; knows nothing of schedulers or datacenters.

Li et al. (seed 001, section III): a task of a job is executed by a set of VMs of the cloud it
is assigned to; its execution time on that cloud is the execution-time matrix entry of its type
for the cloud's VM type (or its measured runtime divided by the VM type's speed), known to the
scheduler, so ``runtime`` and ``runtime_estimate`` are equal. The task of an AR job is an
advance reservation (not preemptible, it may preempt best-effort tasks), of a best-effort job
best-effort and preemptible (section III-B). ``not_before`` is when its input data is on the
cloud (its predecessors' finish plus the transfers on the edges).
"""

from __future__ import annotations

from typing import Any, Hashable

import attrs

from ..errors import JobError
from .lease import LeaseMode

#: read once: an enum member read through its class is a look-up of some 100 ns
_BEST_EFFORT = LeaseMode.BEST_EFFORT


@attrs.define(slots=True, unsafe_hash=True)
class TaskJob:
    """Task ``task`` of DAG job ``job_id`` on one cloud: ``procs`` VMs for ``runtime`` seconds.

    Immutable by use, not by ``frozen``: made by the owner's scheduler when a cloud accepts the
    task (one a task, on the path of every task) and only read afterwards, by the cloud's
    scheduler, the datacenter and the records. A frozen attrs class sets each of its 15 fields
    through ``object.__setattr__`` (about 2.5 times the creation of this class, some 11,000
    machine instructions a task); a test runs DAG systems and checks that every description
    still has, when its task ends, the fields it was made with. Equality and hashing are the
    frozen class's (by value, ``ref`` left out).

    >>> t = TaskJob(id=7, submit_time=10.0, procs=2, runtime=30.0, job_id="j", task="a")
    >>> t.work(2), t.estimate(2), t.preemptible, t.not_before
    (30.0, 30.0, True, 10.0)
    """

    id: int
    submit_time: float                  #: when the cloud accepted it
    procs: int                          #: VMs
    runtime: float                      #: execution time on this cloud's VM type (s)
    job_id: Hashable = None
    task: Hashable = None
    mode: LeaseMode = LeaseMode.BEST_EFFORT
    image_mb: float = 0.0               #: S_I
    memory_mb: float = 0.0              #: M_j
    ready_at: float | None = None       #: input data on this cloud (None: at submission)
    owner: int = -1                     #: index of the cloud that owns the job
    cloud: str = ""                     #: the cloud it was sent to
    start: float | None = None          #: the requested start of an AR job's entry task
    row: int = -1
    ref: Any = attrs.field(default=None, repr=False, eq=False)   #: the owner's handle

    def __attrs_post_init__(self) -> None:
        procs = self.procs
        # (an int passes with one type test: every task accepted by a cloud is checked here)
        if type(procs) is not int and (isinstance(procs, bool) or not isinstance(procs, int)) or procs < 1:
            raise JobError(f"job {self.job_id}, task {self.task!r}: procs (VMs) must be an integer "
                           f">= 1, got {self.procs!r}")
        if not self.runtime >= 0:
            raise JobError(f"job {self.job_id}, task {self.task!r}: runtime {self.runtime!r} must be >= 0")

    @property
    def runtime_estimate(self) -> float:
        return self.runtime

    @property
    def min_procs(self) -> int:
        return self.procs

    @property
    def dag(self) -> Hashable:
        """The DAG job it belongs to."""
        return self.job_id

    @property
    def preemptible(self) -> bool:
        return self.mode is _BEST_EFFORT

    @property
    def not_before(self) -> float:
        return self.submit_time if self.ready_at is None else max(self.submit_time, self.ready_at)

    def work(self, size: int) -> float:
        if size != self.procs:
            raise JobError(f"job {self.job_id}, task {self.task!r} runs on {self.procs} VMs, not {size}")
        return self.runtime

    def estimate(self, size: int) -> float:
        return self.runtime

    def usage(self, size: int) -> tuple[float, ...] | None:
        return None

    def usage_estimate(self, size: int) -> tuple[float, ...] | None:
        return None
