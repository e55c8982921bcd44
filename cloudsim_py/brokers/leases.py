"""The local scheduler of one cloud: leases (advance reservation, best-effort, immediate) and DAG
tasks booked in a slot table with VM identity, Haizea's model (Sotomayor, Keahey and Foster,
HPDC 2008; Sotomayor, Llorente and Foster, HPCC 2009) as Li et al. take it (seed 001, sections
III-A, III-B, IV-C). Reads no YAML; imports the slot table, the cloud spec and the job entity.

What it does (docs/federation.md; tests/federation/test_lease_scheduler.py has the worked examples):

- **Image transfer.** Before a lease or task first runs, its disk image is sent to its VMs:
  ``S_I / b`` seconds on the VMs (booked in the slot table, then ``dc.start``).
- **Advance reservation** (AR), at submission: the VMs are booked over ``[start - S_I/b,
  start + duration)``, free ones first (lowest ids). When too few are free, best-effort leases
  holding the others are preempted, newest first: each is suspended at
  ``start - S_I/b - M_j/S_c`` so that saving its memory image (``M_j / S_c``) and the AR's image
  transfer end by the AR's start (Li et al. III-B). A lease that cannot be saved in time, a
  non-preemptible one or another AR blocks; an AR that cannot get its VMs is rejected. With
  ``preemption="wait"`` nothing is preempted: the AR waits for the running best-effort work and
  starts at the earliest time after its requested start at which its VMs are free.
- **Best-effort**, first come first served with backfilling: at every pass the waiting leases
  are taken in arrival order; one starts now if its VMs are free for its transfer and its
  (remaining) requested duration; the first that cannot gets a reservation at the earliest time
  it could (EASY's head reservation, recomputed every pass), and the later ones start only if
  they fit around every reservation. With ``fill_gaps`` (and suspend-mode preemption) a
  preemptible lease that does not fit before the next reservation on the free VMs starts anyway
  in that gap and is suspended for it, as Haizea does, so best-effort work does not leave VMs
  idle before an AR.
- **Suspend / resume.** A suspended lease keeps its place in the queue; it resumes *in place*
  (same VMs: reload ``M_j / S_c``, ``dc.resume(cost=...)``) or, with ``migrate``, on other VMs
  when they finish it earlier (memory and image moved, ``(M_j + S_I) / b``, then the reload).
- **Immediate** leases start now on free VMs, for their whole requested duration, or are
  rejected.
- A lease that ends before its requested duration frees its VMs then (its booking is
  released at the finish).

Slot-table bookings are what the scheduler believes; the datacenter holds a VM only while a
lease runs (or reloads). Every overhead is told to ``phase_listeners`` (``on_phase(job, kind,
start, end, vms)``; :class:`~cloudsim_py.federation.records.LeaseRecords`) so records can show
it. The cloud (VM type, ``S_c``) is set with :meth:`LeaseScheduler.use_cloud`; without it,
leases run on 1-CPU VMs with no overheads.
"""

from __future__ import annotations

import heapq
import logging
import math
from itertools import count
from operator import attrgetter
from typing import Any, Iterable, cast

import attrs
from sortedcontainers import SortedKeyList

from ..errors import PolicyError
from ..federation.cloud import CloudSpec
from ..federation.slottable import SlotTable, earliest_from_horizons
from ..workload.job import Job, JobState
from ..workload.lease import LeaseMode
from ..workload.lease_job import LeaseDescription
from .base import Broker, register_broker

log = logging.getLogger(__name__)

INF = math.inf
AR = LeaseMode.AR
BEST_EFFORT = LeaseMode.BEST_EFFORT
IMMEDIATE = LeaseMode.IMMEDIATE
RUNNING_STATE = JobState.RUNNING

