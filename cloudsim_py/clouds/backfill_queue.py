"""The project's queue discipline for a cloud's best-effort leases (Li et al., seed 001,
section IV-C; Haizea's gap starts, Sotomayor et al.): first come first served with backfilling
around the first blocked lease's earliest run, as EASY does, and, with ``fill_gaps``, a
preemptible lease started in a gap before a reservation and suspended for it.

:class:`BackfillQueue` decides, :class:`~cloudsim_py.clouds.local.LocalCloud` enacts (its
``start_on``: the bookings, the image transfer or the reload, the planned cut). The other
discipline, Haizea 1.0's aggressive backfilling, is
:class:`~cloudsim_py.clouds.haizea_queue.AggressiveQueue`; a cloud composes one of the two
(:class:`~cloudsim_py.clouds.lease_queue.LeaseQueue`). Knows the cloud through
:class:`~cloudsim_py.clouds.lease_queue.QueueCloud` only.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable

import attrs

from .lease_plan import FRESH, IN_PLACE, MIGRATE, Plan, cut_before, positive_length
from .lease_queue import QueueCloud
from .waiting import WaitingQueue


@attrs.define(slots=True, eq=False)
class PassEnd:
    """What a lease pass left for the next one (:meth:`BackfillQueue.schedule`): valid while the
    slot table is at ``version``; at the same ``time`` it is taken as it is, later the free VMs
    whose time is up are dropped."""

    version: int                   #: the slot table's version after the pass
    free: dict[int, float]         #: the free VMs left, each with how long it stays free
    head: "Plan | None"            #: the first blocked lease
    held: bool                     #: whether its reservation is held in ``free``
    time: float
    ends: list[float]              #: ``free``'s times, ascending

    def renew(self, version: int, free: dict[int, float], head: "Plan | None", held: bool, time: float,
              ends: list[float]) -> None:
        """What a later pass left, written over this one's (every field). O(1)."""
        self.version = version
        self.free = free
        self.head = head
        self.held = held
        self.time = time
        self.ends = ends


