"""Haizea 1.0's queue with aggressive backfilling (Sotomayor, Keahey and Foster, HPDC 2008;
Haizea 1.0's ``backfilling: aggressive``): the queue discipline of a cloud whose
:class:`~cloudsim_py.clouds.lease_plan.LocalOptions` ask for it (``aggressive``, on in the
``haizea`` preset). Each rule is in docs/federation.md, "Haizea 1.0 and this project".

:class:`AggressiveQueue` decides, :class:`~cloudsim_py.clouds.local.LocalCloud` enacts: the
queue plans each waiting lease as early as it can begin (now, in a gap before a booking, or as
the one "future lease" at the end of a booked run), choosing the VMs as Haizea's greedy host
selection does, and hands the plan to the cloud (``commit``: the bookings, the start or the
planned start, the state copied ahead); when a run ends early the cloud asks it to plan the
future leases again (:meth:`AggressiveQueue.replan`). The cloud's other discipline, EASY-style
backfilling with a head reservation, is :class:`~cloudsim_py.clouds.backfill_queue.BackfillQueue`.
Knows the cloud through :class:`~cloudsim_py.clouds.lease_queue.QueueCloud` only.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import itemgetter

from .lease_plan import (DONE, FUTURE_LEASES, INF, PLANNED, PREP, RUNNING, SHUTDOWN, TINY, WAITING, Copy, Plan,
                         cut_before)
from .lease_queue import QueueCloud
from .waiting import WaitingQueue


class AggressiveQueue:
    """Haizea's queue pass and its re-plans for one cloud (see the module docstring). It holds
    the cloud's shared state by reference (slot table, datacenter, options, the waiting
    leases, the bookings' owners, the future leases, the state copies; none is ever replaced)
    and keeps its own answers of the free VMs per state of the slot table."""

    __slots__ = ("cloud", "table", "dc", "options", "n_vms", "waiting", "owner", "future", "copies",
                 "_free_memo", "_free_stamp", "_ends_memo")

    def __init__(self, cloud: QueueCloud, waiting: WaitingQueue, owner: dict[int, Plan | None],
                 future: dict[Plan, None], copies: dict[Copy, None]) -> None:
        self.cloud = cloud
        self.table = cloud.table
        self.dc = cloud.dc
        self.options = cloud.options
        self.n_vms = cloud.n_vms
        #: the waiting leases, in queue order
        self.waiting = waiting
        #: the plan of each booking (None: a booking of no plan)
        self.owner = owner
        #: Haizea's future leases (booked at a future candidate, their run not begun)
        self.future = future
        #: the state copies booked and not over (they weigh in Haizea's choice of VMs)
        self.copies = copies
        #: :meth:`_free_at`'s answers for one state of the slot table at one time
        self._free_memo: dict[tuple[float, tuple[int, ...] | None], dict[int, float]] = {}
        self._free_stamp: tuple[int, float] = (-1, -INF)
        #: the same answers' free-until times, ascending (made when first needed)
        self._ends_memo: dict[tuple[float, tuple[int, ...] | None], list[float]] = {}

    def queued(self, p: Plan) -> None:
        """A lease joined the queue: every pass plans the whole queue, nothing to note."""

    def look_again(self) -> None:
        """Every pass plans the whole queue: nothing to note."""

    def schedule(self, now: float) -> None:
        """Haizea 1.0's queue pass with aggressive backfilling (Sotomayor et al.; each rule in
        docs/federation.md, "Haizea 1.0 and this project"). The queue is taken in order (by
        submit time; a lease queued again goes behind those submitted at the same time). Each
        lease is planned as early as it can begin: now (a suspended lease, with ``copy_ahead``:
        now plus one copy of its state, even on its own VMs) for its whole remaining run, or for
        a run up to the next booking and a suspension there if that gap is at least its
        threshold; failing that, and only while no other lease is booked so (one "future
        lease"), at the first end of a run after which it can. A future lease is held until its
        run begins, or an early end re-plans it (:meth:`replan`, from
        :meth:`LocalCloud.finished`). A lease that cannot be planned stays queued and the later
        ones are tried; the pass stops when no future booking is allowed and every VM's CPU is
        booked now.

        Cost, with Q waiting leases, V VMs, B bookings: per lease one :meth:`_asap`, whose free
        VMs at a time are O(V) once per state of the slot table and time (kept), whose gap test
        is O(1) on their sorted ends, and whose choice of VMs is O(V log V) (:meth:`_by_score`);
        while a future lease is allowed it also tries up to B candidate times (the ends of the
        booked runs, O(B log B) to list and count): O(Q V log V) per pass without a future
        booking, O(Q B V log V) at worst with one."""
        waiting = self.waiting
        if not waiting:
            return
        future = self._futures(now)
        full: bool | None = None
        for p in list(waiting):
            allow = future < FUTURE_LEASES
            if not allow:
                if full is None:
                    full = self._cpu_full(now)
                if full:
                    break
            if p.ready_at > now:
                self.cloud.wake_at(p.ready_at)
                continue
            if not allow and not p.started and len(self._free_at(now, None)) < p.job.procs:
                continue                    # (too few VMs free now: a quick no)
            fit = self._asap(p, now, allow, p.started)
            if fit is None:
                continue
            waiting.remove(p)
            self.cloud.commit(p, now, *fit)
            future += fit[3]
            full = None

    def replan(self, now: float) -> None:
        """Haizea re-plans its future leases when a run ends early: each one whose plan has not
        begun is planned again now, with the threshold of a lease that is not queued (Haizea's
        state then is "suspended-pending"), and may again be booked in the future."""
        for p in list(self.future):
            if p.phase != PLANNED:
                continue
            self.cloud.unplan(p, now)
            fit = self._asap(p, now, self._futures(now) < FUTURE_LEASES, False)
            if fit is None:
                self.cloud.requeue(p, now)
            else:
                self.cloud.commit(p, now, *fit)

    def _futures(self, now: float) -> int:
        """How many future leases there are now: booked at a future candidate, their run not
        begun (a lease stops counting when its run begins, not its resumption)."""
        for p in [p for p in self.future if p.vm_start <= now or p.phase == WAITING or p.phase == DONE]:
            del self.future[p]
            p.future = False
        return len(self.future)

    def _cpu_full(self, now: float) -> bool:
        """Every VM's CPU is booked now (a VM saving or reloading a lease's state, or receiving
        its image or state, holds its memory or network, not its CPU, in Haizea's slot table)."""
        if self.table.any_free(now):
            return False
        for r in self.table.overlapping(now, now + TINY):
            q = self.owner[r.id]  # type: ignore[index]
            if q is None:
                continue
            if r.id == q.save_res or r.id == q.res and (q.phase == PREP or q.phase == RUNNING and now < q.run_from):
                return False
        return True

    def _asap(self, p: Plan, now: float, allow_future: bool,
              queued: bool) -> tuple[float, tuple[int, ...], float | None, bool] | None:
        """Where and when ``p`` can begin (Haizea's ``schedule_asap``): ``(begin, VMs, cut or
        None, future)``, or ``None``. The earliest time is tried first, then (``allow_future``)
        the final ends of the booked runs ending after it, in the order of their runs' ends
        (:meth:`_future_starts`); the first that fits wins."""
        resumed = p.started
        est = p.mig if resumed and self.options.migrate and self.options.copy_ahead else 0.0
        earliest = now + est
        only = p.last_vms if resumed and not self.options.migrate else None
        extra = p.reload_est + (p.mig if self.options.migrate and not self.options.copy_ahead else 0.0)
        length = p.left + (extra if resumed else p.xfer) + p.shutdown
        thr = self.cloud.threshold(p, queued)
        fit = self._fit_at(p, earliest, length, only, thr)
        if fit is not None:
            return earliest, fit[0], fit[1], False
        if allow_future:
            starts = self._future_starts(earliest)
            n = p.job.procs
            for s, free in zip(starts, self._free_counts(starts)):
                if free < n:
                    continue                # (too few VMs free then: a quick no)
                fit = self._fit_at(p, s, length, only, thr)
                if fit is not None:
                    return s, fit[0], fit[1], True
        return None

    def _free_counts(self, times: list[float]) -> list[int]:
        """How many VMs are free in the slot table at each of ``times``: ``V`` minus the VMs of
        the bookings that cover it (sums over the bookings by start and by end)."""
        starts = sorted((r.start, len(r.vms)) for r in self.table)
        ends = sorted((r.end, len(r.vms)) for r in self.table)
        s_at = [t for t, _ in starts]
        e_at = [t for t, _ in ends]
        s_sum = list(accumulate((k for _, k in starts), initial=0))
        e_sum = list(accumulate((k for _, k in ends), initial=0))
        n = self.n_vms
        return [n - s_sum[bisect_right(s_at, t)] + e_sum[bisect_right(e_at, t)] for t in times]

    def _fit_at(self, p: Plan, s: float, length: float, only: tuple[int, ...] | None,
                thr: float | None) -> tuple[tuple[int, ...], float | None] | None:
        """Haizea's greedy mapping of ``p`` from ``s`` for ``length``: the VMs free at ``s`` in the
        order of its host selection (:meth:`_by_score`), the first ``n`` of them; the lease runs
        on them until the first is needed again. ``(VMs, None)`` if that covers its run,
        ``(VMs, cut)`` if it must be suspended at ``cut`` and the gap from ``s`` is at least the
        threshold ``thr`` (``None``: any gap with a non-empty run); else ``None``. A lease that
        may not be suspended (``fill_gaps`` off, or not preemptible) needs VMs free for
        ``length``."""
        free = self._free_at(s, only)
        n = p.job.procs
        end = s + length
        whole = p.hard or not self.options.fill_gaps     # it may not be suspended: VMs for all of it
        if whole:
            free = {v: u for v, u in free.items() if u >= end}
        if len(free) < n:
            return None
        if thr is not None and not whole:
            # whichever n VMs are chosen, the first of them needed again is needed by the n-th
            # latest free-until time: if that is before the end and leaves a gap shorter than the
            # threshold, so is the chosen VMs' (the answer below, without scoring the VMs). O(1)
            # once the sorted times are made for this state and s.
            kth = self._free_ends(s, only)[-n]
            if kth < end and kth - s < thr:
                return None
        if only is not None:
            vms = only                      # no migration: its own VMs, each as before
        else:
            vms = tuple(self._by_score(free, s, float(p.job.desc.runtime_estimate), n))
        maxend = min(end, min(map(free.__getitem__, vms)))
        if maxend >= end:
            return vms, None
        if thr is not None and maxend - s < thr:
            return None
        begin = self.cloud.run_start(p, self.cloud.how(p, vms), s)
        if maxend >= begin + p.left + p.shutdown:
            return vms, None
        cut = cut_before(maxend, p.save)
        if cut < begin or cut == begin and thr is None:
            return None
        return vms, cut

    def _free_at(self, s: float, only: tuple[int, ...] | None) -> dict[int, float]:
        """The VMs (of ``only``) free at ``s`` and until when (now: idle in the datacenter too,
        :meth:`LocalCloud.free_now`), kept while no booking changes (a pass asks the same of many leases).
        "For good" is :data:`~cloudsim_py.clouds.slottable.BIG`, which compares, and scores in
        :meth:`_by_score` (``BIG - s`` is at least any duration), like ``inf``. O(V)
        (:meth:`SlotTable.free_lists`) once per state, time and question."""
        now = self.dc.now
        stamp = (self.table.version, now)
        if self._free_stamp != stamp:
            self._free_stamp = stamp
            self._free_memo = {}
            self._ends_memo = {}
        key = (s, only)
        free = self._free_memo.get(key)
        if free is None:
            free = self._free_memo[key] = (self.cloud.free_now(s, only) if s <= now else
                                           dict(zip(*self.table.free_lists(s, only))))
        return free

    def _free_ends(self, s: float, only: tuple[int, ...] | None) -> list[float]:
        """The free-until times of :meth:`_free_at` ``(s, only)``, ascending, kept with it.
        O(F log F) once per state, time and question."""
        key = (s, only)
        ends = self._ends_memo.get(key)
        if ends is None:
            ends = self._ends_memo[key] = sorted(self._free_at(s, only).values())
        return ends

    def _future_starts(self, earliest: float) -> list[float]:
        """Haizea's future candidates: for every booked run ending after ``earliest`` (ARs,
        leases running or planned), by the end of the run, the end of what follows it (its
        shutdown or its suspension); then the ends of the shutdowns under way."""
        runs: list[tuple[float, float]] = []
        downs: list[float] = []
        table = self.table
        for rid, q in self.owner.items():
            if q is None or rid != q.res:
                continue
            r = table[rid]
            if q.phase == SHUTDOWN:
                if r.end > earliest:
                    downs.append(r.end)
                continue
            if q.cut_at < INF:
                run_end, final = q.cut_at, q.cut_at + q.save
            else:
                run_end, final = r.end - q.shutdown, r.end
            if run_end > earliest:
                runs.append((run_end, final))
        runs.sort(key=itemgetter(0))
        return list(dict.fromkeys([f for _, f in runs] + downs))

    def _by_score(self, free: dict[int, float], s: float, duration: float, n: int) -> list[int]:
        """The first ``n`` VMs of ``free`` (VM -> until when it is free from ``s``, by id) in the
        order of Haizea's greedy host selection at ``s`` for a lease of requested ``duration``:
        the score ``0.5 (4 - min(4, L)) / 4 + 0.25 + 0.25 min(1, D / duration)``, highest
        first, ties by id; ``L`` counts the leases whose state copies touch the VM at ``s`` (a
        free VM has no other), ``D`` is how long the VM stays as it is (free, and its copies
        unchanged). Without copies: the VMs free for ``duration`` by id, then the others by how
        long they stay free (O(V) when the first suffice)."""
        if not self.copies:
            end = s + duration
            whole = [v for v, u in free.items() if u >= end]
            if len(whole) >= n:
                return whole[:n]
            rest = sorted((v for v, u in free.items() if u < end), key=lambda v: -free[v])
            return whole + rest[: n - len(whole)]
        touching: dict[int, set[Plan]] = {}
        change: dict[int, float] = {}
        for copy in self.copies:
            if copy.end <= s:
                continue
            at = copy.end if copy.start <= s else copy.start
            for pair in copy.pairs:
                for v in pair:
                    if copy.start <= s:
                        touching.setdefault(v, set()).add(copy.plan)
                    if at < change.get(v, INF):
                        change[v] = at

        # each VM's score negated, the same operations as the formula above, in one loop
        keys = {}
        near_of = touching.get
        change_at = change.get
        for v, u in free.items():
            c = change_at(v, INF)
            d = (c if c < u else u) - s           # min(u, c)
            near = 1.0 if d >= duration else d / duration
            keys[v] = -(0.5 * ((4 - min(4, len(near_of(v, ())))) / 4.0) + 0.25 * 1.0 + 0.25 * near)
        return sorted(free, key=keys.__getitem__)[:n]