#: where a lease is: queued (new or suspended), preparing (transfer or migration), running
#: (in the datacenter, reload included), saving its memory after a suspension
WAITING, PREP, RUNNING, SAVING = range(4)
#: how a waiting lease can start: from scratch, resumed on its VMs, resumed on others
FRESH, IN_PLACE, MIGRATE = range(3)
PREEMPTION_MODES = ("suspend", "wait")
#: the slot table books positive intervals: a task of zero length is booked for this long
TINY = 1e-9


def _positive(d: float) -> float:
    return d if d > 0 else TINY


def _lease(job: Job) -> LeaseDescription:
    return cast(LeaseDescription, job.desc)


@attrs.define(slots=True, eq=False, repr=False)
class Plan:
    """The scheduler's bookkeeping of one lease or task on this cloud (mutable, one per job)."""

    job: Job
    key: tuple                     #: queue order: (arrival time, sequence)
    xfer: float                    #: S_I / b on this cloud
    save: float                    #: M_j / S_c (saving, and reloading)
    mig: float                     #: (M_j + S_I) / b: moving a suspended lease to other VMs
    hard: bool                     #: not preemptible: books the hard table as well
    left: float                    #: requested duration still to run
    ready_at: float                #: not before (input data, end of a save)
    phase: int = WAITING
    vms: tuple[int, ...] = ()
    last_vms: tuple[int, ...] = ()
    res: int | None = None         #: booking of the current preparation and run
    save_res: int | None = None    #: booking of a planned or running save
    go: Any = None                 #: timer: preparation done, start or resume in the datacenter
    cut: Any = None                #: timer: planned suspension
    cut_at: float = INF
    prep_start: float = 0.0
    prep_kind: int = FRESH
    run_from: float = 0.0          #: progress starts (after transfer or reload)
    started: bool = False          #: has run before (a start from now on is a resume)

    def __repr__(self) -> str:
        return f"Plan(job {self.job.id}, phase {self.phase}, vms {self.vms})"


@register_broker("leases", "Haizea-style lease scheduling in one cloud: AR reserved (preempting best-effort "
                           "by suspend/resume), best-effort FCFS with backfilling, immediate now or rejected")
