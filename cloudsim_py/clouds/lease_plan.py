"""A lease's or a task's plan at its cloud, and the local discipline's options and counters:
what :class:`~cloudsim_py.clouds.local.LocalCloud` keeps per job (:class:`Plan`: its phase, its
bookings, its overheads on this cloud, how it may start) and what a policy sets
(:class:`LocalOptions`, :data:`PRESETS`) and reads (:class:`LocalCounters`), with the constants
the two share. Imports the job and lease entities; no slot table, no datacenter."""

from __future__ import annotations

import math
from typing import Any, Protocol

import attrs

from ..workload.job import Job
from ..workload.lease import LeaseMode

INF = math.inf
AR = LeaseMode.AR
BEST_EFFORT = LeaseMode.BEST_EFFORT
IMMEDIATE = LeaseMode.IMMEDIATE

#: where a lease is: queued (new or suspended), preparing (transfer or migration), running
#: (in the datacenter, reload included), saving its state after a suspension, done; planned
#: (booked to begin later: aggressive backfilling), shutting down (after its run, Haizea)
WAITING, PREP, RUNNING, SAVING, DONE, PLANNED, SHUTDOWN = range(7)
#: aggressive backfilling: how many best-effort leases may be booked in the future at once
FUTURE_LEASES = 1
#: two times closer than this are the same (a run's planned and real end)
EPS = 1e-6
#: how a waiting lease can start: from scratch, resumed on its VMs, resumed on others
FRESH, IN_PLACE, MIGRATE = range(3)
PREEMPTION = ("suspend", "reject", "start-late")
AR_VMS = ("free-first", "arbitrary")
PREEMPT_ORDER = ("newest", "oldest")
#: the slot table books positive intervals: a task of zero length is booked for this long
TINY = 1e-9


def positive_length(d: float) -> float:
    """``d``, or :data:`TINY` if it is not positive (what the slot table books for it)."""
    return d if d > 0 else TINY


#: relative time below which two instants are one for an AR task's start (about 10 ns at 10^4 s):
#: an AR task ready a few ulps before the lease on its VMs ends begins when that lease ends
RESOLUTION = 1e-12


def cut_before(end: float, save: float) -> float:
    """The latest suspension whose save of ``save`` seconds ends by ``end``: ``end - save``, or
    the float just below it when ``(end - save) + save`` rounds above ``end`` (the save would
    overlap the booking that begins at ``end`` by one ulp in the slot table)."""
    cut = end - save
    while cut + save > end:
        cut = math.nextafter(cut, -INF)
    return cut


@attrs.define(slots=True, eq=False)
class Copy:
    """One round of a suspended lease's state copy (``copy_ahead``): network traffic from the
    ``pairs``' first VMs to their second ones over ``[start, end)``; it holds no VM."""

    plan: "Plan"
    start: float
    end: float
    pairs: tuple[tuple[int, int], ...]
    event: Any = None

    @property
    def vms(self) -> tuple[int, ...]:
        """The receiving VMs."""
        return tuple(d for _, d in self.pairs)


class PhaseListener(Protocol):
    """Hears the overheads a cloud plans (image transfers, saves, reloads, migrations)."""

    def on_phase(self, job: Job, kind: str, start: float, end: float, vms: tuple[int, ...]) -> None: ...