class BackfillQueue:
    """The project's lease pass for one cloud (see the module docstring), with what a pass
    leaves for the next (:class:`PassEnd`): the leases queued since the last pass are checked
    alone against it while nothing else changed. It holds the cloud's shared state by
    reference (slot table, datacenter, options, the waiting leases; none is ever replaced)."""

    __slots__ = ("cloud", "table", "dc", "options", "fill_gaps", "waiting", "fresh", "full", "_memo", "_held")

    def __init__(self, cloud: QueueCloud, waiting: WaitingQueue) -> None:
        self.cloud = cloud
        self.table = cloud.table
        self.dc = cloud.dc
        self.options = cloud.options
        self.fill_gaps = cloud.fill_gaps
        #: the waiting leases, in queue order
        self.waiting = waiting
        #: leases queued since the last pass (at the queue's end), for an incremental pass
        self.fresh: list[Plan] = []
        #: the next pass must look at every waiting lease (one became ready, or re-entered the
        #: queue in the middle)
        self.full = True
        #: what the last pass left for later leases
        self._memo: PassEnd | None = None
        #: the VMs of the last head's hold and their set (the slot table answers a head asked in
        #: place with the same tuple pass after pass: its set is made once)
        self._held: tuple[tuple[int, ...], frozenset[int]] = ((), frozenset())

    def queued(self, p: Plan) -> None:
        """``p`` joined the queue at its end: the next pass may check it alone."""
        self.fresh.append(p)

    def look_again(self) -> None:
        """Something other than a new lease changed (a lease became ready, re-entered the queue,
        or VMs were freed outside a booking change): the next pass looks at every lease."""
        self.full = True

    def schedule(self, now: float) -> None:
        """Best-effort leases in arrival order (Li et al. IV-C: "every time when there are enough
        VMs, the task on the top of the queue will be executed"), with backfilling around the
        first blocked one's earliest run (EASY's head reservation: computed only when a later
        lease could start now, and kept for this pass only).

        Cost: O(W) numpy for the free VMs (``W`` the slot table's windows), then O(log V) per
        waiting lease checked (a bisection in the sorted free-until times), O(V) per lease
        started, and the head's reservation when a later lease could start (:meth:`_hold`: O(V)
        from the booking lists, O(VMs changed) when its last answer still holds). When no
        booking changed since the last pass and no lease became ready, the leases checked then
        would fare no better now (the free VMs are the same and time only shortens their gaps):
        the pass checks only the leases queued since, against what the last pass left (O(new
        leases log V); at a later time the free VMs whose time is up are dropped from a copy,
        and from the sorted times by one bisection: O(F))."""
        waiting = self.waiting
        fresh = self.fresh
        if fresh:
            self.fresh = []
        if not waiting:                     # (two passes in three on Li et al.'s clouds)
            return
        memo = self._memo
        version = self.table.version
        if memo is not None and not self.full and memo.version == version:
            if not fresh or not memo.free:
                return
            free: dict[int, float]
            ends: list[float] | None
            if memo.time == now:            # the same instant: what it left, as it left it
                free, ends = memo.free, memo.ends
            else:                           # later: the VMs still free (their ends sorted already)
                cut = bisect_right(memo.ends, now)
                free = dict(memo.free) if not cut else {v: u for v, u in memo.free.items() if u > now}
                ends = memo.ends[cut:]
            head, held = memo.head, memo.held
            plans: Iterable[Plan] = fresh
        else:
            self.full = False
            free = self.cloud.free_now(now) if self.dc.idle(0) else {}
            head, held, ends = None, False, None
            plans = waiting
        started: list[Plan] = []
        if free:
            head, held, ends = self._walk(plans, now, free, head, held, started, ends)
        elif head is None:
            head = next(iter(waiting))
        for p in started:
            waiting.remove(p)
        if ends is None:
            ends = sorted(free.values())
        if memo is None:
            self._memo = PassEnd(self.table.version, free, head, held, now, ends)
        else:                               # (one object for the cloud's life, not one a pass)
            memo.renew(self.table.version, free, head, held, now, ends)

    def _walk(self, plans: Iterable[Plan], now: float, free: dict[int, float], head: Plan | None, held: bool,
              started: list[Plan], ends: list[float] | None = None) -> tuple[Plan | None, bool, list[float]]:
        """Start what fits of ``plans`` on ``free`` (see :meth:`schedule`); returns the first
        blocked lease, whether its reservation is held in ``free``, and ``ends``, the free VMs'
        free-until times sorted as ``free`` is left. ``ends`` is sorted once per walk (or given:
        the last walk's at the same instant, which a pass after an accepted task reuses with its
        free VMs, O(1) instead of a copy and a sort) and after the head's hold, and a start
        removes its VMs' times by bisection (O(k log V) for ``k`` VMs, instead of a sort of
        every free VM's time per start). Up to the first blocked lease each one may start (or
        start in a gap); the leases behind it are :meth:`_backfill`'s."""
        if ends is None:
            ends = sorted(free.values())      # how long the free VMs stay free, ascending
        if head is not None and not self.options.backfill:
            return head, held, ends           # strict FCFS: nothing passes a blocked lease
        it = iter(plans)
        if head is None:
            for p in it:
                if p.ready_at > now:
                    self.cloud.wake_at(p.ready_at)
                    continue
                if p.job.procs <= len(ends):
                    fit = self._fit(p, now, free, ends)
                    if fit is not None:
                        gone = [free[v] for v in fit[1]]
                        self._take(p, fit[1], fit[0], now, free, None)
                    elif self.fill_gaps and not p.hard:
                        gap = self._gap_fit(p, now, free)
                        if gap is not None:
                            gone = [free[v] for v in gap[1]]
                            self._take(p, gap[1], gap[0], now, free, gap[2])
                            fit = gap[:2]
                    if fit is not None:
                        started.append(p)
                        if not free:
                            return head, held, []
                        ends = _without(ends, gone, free)
                        continue
                head = p
                break
            if head is None or not self.options.backfill:
                return head, held, ends
        return self._backfill(it, now, free, head, held, started, ends)

    def _backfill(self, plans: Iterable[Plan], now: float, free: dict[int, float], head: Plan, held: bool,
                  started: list[Plan], ends: list[float]) -> tuple[Plan, bool, list[float]]:
        """:meth:`_walk` behind the blocked ``head``: a lease starts only if it fits now for its
        whole run around the head's reservation (held in ``free`` before the first such start,
        :meth:`_hold`). A lease wider than the free VMs cannot start, and the free VMs only
        become fewer during the walk: those leases are left out at once (one C-level
        comprehension instead of a step each; a lease not ready is kept for its wake-up).
        O(W) for ``W`` leases behind the head, O(1) per lease never started that cannot fit (its
        ``n``-th longest free time, read from ``ends``, ends before its run: the test of
        :meth:`_fit`, without the call), O(log V) per other lease checked (:meth:`_fit`)."""
        width = len(ends)
        for p in [p for p in plans if p.job.procs <= width or p.ready_at > now]:
            if p.ready_at > now:
                self.cloud.wake_at(p.ready_at)
                continue
            n = len(ends) - p.job.procs
            if n < 0 or (not p.started and ends[n] < now + p.xfer + p.left + p.shutdown):
                continue
            fit = self._fit(p, now, free, ends)
            if fit is not None and not held:
                self._hold(head, now, free)
                ends = sorted(free.values())
                held = True
                fit = self._fit(p, now, free, ends)
            if fit is not None:
                gone = [free[v] for v in fit[1]]
                self._take(p, fit[1], fit[0], now, free, None)
                started.append(p)
                if not free:
                    return head, held, []
                ends = _without(ends, gone, free)
        return head, held, ends

    def _fit(self, p: Plan, now: float, free: dict[int, float],
             ends: list[float]) -> tuple[int, tuple[int, ...]] | None:
        """How and on which VMs ``p`` can run now for its whole remaining duration, if it can.
        O(log V) when it cannot (a bisection in ``ends``), O(V) when it can; a lease never
        started has one way to begin, checked without building :meth:`_options`."""
        n = p.job.procs
        if not p.started:                    # FRESH, as _options gives it, inlined
            need = now + p.xfer + p.left + p.shutdown
            if len(ends) - bisect_left(ends, need) < n:
                return None
            fits = []
            for v, u in free.items():
                if u >= need:
                    fits.append(v)
                    if len(fits) == n:
                        break
            return FRESH, tuple(fits)
        for how, _, only in self._options(p):
            need = self.cloud.run_start(p, how, now) + p.left + p.shutdown
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
        progress there before it must be suspended (and its state saved) for the next booking,
        and (``threshold_factor``) the gap is at least its scheduling threshold."""
        n = p.job.procs
        if n > len(free):
            return None
        thr = self.cloud.threshold(p, p.started)
        for how, _, only in self._options(p):
            if only is not None:
                if not all(v in free for v in only):
                    continue
                chosen = only
            else:
                chosen = tuple(sorted(sorted(free, key=lambda v: (-free[v], v))[:n]))
            until = min(free[v] for v in chosen)
            cut = cut_before(until, p.save)
            if cut > self.cloud.run_start(p, how, now) and (thr is None or until - now >= thr):
                return how, chosen, cut
        return None

    def _take(self, p: Plan, vms: tuple[int, ...], how: int, now: float, free: dict[int, float],
              cut: float | None) -> None:
        for v in vms:
            del free[v]
        self.cloud.start_on(p, vms, how, now, cut)

    def _hold(self, p: Plan, now: float, free: dict[int, float]) -> None:
        """The earliest full run of the first blocked lease: the free VMs it will take are free
        for later leases only until then.

        Each way to run it (fresh; or in place and moved, for a suspended lease) is asked with
        :meth:`SlotTable.earliest_start_lists` (the answer of ``earliest_start`` from the booking
        lists, O(V) plus the VMs with long gaps, without the window arrays); a way that cannot
        end before the best so far, even from :meth:`SlotTable.start_bound` (O(V)), is not
        asked. The same head asked again at a later pass (the same VMs tuple) is answered from
        its kept answer when the changes since leave it true (O(VMs changed)). The free VMs it
        takes are clipped in one look at each free VM (O(F), the set of its VMs made once per
        tuple answered)."""
        n = p.job.procs
        best = None
        table = self.table
        for how, prep, only in self._options(p):
            span = prep + p.left + p.shutdown
            if best is not None:
                best_end = best[0] + best[1]
                if now + span >= best_end or table.start_bound(n, positive_length(span), now, only) + span >= best_end:
                    continue                  # cannot end earlier: its start is at least now, or the bound
            t, vms = table.earliest_start_lists(n, positive_length(span), now, only)
            if best is None or t + span < best[0] + best[1]:
                best = (t, span, vms)
        assert best is not None
        t, _, vms = best
        if t <= now:
            return
        held = self._held
        if held[0] is not vms:                # (a head asked in place: the same ids tuple again)
            held = self._held = (vms, frozenset(vms))
        takes = held[1]
        for v, u in free.items():             # the free VMs it takes (a few of its many)
            if u > t and v in takes:
                free[v] = t
        self.cloud.wake_at(t)

    def _options(self, p: Plan) -> list[tuple[int, float, tuple[int, ...] | None]]:
        if not p.started:
            return [(FRESH, p.xfer, None)]
        opts: list[tuple[int, float, tuple[int, ...] | None]] = [(IN_PLACE, p.reload, p.last_vms)]
        if self.options.migrate:
            opts.append((MIGRATE, p.mig + p.reload, None))
        return opts


def _without(ends: list[float], gone: list[float], free: dict[int, float]) -> list[float]:
    """``ends`` (the free VMs' times, ascending, before a start) without the started VMs' times
    ``gone``, i.e. ``sorted(free.values())`` once they have left ``free``: each removed by
    bisection in place (O(k log F) for ``k`` VMs) for a few, ``free``'s times sorted anew
    (O(F log F) in C, about the cost of five bisections and deletions) for more."""
    if len(gone) > 4:
        return sorted(free.values())
    for u in gone:
        del ends[bisect_left(ends, u)]
    return ends