class LeaseScheduler(Broker):
    """See the module docstring. ``preemption``: ``suspend`` (ARs preempt best-effort leases) or
    ``wait`` (ARs wait for them); ``backfill``: later best-effort leases may start around the
    first blocked one (else strict FCFS); ``migrate``: a suspended lease may resume on other VMs;
    ``fill_gaps``: a preemptible lease may start in a gap before a reservation and be suspended
    for it (suspend mode only)."""

    cloud_system = True

    def __init__(self, preemption: str = "suspend", backfill: bool = True, migrate: bool = True,
                 fill_gaps: bool = True) -> None:
        if preemption not in PREEMPTION_MODES:
            raise ValueError(f"preemption must be one of {', '.join(PREEMPTION_MODES)}, got {preemption!r}")
        for key, value in (("backfill", backfill), ("migrate", migrate), ("fill_gaps", fill_gaps)):
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r}")
        self.preemption = preemption
        self.backfill = backfill
        self.migrate = migrate
        self.fill_gaps = fill_gaps and preemption == "suspend"
        self.cloud: CloudSpec | None = None
        self.phase_listeners: list[Any] = []
        #: the cloud's LeaseRecords when a builder made one
        self.records: Any = None
        # counters
        self.ar_accepted = 0
        self.ar_rejected = 0
        self.ar_delay = 0.0            #: seconds ARs started after their requested start (wait mode)
        self.immediate_rejected = 0
        self.preemptions = 0           #: best-effort leases cut for an AR
        self.gap_starts = 0            #: best-effort starts planned to be suspended
        self.cancelled = 0             #: preparations cut short by an AR

    # ------------------------------------------------------------------ wiring
    def bind(self, dc: Any) -> None:
        super().bind(dc)
        n = len(dc.hosts)
        self.table = SlotTable(n)
        self.hard = SlotTable(n)         #: the bookings no AR can take (ARs, immediate, saves...)
        self.n_vms = n
        self._plans: dict[Job, Plan] = {}
        self._waiting: SortedKeyList = SortedKeyList(key=attrgetter("key"))
        self._owner: dict[int, Plan | None] = {}
        self._rids = count()
        self._seq = count()
        self._wake = INF
        #: bumps on every booking change: lets a caller cache answers of the slot table
        self.version = 0
        self._horizon_key: tuple = ()
        self._horizons: list[float] | None = None

    def use_cloud(self, cloud: CloudSpec) -> None:
        """The cloud this scheduler runs: its VM type (CPUs, bandwidth) and copy speed ``S_c``."""
        if cloud.vms != self.n_vms:
            raise PolicyError(f"cloud {cloud.name!r} has {cloud.vms} VMs but its datacenter {self.n_vms}")
        self.cloud = cloud

    def add_phase_listener(self, listener: Any) -> Any:
        self.phase_listeners.append(listener)
        return listener

    # ------------------------------------------------------------------ overheads
    def _overheads(self, desc: Any) -> tuple[float, float, float]:
        cloud = self.cloud
        if cloud is None:
            return 0.0, 0.0, 0.0
        image = getattr(desc, "image_mb", 0.0)
        memory = getattr(desc, "memory_mb", 0.0)
        return cloud.transfer_s(image), cloud.copy_s(memory), cloud.transfer_s(image + memory)

    def _phase(self, p: Plan, kind: str, start: float, end: float) -> None:
        for listener in self.phase_listeners:
            listener.on_phase(p.job, kind, start, end, p.vms)

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
        self.version += 1
        return rid

    def _unbook(self, rid: int) -> None:
        self.table.release(rid)
        if rid in self.hard:
            self.hard.release(rid)
        del self._owner[rid]
        self.version += 1

    def _shorten(self, rid: int, end: float) -> None:
        self.table.shorten(rid, end)
        if rid in self.hard:
            self.hard.shorten(rid, end)
        self.version += 1

    def _wake_at(self, t: float) -> None:
        """A pass at ``t`` (one pending wake-up, the earliest asked for)."""
        if t < self._wake:
            self._wake = t
            self.dc.wake_at(t, None)

    # ------------------------------------------------------------------ arrivals
    def _new_plan(self, job: Job) -> Plan:
        desc = job.desc
        mode = getattr(desc, "mode", BEST_EFFORT)     # a rigid job is a best-effort lease
        xfer, save, mig = self._overheads(desc)
        hard = not (mode is BEST_EFFORT and getattr(desc, "preemptible", True))
        p = Plan(job, (desc.submit_time, next(self._seq)), xfer, save, mig, hard,
                 float(desc.runtime_estimate), float(getattr(desc, "not_before", desc.submit_time)))
        self._plans[job] = p
        return p

    def on_submit(self, job: Job) -> None:
        p = self._new_plan(job)
        mode = getattr(job.desc, "mode", BEST_EFFORT)
        if mode is AR:
            self._admit_ar(p)
        elif mode is IMMEDIATE:
            self._admit_immediate(p)
        else:
            self._waiting.add(p)

    def _reject(self, p: Plan, reason: str) -> None:
        del self._plans[p.job]
        self.dc.reject(p.job, reason)

    def _admit_immediate(self, p: Plan) -> None:
        now = self.dc.now
        job = p.job
        until = self.table.free_until(now)
        end = now + p.xfer + p.left
        fits = [v for v, u in until.items() if u >= end]
        if len(fits) < job.procs:
            self.immediate_rejected += 1
            self._reject(p, f"immediate lease needs {job.procs} VMs now for {p.xfer + p.left:g} s, "
                            f"{len(fits)} are free")
            return
        self._start(p, tuple(fits[:job.procs]), FRESH, now, None)

    # ------------------------------------------------------------------ advance reservations
    def ar_choice(self, p: Plan, now: float) -> tuple[float, tuple[int, ...], list[Plan]] | str:
        """Where and when an AR runs: ``(start of its transfer, VMs, leases to preempt)``, or the
        reason it cannot. A lease AR starts at its requested start (suspend mode) or as soon
        after as its VMs are free (wait mode); a task AR (no requested start) as soon as it is
        ready and its VMs can be had."""
        job = p.job
        n = job.procs
        span = p.xfer + p.left
        start = _lease(job).start
        if start is not None:
            a = start - p.xfer
            if self.preemption == "wait":
                t, vms = self.table.earliest_start(n, _positive(span), max(now, a))
                return t, vms, []
            if a < now:
                return (f"its image transfer ({p.xfer:g} s) cannot end by its start {start:g} "
                        f"(now {now:g})")
            got = self._claim(n, a, a + span, now)
            if got is None:
                return (f"needs {n} VMs over [{a:g}, {a + span:g}) and fewer are free or held by "
                        "best-effort leases that can be suspended in time")
            return a, got[0], got[1]
        # a task: the earliest time it fits, or earlier by preempting best-effort tasks
        lo = max(now, p.ready_at)
        t1, vms1 = self.table.earliest_start(n, _positive(span), lo)
        if self.preemption == "wait" or t1 == lo:
            return t1, vms1, []
        t2 = self.hard.earliest_start(n, _positive(span), lo)[0]
        if t2 < t1:
            got = self._claim(n, t2, t2 + span, now)
            if got is not None:
                return t2, got[0], got[1]
            # the leases in the way cannot be saved by t2: try where every running one could be
            ready = max((max(now, q.run_from) + q.save for q in self._plans.values()
                         if not q.hard and q.phase == RUNNING), default=now)
            t2 = self.hard.earliest_start(n, _positive(span), max(lo, ready))[0]
            if t2 < t1:
                got = self._claim(n, t2, t2 + span, now)
                if got is not None:
                    return t2, got[0], got[1]
        return t1, vms1, []

    def _cuttable(self, q: Plan, a: float, now: float) -> bool:
        """Can best-effort lease ``q`` free its VMs by ``a`` (suspended, its memory saved)?"""
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
        leases that can be suspended in time, newest lease first; ``None`` if too few."""
        table = self.table
        free = table.free_vms(a, e)
        if len(free) >= n:
            return tuple(free[:n]), []
        owner = self._owner
        blockers: dict[int, list[Plan | None]] = {}
        units: dict[Plan, None] = {}
        for r in table.overlapping(a, e):
            q = owner[r.id]  # type: ignore[index]
            for v in r.vms:
                blockers.setdefault(v, []).append(q if q is not None and r.id == q.res else None)
            if q is not None and r.id == q.res and self._cuttable(q, a, now):
                units[q] = None
        chosen: set[Plan] = set()
        freed: list[int] = []
        seen: set[int] = set()
        for q in sorted(units, key=attrgetter("key"), reverse=True):     # newest first
            chosen.add(q)
            for v in q.vms:
                if v not in seen and all(b is not None and b in chosen for b in blockers[v]):
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

    def _admit_ar(self, p: Plan, choice: Any = None) -> bool:
        now = self.dc.now
        if choice is None:
            choice = self.ar_choice(p, now)
        if isinstance(choice, str):
            self.ar_rejected += 1
            self._reject(p, f"advance reservation refused: {choice}")
            return False
        a, vms, victims = choice
        for q in victims:
            self._preempt(q, a, now)
        self.ar_accepted += 1
        start = a + p.xfer
        requested = _lease(p.job).start
        if requested is not None and start > requested:
            self.ar_delay += start - requested
        p.vms = vms
        p.prep_start = a
        p.res = self._book(p, vms, a, start + p.left, True)
        p.phase = PREP
        p.prep_kind = FRESH
        if start == now:
            self._go(p)
        else:
            p.go = self.dc.wake_at(start, ("go", p))
        return True

    def _preempt(self, q: Plan, a: float, now: float) -> None:
        """Free ``q``'s VMs by ``a``: cut its preparation short, or suspend it at ``a - M_j/S_c``."""
        self.preemptions += 1
        if q.phase == PREP:
            self.cancelled += 1
            self.dc.cancel_wake(q.go)
            q.go = None
            self._phase(q, "cancelled", q.prep_start, now)
            self._drop_bookings(q)
            q.phase = WAITING
            q.ready_at = now
            self._waiting.add(q)
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
        """Suspend running lease ``q`` at ``s`` (>= now) and book its save ``[s, s + M_j/S_c)``."""
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
            q.cut = self.dc.wake_at(s, ("cut", q))

    # ------------------------------------------------------------------ starting
    def _start(self, p: Plan, vms: tuple[int, ...], how: int, now: float, cut_at: float | None) -> None:
        """Book ``p`` on ``vms`` from now (preparation, then its remaining requested duration, or
        up to ``cut_at`` and a save) and start the preparation."""
        dc = self.dc
        prep = p.xfer if how == FRESH else p.save if how == IN_PLACE else p.mig + p.save
        p.vms = vms
        p.prep_start = now
        p.prep_kind = how
        end = (now + prep) + p.left if cut_at is None else cut_at
        p.res = self._book(p, vms, now, end, p.hard)
        if cut_at is not None:
            self.gap_starts += 1
            if p.save > 0:
                p.save_res = self._book(p, vms, cut_at, cut_at + p.save, True)
            p.cut_at = cut_at
            p.cut = dc.wake_at(cut_at, ("cut", p))
        if how == IN_PLACE:
            self._resume(p, now)
        elif how == FRESH and p.xfer == 0 or how == MIGRATE and p.mig == 0:
            self._go(p)
        else:
            p.phase = PREP
            p.go = dc.wake_at(now + (p.xfer if how == FRESH else p.mig), ("go", p))

    def _resume(self, p: Plan, now: float) -> None:
        """Resume in the datacenter with the reload as the resume's cost."""
        p.phase = RUNNING
        p.run_from = now + p.save
        self._phase(p, "reload", now, p.run_from)
        self.dc.resume(p.job, hosts=list(p.vms), migrate=p.prep_kind == MIGRATE, cost=p.save)

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
            self.dc.wake_at(now + p.save, ("saved", p))
        else:
            self._saved(p)

    def _saved(self, p: Plan) -> None:
        if p.save_res is not None:
            self._unbook(p.save_res)
            p.save_res = None
        p.phase = WAITING
        p.ready_at = self.dc.now
        self._waiting.add(p)

    # ------------------------------------------------------------------ datacenter events
    def on_timer(self, token: Any) -> None:
        if token is None:
            self._wake = INF
            return
        kind, p = token
        if kind == "go":
            self._go(p)
        elif kind == "cut":
            self._suspend(p)
        else:
            self._saved(p)

    def on_finish(self, job: Job) -> None:
        p = self._plans.pop(job)
        self._drop_bookings(p)
        p.phase = -1
        self._finished(p)

    def _finished(self, p: Plan) -> None:
        """A lease or task is done (its bookings are released); for subclasses."""

    # ------------------------------------------------------------------ the pass
    def schedule(self, now: float) -> None:
        self._pass(now)

    def _options(self, p: Plan) -> list[tuple[int, float, tuple[int, ...] | None]]:
        if not p.started:
            return [(FRESH, p.xfer, None)]
        opts: list[tuple[int, float, tuple[int, ...] | None]] = [(IN_PLACE, p.save, p.last_vms)]
        if self.migrate:
            opts.append((MIGRATE, p.mig + p.save, None))
        return opts

    def _pass(self, now: float) -> None:
        """Best-effort leases in arrival order (Li et al. IV-C: "every time when there are enough
        VMs, the task on the top of the queue will be executed"), with backfilling around the
        first blocked one's earliest run (EASY's head reservation: computed only when a later
        lease could start now, and kept for this pass only, in ``until``)."""
        waiting = self._waiting
        dc = self.dc
        if not waiting or not dc.idle(0):
            return                  # a VM free in the slot table is idle in the datacenter
        until = self.table.free_until(now, dc.idle_hosts(0))
        if not until:
            return
        head: Plan | None = None
        held = False
        started: list[Plan] = []
        for p in waiting:
            if p.ready_at > now:
                self._wake_at(p.ready_at)
                continue
            if p.job.procs <= len(until):
                fit = self._fit(p, now, until)
                if fit is not None and head is not None and not held:
                    self._hold(head, now, until)
                    held = True
                    fit = self._fit(p, now, until)
                if fit is not None:
                    self._take(p, fit[1], fit[0], now, until, None)
                elif head is None and self.fill_gaps and not p.hard:
                    gap = self._gap_fit(p, now, until)
                    if gap is not None:
                        self._take(p, gap[1], gap[0], now, until, gap[2])
                        fit = gap[:2]
                if fit is not None:
                    started.append(p)
                    if not until:
                        break
                    continue
            if head is None:
                if not self.backfill:
                    break
                head = p
        for p in started:
            waiting.remove(p)

    def _fit(self, p: Plan, now: float, until: dict[int, float]) -> tuple[int, tuple[int, ...]] | None:
        """How and on which VMs ``p`` can run now for its whole remaining duration, if it can."""
        n = p.job.procs
        for how, prep, only in self._options(p):
            need = now + prep + p.left
            if only is not None:
                if all(until.get(v, -1.0) >= need for v in only):
                    return how, only
                continue
            fits = [v for v, u in until.items() if u >= need]
            if len(fits) >= n:
                return how, tuple(fits[:n])
        return None

    def _gap_fit(self, p: Plan, now: float, until: dict[int, float]) -> tuple[int, tuple[int, ...], float] | None:
        """Haizea's start in a gap: the free VMs that stay free longest, if the lease can make
        progress there before it must be suspended (and its memory saved) for the next booking."""
        n = p.job.procs
        for how, prep, only in self._options(p):
            if only is not None:
                if not all(v in until for v in only):
                    continue
                chosen = only
            else:
                chosen = tuple(sorted(heapq.nlargest(n, until, key=lambda v: (until[v], -v))))
            cut = min(until[v] for v in chosen) - p.save
            if cut > now + prep:
                return how, chosen, cut
        return None

    def _take(self, p: Plan, vms: tuple[int, ...], how: int, now: float, until: dict[int, float],
              cut: float | None) -> None:
        for v in vms:
            del until[v]
        self._start(p, vms, how, now, cut)

    def _hold(self, p: Plan, now: float, until: dict[int, float]) -> None:
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
            if v in until and until[v] > t:
                until[v] = t
        self._wake_at(t)

    # ------------------------------------------------------------------ queries
    def quote(self, n: int, duration: float, not_before: float, ar: bool = False) -> float:
        """Li et al. IV: the answer to a task-checking request, the earliest time ``>= not_before``
        at which ``n`` VMs are free for ``duration`` by the slot table (an AR may take what
        best-effort work holds: only the hard bookings count); ``inf`` if the cloud is too small."""
        if n > self.n_vms:
            return INF
        now = self.dc.now
        table = self.hard if ar and self.preemption == "suspend" else self.table
        key = (self.version, now, table is self.hard)
        if key != self._horizon_key:
            self._horizon_key = key
            self._horizons = table.horizons(now)
        nb = not_before if not_before > now else now
        if self._horizons is not None:
            return earliest_from_horizons(self._horizons, n, nb)[0]
        return table.earliest_start(n, _positive(duration), nb)[0]

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
