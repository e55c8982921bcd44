"""A cloud's slot table: which of its VMs are booked when, by which lease or task. Imports
sortedcontainers, attrs and the package's errors; nothing from the engine.

Li et al. (seed 001, section IV-C): "A scheduler uses a slot table to record execution schedule of
all VMs in its cloud"; an accepted AR task gets "a set of required VMs ... selected arbitrarily"
and "the time slots for disk image transferring and the task execution are reserved". Haizea's
slot table (Sotomayor et al.) likewise books resources on named nodes. Here every reservation
holds a set of VM ids (``0..n_vms-1``) over a half-open interval ``[start, end)``; a VM holds at
most one reservation at a time.

Questions it answers:

- :meth:`SlotTable.earliest_start` - the earliest time ``>= not_before`` at which ``n`` VMs (of an
  optional candidate set) are all free for ``duration``, and which VMs (the lowest ids free then:
  a deterministic "arbitrary" choice). This is the answer to Li et al.'s task-checking request.
- :meth:`SlotTable.overlapping` - the reservations that meet an interval (e.g. the best-effort
  leases an AR would have to preempt).
- :meth:`SlotTable.free_vms` - the VMs free over an interval.

Updates: :meth:`reserve`, :meth:`release` (a lease or task gone, e.g. preempted), :meth:`shorten`
(a lease that ends early frees its slots from then on), :meth:`forget_before` (drop history).

Complexity, with ``V`` VMs, ``m`` reservations on a VM and ``r`` the reservations on the candidate
VMs that end after ``not_before``: ``earliest_start`` O(V log m + r log r) (a sweep over the free
windows of every candidate VM); ``reserve``, ``release``, ``shorten`` O(k log m) for ``k`` VMs;
``overlapping`` and ``free_vms`` O(V log m + output).
"""

from __future__ import annotations

import math
from typing import Hashable, Iterable, Iterator

import attrs
from sortedcontainers import SortedList

from ..errors import CapacityError


@attrs.frozen(slots=True)
class Reservation:
    """``vms`` booked over ``[start, end)`` by ``id`` (a lease id, a ``(job, task)`` pair...)."""

    id: Hashable
    vms: tuple[int, ...]
    start: float
    end: float


