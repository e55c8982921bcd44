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
- **Best-effort** (:class:`~cloudsim_py.clouds.backfill_queue.BackfillQueue`, the cloud's
  queue discipline), first come first served with backfilling: at every pass the waiting leases
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

**Haizea 1.0's rules** (Sotomayor et al.; :class:`~cloudsim_py.clouds.lease_plan.LocalOptions`,
each off by default, all on in the ``haizea`` preset; docs/federation.md, "Haizea 1.0 and this
project"): a scheduling threshold
for gap starts and for suspending rather than cancelling a lease an AR preempts; the oldest
best-effort lease preempted first; aggressive backfilling
(:class:`~cloudsim_py.clouds.haizea_queue.AggressiveQueue`: one lease booked in the future,
re-planned when a run ends early; later leases start in gaps before any booking; Haizea's
greedy choice of VMs); the state of a suspended lease copied ahead
to the VMs it will resume on (network traffic, holding no VM); a shutdown after a run that is not
cut short (:class:`~cloudsim_py.clouds.overheads.Overheads` gives its length).

**Order within a timestamp.** Every planned suspension and every end of a save happens in the
``PREEMPT`` phase, after the finishes and before anything takes VMs; every planned start (a
transfer or migration over) in the ``TIMER`` phase, after every release at that time
(infrastructure/phases.py). So a VM a booking hands over at ``t`` is free in the datacenter when
the next booking takes it at ``t``.