@attrs.define(slots=True, eq=False, repr=False)
class Plan:
    """The cloud's bookkeeping of one lease or task (mutable, one per job)."""

    job: Job
    key: tuple                     #: queue order: (arrival time, sequence)
    xfer: float                    #: image transfer before the first start
    save: float                    #: saving its state on a suspension
    reload: float                  #: reading it back before running again
    mig: float                     #: moving a suspended lease to other VMs
    hard: bool                     #: not preemptible: books the hard table as well
    left: float                    #: requested duration still to run
    ready_at: float                #: not before (input data, end of a save)
    mode: LeaseMode = BEST_EFFORT
    start: float | None = None     #: the requested start of an AR lease
    phase: int = WAITING
    vms: tuple[int, ...] = ()
    last_vms: tuple[int, ...] = ()
    res: int | None = None         #: booking of the current preparation and run
    save_res: int | None = None    #: booking of a planned or running save
    go: Any = None                 #: event: preparation done, start or resume in the datacenter
    cut: Any = None                #: event: planned suspension
    cut_at: float = INF
    prep_start: float = 0.0
    prep_kind: int = FRESH
    run_from: float = 0.0          #: progress starts (after transfer or reload)
    started: bool = False          #: has run before (a start from now on is a resume)
    shutdown: float = 0.0          #: after a run that was not cut short (Haizea)
    carved: float = 0.0            #: an AR's shutdown carved out of its interval (LeaseJob.carved)
    save_est: float = 0.0          #: Haizea's whole-lease suspend estimate (its threshold)
    reload_est: float = 0.0        #: Haizea's whole-lease resume estimate
    arrival: tuple = ()            #: its first queue place (the preemption order)
    begin_at: float = INF          #: planned: when its preparation or resumption begins
    vm_start: float = INF          #: planned (or running): when its current run begins
    future: bool = False           #: booked at a future candidate (Haizea's "future lease")
    copies: list = attrs.Factory(list)   #: its state copies (:class:`Copy`)
    saved_at: float = 0.0          #: end of its last save

    def __repr__(self) -> str:
        return f"Plan(job {self.job.id}, phase {self.phase}, vms {self.vms})"


