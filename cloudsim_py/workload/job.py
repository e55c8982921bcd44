"""The rigid parallel job: what a broker may see, what only the simulator knows, and its
state machine. Imports nothing but errors."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import attrs

from ..errors import JobStateError


class JobState(IntEnum):
    """Life cycle of a job (an IntEnum so the hot-path transition check is a tuple lookup)."""

    PENDING = 0      #: created, not yet submitted
    QUEUED = 1       #: submitted (or killed back), waiting for a broker
    RUNNING = 2      #: holds tier slots
    SUSPENDED = 3    #: state saved, holds nothing, waits to be resumed
    FINISHED = 4
    REJECTED = 5     #: can never run (or a broker gave up on it)

    @property
    def label(self) -> str:
        return self.name.lower()


_EDGES = {
    JobState.PENDING: (JobState.QUEUED, JobState.REJECTED),
    JobState.QUEUED: (JobState.RUNNING, JobState.REJECTED),
    JobState.RUNNING: (JobState.FINISHED, JobState.QUEUED, JobState.SUSPENDED),
    JobState.SUSPENDED: (JobState.RUNNING,),
    JobState.FINISHED: (),
    JobState.REJECTED: (),
}
#: _ALLOWED[old][new] is True for a legal transition
_ALLOWED: tuple[tuple[bool, ...], ...] = tuple(
    tuple(new in _EDGES[old] for new in JobState) for old in JobState)


@attrs.define(slots=True, eq=False, repr=False)
class Job:
    """A rigid parallel job of ``procs`` processes.

    A broker sees ``id``, ``submit_time``, ``procs``, ``runtime_estimate`` and ``cpu_estimate``
    (one value per process, ``None`` when the scenario hides CPU usage). The true runtime
    (``_runtime``, seconds on a dedicated processor) and true CPU usage (``_cpu_usage``) are
    the simulator's: a broker must not read them.

    Progress is rate based (ARCHITECTURE.md, Progress): the job keeps ``remaining_work``,
    its current ``speed`` (minimum over its processes) and ``settled_at``.
    """

    id: int
    submit_time: float
    procs: int
    _runtime: float = attrs.field(alias="runtime")
    runtime_estimate: float = attrs.field(default=None)
    _cpu_usage: tuple[float, ...] | None = attrs.field(default=None, alias="cpu_usage")
    cpu_estimate: tuple[float, ...] | None = None
    #: row of the source workload table (for writing the output trace); -1 if none
    row: int = -1
    state: JobState = JobState.PENDING

    # -- record of what happened ---------------------------------------------------------
    first_start: float | None = None
    start_time: float | None = None      #: start of the current (or last) run
    finish_time: float | None = None
    kills: int = 0
    suspensions: int = 0
    migrations: int = 0
    swaps: int = 0
    lost_work: float = 0.0               #: work thrown away by kills

    # -- placement and progress (owned by the datacenter) --------------------------------
    tier: int = -1                       #: tier of the current (or last) run
    hosts: list | None = None            #: hosts of the current run, one per process
    slots: list | None = None            #: the tier slots it holds, one per process
    remaining_work: float = 0.0
    speed: float = 0.0
    settled_at: float = 0.0
    finish_event: Any = None
    restoring: bool = False              #: resumed, still paying the migration cost
    #: free-form per-job storage for brokers (reservations, flags); never read by the engine
    meta: dict = attrs.field(factory=dict)
    #: arrival order, ``(submit_time, id)``: a killed or suspended job keeps its place
    order: tuple = attrs.field(init=False, default=None)

    def __attrs_post_init__(self) -> None:
        if self.procs < 1:
            raise ValueError(f"job {self.id}: procs must be >= 1, got {self.procs}")
        if not self._runtime > 0:
            raise ValueError(f"job {self.id}: runtime must be > 0, got {self._runtime}")
        if self.runtime_estimate is None:
            self.runtime_estimate = self._runtime
        elif not self.runtime_estimate > 0:
            raise ValueError(f"job {self.id}: runtime estimate must be > 0, got {self.runtime_estimate}")
        for name, values in (("cpu usage", self._cpu_usage), ("cpu estimate", self.cpu_estimate)):
            if values is None:
                continue
            if len(values) != self.procs:
                raise ValueError(f"job {self.id}: {name} has {len(values)} values for {self.procs} processes")
            if not (min(values) > 0.0 and max(values) <= 1.0):
                raise ValueError(f"job {self.id}: {name} outside (0, 1]: {min(values)}..{max(values)}")
        self.remaining_work = self._runtime
        self.order = (self.submit_time, self.id)

    def transition(self, new: JobState, now: float) -> None:
        """Move to ``new``; an illegal transition raises :class:`JobStateError`."""
        if not _ALLOWED[self.state][new]:
            self.refuse(new, now)
        self.state = new

    def can(self, new: JobState) -> bool:
        return _ALLOWED[self.state][new]

    def refuse(self, new: JobState, now: float):
        raise JobStateError(f"t={now}: job {self.id} cannot go from {self.state.label} to {new.label}")

    @property
    def cpu_usage(self) -> tuple[float, ...]:
        """True per-process CPU usage (simulator side; 1.0 each when not modelled)."""
        return self._cpu_usage if self._cpu_usage is not None else (1.0,) * self.procs

    def true_runtime(self) -> float:
        """Runtime on dedicated processors. Simulator side only (metrics, output)."""
        return self._runtime

    def __repr__(self) -> str:
        return (f"Job(id={self.id}, submit={self.submit_time:g}, procs={self.procs}, "
                f"est={self.runtime_estimate:g}, state={self.state.label})")