Slot-table bookings are what the scheduler believes; the datacenter holds a VM only while a
lease runs (or reloads). Every overhead is told to the phase listeners (``on_phase(job, kind,
start, end, vms)``; :class:`~cloudsim_py.clouds.records.LeaseRecords`). Each job's plan, the
options and the counters are in :mod:`~cloudsim_py.clouds.lease_plan`. Imports the slot table,
the plans, the overheads, the datacenter's phases and the job entity; no policy, no scenario.
"""

from __future__ import annotations

from itertools import count, filterfalse
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from ..errors import PolicyError
from ..infrastructure.phases import PREEMPT, TIMER
from ..logs import logger
from ..workload.dag_task import TaskJob
from ..workload.job import Job, JobState
from ..workload.lease import LeaseMode
from ..workload.lease_job import LeaseJob
from .backfill_queue import BackfillQueue
from .cloud import CloudSpec
from .haizea_queue import AggressiveQueue
from .lease_plan import (AR, BEST_EFFORT, DONE, EPS, FRESH, IMMEDIATE, IN_PLACE, INF, MIGRATE, PLANNED, PREP,
                         RESOLUTION, RUNNING, SAVING, SHUTDOWN, TINY, WAITING, Copy, LocalCounters,
                         LocalOptions, PhaseListener, Plan, cut_before, positive_length)
from .lease_queue import LeaseQueue
from .overheads import Overheads, Times
from .quotes import Quotes
from .slottable import SlotTable
from .waiting import WaitingQueue

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter

log = logger(__name__)


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
        self._aggressive = self.options.aggressive
        #: Haizea's future leases (aggressive backfilling): booked at a future candidate, their run
        #: not begun
        self._future: dict[Plan, None] = {}
        #: runs ended early at this time, their re-plans to come: (planned end, booking, plan)
        self._early: list[tuple[float, int, Plan]] = []
        #: the state copies booked and not over (they weigh in Haizea's choice of VMs)
        self._copies: dict[Copy, None] = {}
        self.n_vms = n
        self.table = SlotTable(n)
        self.hard = SlotTable(n)         #: the bookings no AR can take (ARs, immediate, saves...)
        self.counters = LocalCounters()
        self.phase_listeners: list[PhaseListener] = []
        self._plans: dict[Job, Plan] = {}
        self._waiting = WaitingQueue()
        self._owner: dict[int, Plan | None] = {}
        self._rids = count()
        self._seq = count()
        self._wake = INF
        self._wake_event: Any = None
        #: the answers to task-checking requests, from the two tables
        self._quotes = Quotes(self.table, self.hard, dc, self.options.preemption == "suspend")
        #: Overheads.times by (image MB, memory MB, VMs)
        self._times: dict[tuple[float, float, int], Times] = {}
        #: the discipline of the waiting best-effort leases: Haizea's queue with aggressive
        #: backfilling (``options.aggressive``), else the project's backfilling pass
        self._queue: LeaseQueue = (AggressiveQueue(self, self._waiting, self._owner, self._future, self._copies)
                                   if self._aggressive else BackfillQueue(self, self._waiting))

    # ------------------------------------------------------------------ wiring
    def add_phase_listener(self, listener: PhaseListener) -> PhaseListener:
        self.phase_listeners.append(listener)
        return listener

    def _phase(self, p: Plan, kind: str, start: float, end: float, vms: tuple[int, ...] | None = None) -> None:
        for listener in self.phase_listeners:
            listener.on_phase(p.job, kind, start, end, p.vms if vms is None else vms)

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

    def wake_at(self, t: float) -> None:
        """A pass at ``t`` (one pending wake-up, the earliest asked for)."""
        if t < self._wake:
            if self._wake_event is not None:
                self.dc.cancel_wake(self._wake_event)
            self._wake = t
            self._wake_event = self.dc.schedule_action(t, self._woken, None, TIMER)

    def _woken(self, _: Any) -> None:
        self._wake = INF
        self._wake_event = None
        self._queue.look_again()

    # ------------------------------------------------------------------ admission
    def knows(self, job: Job) -> bool:
        """Whether ``job`` has a plan here (it was admitted and has not finished)."""
        return job in self._plans

    def plan(self, job: Job, ready_at: float | None = None) -> Plan:
        """A plan for ``job`` (a lease, a DAG task or a rigid job, which is a best-effort lease),
        not yet admitted: its overheads on this cloud, its queue place. A DAG task (the one
        description a DAG scheduler submits, one per task sent here) and a lease
        (:class:`LeaseJob`) are read field by field; any other description through the probing
        of the fields a lease may lack (the same plan: tests compare the two on random tasks and
        leases)."""
        desc: Any = job.desc
        if type(desc) is TaskJob and ready_at is None:
            return self.plan_task(job, desc)
        if type(desc) is LeaseJob:
            return self._plan_lease(job, desc, ready_at)
        return self._plan_probed(job, ready_at)

    def _plan_probed(self, job: Job, ready_at: float | None = None) -> Plan:
        """:meth:`plan` of any description: the lease fields it may lack read with their
        defaults. O(1)."""
        desc: Any = job.desc
        mode = getattr(desc, "mode", BEST_EFFORT)
        hard = not (mode is BEST_EFFORT and getattr(desc, "preemptible", True))
        nb = float(getattr(desc, "not_before", desc.submit_time)) if ready_at is None else float(ready_at)
        return self._new_plan(job, getattr(desc, "image_mb", 0.0), getattr(desc, "memory_mb", 0.0),
                              desc.submit_time, hard, float(desc.runtime_estimate), nb, mode,
                              getattr(desc, "start", None), float(getattr(desc, "carved", 0.0)))

    def _plan_lease(self, job: Job, desc: LeaseJob, ready_at: float | None = None) -> Plan:
        """:meth:`plan` of a lease (a trace's row, an injected AR): every field the probing of
        :meth:`_plan_probed` looks for is one of :class:`LeaseJob`'s, so each is read directly (the
        same plan: a test compares the two on random leases). O(1)."""
        mode = desc.mode
        hard = not (mode is BEST_EFFORT and desc.preemptible)
        nb = float(desc.not_before) if ready_at is None else float(ready_at)
        return self._new_plan(job, desc.image_mb, desc.memory_mb, desc.submit_time, hard,
                              float(desc.runtime_estimate), nb, mode, desc.start, float(desc.carved))

    def plan_task(self, job: Job, desc: TaskJob) -> Plan:
        """:meth:`plan` of a DAG task: its mode, image and memory are fields (no probing), it is
        preemptible exactly when best-effort, its runtime is its estimate, it has no carved
        shutdown. O(1)."""
        mode = desc.mode
        submit = desc.submit_time
        ready = desc.ready_at
        return self._new_plan(job, desc.image_mb, desc.memory_mb, submit, mode is not BEST_EFFORT,
                              float(desc.runtime), float(submit if ready is None else max(submit, ready)), mode,
                              desc.start, 0.0)

    def _new_plan(self, job: Job, image_mb: float, memory_mb: float, submit: float, hard: bool, runtime: float,
                  not_before: float, mode: LeaseMode, start: float | None, carved: float) -> Plan:
        """A plan with this cloud's overheads for the job's image, memory and VMs (a pure
        function of the three on this cloud: computed once per kind of task) and the next queue
        place among the jobs submitted at ``submit``. O(1)."""
        kind = (image_mb, memory_mb, job.procs)
        times = self._times.get(kind)
        if times is None:
            times = self._times[kind] = self.overheads.times(self.cloud, *kind)
        key = (submit, next(self._seq))
        return Plan(job, key, times.transfer, times.save, times.reload, times.migrate, hard, runtime, not_before,
                    mode, start, shutdown=times.shutdown, carved=carved, save_est=times.save_estimate,
                    reload_est=times.reload_estimate, arrival=key)

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
            self._queue.queued(p)

    def _reject(self, p: Plan, reason: str) -> None:
        del self._plans[p.job]
        p.phase = DONE
        self.dc.reject(p.job, reason)

    def _admit_immediate(self, p: Plan) -> None:
        now = self.dc.now
        job = p.job
        need = now + p.xfer + p.left + p.shutdown
        free = self.free_now(now)
        fits = [v for v, u in free.items() if u >= need]
        if len(fits) < job.procs:
            self.counters.immediate_rejected += 1
            self._reject(p, f"immediate lease needs {job.procs} VMs now for {p.xfer + p.left:g} s, "
                            f"{len(fits)} are free")
            return
        self.start_on(p, tuple(fits[:job.procs]), FRESH, now, None)

    # ------------------------------------------------------------------ advance reservations
    def ar_choice(self, p: Plan, now: float) -> tuple[float, tuple[int, ...], list[Plan]] | str:
        """Where and when an AR runs: ``(start of its transfer, VMs, leases to preempt)``, or the
        reason it cannot. A lease AR starts at its requested start (suspend and reject modes) or
        as soon after as its VMs are free (start-late); a task AR (no requested start) as soon as
        it is ready and its VMs can be had."""
        n = p.job.procs
        span = p.xfer + p.left + p.shutdown
        start = p.start
        mode = self.options.preemption
        if start is not None and p.shutdown >= p.left > 0 and not p.carved:
            # Haizea carves an AR's shutdown out of its interval [start, start + duration) (the
            # VMs run duration - shutdown); one no longer than its shutdown has nothing to run
            # (Haizea would end its run before it began) and would hold its VMs past its interval.
            return (f"its shutdown ({p.shutdown:g} s) is not shorter than its duration ({p.left:g} s): "
                    f"nothing of its interval is left to run")
        if start is not None:
            a = start - p.xfer
            if mode == "start-late":
                t, vms = self.table.earliest_start(n, positive_length(span), max(now, a))
                return t, vms, []
            if a < now:
                return (f"its image transfer ({p.xfer:g} s) cannot end by its start {start:g} "
                        f"(now {now:g})")
            if mode == "reject":
                free = self.table.free_vms(a, a + positive_length(span))
                if len(free) < n:
                    return (f"needs {n} VMs over [{a:g}, {a + span:g}) and {len(free)} are free "
                            "(no preemption)")
                return a, tuple(free[:n]), []
            got = self._claim(n, a, a + positive_length(span), now)
            if got is None:
                return (f"needs {n} VMs over [{a:g}, {a + span:g}) and fewer are free or held by "
                        f"best-effort leases {self._preemptible_text()}")
            return a, got[0], got[1]
        # a task: the earliest time it fits, or earlier by preempting best-effort tasks (each
        # earliest start from the booking lists: earliest_start's answer without the window
        # arrays, whose rows every booking change puts out of date)
        lo = max(now, p.ready_at)
        if mode == "suspend" and self.options.ar_vms == "arbitrary":
            got = self._claim(n, lo, lo + positive_length(span), now)
            if got is not None:
                return lo, got[0], got[1]
        t1, vms1 = self.table.earliest_start_lists(n, positive_length(span), lo)
        if mode != "suspend" or t1 - lo <= RESOLUTION * max(1.0, abs(lo)):
            # its VMs are free now, or within the clock's resolution of now (a lease ending a few
            # ulps later, its end summed in another order): no lease is cut for a sliver
            return t1, vms1, []
        t2 = self.hard.earliest_start_lists(n, positive_length(span), lo)[0]
        if t2 < t1:
            got = self._claim(n, t2, t2 + positive_length(span), now)
            if got is not None:
                return t2, got[0], got[1]
            # the leases in the way cannot be saved by t2: try where every running one could be
            ready = max((max(now, q.run_from) + q.save for q in self._plans.values()
                         if not q.hard and q.phase == RUNNING), default=now)
            t2 = self.hard.earliest_start_lists(n, positive_length(span), max(lo, ready))[0]
            if t2 < t1:
                got = self._claim(n, t2, t2 + positive_length(span), now)
                if got is not None:
                    return t2, got[0], got[1]
        return t1, vms1, []

    def _preemptible_text(self) -> str:
        """Which best-effort leases an AR may preempt, for a refusal's reason."""
        age = self.options.preempt_max_age
        what = ("that can be suspended in time" if self.options.threshold_factor is None
                else "it may preempt (suspended or cancelled)")
        return what if age is None else f"{what} submitted less than {age:g} s before its start"

    def _cuttable(self, q: Plan, a: float, now: float) -> bool:
        """Can best-effort lease ``q`` free its VMs by ``a`` (suspended, its state saved; with a
        scheduling threshold, suspended or cancelled and queued again, as Haizea does)? Never a
        lease submitted ``preempt_max_age`` or more before ``a`` (Haizea's preemption policy)."""
        if q.hard:
            return False
        age = self.options.preempt_max_age
        if age is not None and a - q.job.submit_time >= age:
            return False
        if q.phase == PREP or q.phase == PLANNED:
            return True                     # the transfer is cut short / the plan is changed
        if q.phase != RUNNING:
            return False
        if self.options.threshold_factor is not None:
            return True                     # suspended if it can be, else cancelled (_preempt)
        s = cut_before(a, q.save)
        return s >= now and s >= q.run_from

    def _claim(self, n: int, a: float, e: float, now: float) -> tuple[tuple[int, ...], list[Plan]] | None:
        """``n`` VMs over ``[a, e)``: free ones first (lowest ids), then those of best-effort
        leases that can be suspended in time (their run and any planned save give way), newest
        lease first (``preempt_order: oldest``: oldest first, Haizea's order); or, with
        ``ar_vms="arbitrary"``, ``n`` drawn at random among the free VMs and those such leases
        hold. The leases to preempt come in the order they were chosen (their requeue order);
        ``None`` if too few."""
        table = self.table
        arbitrary = self.options.ar_vms == "arbitrary"
        free: list[int] = []
        if arbitrary:
            # the reservations in the way are needed anyway (the VMs none of them holds, those
            # of table.free_vms(a, e), are in the draw's pool: _draw)
            meeting = table.overlapping(a, e)
        else:
            free = table.free_vms(a, e)
            if len(free) >= n:
                return tuple(free[:n]), []
            meeting = table.overlapping(a, e)
        owner = self._owner
        units: dict[Plan, None] = {}
        if arbitrary:
            # the draw needs only the leases that give way and the VMs held by a booking that
            # cannot (the same checks, in the same order, as the blockers below)
            stuck: set[int] = set()
            for r in meeting:
                q = owner[r.id]  # type: ignore[index]
                if q is not None and (r.id == q.res or r.id == q.save_res) and self._cuttable(q, a, now):
                    units[q] = None
                else:
                    stuck.update(r.vms)
            return self._draw(n, stuck, units)
        blockers: dict[int, list[Plan | None]] = {}
        for r in meeting:
            q = owner[r.id]  # type: ignore[index]
            movable = q is not None and (r.id == q.res or r.id == q.save_res) and self._cuttable(q, a, now)
            for v in r.vms:
                blockers.setdefault(v, []).append(q if movable else None)
            if movable:
                assert q is not None
                units[q] = None
        chosen: dict[Plan, None] = {}      # in the order chosen (a set would iterate by ids in memory)
        freed: list[int] = []
        seen: set[int] = set()
        newest = self.options.preempt_order == "newest"
        for q in sorted(units, key=attrgetter("arrival"), reverse=newest):
            chosen[q] = None
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

    def _draw(self, n: int, stuck: set[int], units: dict[Plan, None]) -> tuple[tuple[int, ...], list[Plan]] | None:
        """Li et al. IV-C's arbitrary choice: ``n`` VMs uniformly at random (the simulation's
        ``ar_vms`` stream) among those free and those held only by best-effort leases that can be
        suspended in time (``units``; ``stuck``: the VMs a booking that cannot give way holds);
        every lease on a chosen VM is preempted.

        The pool is every VM not stuck (the free ones and the movable ones, ascending); the draw
        is of positions in it (``choice`` of the pool's size: the same positions, the same
        stream consumed, as ``choice`` of the pool itself, without the pool made an array),
        taken in ascending order. O(V) and the draw."""
        # (the VMs not stuck in ascending order, filtered in C)
        pool = list(filterfalse(stuck.__contains__, range(self.n_vms))) if stuck else range(self.n_vms)
        if len(pool) < n:
            return None
        rng = self.dc.sim.random["ar_vms"]
        picked = rng.choice(len(pool), size=n, replace=False).tolist()
        picked.sort()
        take = tuple([pool[k] for k in picked])
        used = set(take)
        victims = [q for q in units if not used.isdisjoint(q.vms)]
        return take, victims

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
        p.res = self._book(p, vms, a, start + p.left + p.shutdown, True)
        p.phase = PREP
        p.prep_kind = FRESH
        if start == now:
            self._go(p)
        else:
            p.go = self.dc.schedule_action(start, self._go, p, TIMER)
        return True

    def _preempt(self, q: Plan, a: float, now: float) -> None:
        """Free ``q``'s VMs by ``a``: cut its preparation short, or suspend it at ``a - save``.
        With a scheduling threshold ``T`` (Haizea 1.0's AR preemption), a lease whose run would
        not have lasted ``T`` by ``a`` since its current run began, or that cannot save its
        state by ``a``, is cancelled and queued again, its run lost; a lease only planned
        (aggressive backfilling) to run from ``a`` on is planned again."""
        self.counters.preemptions += 1
        if q.phase == PREP:
            self.counters.cancelled += 1
            self.dc.cancel_wake(q.go)
            q.go = None
            self._phase(q, "cancelled", q.prep_start, now)
            self._drop_bookings(q)
            self.requeue(q, now)
            return
        cut = cut_before(a, q.save)
        thr = self.threshold(q, False)
        vm_start = q.run_from if q.phase == RUNNING else q.vm_start
        doomed = q.phase == PLANNED and (vm_start >= a or cut < vm_start)
        if thr is not None and (a - vm_start < thr or cut < max(now, vm_start)):
            doomed = True
        if doomed:
            self._cancel(q, now)
        else:
            self._plan_cut(q, cut, now)

    def _cancel(self, q: Plan, now: float) -> None:
        """Haizea's cancel and requeue: a running lease is stopped and its work thrown away (it
        starts afresh; a lease resumed before loses its earlier runs too, where Haizea keeps
        them: docs/federation.md); a planned one loses its plan (a suspended lease stays
        suspended)."""
        self.counters.requeued += 1
        if q.phase == RUNNING:
            self._drop_bookings(q)
            self.dc.kill(q.job)
            q.left = float(q.job.desc.runtime_estimate)
            q.started = False
            q.last_vms = ()
        else:
            self.unplan(q, now)
        self.requeue(q, now)

    def requeue(self, q: Plan, now: float) -> None:
        """``q`` waits in the queue again, ready now; with aggressive backfilling (Haizea's queue)
        behind every waiting lease submitted at the same time as it."""
        self._future.pop(q, None)
        q.future = False
        q.phase = WAITING
        q.ready_at = now
        q.begin_at = q.vm_start = INF
        if self._aggressive:
            q.key = (q.key[0], next(self._seq))
        self._waiting.add(q)
        self._queue.look_again()

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
        """Suspend running (or planned) lease ``q`` at ``s`` (>= now) and book its save
        ``[s, s + save)``."""
        if q.cut is not None:
            self.dc.cancel_wake(q.cut)
            q.cut = None
        if q.save_res is not None:
            self._unbook(q.save_res)
            q.save_res = None
        if q.res is not None:
            res = self.table[q.res]
            if s > res.start:
                if s < res.end:
                    self._shorten(q.res, s)
            else:                       # suspended the moment it starts: nothing of it is left
                self._unbook(q.res)
                q.res = None
        if q.save > 0:
            q.save_res = self._book(q, q.vms, s, s + q.save, True)
        q.cut_at = s
        if q.phase == PLANNED:
            return                      # armed when it begins (_begin)
        if s <= now:
            self._suspend(q)
        else:
            q.cut = self.dc.schedule_action(s, self._suspend, q, PREEMPT)

    def _arm_cut(self, p: Plan, now: float) -> None:
        """A lease that has just begun suspends at its planned cut (at once if its run is empty;
        one whose preparation ends at its cut, as soon as it is over: :meth:`_go`)."""
        if p.cut_at == INF or p.cut is not None or p.phase == PREP and p.cut_at <= p.vm_start:
            return
        if p.cut_at <= now:
            self._suspend(p)
        else:
            p.cut = self.dc.schedule_action(p.cut_at, self._suspend, p, PREEMPT)

    # ------------------------------------------------------------------ starting
    def start_on(self, p: Plan, vms: tuple[int, ...], how: int, now: float, cut_at: float | None) -> None:
        """Book ``p`` on ``vms`` from now (preparation, then its remaining requested duration and
        its shutdown, or up to ``cut_at`` and a save) and start the preparation. O(1) plus the
        bookings (a fresh start's run begins after its transfer: :meth:`run_start`'s sum, inline)."""
        p.vms = vms
        p.prep_start = now
        p.prep_kind = how
        self._book_run(p, vms, now, now + p.xfer if how == FRESH else self.run_start(p, how, now), cut_at)
        if cut_at is not None:
            p.cut = self.dc.schedule_action(cut_at, self._suspend, p, PREEMPT)
        if how == IN_PLACE:
            self._resume(p, now)
        elif how == FRESH and p.xfer == 0 or how == MIGRATE and p.mig == 0:
            self._go(p)
        else:
            p.phase = PREP
            p.go = self.dc.schedule_action(now + (p.xfer if how == FRESH else p.mig), self._go, p, TIMER)

    def _book_run(self, p: Plan, vms: tuple[int, ...], begin: float, run_from: float, cut: float | None,
                  empty: bool = True) -> None:
        """Book ``p`` on ``vms`` from ``begin`` (its preparation) through its run from ``run_from``
        for its remaining requested duration and its shutdown; or, planned to be cut at ``cut``
        (a gap before a reservation), up to the cut and then its save. ``empty``: an empty
        interval is still booked (for an instant: a task of zero length holds its VMs)."""
        end = run_from + p.left + p.shutdown if cut is None else cut
        if end > begin or empty:
            p.res = self._book(p, vms, begin, end, p.hard)
        if cut is not None:
            self.counters.gap_starts += 1
            if p.save > 0:
                p.save_res = self._book(p, vms, cut, cut + p.save, True)
            p.cut_at = cut

    def _resume(self, p: Plan, now: float) -> None:
        """Resume in the datacenter with the reload as the resume's cost."""
        p.phase = RUNNING
        p.run_from = now + p.reload
        self._phase(p, "reload", now, p.run_from)
        self.dc.resume(p.job, hosts=list(p.vms), migrate=p.prep_kind == MIGRATE, cost=p.reload)

    def _go(self, p: Plan) -> None:
        """The preparation is over: start (after a transfer) or resume (after a migration). O(1)
        plus the datacenter's start."""
        now = self.dc.now
        p.go = None
        if p.prep_kind == FRESH:
            self._phase(p, "transfer", p.prep_start, now)
            p.phase = RUNNING
            p.run_from = now
            p.started = True
            self.dc.start(p.job, 0, p.vms)
        else:
            self._phase(p, "migrate", p.prep_start, now)
            self._resume(p, now)
        if p.cut_at != INF:             # (_arm_cut does nothing without a planned cut)
            self._arm_cut(p, now)

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
        p.saved_at = self.dc.now
        self.requeue(p, self.dc.now)

    # ------------------------------------------------------------------ datacenter events
    def finished(self, job: Job) -> Plan | None:
        """``job`` finished in the datacenter: its bookings are released (a lease that ends
        before its requested duration frees its VMs now; one that ran its whole requested
        duration keeps them for its shutdown, Haizea). Returns its plan. With aggressive
        backfilling an early end re-plans the future leases (Haizea 1.0). O(1) plus the
        release of its bookings (the common case, no aggressive backfilling and no shutdown,
        reads neither the clock nor the planned end)."""
        p = self._plans.pop(job, None)
        if p is None:
            return None
        if self._future:
            self._future.pop(p, None)
        if not (self._aggressive or p.shutdown > 0):
            # the common case, decided without the planned end (only the two branches below
            # read it): its bookings go now
            self._drop_bookings(p)
            p.phase = DONE
            return p
        now = self.dc.now
        planned = self._planned_end(p)
        early = now < planned - EPS
        if early and self._aggressive:
            # Haizea handles the runs that end early at one time one by one, in the order of
            # their planned ends, each followed by a re-plan of the future leases
            if p.cut is not None:
                self.dc.cancel_wake(p.cut)
                p.cut = None
            self._early.append((planned, p.res if p.res is not None else -1, p))
            if len(self._early) == 1:
                self.dc.schedule_action(now, self._early_ends, None, PREEMPT)
        elif p.shutdown > 0 and not early and p.cut_at == INF and p.res is not None:
            self._shut_down(p, now)         # (a run that ends at its planned cut just ends)
        else:
            self._drop_bookings(p)
            p.phase = DONE
        return p

    def _planned_end(self, p: Plan) -> float:
        """When ``p``'s run is planned to end (at a planned cut, or after its whole requested
        duration); a run that ends before has its planned shutdown or suspension dropped, as
        Haizea does."""
        if p.cut_at < INF:
            return p.cut_at
        if p.res is not None:
            return self.table[p.res].end - p.shutdown
        return -INF

    def _early_ends(self, _: Any) -> None:
        now = self.dc.now
        early = sorted(self._early, key=itemgetter(0, 1))
        self._early = []
        queue = self._queue
        # early ends are kept under aggressive backfilling only
        assert isinstance(queue, AggressiveQueue)
        for _, _, p in early:
            self._drop_bookings(p)
            p.phase = DONE
            queue.replan(now)

    def _shut_down(self, p: Plan, now: float) -> None:
        """Haizea's shutdown after a run: the lease's VMs stay booked ``shutdown`` more seconds
        (``shutdown_s + enactment_s`` per VM); the next lease starts after it."""
        assert p.res is not None
        end = now + p.shutdown
        if self.table[p.res].end > end + EPS:
            self._shorten(p.res, end)
        p.phase = SHUTDOWN
        self._phase(p, "shutdown", now, end)
        self.dc.schedule_action(end, self._shut, p, PREEMPT)

    def _shut(self, p: Plan) -> None:
        self._drop_bookings(p)
        p.phase = DONE
        self._queue.look_again()

    # ------------------------------------------------------------------ planned leases (Haizea's queue plans them)
    def threshold(self, p: Plan, queued: bool) -> float | None:
        """Haizea's scheduling threshold ``T = (1 + factor) S``: ``S`` is the lease's whole-lease
        suspend estimate, plus its resume estimate if it is a suspended lease waiting in the
        queue (``queued``); ``None`` without ``threshold_factor``."""
        factor = self.options.threshold_factor
        if factor is None:
            return None
        est = p.save_est + (p.reload_est if queued else 0.0)
        return est * (1.0 + factor)

    @staticmethod
    def run_start(p: Plan, how: int, start: float) -> float:
        """When ``p``'s run begins if its preparation ``how`` begins at ``start``: after its image
        transfer (a new lease), its reload (a suspended one), after a migration if it moves. Added
        up in the order the preparation happens (``(start + migration) + reload``), as the
        datacenter's clock does: a booking then ends exactly when the datacenter ends the run
        (``start + (migration + reload)`` could differ by one ulp, and a start planned at the
        booking's end find the VMs still held)."""
        if how == FRESH:
            return start + p.xfer
        if how == IN_PLACE:
            return start + p.reload
        return (start + p.mig) + p.reload

    def how(self, p: Plan, vms: tuple[int, ...]) -> int:
        """How ``p`` begins on ``vms`` under aggressive backfilling: from scratch, resumed where it
        was, or moved (a migration before its reload, unless its state is copied ahead)."""
        if not p.started:
            return FRESH
        if vms != p.last_vms and not self.options.copy_ahead:
            return MIGRATE
        return IN_PLACE

    def commit(self, p: Plan, now: float, s: float, vms: tuple[int, ...], cut: float | None,
                future: bool) -> None:
        """Book ``p`` as Haizea's queue found it (:meth:`AggressiveQueue._asap`): from ``s`` on
        ``vms`` (its preparation, then its run and shutdown, or its run up to ``cut`` and its
        save), its state copied ahead if it moves (``copy_ahead``); begin now, or later (a
        planned lease)."""
        p.vms = vms
        p.begin_at = s
        p.vm_start = self.run_start(p, self.how(p, vms), s)
        self._book_run(p, vms, s, p.vm_start, cut, empty=False)
        if p.started and self.options.copy_ahead and vms != p.last_vms:
            self._plan_copies(p, now)
        if future:
            self._future[p] = None
            p.future = True
        if s <= now:
            self._begin(p)
        else:
            p.phase = PLANNED
            p.go = self.dc.schedule_action(s, self._begin, p, TIMER)

    def _begin(self, p: Plan) -> None:
        """A planned lease's time has come: start it (after its image transfer, if any) or resume
        it (in place, or on other VMs: after a migration, unless its state was copied ahead),
        then arm its planned cut."""
        now = self.dc.now
        p.go = None
        p.prep_start = now
        if not p.started:
            p.prep_kind = FRESH
            if p.xfer > 0:
                p.phase = PREP
                p.go = self.dc.schedule_action(now + p.xfer, self._go, p, TIMER)
            else:
                self._go(p)
        else:
            moved = p.vms != p.last_vms
            p.prep_kind = MIGRATE if moved else IN_PLACE
            if moved and not self.options.copy_ahead and p.mig > 0:
                p.phase = PREP
                p.go = self.dc.schedule_action(now + p.mig, self._go, p, TIMER)
            else:
                self._resume(p, now)
        self._arm_cut(p, now)

    def _plan_copies(self, p: Plan, now: float) -> None:
        """Haizea's memory migration (``copy_ahead``): each VM's state goes from its old VM to its
        new one over the network, in rounds in which no VM sends or receives twice (every VM of
        the lease counts, moved or not), each as long as one VM's copy, back to back from the
        end of the lease's save or from now. A copy is network traffic: it holds no VM."""
        pairs = list(zip(p.last_vms, p.vms))
        t = max(p.saved_at, now)
        while pairs:
            used: set[int] = set()
            batch, rest = [], []
            for o, d in pairs:
                if o in used or d in used:
                    rest.append((o, d))
                else:
                    batch.append((o, d))
                    used.update((o, d))
            pairs = rest
            copy = Copy(p, t, t + p.mig, tuple(batch))
            copy.event = self.dc.schedule_action(copy.end, self._copied, copy, TIMER)
            p.copies.append(copy)
            self._copies[copy] = None
            self.counters.copies += 1
            t = copy.end

    def _copied(self, copy: Copy) -> None:
        copy.event = None
        self._copies.pop(copy, None)
        self._phase(copy.plan, "copy", copy.start, copy.end, copy.vms)

    def _drop_copies(self, p: Plan, now: float) -> None:
        """Cancel ``p``'s copies not yet over (the part of one under way is recorded)."""
        for copy in p.copies:
            if copy.event is not None:
                self.dc.cancel_wake(copy.event)
                self._copies.pop(copy, None)
                if copy.start < now:
                    self._phase(p, "copy", copy.start, now, copy.vms)
        p.copies = []

    def unplan(self, p: Plan, now: float) -> None:
        """Drop a planned lease's plan: its start, copies, bookings, its place among the future
        leases."""
        if p.go is not None:
            self.dc.cancel_wake(p.go)
            p.go = None
        self._drop_copies(p, now)
        self._drop_bookings(p)
        self._future.pop(p, None)
        p.future = False
        p.begin_at = p.vm_start = INF

    # ------------------------------------------------------------------ the pass
    def schedule(self, now: float) -> None:
        """The local pass over the waiting best-effort leases, by the cloud's queue discipline:
        :meth:`BackfillQueue.schedule` (the project's: FCFS with EASY-style backfilling and gap
        starts) or :meth:`AggressiveQueue.schedule` (Haizea 1.0's aggressive backfilling); their
        costs are in their docstrings."""
        self._queue.schedule(now)

    def free_now(self, now: float, only: tuple[int, ...] | None = None) -> dict[int, float]:
        """The VMs (of ``only``) free now in the slot table and idle in the datacenter, with how
        long each stays free (:data:`~cloudsim_py.clouds.slottable.BIG`: for good; it compares
        like ``inf`` with every time a pass asks about, and scores like it in
        :meth:`AggressiveQueue._by_score`),
        in id order. O(V) in C loops (:meth:`SlotTable.free_lists`, and a check that every one is idle
        in the datacenter, the usual case: a VM is free in the table once its lease's booking
        is released). All VMs at the present: :meth:`SlotTable.free_map`, the last pass's free
        VMs brought up to date from the VMs changed since (O(changed + F) for ``F`` free VMs,
        plus a C ``min`` over the VMs' first ends)."""
        idle = self.dc.idle_hosts(0)
        if only is None:
            kept = self.table.free_map(now)
            if kept is not None:
                if kept.keys() <= idle:         # (every one idle: one C-level subset test)
                    return kept.copy()
                return {v: u for v, u in kept.items() if v in idle}
        ids, until = self.table.free_lists(now, only)
        if all(map(idle.__contains__, ids)):
            return dict(zip(ids, until))
        return {v: u for v, u in zip(ids, until) if v in idle}

    # ------------------------------------------------------------------ queries
    def quote(self, n: int, duration: float, not_before: float, ar: bool = False) -> float:
        """Li et al. IV: the answer to a task-checking request (:meth:`Quotes.quote`)."""
        return self._quotes.quote(n, duration, not_before, ar)

    def quotes(self, n: np.ndarray, duration: np.ndarray, not_before: np.ndarray, ar: np.ndarray) -> np.ndarray:
        """:meth:`quote` of many tasks at once (:meth:`Quotes.quotes`)."""
        return self._quotes.quotes(n, duration, not_before, ar)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def plan_of(self, job: Job) -> Plan | None:
        """The plan this cloud holds for ``job`` (its booking, phase and VMs), ``None`` if the job
        is not planned here (never accepted, or ended): for tests and listeners. O(1)."""
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
