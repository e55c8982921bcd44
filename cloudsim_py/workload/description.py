"""What a user submits: immutable job descriptions, and the protocol through which the
datacenter asks one for its work at the size it is given. Rigid jobs are here; moldable jobs, DAG
tasks and leases are other descriptions with the same protocol. Imports nothing but errors."""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any, NamedTuple, Protocol, runtime_checkable

from ..errors import JobError
from ..validate import kind

#: the largest job id (ids are kept in float64 columns, exact up to 2^53)
MAX_JOB_ID = 2**53 - 1


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
        """Build a description, refusing impossible values with :class:`JobError` naming the
        argument: the same values a scenario's inline jobs refuse (an id that is not a whole
        number within +-2^53 - 1, a submit time that is negative, NaN or infinite, a runtime or
        estimate that is not a finite number > 0, usage outside (0, 1]). Checked once here, so
        the simulation itself never looks again."""
        if isinstance(id, bool) or not isinstance(id, Integral) or not -MAX_JOB_ID <= id <= MAX_JOB_ID:
            raise JobError(f"job {id!r}: id must be an integer within +-2^53 - 1, got {kind(id)}")
        id = int(id)
        if isinstance(procs, bool) or not isinstance(procs, int):
            raise JobError(f"job {id}: procs must be an integer, got {kind(procs)}")
        if procs < 1:
            raise JobError(f"job {id}: procs must be >= 1, got {procs}")
        submit_time = _time(id, "submit_time", submit_time, ">= 0")
        runtime = _time(id, "runtime", runtime, "> 0")
        if runtime_estimate is None:
            runtime_estimate = runtime
        else:
            runtime_estimate = _time(id, "runtime_estimate", runtime_estimate, "> 0")
        for name, values in (("cpu_usage", cpu_usage), ("cpu_estimate", cpu_estimate)):
            if values is None:
                continue
            if len(values) != procs:
                raise JobError(f"job {id}: {name} has {len(values)} values for {procs} processes")
            bad = [v for v in values if not _real(v) or not 0.0 < v <= 1.0]
            if bad:
                raise JobError(f"job {id}: {name} outside (0, 1]: {_shown(bad[0])}")
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


def _real(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A bad value in a message: a number as itself (``nan``, ``-1``), anything else with its type."""
    return str(value) if _real(value) else kind(value)


def _time(id: int, name: str, value: Any, bound: str) -> float:
    """``value`` as a float if it is a finite real number within ``bound`` (``>= 0`` or
    ``> 0``), else a :class:`JobError` naming the job and the argument."""
    if not _real(value):
        raise JobError(f"job {id}: {name} must be a number, got {kind(value)}")
    if not math.isfinite(value):
        raise JobError(f"job {id}: {name} must be a finite number, got {value}")
    if value < 0.0 or (bound == "> 0" and value == 0.0):
        raise JobError(f"job {id}: {name} must be {bound}, got {value}")
    return float(value)
