"""The datacenter's bookkeeping of one job's run: where it runs, how fast, how much work is
left, when it will finish. Written by the datacenter and its progress model only; a broker
reads a job's ``state``, ``tier`` and ``hosts`` instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import attrs

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host, TierSlot


@attrs.define(slots=True, eq=False, repr=False)
class RunState:
    """Made at a job's first start and reused by its later runs (no allocation per event).

    ``work``: the true work of the current run at its ``size`` (the description's
    ``work(size)``), ``usage`` its true CPU usage per process; ``remaining`` the work left at
    ``settled_at``, progressing at ``speed`` (the slowest process; 0 while ``restoring``, i.e.
    paying a migration cost); ``hosts``/``slots`` the current placement (``None`` when not
    running); ``last_hosts``/``last_tier`` the latest placement, kept after it ends (a
    suspended job resumes there in place; recorders read it after a finish or kill).
    ``proc_remaining``/``proc_speed``: each process's own work left at ``settled_at`` and its
    speed, kept only under ``interference.job_progress: per_process`` (None otherwise; reset at
    every start, kept across a suspension). ``speeds``: the slots' speeds kept by a progress
    model: a wide job's :class:`~cloudsim_py.execution.slowest.SlowestSpeed` under
    ``lockstep`` on two tiers, every job's processes as a
    :class:`~cloudsim_py.execution.barriers.BarrierClock` under ``barriers`` (current while
    its ``of`` is ``slots``; reset at every start)."""

    size: int = 0
    work: float = 0.0
    usage: tuple[float, ...] | None = None
    tier: int = -1
    hosts: "Sequence[Host] | None" = None
    slots: "list[TierSlot] | None" = None
    remaining: float = 0.0
    speed: float = 0.0
    settled_at: float = 0.0
    finish_event: Any = None
    restoring: bool = False
    last_hosts: "Sequence[Host] | None" = None
    last_tier: int = -1
    proc_remaining: "list[float] | None" = None
    proc_speed: "list[float] | None" = None
    speeds: Any = None