@attrs.define(slots=True, frozen=True)
class LocalOptions:
    """The local discipline's options: ``preemption`` (``suspend``: ARs preempt best-effort leases
    by suspend/resume; ``reject``: nothing is preempted, an AR whose VMs are not free at its
    start is rejected; ``start-late``: nothing is preempted, an AR starts as soon after its
    requested start as its VMs are free), ``backfill`` (``True``: later best-effort leases may
    start around the first blocked one, whose earliest run is held for them at every pass
    (EASY); ``False``: strict FCFS; ``"aggressive"``: Haizea 1.0's aggressive backfilling, see
    :class:`~cloudsim_py.clouds.haizea_queue.AggressiveQueue`), ``migrate`` (a suspended lease
    may resume on other VMs), ``fill_gaps`` (a preemptible lease may start in a gap before a reservation and be
    suspended for it; suspend mode only, except with aggressive backfilling, where it is
    Haizea's ``suspension: all``), ``ar_vms`` (which VMs an AR gets: ``free-first``, the lowest
    free ids, then those of the best-effort leases it preempts; or ``arbitrary``, Li et al.
    IV-C's "a set of required VMs are selected arbitrarily": drawn at random among every VM no
    other AR holds, preempting the best-effort work on them).

    Haizea 1.0's rules (Sotomayor et al.; each off by default, all on in the ``haizea`` preset,
    :data:`PRESETS`): ``threshold_factor`` (Haizea's ``scheduling-threshold-factor``: a lease
    starts in a gap before a reservation only if the gap is at least ``(1 + factor) E`` with
    ``E`` its whole-lease suspend estimate, plus the resume estimate for a suspended lease
    waiting in the queue; and an AR suspends a running lease only if it has run that long since
    its current run started, else the lease is cancelled, its run lost, and queued again;
    ``None``: a gap in which a lease makes progress before its save is enough, and a lease is
    preempted only if it can be saved in time), ``preempt_order`` (which best-effort leases an AR
    preempts first: the ``newest`` or, as Haizea, the ``oldest``), ``preempt_max_age`` (seconds:
    a best-effort lease submitted at least this long before an AR's start is never preempted by
    it; Haizea: 7 days), ``copy_ahead`` (Haizea's migration: a suspended lease planned to resume
    on other VMs has its state copied there over the network as soon as it is planned, while it
    waits, and a suspended lease's earliest restart is the planning time plus one copy, on its
    own VMs too; needs aggressive backfilling, which plans resumptions in advance)."""

    preemption: str = "suspend"
    backfill: bool | str = True
    migrate: bool = True
    fill_gaps: bool = True
    ar_vms: str = "free-first"
    threshold_factor: float | None = None
    preempt_order: str = "newest"
    preempt_max_age: float | None = None
    copy_ahead: bool = False

    def __attrs_post_init__(self) -> None:
        if self.preemption == "wait":
            raise ValueError("preemption 'wait' is now called 'start-late' (an AR starts late when its VMs "
                             "are busy); 'reject' refuses such an AR, as Haizea does without preemption")
        if self.preemption not in PREEMPTION:
            raise ValueError(f"preemption must be one of {', '.join(PREEMPTION)}, got {self.preemption!r}")
        if not isinstance(self.backfill, bool) and self.backfill != "aggressive":
            raise ValueError(f"backfill must be true, false or 'aggressive', got {self.backfill!r}")
        for key in ("migrate", "fill_gaps", "copy_ahead"):
            value = getattr(self, key)
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r}")
        if self.ar_vms not in AR_VMS:
            raise ValueError(f"ar_vms must be one of {', '.join(AR_VMS)}, got {self.ar_vms!r}")
        for key in ("threshold_factor", "preempt_max_age"):
            value = getattr(self, key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not 0 <= value < INF):
                raise ValueError(f"{key} must be a number >= 0 or null (off), got {value!r}")
        if self.preempt_order not in PREEMPT_ORDER:
            raise ValueError(f"preempt_order must be one of {', '.join(PREEMPT_ORDER)}, got {self.preempt_order!r}")
        if self.copy_ahead and self.backfill != "aggressive":
            raise ValueError("copy_ahead needs backfill: aggressive (a suspended lease's state is copied when "
                             "its resumption is planned, which only aggressive backfilling does in advance)")

    @classmethod
    def preset(cls, name: str | None, **changes: Any) -> "LocalOptions":
        """The values of preset ``name`` (:data:`PRESETS`; ``None``: the defaults) with ``changes``
        (a ``ValueError`` names an unknown preset)."""
        if name is not None and name not in PRESETS:
            raise ValueError(f"preset must be one of {', '.join(PRESETS)}, got {name!r}")
        return cls(**{**(PRESETS[name] if name is not None else {}), **changes})

    @property
    def aggressive(self) -> bool:
        return self.backfill == "aggressive"


#: named sets of options: Haizea 1.0's test configuration (ar-preempts-everything, aggressive
#: backfilling, suspension all, migration yes, scheduling-threshold-factor 1; its preemption
#: policy preempts the oldest best-effort lease first and never one submitted 7 days or more
#: before the AR's start)
PRESETS: dict[str, dict[str, Any]] = {
    "haizea": {"preemption": "suspend", "backfill": "aggressive", "migrate": True, "fill_gaps": True,
               "ar_vms": "free-first", "threshold_factor": 1.0, "preempt_order": "oldest",
               "preempt_max_age": 7 * 86400.0, "copy_ahead": True},
}


@attrs.define(slots=True)
class LocalCounters:
    """What the local discipline counts (a broker's counters)."""

    ar_accepted: int = 0
    ar_rejected: int = 0
    ar_delay: float = 0.0          #: seconds ARs started after their requested start (start-late)
    immediate_rejected: int = 0
    preemptions: int = 0           #: best-effort leases cut for an AR
    requeued: int = 0              #: best-effort leases an AR cancelled and queued again (a run so far lost)
    copies: int = 0                #: state copies booked ahead of a resumption elsewhere (copy_ahead)
    gap_starts: int = 0            #: best-effort starts planned to be suspended
    cancelled: int = 0             #: preparations cut short by an AR
