"""The local mapping of one cloud (Li et al., seed 001, section IV-C; Haizea's model, Sotomayor,
Keahey and Foster, HPDC 2008, and Sotomayor, Llorente and Foster, HPCC 2009): the slot table of
its VMs' bookings and what enacts them on its datacenter (image transfers, starts, suspensions,
saves, reloads, migrations), with the local discipline every policy of a cloud shares:

- **Advance reservation** (AR), at admission: the VMs are booked over ``[start - S_I/b,
  start + duration)``, free ones first (lowest ids). When too few are free, best-effort leases
  holding the others are preempted, newest first: each is suspended at ``start - S_I/b - save``
  so that saving its state and the AR's image transfer end by the AR's start (Li et al. III-B).
  A lease that cannot be saved in time, a non-preemptible one or another AR blocks; an AR that
  cannot get its VMs is rejected, with the reason. ``preemption="reject"``: nothing is
  preempted (an AR whose VMs are not free at its start is rejected); ``"start-late"``: nothing is
  preempted and the AR starts at the earliest time after its requested start at which its VMs
  are free. An AR task of a DAG job (no requested start) is reserved as soon as it is ready and
  its VMs can be had, by preemption if that is earlier.
- **Best-effort**, first come first served with backfilling: at every pass the waiting leases
  are taken in arrival order; one starts now if its VMs are free for its transfer and its
  (remaining) requested duration; the first that cannot gets a reservation at the earliest time
  it could (EASY's head reservation, recomputed at every pass), and the later ones start only if
  they fit around every reservation. With ``fill_gaps`` (and suspend-mode preemption) a
  preemptible lease that does not fit before the next reservation on the free VMs starts anyway
  in that gap and is suspended for it, as Haizea does.
- **Suspend / resume.** A suspended lease keeps its place in the queue; it resumes *in place*
  (same VMs: reload, ``dc.resume(cost=...)``) or, with ``migrate``, on other VMs when they
  finish it earlier (state and image moved, then the reload).
- **Immediate** leases start now on free VMs, for their whole requested duration, or are
  rejected.
- A lease that ends before its requested duration frees its VMs then.

**Order within a timestamp.** Every planned suspension and every end of a save happens in the
``PREEMPT`` phase, after the finishes and before anything takes VMs; every planned start (a
transfer or migration over) in the ``TIMER`` phase, after every release at that time
(infrastructure/phases.py). So a VM a booking hands over at ``t`` is free in the datacenter when
the next booking takes it at ``t``.

Slot-table bookings are what the scheduler believes; the datacenter holds a VM only while a
lease runs (or reloads). Every overhead is told to the phase listeners (``on_phase(job, kind,
start, end, vms)``; :class:`~cloudsim_py.clouds.records.LeaseRecords`). Imports the slot table,
the overheads, the datacenter's phases and the job entity; no policy, no scenario.
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left
from itertools import count
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable, Protocol

import attrs
import numpy as np
from sortedcontainers import SortedKeyList

from ..errors import PolicyError
from ..infrastructure.phases import PREEMPT, TIMER
from ..workload.job import Job, JobState
from ..workload.lease import LeaseMode
from .cloud import CloudSpec
from .overheads import Overheads
from .slottable import BIG, SlotTable

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Event
    from ..infrastructure.datacenter import Datacenter

log = logging.getLogger(__name__)

INF = math.inf
AR = LeaseMode.AR
BEST_EFFORT = LeaseMode.BEST_EFFORT
IMMEDIATE = LeaseMode.IMMEDIATE

#: where a lease is: queued (new or suspended), preparing (transfer or migration), running
#: (in the datacenter, reload included), saving its state after a suspension, done
WAITING, PREP, RUNNING, SAVING, DONE = range(5)
#: how a waiting lease can start: from scratch, resumed on its VMs, resumed on others
FRESH, IN_PLACE, MIGRATE = range(3)
PREEMPTION = ("suspend", "reject", "start-late")
AR_VMS = ("free-first", "arbitrary")
#: the slot table books positive intervals: a task of zero length is booked for this long
TINY = 1e-9


def _positive(d: float) -> float:
    return d if d > 0 else TINY


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

    def __repr__(self) -> str:
        return f"Plan(job {self.job.id}, phase {self.phase}, vms {self.vms})"


@attrs.define(slots=True, frozen=True)
class LocalOptions:
    """The local discipline's options: ``preemption`` (``suspend``: ARs preempt best-effort leases
    by suspend/resume; ``reject``: nothing is preempted, an AR whose VMs are not free at its
    start is rejected; ``start-late``: nothing is preempted, an AR starts as soon after its
    requested start as its VMs are free), ``backfill`` (later best-effort leases may start
    around the first blocked one; else strict FCFS), ``migrate`` (a suspended lease may resume
    on other VMs), ``fill_gaps`` (a preemptible lease may start in a gap before a reservation
    and be suspended for it; suspend mode only), ``ar_vms`` (which VMs an AR gets:
    ``free-first``, the lowest free ids, then those of the newest best-effort leases; or
    ``arbitrary``, Li et al. IV-C's "a set of required VMs are selected arbitrarily": drawn at
    random among every VM no other AR holds, preempting the best-effort work on them)."""

    preemption: str = "suspend"
    backfill: bool = True
    migrate: bool = True
    fill_gaps: bool = True
    ar_vms: str = "free-first"

    def __attrs_post_init__(self) -> None:
        if self.preemption == "wait":
            raise ValueError("preemption 'wait' is now called 'start-late' (an AR starts late when its VMs "
                             "are busy); 'reject' refuses such an AR, as Haizea does without preemption")
        if self.preemption not in PREEMPTION:
            raise ValueError(f"preemption must be one of {', '.join(PREEMPTION)}, got {self.preemption!r}")
        for key in ("backfill", "migrate", "fill_gaps"):
            value = getattr(self, key)
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r}")
        if self.ar_vms not in AR_VMS:
            raise ValueError(f"ar_vms must be one of {', '.join(AR_VMS)}, got {self.ar_vms!r}")


@attrs.define(slots=True)
class LocalCounters:
    """What the local discipline counts (a broker's counters)."""

    ar_accepted: int = 0
    ar_rejected: int = 0
    ar_delay: float = 0.0          #: seconds ARs started after their requested start (start-late)
    immediate_rejected: int = 0
    preemptions: int = 0           #: best-effort leases cut for an AR
    gap_starts: int = 0            #: best-effort starts planned to be suspended
    cancelled: int = 0             #: preparations cut short by an AR


class LocalCloud:
    """One cloud's slot table and its enactment on datacenter ``dc`` (see the module docstring).

    A policy composes it: it admits jobs (:meth:`admit`, or :meth:`plan` then :meth:`submit` for
    work it decided itself), runs the local pass (:meth:`schedule`), hands it the datacenter's
    finishes (:meth:`finished`) and asks it for quotes (:meth:`quote`)."""

    def __init__(self, dc: "Datacenter", cloud: CloudSpec | None = None, options: LocalOptions | None = None,
                 overheads: Overheads | None = None) -> None:
        n = len(dc.hosts)
        if cloud is not None and cloud.vms != n:
            raise PolicyError(f"cloud {cloud.name!r} has {cloud.vms} VMs but its datacenter {n}")
        self.dc = dc
        self.cloud = cloud
        self.options = options if options is not None else LocalOptions()
        self.overheads = overheads if overheads is not None else Overheads()
        self.fill_gaps = self.options.fill_gaps and self.options.preemption == "suspend"
        self.n_vms = n
        self.table = SlotTable(n)
        self.hard = SlotTable(n)         #: the bookings no AR can take (ARs, immediate, saves...)
        self.counters = LocalCounters()
        self.phase_listeners: list[PhaseListener] = []
        self._plans: dict[Job, Plan] = {}
        self._waiting: SortedKeyList = SortedKeyList(key=attrgetter("key"))
        self._owner: dict[int, Plan | None] = {}
        self._rids = count()
        self._seq = count()
        self._wake = INF
        self._wake_event: Any = None
        #: what the last pass left for later leases (slot-table version, the free VMs with how
        #: long each stays free, the first blocked lease and whether its reservation was held)
        self._memo: tuple[int, dict[int, float], Plan | None, bool] | None = None
        #: leases queued since the last pass (at the queue's end), for an incremental pass
        self._fresh: list[Plan] = []
        #: the next pass must look at every waiting lease (one became ready, or re-entered the
        #: queue in the middle)
        self._full = True
        #: the slot tables' profiles for quotes (hard or not -> see :meth:`_profile`)
        self._profiles: dict[bool, tuple] = {}

    # ------------------------------------------------------------------ wiring
    def add_phase_listener(self, listener: PhaseListener) -> PhaseListener:
        self.phase_listeners.append(listener)
        return listener

    def _phase(self, p: Plan, kind: str, start: float, end: float) -> None:
        for listener in self.phase_listeners:
            listener.on_phase(p.job, kind, start, end, p.vms)

    @property
    def version(self) -> int:
        """Bumps at every booking change: lets a caller cache answers of the slot table."""
        return self.table.version

    # ------------------------------------------------------------------ bookings
    def _book(self, p: Plan | None, vms: Iterable[int], start: float, end: float, hard: bool) -> int:
        rid = next(self._rids)
        vms = tuple(vms)
        if end <= start:            # a zero-length task still holds its VMs for an instant
            end = start + TINY
        self.table.reserve(rid, vms, start, end)
        if hard:
            self.hard.reserve(rid, vms, start, end)
        self._owner[rid] = p
        return rid

    def _unbook(self, rid: int) -> None:
        self.table.release(rid)
        if rid in self.hard:
            self.hard.release(rid)
        del self._owner[rid]

    def _shorten(self, rid: int, end: float) -> None:
        self.table.shorten(rid, end)
        if rid in self.hard:
            self.hard.shorten(rid, end)

    def _wake_at(self, t: float) -> None:
        """A pass at ``t`` (one pending wake-up, the earliest asked for)."""
        if t < self._wake:
            if self._wake_event is not None:
                self.dc.cancel_wake(self._wake_event)
            self._wake = t
            self._wake_event = self.dc.schedule_action(t, self._woken, None, TIMER)

    def _woken(self, _: Any) -> None:
        self._wake = INF
        self._wake_event = None
        self._full = True

    # ------------------------------------------------------------------ admission
    def knows(self, job: Job) -> bool:
        """Whether ``job`` has a plan here (it was admitted and has not finished)."""
        return job in self._plans

    def plan(self, job: Job, ready_at: float | None = None) -> Plan:
        """A plan for ``job`` (a lease, a DAG task or a rigid job, which is a best-effort lease),
        not yet admitted: its overheads on this cloud, its queue place."""
        desc: Any = job.desc
        mode = getattr(desc, "mode", BEST_EFFORT)
        times = self.overheads.times(self.cloud, getattr(desc, "image_mb", 0.0), getattr(desc, "memory_mb", 0.0))
        hard = not (mode is BEST_EFFORT and getattr(desc, "preemptible", True))
        nb = float(getattr(desc, "not_before", desc.submit_time)) if ready_at is None else float(ready_at)
        return Plan(job, (desc.submit_time, next(self._seq)), times.transfer, times.save, times.reload,
                    times.migrate, hard, float(desc.runtime_estimate), nb, mode, getattr(desc, "start", None))

    def admit(self, job: Job) -> None:
        """A job submitted to the datacenter: reserve it (AR), start it or refuse it (immediate),
        or queue it (best-effort)."""
        p = self.plan(job)
        self._plans[job] = p
        self._enter(p, None)

    def submit(self, job: Job, p: Plan, choice: Any = None) -> None:
        """Submit ``job`` to the datacenter with the plan its policy made (an AR with the
        reservation it chose, :meth:`ar_choice`): the datacenter's listeners hear of it, and the
        plan is carried out without a second decision."""
        self._plans[job] = p
        self.dc.submit(job)
        if job.state is JobState.REJECTED:
            self._plans.pop(job, None)
            return
        self._enter(p, choice)

    def _enter(self, p: Plan, choice: Any) -> None:
        mode = p.mode
        if mode is AR:
            self.admit_ar(p, choice)
        elif mode is IMMEDIATE:
            self._admit_immediate(p)
        else:
            self._waiting.add(p)
            self._fresh.append(p)

    def _reject(self, p: Plan, reason: str) -> None:
        del self._plans[p.job]
        p.phase = DONE
        self.dc.reject(p.job, reason)

    def _admit_immediate(self, p: Plan) -> None:
        now = self.dc.now
        job = p.job
        need = now + p.xfer + p.left
        free = self._free_now(now)
        fits = [v for v, u in free.items() if u >= need]
        if len(fits) < job.procs:
            self.counters.immediate_rejected += 1
            self._reject(p, f"immediate lease needs {job.procs} VMs now for {p.xfer + p.left:g} s, "
                            f"{len(fits)} are free")
            return
        self._start(p, tuple(fits[:job.procs]), FRESH, now, None)

    # ------------------------------------------------------------------ advance reservations
    def ar_choice(self, p: Plan, now: float) -> tuple[float, tuple[int, ...], list[Plan]] | str:
        """Where and when an AR runs: ``(start of its transfer, VMs, leases to preempt)``, or the
        reason it cannot. A lease AR starts at its requested start (suspend and reject modes) or
        as soon after as its VMs are free (start-late); a task AR (no requested start) as soon as
        it is ready and its VMs can be had."""
        n = p.job.procs
        span = p.xfer + p.left
        start = p.start
        mode = self.options.preemption
        if start is not None:
            a = start - p.xfer
            if mode == "start-late":
                t, vms = self.table.earliest_start(n, _positive(span), max(now, a))
                return t, vms, []
            if a < now:
                return (f"its image transfer ({p.xfer:g} s) cannot end by its start {start:g} "
                        f"(now {now:g})")
            if mode == "reject":
                free = self.table.free_vms(a, a + _positive(span))
                if len(free) < n:
                    return (f"needs {n} VMs over [{a:g}, {a + span:g}) and {len(free)} are free "
                            "(no preemption)")
                return a, tuple(free[:n]), []
            got = self._claim(n, a, a + _positive(span), now)
            if got is None:
                return (f"needs {n} VMs over [{a:g}, {a + span:g}) and fewer are free or held by "
                        "best-effort leases that can be suspended in time")
            return a, got[0], got[1]
        # a task: the earliest time it fits, or earlier by preempting best-effort tasks
        lo = max(now, p.ready_at)
        if mode == "suspend" and self.options.ar_vms == "arbitrary":
            got = self._claim(n, lo, lo + _positive(span), now)
            if got is not None:
                return lo, got[0], got[1]
        t1, vms1 = self.table.earliest_start(n, _positive(span), lo)
        if mode != "suspend" or t1 == lo:
            return t1, vms1, []
        t2 = self.hard.earliest_start(n, _positive(span), lo)[0]
        if t2 < t1:
            got = self._claim(n, t2, t2 + _positive(span), now)
            if got is not None:
                return t2, got[0], got[1]
            # the leases in the way cannot be saved by t2: try where every running one could be
            ready = max((max(now, q.run_from) + q.save for q in self._plans.values()
                         if not q.hard and q.phase == RUNNING), default=now)
            t2 = self.hard.earliest_start(n, _positive(span), max(lo, ready))[0]
            if t2 < t1:
                got = self._claim(n, t2, t2 + _positive(span), now)
                if got is not None:
                    return t2, got[0], got[1]
        return t1, vms1, []

    def _cuttable(self, q: Plan, a: float, now: float) -> bool:
        """Can best-effort lease ``q`` free its VMs by ``a`` (suspended, its state saved)?"""
        if q.hard:
            return False
        if q.phase == PREP:
            return True                     # the transfer is cut short, nothing to save
        if q.phase != RUNNING:
            return False
        s = a - q.save
        return s >= now and s >= q.run_from

    def _claim(self, n: int, a: float, e: float, now: float) -> tuple[tuple[int, ...], list[Plan]] | None:
        """``n`` VMs over ``[a, e)``: free ones first (lowest ids), then those of best-effort
        leases that can be suspended in time (their run and any planned save give way), newest
        lease first; or, with ``ar_vms="arbitrary"``, ``n`` drawn at random among the free VMs
        and those such leases hold. ``None`` if too few."""
        table = self.table
        free = table.free_vms(a, e)
        arbitrary = self.options.ar_vms == "arbitrary"
        if len(free) >= n and not arbitrary:
            return tuple(free[:n]), []
        owner = self._owner
        blockers: dict[int, list[Plan | None]] = {}
        units: dict[Plan, None] = {}
        for r in table.overlapping(a, e):
            q = owner[r.id]  # type: ignore[index]
            movable = q is not None and (r.id == q.res or r.id == q.save_res) and self._cuttable(q, a, now)
            for v in r.vms:
                blockers.setdefault(v, []).append(q if movable else None)
            if movable:
                assert q is not None
                units[q] = None
        if arbitrary:
            return self._draw(n, free, blockers, units)
        chosen: set[Plan] = set()
        freed: list[int] = []
        seen: set[int] = set()
        for q in sorted(units, key=attrgetter("key"), reverse=True):     # newest first
            chosen.add(q)
            for v in q.vms:
                if v not in seen and all(b is not None and b in chosen for b in blockers.get(v, ())):
                    seen.add(v)
                    freed.append(v)
            if len(free) + len(freed) >= n:
                break
        else:
            return None
        take = free + sorted(freed)[: n - len(free)]
        used = set(take)
        victims = [q for q in chosen if used.intersection(q.vms)]
        return tuple(sorted(take)), victims

    def _draw(self, n: int, free: list[int], blockers: dict[int, list[Plan | None]],
              units: dict[Plan, None]) -> tuple[tuple[int, ...], list[Plan]] | None:
        """Li et al. IV-C's arbitrary choice: ``n`` VMs uniformly at random (the simulation's
        ``ar_vms`` stream) among those free and those held only by best-effort leases that can be
        suspended in time; every lease on a chosen VM is preempted."""
        movable = [v for v, holders in blockers.items() if all(q is not None for q in holders)]
        pool = sorted(set(free).union(movable))
        if len(pool) < n:
            return None
        rng = self.dc.sim.random["ar_vms"]
        take = sorted(int(v) for v in rng.choice(pool, size=n, replace=False))
        used = set(take)
        victims = [q for q in units if used.intersection(q.vms)]
        return tuple(take), victims

    def admit_ar(self, p: Plan, choice: Any = None) -> bool:
        """Reserve AR ``p`` (with ``choice`` from :meth:`ar_choice`, computed now if ``None``),
        preempting what it must; reject it with the reason if it cannot be reserved."""
        now = self.dc.now
        if choice is None:
            choice = self.ar_choice(p, now)
        if isinstance(choice, str):
            self.counters.ar_rejected += 1
            self._reject(p, f"advance reservation refused: {choice}")
            return False
        a, vms, victims = choice
        for q in victims:
            self._preempt(q, a, now)
        self.counters.ar_accepted += 1
        start = a + p.xfer
        if p.start is not None and start > p.start:
            self.counters.ar_delay += start - p.start
        p.vms = vms
        p.prep_start = a
        p.res = self._book(p, vms, a, start + p.left, True)
        p.phase = PREP
        p.prep_kind = FRESH
        if start == now:
            self._go(p)
        else:
            p.go = self.dc.schedule_action(start, self._go, p, TIMER)
        return True

    def _preempt(self, q: Plan, a: float, now: float) -> None:
        """Free ``q``'s VMs by ``a``: cut its preparation short, or suspend it at ``a - save``."""
        self.counters.preemptions += 1
        if q.phase == PREP:
            self.counters.cancelled += 1
            self.dc.cancel_wake(q.go)
            q.go = None
            self._phase(q, "cancelled", q.prep_start, now)
            self._drop_bookings(q)
            q.phase = WAITING
            q.ready_at = now
            self._waiting.add(q)
            self._full = True
            return
        self._plan_cut(q, a - q.save, now)

    def _drop_bookings(self, q: Plan) -> None:
        if q.res is not None:
            self._unbook(q.res)
            q.res = None
        if q.save_res is not None:
            self._unbook(q.save_res)
            q.save_res = None
        if q.cut is not None:
            self.dc.cancel_wake(q.cut)
            q.cut = None
        q.cut_at = INF

    def _plan_cut(self, q: Plan, s: float, now: float) -> None:
        """Suspend running lease ``q`` at ``s`` (>= now) and book its save ``[s, s + save)``."""
        if q.cut is not None:
            self.dc.cancel_wake(q.cut)
            q.cut = None
        if q.save_res is not None:
            self._unbook(q.save_res)
            q.save_res = None
        assert q.res is not None
        res = self.table[q.res]
        if s > res.start:
            if s < res.end:
                self._shorten(q.res, s)
        else:                       # suspended the moment it started: nothing of it is left
            self._unbook(q.res)
            q.res = None
        if q.save > 0:
            q.save_res = self._book(q, q.vms, s, s + q.save, True)
        q.cut_at = s
        if s <= now:
            self._suspend(q)
        else:
            q.cut = self.dc.schedule_action(s, self._suspend, q, PREEMPT)

    # ------------------------------------------------------------------ starting
    def _start(self, p: Plan, vms: tuple[int, ...], how: int, now: float, cut_at: float | None) -> None:
        """Book ``p`` on ``vms`` from now (preparation, then its remaining requested duration, or
        up to ``cut_at`` and a save) and start the preparation."""
        prep = p.xfer if how == FRESH else p.reload if how == IN_PLACE else p.mig + p.reload
        p.vms = vms
        p.prep_start = now
        p.prep_kind = how
        end = (now + prep) + p.left if cut_at is None else cut_at
        p.res = self._book(p, vms, now, end, p.hard)
        if cut_at is not None:
            self.counters.gap_starts += 1
            if p.save > 0:
                p.save_res = self._book(p, vms, cut_at, cut_at + p.save, True)
            p.cut_at = cut_at
            p.cut = self.dc.schedule_action(cut_at, self._suspend, p, PREEMPT)
        if how == IN_PLACE:
            self._resume(p, now)
        elif how == FRESH and p.xfer == 0 or how == MIGRATE and p.mig == 0:
            self._go(p)
        else:
            p.phase = PREP
            p.go = self.dc.schedule_action(now + (p.xfer if how == FRESH else p.mig), self._go, p, TIMER)

    def _resume(self, p: Plan, now: float) -> None:
        """Resume in the datacenter with the reload as the resume's cost."""
        p.phase = RUNNING
        p.run_from = now + p.reload
        self._phase(p, "reload", now, p.run_from)
        self.dc.resume(p.job, hosts=list(p.vms), migrate=p.prep_kind == MIGRATE, cost=p.reload)

    def _go(self, p: Plan) -> None:
        """The preparation is over: start (after a transfer) or resume (after a migration)."""
        now = self.dc.now
        p.go = None
        if p.prep_kind == FRESH:
            self._phase(p, "transfer", p.prep_start, now)
            p.phase = RUNNING
            p.run_from = now
            p.started = True
            self.dc.start(p.job, 0, hosts=list(p.vms))
        else:
            self._phase(p, "migrate", p.prep_start, now)
            self._resume(p, now)

    # ------------------------------------------------------------------ suspending
    def _suspend(self, p: Plan) -> None:
        now = self.dc.now
        p.cut = None
        self.dc.suspend(p.job)
        p.left -= now - p.run_from
        if p.res is not None:
            self._unbook(p.res)
            p.res = None
        p.last_vms = p.vms
        p.phase = SAVING
        p.cut_at = INF
        if p.save > 0:
            self._phase(p, "save", now, now + p.save)
            self.dc.schedule_action(now + p.save, self._saved, p, PREEMPT)
        else:
            self._saved(p)

    def _saved(self, p: Plan) -> None:
        if p.save_res is not None:
            self._unbook(p.save_res)
            p.save_res = None
        p.phase = WAITING
        p.ready_at = self.dc.now
        self._waiting.add(p)
        self._full = True

    # ------------------------------------------------------------------ datacenter events
    def finished(self, job: Job) -> Plan | None:
        """``job`` finished in the datacenter: its bookings are released (a lease that ends
        before its requested duration frees its VMs now). Returns its plan."""
        p = self._plans.pop(job, None)
        if p is None:
            return None
        self._drop_bookings(p)
        p.phase = DONE
        return p

    # ------------------------------------------------------------------ the pass
    def _free_now(self, now: float) -> dict[int, float]:
        """The VMs free now in the slot table and idle in the datacenter, with how long each
        stays free (``inf``: for good), in id order."""
        ids, until = self.table.free_at(now)
        idle = self.dc.idle_hosts(0)
        inf = INF
        return {v: (u if u < BIG else inf) for v, u in zip(ids.tolist(), until.tolist()) if v in idle}

    def _options(self, p: Plan) -> list[tuple[int, float, tuple[int, ...] | None]]:
        if not p.started:
            return [(FRESH, p.xfer, None)]
        opts: list[tuple[int, float, tuple[int, ...] | None]] = [(IN_PLACE, p.reload, p.last_vms)]
        if self.options.migrate:
            opts.append((MIGRATE, p.mig + p.reload, None))
        return opts

    def schedule(self, now: float) -> None:
        """Best-effort leases in arrival order (Li et al. IV-C: "every time when there are enough
        VMs, the task on the top of the queue will be executed"), with backfilling around the
        first blocked one's earliest run (EASY's head reservation: computed only when a later
        lease could start now, and kept for this pass only).

        Cost: O(W) numpy for the free VMs (``W`` the slot table's windows), then O(log V) per
        waiting lease checked (a bisection in the sorted free-until times), O(V) per lease
        started, and one :meth:`SlotTable.earliest_start` (O(W log W)) for the head's
        reservation when a later lease could start. When no booking changed since the last pass
        and no lease became ready, the leases checked then would fare no better now (the free
        VMs are the same and time only shortens their gaps): the pass checks only the leases
        queued since, against what the last pass left (O(new leases log V))."""
        waiting = self._waiting
        fresh = self._fresh
        self._fresh = []
        if not waiting:
            return
        memo = self._memo
        version = self.table.version
        if memo is not None and not self._full and memo[0] == version:
            if not fresh or not memo[1]:
                return
            free = {v: u for v, u in memo[1].items() if u > now}
            head, held = memo[2], memo[3]
            plans: Iterable[Plan] = fresh
        else:
            self._full = False
            free = self._free_now(now) if self.dc.idle(0) else {}
            head, held = None, False
            plans = waiting
        started: list[Plan] = []
        if free:
            head, held = self._walk(plans, now, free, head, held, started)
        elif head is None:
            head = next(iter(waiting))
        for p in started:
            waiting.remove(p)
        self._memo = (self.table.version, free, head, held)

    def _walk(self, plans: Iterable[Plan], now: float, free: dict[int, float], head: Plan | None, held: bool,
              started: list[Plan]) -> tuple[Plan | None, bool]:
        """Start what fits of ``plans`` on ``free`` (see :meth:`schedule`); returns the first
        blocked lease and whether its reservation is held in ``free``."""
        if head is not None and not self.options.backfill:
            return head, held                 # strict FCFS: nothing passes a blocked lease
        ends = sorted(free.values())          # how long the free VMs stay free, ascending
        for p in plans:
            if p.ready_at > now:
                self._wake_at(p.ready_at)
                continue
            n = p.job.procs
            if n <= len(ends):
                fit = self._fit(p, now, free, ends)
                if fit is not None and head is not None and not held:
                    self._hold(head, now, free)
                    ends = sorted(free.values())
                    held = True
                    fit = self._fit(p, now, free, ends)
                if fit is not None:
                    self._take(p, fit[1], fit[0], now, free, None)
                elif head is None and self.fill_gaps and not p.hard:
                    gap = self._gap_fit(p, now, free)
                    if gap is not None:
                        self._take(p, gap[1], gap[0], now, free, gap[2])
                        fit = gap[:2]
                if fit is not None:
                    started.append(p)
                    if not free:
                        break
                    ends = sorted(free.values())
                    continue
            if head is None:
                head = p
                if not self.options.backfill:
                    break
        return head, held

    def _fit(self, p: Plan, now: float, free: dict[int, float],
             ends: list[float]) -> tuple[int, tuple[int, ...]] | None:
        """How and on which VMs ``p`` can run now for its whole remaining duration, if it can."""
        n = p.job.procs
        for how, prep, only in self._options(p):
            need = now + prep + p.left
            if only is not None:
                if all(free.get(v, -1.0) >= need for v in only):
                    return how, only
                continue
            if len(ends) - bisect_left(ends, need) >= n:
                fits = [v for v, u in free.items() if u >= need]
                return how, tuple(fits[:n])
        return None

    def _gap_fit(self, p: Plan, now: float, free: dict[int, float]) -> tuple[int, tuple[int, ...], float] | None:
        """Haizea's start in a gap: the free VMs that stay free longest, if the lease can make
        progress there before it must be suspended (and its state saved) for the next booking."""
        n = p.job.procs
        if n > len(free):
            return None
        for how, prep, only in self._options(p):
            if only is not None:
                if not all(v in free for v in only):
                    continue
                chosen = only
            else:
                chosen = tuple(sorted(sorted(free, key=lambda v: (-free[v], v))[:n]))
            cut = min(free[v] for v in chosen) - p.save
            if cut > now + prep:
                return how, chosen, cut
        return None

    def _take(self, p: Plan, vms: tuple[int, ...], how: int, now: float, free: dict[int, float],
              cut: float | None) -> None:
        for v in vms:
            del free[v]
        self._start(p, vms, how, now, cut)

    def _hold(self, p: Plan, now: float, free: dict[int, float]) -> None:
        """The earliest full run of the first blocked lease: the free VMs it will take are free
        for later leases only until then."""
        n = p.job.procs
        best = None
        for how, prep, only in self._options(p):
            span = prep + p.left
            t, vms = self.table.earliest_start(n, _positive(span), now, only)
            if best is None or t + span < best[0] + best[1]:
                best = (t, span, vms)
        assert best is not None
        t, _, vms = best
        if t <= now:
            return
        for v in vms:
            if v in free and free[v] > t:
                free[v] = t
        self._wake_at(t)

    # ------------------------------------------------------------------ queries
    def quote(self, n: int, duration: float, not_before: float, ar: bool = False) -> float:
        """Li et al. IV: the answer to a task-checking request, the earliest time ``>= not_before``
        at which ``n`` VMs are free for ``duration`` by the slot table (an AR may take what
        best-effort work holds: only the hard bookings count); ``inf`` if the cloud is too small.

        O(1) after one O(V log V) look at each state of the table (:meth:`SlotTable.profile`,
        taken at the first quote after a booking changed, at time ``t0``): a duration longer
        than every gap before a booking at ``t0`` (gaps only shrink as time goes on) fits only
        after the horizons, so the answer is ``max(not_before, now, horizons[n - 1])``;
        otherwise one :meth:`SlotTable.earliest_start`, remembered for the same state, time and
        question (tasks of one type ask the same)."""
        if n > self.n_vms:
            return INF
        now = self.dc.now
        hard = ar and self.options.preemption == "suspend"
        prof = self._profile(hard, now)
        nb = not_before if not_before > now else now
        d = duration if duration > 0 else TINY
        if d > prof[3]:
            h = prof[2][n - 1]
            return h if h > nb else nb
        table = self.hard if hard else self.table
        if table.free_count(np.array([nb]), np.array([nb + d]))[0] >= n:
            return nb                        # n VMs are free from not_before on: the usual answer
        return self._gap_quote(hard, prof, n, d, not_before, now)

    def _profile(self, hard: bool, now: float) -> tuple:
        """``(version, time, horizons, longest gap, horizons as an array, answers so far)`` of the
        hard table or the table, for its present state."""
        table = self.hard if hard else self.table
        prof = self._profiles.get(hard)
        if prof is None or prof[0] != table.version:
            horizons, longest = table.profile(now)
            prof = self._profiles[hard] = (table.version, now, horizons, longest, np.array(horizons), {})
        return prof

    def _gap_quote(self, hard: bool, prof: tuple, n: int, d: float, nb: float, now: float) -> float:
        """The answer for a duration that may fit in a gap: remembered for this state of the
        table by ``(n, d, not_before)`` and reused while it is not in the past (the times that
        fit do not change with the state, so the earliest one from a later time is the same as
        long as it is still ahead)."""
        memo = prof[5]
        key = (n, d, nb)
        got = memo.get(key)
        if got is None or got < now:
            table = self.hard if hard else self.table
            got = memo[key] = table.earliest_start(n, d, nb if nb > now else now)[0]
        return got

    def quotes(self, n: np.ndarray, duration: np.ndarray, not_before: np.ndarray, ar: np.ndarray) -> np.ndarray:
        """:meth:`quote` of many tasks at once (arrays of VMs, durations, not-befores and AR
        flags), the same numbers: O(tasks) in numpy (plus O(W) per task whose duration may fit
        in a gap before a booking, and one :meth:`SlotTable.earliest_start` per distinct such
        question that does not fit from its not-before time)."""
        if self.options.preemption != "suspend" or not ar.any():
            return self._quotes(False, n, duration, not_before)
        if ar.all():
            return self._quotes(True, n, duration, not_before)
        out = np.empty(n.shape[0])
        for hard, rows in ((False, np.flatnonzero(~ar)), (True, np.flatnonzero(ar))):
            out[rows] = self._quotes(hard, n[rows], duration[rows], not_before[rows])
        return out

    def _quotes(self, hard: bool, n: np.ndarray, duration: np.ndarray, not_before: np.ndarray) -> np.ndarray:
        now = self.dc.now
        prof = self._profile(hard, now)
        nb = np.maximum(not_before, now)
        d = np.where(duration > 0, duration, TINY)
        n_vms = self.n_vms
        too_big = int(n.max()) > n_vms
        q = np.maximum(prof[4][(np.minimum(n, n_vms) if too_big else n) - 1], nb)
        if too_big:
            q[n > n_vms] = INF
        if float(d.min()) <= prof[3]:                                     # some may fit in a gap
            gap = np.flatnonzero((d <= prof[3]) & (n <= n_vms))
            table = self.hard if hard else self.table
            start = nb[gap]
            now_ok = table.free_count(start, start + d[gap]) >= n[gap]
            q[gap[now_ok]] = start[now_ok]   # n VMs free from not_before on: the usual answer
            for k in gap[~now_ok].tolist():
                q[k] = self._gap_quote(hard, prof, int(n[k]), float(d[k]), float(not_before[k]), now)
        return q

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def plan_of(self, job: Job) -> Plan | None:
        return self._plans.get(job)

    def _check(self) -> None:
        """Invariants (for tests): every running job holds the VMs of its booking; every hard
        booking is in the table with the same interval; every booking has its owner."""
        now = self.dc.now
        for job in self.dc.running(0):
            p = self._plans[job]
            assert p.phase == RUNNING, f"job {job.id} runs but its plan is in phase {p.phase}"
            assert tuple(sorted(h.id for h in job.hosts or ())) == tuple(sorted(p.vms)), \
                f"job {job.id} on other VMs"
            assert p.res is not None
            r = self.table[p.res]
            assert r.start <= now < r.end or (r.end == now), f"job {job.id} runs outside its booking {r}"
        for r in self.hard:
            t = self.table[r.id]
            assert (t.vms, t.start, t.end) == (r.vms, r.start, r.end)
        assert set(self._owner) == {r.id for r in self.table}
        self.table._check()