class SlotTable:
    """Reservations with host identity for the ``n_vms`` VMs of one cloud.

    >>> table = SlotTable(4)
    >>> table.reserve("be-1", [0], 0.0, 3600.0)
    Reservation(id='be-1', vms=(0,), start=0.0, end=3600.0)
    >>> table.earliest_start(4, 1800.0, not_before=900.0)
    (3600.0, (0, 1, 2, 3))
    >>> [r.id for r in table.overlapping(1800.0, 3600.0)]
    ['be-1']
    """

    __slots__ = ("n_vms", "_busy", "_seq_of", "_by_seq", "_next")

    def __init__(self, n_vms: int):
        if not isinstance(n_vms, int) or n_vms < 1:
            raise CapacityError(f"slot table: n_vms = {n_vms!r} must be an integer >= 1")
        self.n_vms = n_vms
        #: per VM: (start, end, seq) of its reservations, sorted by start (starts are distinct)
        self._busy: list[SortedList] = [SortedList() for _ in range(n_vms)]
        self._seq_of: dict[Hashable, int] = {}          #: reservation id -> its sequence number
        self._by_seq: dict[int, Reservation] = {}       #: sequence number -> reservation (made order)
        self._next = 0

    # -- queries ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._seq_of)

    def __contains__(self, rid: Hashable) -> bool:
        return rid in self._seq_of

    def __getitem__(self, rid: Hashable) -> Reservation:
        return self._by_seq[self._seq(rid)]

    def _seq(self, rid: Hashable) -> int:
        try:
            return self._seq_of[rid]
        except KeyError:
            raise CapacityError(f"slot table: no reservation {rid!r}") from None

    def __iter__(self) -> Iterator[Reservation]:
        """Reservations in the order they were made."""
        return iter(list(self._by_seq.values()))

    def _candidates(self, vms: Iterable[int] | None) -> list[int]:
        if vms is None:
            return list(range(self.n_vms))
        out = sorted(set(vms))
        for v in out:
            if not (isinstance(v, int) and 0 <= v < self.n_vms):
                raise CapacityError(f"slot table: VM {v!r} is not one of 0..{self.n_vms - 1}")
        return out

    def _first_after(self, busy: SortedList, t: float) -> int:
        """Index of the first reservation of a VM that ends after ``t``."""
        i = busy.bisect_left((t,))
        if i > 0 and busy[i - 1][1] > t:
            i -= 1
        return i

    def _is_free(self, vm: int, start: float, end: float) -> bool:
        busy = self._busy[vm]
        i = self._first_after(busy, start)
        return i == len(busy) or busy[i][0] >= end

    def earliest_start(self, n: int, duration: float, not_before: float = 0.0,
                       vms: Iterable[int] | None = None) -> tuple[float, tuple[int, ...]]:
        """Earliest ``t >= not_before`` with ``n`` of the candidate VMs (``vms``, default all) free
        over ``[t, t + duration)``, and the lowest ``n`` VM ids free then.

        Each candidate VM contributes its free windows: the start times ``s`` with
        ``[s, s + duration)`` inside one of its gaps, an interval ``[gap start, gap end - duration]``
        (the last one open-ended). A sweep over the window bounds in time order finds the first
        time ``n`` windows are open."""
        candidates = self._candidates(vms) if vms is not None else range(self.n_vms)
        if not (isinstance(n, int) and 1 <= n <= len(candidates)):
            raise CapacityError(f"slot table: cannot find {n!r} VMs among {len(candidates)} candidates")
        if not (duration > 0 and math.isfinite(duration)):
            raise CapacityError(f"slot table: duration {duration!r} must be finite and > 0")
        events: list[tuple[float, int, int]] = []   # (time, 0 = window opens / 1 = closes, vm)
        append = events.append
        now_open: list[int] = []                    # VMs free over [not_before, + duration)
        busy_of = self._busy
        for v in candidates:
            cursor = not_before
            for s, e, _ in busy_of[v]:              # few bookings per VM: a plain scan beats bisecting
                if e <= cursor:
                    continue                        # over before the cursor
                if s - cursor >= duration:
                    if cursor == not_before:
                        now_open.append(v)
                    append((cursor, 0, v))
                    append((s - duration, 1, v))
                cursor = e
            if cursor == not_before:
                now_open.append(v)
            append((cursor, 0, v))
        if len(now_open) >= n:                      # the usual answer: now, on the lowest ids
            return not_before, tuple(now_open[:n])
        events.sort()
        open_vms: set[int] = set()
        k = 0
        while k < len(events):
            t, kind, v = events[k]
            k += 1
            if kind == 1:
                open_vms.discard(v)
                continue
            open_vms.add(v)
            if len(open_vms) >= n:
                while k < len(events) and events[k][0] == t and events[k][1] == 0:
                    open_vms.add(events[k][2])   # every VM whose window opens at t
                    k += 1
                return t, tuple(sorted(open_vms)[:n])
        raise AssertionError("unreachable: every VM is free after its last reservation")

    def free_vms(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[int]:
        """Candidate VMs with no reservation meeting ``[start, end)``, in id order."""
        return [v for v in self._candidates(vms) if self._is_free(v, start, end)]

    def free_until(self, t: float, vms: Iterable[int] | None = None) -> dict[int, float]:
        """The candidate VMs free at ``t`` (in no reservation covering ``t``), each with the start of
        its next reservation (``inf`` if none), in id order: how long each could be used from ``t``.
        O(V log m)."""
        out: dict[int, float] = {}
        inf = math.inf
        busy_of = self._busy
        for v in self._candidates(vms) if vms is not None else range(self.n_vms):
            until = inf
            for s, e, _ in busy_of[v]:      # few bookings per VM: a plain scan beats bisecting
                if e <= t:
                    continue
                until = s
                break
            if until > t:
                out[v] = until
        return out

    def horizons(self, t: float) -> list[float] | None:
        """For each VM, the time from which it is free for good (the end of its last reservation,
        or ``t``), provided no VM has a free window before that; else ``None``. Then
        ``earliest_start(n, d, nb)`` for any ``d`` and ``nb >= t`` is the ``n``-th smallest of
        ``max(horizon, nb)``, with the lowest VM ids among those free by then (see
        :func:`earliest_from_horizons`): a scheduler answering many checks against one state
        computes this once. O(V log m + reservations after ``t``)."""
        out: list[float] = []
        for busy in self._busy:
            end = t
            for s, e, _ in busy:            # few bookings per VM: a plain scan beats bisecting
                if e <= end:
                    continue
                if s > end:
                    return None
                end = e
            out.append(end)
        return out

    def overlapping(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[Reservation]:
        """Reservations on the candidate VMs that meet ``[start, end)``, ordered by start time
        (then by the order they were made)."""
        found: dict[Hashable, tuple[float, int]] = {}
        for v in self._candidates(vms):
            busy = self._busy[v]
            for s, _, seq in busy.islice(self._first_after(busy, start)):
                if s >= end:
                    break
                found[seq] = (s, seq)
        return [self._by_seq[seq] for _, seq in sorted(found.values())]

    def reservations_of(self, vm: int) -> list[Reservation]:
        """The reservations of one VM, by start time."""
        (vm,) = self._candidates([vm])
        return [self._by_seq[seq] for _, _, seq in self._busy[vm]]

    # -- updates ---------------------------------------------------------------------------------

    def reserve(self, rid: Hashable, vms: Iterable[int], start: float, end: float) -> Reservation:
        """Book ``vms`` over ``[start, end)`` for ``rid``; CapacityError if the id is taken, a VM is
        unknown or listed twice, or a VM is already booked in that interval (naming both ids)."""
        if rid in self._seq_of:
            raise CapacityError(f"slot table: reservation {rid!r} exists already")
        vm_list = list(vms)
        if not vm_list or len(set(vm_list)) != len(vm_list):
            raise CapacityError(f"slot table: reservation {rid!r} needs distinct VMs, got {vm_list!r}")
        self._candidates(vm_list)
        if not (math.isfinite(start) and math.isfinite(end) and start < end):
            raise CapacityError(f"slot table: reservation {rid!r} needs start < end, got [{start!r}, {end!r})")
        for v in vm_list:
            if not self._is_free(v, start, end):
                other = self.overlapping(start, end, [v])[0]
                raise CapacityError(f"slot table: reservation {rid!r} [{start:g}, {end:g}) on VM {v} overlaps "
                                    f"reservation {other.id!r} [{other.start:g}, {other.end:g})")
        seq = self._next
        self._next += 1
        res = Reservation(rid, tuple(sorted(vm_list)), float(start), float(end))
        for v in res.vms:
            self._busy[v].add((res.start, res.end, seq))
        self._seq_of[rid] = seq
        self._by_seq[seq] = res
        return res

    def release(self, rid: Hashable) -> Reservation:
        """Remove a reservation (the lease or task is gone, e.g. preempted) and return it."""
        seq = self._seq(rid)
        res = self._by_seq.pop(seq)
        del self._seq_of[rid]
        for v in res.vms:
            self._busy[v].remove((res.start, res.end, seq))
        return res

    def shorten(self, rid: Hashable, new_end: float) -> Reservation:
        """End a reservation early at ``new_end`` (``start < new_end <= end``): its VMs are free
        from then on. Returns the shortened reservation."""
        seq = self._seq(rid)
        res = self._by_seq[seq]
        if not (res.start < new_end <= res.end):
            raise CapacityError(f"slot table: reservation {rid!r} [{res.start:g}, {res.end:g}) cannot end at "
                                f"{new_end!r} (must be after its start and not after its end)")
        short = attrs.evolve(res, end=float(new_end))
        for v in res.vms:
            self._busy[v].remove((res.start, res.end, seq))
            self._busy[v].add((short.start, short.end, seq))
        self._by_seq[seq] = short
        return short

    def forget_before(self, t: float) -> int:
        """Drop the reservations that ended at or before ``t`` (history a scheduler no longer
        needs); returns how many. O(R)."""
        old = [r.id for r in self._by_seq.values() if r.end <= t]
        for rid in old:
            self.release(rid)
        return len(old)

    def _check(self) -> None:
        """Invariants (for tests): per VM, intervals sorted and disjoint; every booking belongs to
        exactly one reservation that lists the VM."""
        by_seq = self._by_seq
        assert {self._seq_of[r.id] for r in by_seq.values()} == set(by_seq) and len(self._seq_of) == len(by_seq)
        count = 0
        for v, busy in enumerate(self._busy):
            previous_end = -math.inf
            for s, e, seq in busy:
                r = by_seq[seq]
                assert (r.start, r.end) == (s, e) and v in r.vms, (v, s, e, r)
                assert s < e and s >= previous_end, f"VM {v}: overlap at {s}"
                previous_end = e
                count += 1
        assert count == sum(len(r.vms) for r in by_seq.values())


def earliest_from_horizons(horizons: list[float], n: int, not_before: float,
                           vms: Iterable[int] | None = None) -> tuple[float, tuple[int, ...]]:
    """:meth:`SlotTable.earliest_start` from :meth:`SlotTable.horizons` (not ``None``), for
    ``not_before`` at or after the time the horizons were taken: the ``n``-th smallest
    ``max(horizon, not_before)`` of the candidates, and the lowest ids free by then. O(V log V).

    >>> earliest_from_horizons([5.0, 0.0, 3.0], 2, 1.0)
    (3.0, (1, 2))
    """
    cand = range(len(horizons)) if vms is None else sorted(set(vms))
    times = sorted(h if h > not_before else not_before for h in (horizons[v] for v in cand))
    if not 1 <= n <= len(times):
        raise CapacityError(f"slot table: cannot find {n!r} VMs among {len(times)} candidates")
    t = times[n - 1]
    return t, tuple([v for v in cand if horizons[v] <= t][:n])
