"""What a user submits: immutable job descriptions, and the protocol through which the
datacenter asks one for its work at the size it is given. Rigid jobs are here; moldable jobs, DAG
tasks and leases are other descriptions with the same protocol. Imports nothing but errors."""

from __future__ import annotations

from typing import NamedTuple, Protocol, runtime_checkable

from ..errors import JobError


@runtime_checkable
class JobDescription(Protocol):
    """What every kind of job tells the simulator. ``procs`` is the size asked for (what the
    broker sees before it decides), ``min_procs`` the least it can run on (what the arrival
    check compares with the machine); ``work(size)`` is the true work (seconds on dedicated
    processors at that size) and is read by the datacenter only, never by a broker.
    ``runtime`` is ``work(procs)``: the datacenter reads it directly for a job started at the
    size it asks for."""

    @property
    def id(self) -> int: ...
    @property
    def submit_time(self) -> float: ...
    @property
    def procs(self) -> int: ...
    @property
    def runtime(self) -> float: ...
    @property
    def runtime_estimate(self) -> float: ...
    @property
    def min_procs(self) -> int: ...
    @property
    def row(self) -> int: ...

    def work(self, size: int) -> float: ...
    def estimate(self, size: int) -> float: ...
    def usage(self, size: int) -> tuple[float, ...] | None: ...
    def usage_estimate(self, size: int) -> tuple[float, ...] | None: ...


class RigidJob(NamedTuple):
    """A rigid parallel job: ``procs`` processes for ``runtime`` seconds on dedicated processors.

    A NamedTuple: immutable, and cheap enough that a million-job trace can make one per job
    (an attrs frozen class costs five times more to create). :meth:`checked` validates; the
    workload loaders, which validate whole columns at once, build them directly.

    >>> RigidJob.checked(1, 0.0, 4, 60.0).work(4)
    60.0
    """

    id: int
    submit_time: float
    procs: int
    runtime: float
    runtime_estimate: float
    cpu_usage: tuple[float, ...] | None = None      #: true usage per process (simulator side)
    cpu_estimate: tuple[float, ...] | None = None   #: what the broker is told (None: unknown)
    row: int = -1                                   #: row of the source workload table

    @classmethod
    def checked(cls, id: int, submit_time: float, procs: int, runtime: float,
                runtime_estimate: float | None = None, cpu_usage: tuple[float, ...] | None = None,
                cpu_estimate: tuple[float, ...] | None = None, row: int = -1) -> "RigidJob":
        """Build a description, refusing impossible values with :class:`JobError`."""
        if not isinstance(procs, int) or procs < 1:
            raise JobError(f"job {id}: procs must be >= 1, got {procs}")
        if not runtime > 0:
            raise JobError(f"job {id}: runtime must be > 0, got {runtime}")
        if runtime_estimate is None:
            runtime_estimate = runtime
        elif not runtime_estimate > 0:
            raise JobError(f"job {id}: runtime estimate must be > 0, got {runtime_estimate}")
        for name, values in (("cpu usage", cpu_usage), ("cpu estimate", cpu_estimate)):
            if values is None:
                continue
            if len(values) != procs:
                raise JobError(f"job {id}: {name} has {len(values)} values for {procs} processes")
            if not (min(values) > 0.0 and max(values) <= 1.0):
                raise JobError(f"job {id}: {name} outside (0, 1]: {min(values)}..{max(values)}")
        return cls(id, submit_time, procs, runtime, runtime_estimate,
                   None if cpu_usage is None else tuple(cpu_usage),
                   None if cpu_estimate is None else tuple(cpu_estimate), row)

    @property
    def min_procs(self) -> int:
        return self.procs

    def work(self, size: int) -> float:
        if size != self.procs:
            raise JobError(f"job {self.id} is rigid: it runs on {self.procs} processors, not {size}")
        return self.runtime

    def estimate(self, size: int) -> float:
        return self.runtime_estimate

    def usage(self, size: int) -> tuple[float, ...] | None:
        return self.cpu_usage

    def usage_estimate(self, size: int) -> tuple[float, ...] | None:
        return self.cpu_estimate
