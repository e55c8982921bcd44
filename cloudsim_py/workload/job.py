"""A job in the simulation: its immutable description, what a broker sees of it now, its
outcome, its state machine, and (while it runs) the datacenter's run state. Imports nothing but
errors and the descriptions."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, Sequence

import attrs

from ..errors import JobStateError
from .description import JobDescription, RigidJob

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.runstate import RunState


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
#: a new job's state, read once: a member read through its enum class is a look-up of some
#: 100 ns, paid by every job and DAG task made
_PENDING = JobState.PENDING
#: _ALLOWED[old][new] is True for a legal transition
_ALLOWED: tuple[tuple[bool, ...], ...] = tuple(
    tuple(new in _EDGES[old] for new in JobState) for old in JobState)


@attrs.define(slots=True, eq=False, init=False, repr=False)
class Job:
    """One job of a simulation.

    Three parts with three owners:

    - ``desc``, the immutable :class:`~cloudsim_py.workload.description.JobDescription` the user
      submitted (rigid, moldable, a DAG task, a lease). Its true runtime and CPU usage are the
      simulator's: a broker must not read them.
    - What a broker sees: ``id``, ``submit_time``, ``procs`` (the size asked for; once started,
      the size it runs on), ``runtime_estimate`` and ``cpu_estimate`` (per process, ``None``
      when hidden) at that size, ``state``, ``tier`` and ``hosts``; and the outcome it can read
      and the metrics report: first start, current start, finish, kills, suspensions, context
      switches, migrations, swaps, lost work.
    - ``run``, the datacenter's :class:`~cloudsim_py.infrastructure.runstate.RunState` (hosts,
      slots, speed, remaining work, finish event): written by the datacenter only.

    ``Job(description)`` wraps a description of any kind; ``Job(id, submit_time, procs,
    runtime=...)`` makes a checked rigid one.
    """

    desc: JobDescription
    id: int
    submit_time: float
    procs: int
    runtime_estimate: float
    cpu_estimate: tuple[float, ...] | None
    state: JobState
    #: arrival order, ``(submit_time, id)``: a killed or suspended job keeps its place
    order: tuple[float, int]
    # -- outcome --------------------------------------------------------------------------
    first_start: float | None
    start_time: float | None             #: start of the current (or last) run
    finish_time: float | None
    kills: int
    suspensions: int
    context_switches: int                #: resumed in place (no migration)
    migrations: int                      #: resumed elsewhere (migration cost paid)
    swaps: int
    lost_work: float                     #: work thrown away by kills
    work: float                          #: true work of the last run at its size (set when it ends)
    tier: int                            #: tier of the current (or last) run; -1 before any
    # -- owned by the datacenter ------------------------------------------------------------
    run: "RunState | None"

    def __init__(self, id: JobDescription | int, submit_time: float | None = None,
                 procs: int | None = None, runtime: float | None = None,
                 runtime_estimate: float | None = None, cpu_usage: tuple[float, ...] | None = None,
                 cpu_estimate: tuple[float, ...] | None = None, row: int = -1) -> None:
        if submit_time is not None or procs is not None or runtime is not None:
            if submit_time is None or procs is None or runtime is None:
                raise TypeError("Job(id, submit_time, procs, runtime=...) needs all four")
            desc: JobDescription = RigidJob.checked(id, submit_time, procs, runtime,  # type: ignore[arg-type]
                                                    runtime_estimate, cpu_usage, cpu_estimate, row)
        elif isinstance(id, int):
            raise TypeError("Job(id, submit_time, procs, runtime=...) or Job(description)")
        else:
            desc = id
        self.desc = desc
        self.id = desc.id
        self.submit_time = desc.submit_time
        self.procs = desc.procs
        self.runtime_estimate = desc.runtime_estimate
        self.cpu_estimate = desc.usage_estimate(desc.procs)
        self.state = _PENDING
        self.order = (desc.submit_time, desc.id)
        self.first_start = self.start_time = self.finish_time = None
        self.kills = self.suspensions = self.context_switches = self.migrations = self.swaps = 0
        self.lost_work = self.work = 0.0
        self.tier = -1
        self.run = None

    @classmethod
    def of(cls, desc: JobDescription) -> "Job":
        """A job for a description (of any kind); the description is not copied."""
        return cls(desc)

    def fresh(self) -> "Job":
        """A new pending job of the same description, with nothing of this one's run: what
        :func:`~cloudsim_py.runner.build` and :func:`~cloudsim_py.runner.simulate` submit in
        place of a job they are given, so that the caller's job is never changed and a list of
        jobs can be run again (in a notebook, a block rerun)."""
        return Job(self.desc)

    # -- state machine --------------------------------------------------------------------
    def transition(self, new: JobState, now: float) -> None:
        """Move to ``new``; an illegal transition raises :class:`JobStateError`."""
        if not _ALLOWED[self.state][new]:
            self.refuse(new, now)
        self.state = new

    def can(self, new: JobState) -> bool:
        return _ALLOWED[self.state][new]

    def refuse(self, new: JobState, now: float) -> Any:
        raise JobStateError(f"t={now}: job {self.id} cannot go from {self.state.label} to {new.label}")

    # -- read-only views of the run state -------------------------------------------------
    @property
    def hosts(self) -> Sequence | None:
        """Hosts of the current run, one per process (``None`` when not running)."""
        run = self.run
        return run.hosts if run is not None else None

    @property
    def row(self) -> int:
        return self.desc.row

    def __repr__(self) -> str:
        return (f"Job(id={self.id}, submit={self.submit_time:g}, procs={self.procs}, "
                f"est={self.runtime_estimate:g}, state={self.state.label})")
