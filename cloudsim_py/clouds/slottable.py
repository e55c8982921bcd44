"""A cloud's slot table: which of its VMs are booked when, by which lease or task. Imports numpy,
attrs and the package's errors; nothing from the engine.

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
- :meth:`SlotTable.free_until` - the VMs free at a time and until when (a scheduling pass).
- :meth:`SlotTable.overlapping` - the reservations that meet an interval (e.g. the best-effort
  leases an AR would have to preempt); :meth:`SlotTable.free_vms` - the VMs free over one.

Updates: :meth:`reserve`, :meth:`release` (a lease or task gone, e.g. preempted), :meth:`shorten`
(a lease that ends early frees its slots from then on), :meth:`forget_before` (drop history).

**How.** Each VM's bookings are a short sorted list (the source of truth) mirrored in two numpy
arrays of its *free windows*: ``lo[v, i]`` the end of booking ``i - 1`` (``-BIG`` before the
first) and ``hi[v, i]`` the start of booking ``i`` (``BIG`` after the last), padded with empty
windows ``[BIG, BIG)``. A question is then a few whole-array operations over the ``V x (K + 1)``
windows (``V`` VMs, ``K`` the most bookings on one VM, a handful): a VM is free over
``[t, t + d)`` exactly when one of its windows has ``lo <= t`` and ``t + d <= hi``.

Each VM also keeps a summary (its first two bookings, its last end, its longest gap between
bookings) in plain lists, updated at every change; the window arrays are rewritten only for the
VMs changed since the last question that needs them.

Complexity (``V`` VMs, ``K`` bookings on the busiest VM, ``W = V (K + 1)`` windows, ``k`` VMs
of a reservation, ``c`` VMs changed since the arrays were last read): ``earliest_start``
O(c K + W log W) in numpy (sorting the windows that can hold the duration), ``free_vms``,
``horizons`` O(c K + W), ``free_at`` O(V) (from the summaries), ``profile`` O(V log V),
``reserve``, ``release``, ``shorten`` O(k K), ``overlapping`` O(V log K + output).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Hashable, Iterable, Iterator

import attrs
import numpy as np

from ..errors import CapacityError

#: "never" as a finite number (windows' arithmetic stays finite: no inf - inf)
BIG = 1.0e300


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

    __slots__ = ("n_vms", "version", "_busy", "_seq_of", "_by_seq", "_next", "_lo", "_hi", "_width", "_dirty",
                 "_fs", "_fe", "_ss", "_le", "_ig", "_ff")

    def __init__(self, n_vms: int):
        if isinstance(n_vms, bool) or not isinstance(n_vms, int) or n_vms < 1:
            raise CapacityError(f"slot table: n_vms = {n_vms!r} must be an integer >= 1")
        self.n_vms = n_vms
        #: bumps at every change: lets a caller cache answers
        self.version = 0
        #: per VM: (start, end, seq) of its reservations, sorted by start (starts are distinct)
        self._busy: list[list[tuple[float, float, int]]] = [[] for _ in range(n_vms)]
        self._seq_of: dict[Hashable, int] = {}          #: reservation id -> its sequence number
        self._by_seq: dict[int, Reservation] = {}       #: sequence number -> reservation (made order)
        self._next = 0
        self._width = 4                                 #: bookings a row of the window arrays holds
        self._lo, self._hi = self._empty(n_vms, self._width)
        #: VMs whose rows of the window arrays are out of date (rewritten when a query needs them)
        self._dirty: set[int] = set()
        # per VM, kept at every change (plain lists: cheap to write, made arrays when read):
        # first booking's start and end, second booking's start, last booking's end, longest gap
        # between two bookings
        self._fs = [BIG] * n_vms
        self._fe = [BIG] * n_vms
        self._ss = [BIG] * n_vms
        self._le = [-BIG] * n_vms
        self._ig = [0.0] * n_vms
        self._ff = [-BIG] * n_vms      #: first booking's start where there is one, else -BIG (for max)

    @staticmethod
    def _empty(rows: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        lo = np.full((rows, width + 1), BIG)
        hi = np.full((rows, width + 1), BIG)
        lo[:, 0] = -BIG
        return lo, hi

    def _grow(self, k: int) -> None:
        """Room for ``k`` bookings in every row of the window arrays."""
        if k > self._width:
            width = max(2 * self._width, k)
            lo, hi = self._empty(self.n_vms, width)
            w = self._width + 1
            lo[:, :w] = self._lo
            hi[:, :w] = self._hi
            lo[:, w:] = BIG
            self._lo, self._hi, self._width = lo, hi, width

    def _touch(self, vms: Iterable[int]) -> None:
        """VMs whose bookings changed: their summaries now, their window rows when next needed."""
        busy = self._busy
        fs, fe, ss, le, ig, ff = self._fs, self._fe, self._ss, self._le, self._ig, self._ff
        for v in vms:
            row = busy[v]
            k = len(row)
            if k:
                ff[v] = fs[v] = row[0][0]
                fe[v] = row[0][1]
                ss[v] = row[1][0] if k > 1 else BIG
                le[v] = row[-1][1]
                ig[v] = max([row[i + 1][0] - row[i][1] for i in range(k - 1)]) if k > 1 else 0.0
            else:
                fs[v] = fe[v] = ss[v] = BIG
                le[v] = ff[v] = -BIG
                ig[v] = 0.0
        self._dirty.update(vms)

    def _sync(self) -> None:
        """Bring the window arrays up to date (the rows of the VMs changed since): each row made
        as a plain list, then all of them written with one fancy-indexed assignment per array.
        O(c K) in Python and two numpy calls (``c`` VMs changed, ``K`` the row width), instead
        of four numpy calls per row (:meth:`_write_row`)."""
        dirty = self._dirty
        if not dirty:
            return
        if len(dirty) == 1:
            self._write_row(dirty.pop())
            return
        busy = self._busy
        rows = list(dirty)
        dirty.clear()
        self._grow(max([len(busy[v]) for v in rows]))
        w = self._width + 1
        big = BIG
        pad = [big] * w
        los = []
        his = []
        for v in rows:
            b = busy[v]
            k = len(b)
            if k:
                los.append([-big, *[x[1] for x in b], *pad[k + 1:]])
                his.append([*[x[0] for x in b], *pad[k:]])
            else:
                los.append([-big, *pad[1:]])
                his.append(pad)
        self._lo[rows] = los
        self._hi[rows] = his

    def _write_row(self, v: int) -> None:
        """Mirror VM ``v``'s bookings in the window arrays (grown when a row is full)."""
        busy = self._busy[v]
        k = len(busy)
        self._grow(k)
        lo = self._lo[v]
        hi = self._hi[v]
        lo[1:] = BIG
        hi[:] = BIG
        if k:
            lo[1:k + 1] = [b[1] for b in busy]
            hi[:k] = [b[0] for b in busy]

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
        n = self.n_vms
        if out and set(map(type, out)) == {int} and 0 <= out[0] and out[-1] < n:
            return out                      # the usual case: plain ids in range
        for v in out:
            if not (isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v < n):
                raise CapacityError(f"slot table: VM {v!r} is not one of 0..{n - 1}")
        return [int(v) for v in out]

    def _windows(self, vms: Iterable[int] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The window arrays of the candidate VMs (and their ids, ``None`` for all)."""
        self._sync()
        if vms is None:
            return self._lo, self._hi, None
        ids = np.array(self._candidates(vms), dtype=np.intp)
        return self._lo[ids], self._hi[ids], ids

    def _is_free(self, vm: int, start: float, end: float) -> bool:
        busy = self._busy[vm]
        i = bisect_left(busy, (start,))
        if i > 0 and busy[i - 1][1] > start:
            return False
        return i == len(busy) or busy[i][0] >= end

    def earliest_start(self, n: int, duration: float, not_before: float = 0.0,
                       vms: Iterable[int] | None = None) -> tuple[float, tuple[int, ...]]:
        """Earliest ``t >= not_before`` with ``n`` of the candidate VMs (``vms``, default all) free
        over ``[t, t + duration)``, and the lowest ``n`` VM ids free then.

        A window ``[lo, hi)`` can hold the duration from ``max(lo, not_before)`` if it is at least
        that long. Among such windows, those holding ``[t, t + d)`` number
        ``#{lo' <= t} - #{hi < t + d}`` (a window shorter than ``d`` cannot lie inside
        ``(t, t + d)``, so the second count only removes windows the first counted); the answer is
        the first window start ``lo'`` at which that reaches ``n``. O(W log W)."""
        lo, hi, ids = self._windows(vms)
        candidates = lo.shape[0]
        if isinstance(n, bool) or not (isinstance(n, (int, np.integer)) and 1 <= n <= candidates):
            raise CapacityError(f"slot table: cannot find {n!r} VMs among {candidates} candidates")
        if not (duration > 0 and math.isfinite(duration)):
            raise CapacityError(f"slot table: duration {duration!r} must be finite and > 0")
        start = np.maximum(lo, not_before)
        fits = (hi - start) >= duration
        rows = np.nonzero(fits)[0]              # each window that can hold it, by VM (row order)
        start_f = start[fits]
        hi_f = hi[fits]
        starts = np.sort(start_f)
        count = (np.searchsorted(starts, starts, "right")
                 - np.searchsorted(np.sort(hi_f), starts + duration, "left"))
        t = float(starts[int(np.argmax(count >= n))])
        chosen = rows[(start_f <= t) & (hi_f >= t + duration)][:n]
        if ids is not None:
            chosen = ids[chosen]
        return t, tuple(chosen.tolist())

    def free_vms(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[int]:
        """Candidate VMs with no reservation meeting ``[start, end)``, in id order."""
        lo, hi, ids = self._windows(vms)
        free = np.flatnonzero(((lo <= start) & (hi >= end)).any(axis=1))
        return (ids[free] if ids is not None else free).tolist()

    def free_until(self, t: float, vms: Iterable[int] | None = None) -> dict[int, float]:
        """The candidate VMs free at ``t`` (in no reservation covering ``t``), each with the start of
        its next reservation (``inf`` if none), in id order: how long each could be used from ``t``.
        O(W)."""
        ids, until = self.free_at(t, vms)
        inf = math.inf
        return {v: (u if u < BIG else inf) for v, u in zip(ids.tolist(), until.tolist())}

    def free_at(self, t: float, vms: Iterable[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`free_until` as two arrays, VM ids (ascending) and until when each is free
        (:data:`BIG` for never booked again): the fast form for a scheduling pass. O(V) from
        each VM's first two bookings; O(W) when a VM's first booking ended at or before ``t``
        and its second began by then (bookings not yet released)."""
        if vms is None:
            fs, fe, ss = np.array(self._fs), np.array(self._fe), np.array(self._ss)
            if not ((fe <= t) & (ss <= t)).any():
                first = fs > t                       # free until its first booking
                after = ~first & (fe <= t)           # its first booking is over: free until the second
                free = first | after
                ids = np.flatnonzero(free)
                return ids, np.where(first, fs, ss)[ids]
        lo, hi, cand = self._windows(vms)
        inside = (lo <= t) & (t < hi)
        rows, cols = np.nonzero(inside)
        until = hi[rows, cols]
        return (cand[rows] if cand is not None else rows), until

    def free_pairs(self, t: float) -> list[tuple[int, float]] | None:
        """:meth:`free_at` of all VMs as ``(id, until)`` pairs in id order, from the summaries in
        plain Python (for a cloud of a few hundred VMs cheaper than the three arrays numpy would
        make of them); ``None`` in :meth:`free_at`'s O(W) case (a VM whose first booking ended by
        ``t`` and whose second began by then). O(V)."""
        out: list[tuple[int, float]] = []
        append = out.append
        for v, (f, e, s2) in enumerate(zip(self._fs, self._fe, self._ss)):
            if f > t:
                append((v, f))
            elif e <= t:
                if s2 <= t:
                    return None
                append((v, s2))
        return out

    def horizons(self, t: float) -> list[float] | None:
        """For each VM, the time from which it is free for good (the end of its last reservation,
        or ``t``), provided no VM has a free window before that; else ``None``. Then
        ``earliest_start(n, d, nb)`` for any ``d`` and ``nb >= t`` is the ``n``-th smallest of
        ``max(horizon, nb)``, with the lowest VM ids among those free by then (see
        :func:`earliest_from_horizons`): a scheduler answering many checks against one state
        computes this once. O(W)."""
        self._sync()
        lo, hi = self._lo, self._hi
        finite = hi < BIG
        if ((np.maximum(lo, t) < hi) & finite).any():
            return None
        ends = np.where(lo < BIG, lo, -BIG).max(axis=1)      # end of each VM's last booking
        return np.maximum(ends, t).tolist()

    def free_count(self, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """For each interval ``[start[i], end[i])``, how many VMs are free over it (a VM is free
        over an interval when one of its windows holds it; its windows are disjoint, so it
        counts once). O(W) per interval, in numpy."""
        self._sync()
        lo, hi = self._lo.ravel(), self._hi.ravel()
        return ((lo[None, :] <= start[:, None]) & (hi[None, :] >= end[:, None])).sum(axis=1)

    def profile(self, t: float) -> tuple[list[float], float]:
        """What a quote needs at time ``t``: every VM's horizon (the end of its last booking, or
        ``t``) in ascending order, and an upper bound of the longest free window after ``t`` that
        ends before a booking (0 if none): a gap between two bookings, or from ``t`` to a first
        booking that starts later. A duration longer than that fits only after the horizons, so
        ``earliest_start(n, d, nb)`` is then ``max(nb, horizons[n - 1])`` for every ``nb >= t``
        (:meth:`LocalCloud.quote`). O(V log V) from each VM's summary."""
        horizons = [e if e > t else t for e in self._le]
        horizons.sort()
        return horizons, self.longest_gap(t)

    def longest_gap(self, t: float) -> float:
        """:meth:`profile`'s bound alone: the longest gap between two bookings, or from ``t`` to
        the latest first booking that starts after ``t`` (0 if none). O(V) in C (two ``max``
        over the summaries)."""
        latest = max(self._ff)
        return max(max(self._ig), latest - t if latest > t else 0.0)

    def last_ends(self) -> list[float]:
        """Each VM's last booking's end (``-BIG`` for a VM never booked), ascending: the horizons
        of :meth:`profile` before they are raised to its time. O(V log V) in C."""
        return sorted(self._le)

    def horizon(self, n: int, t: float) -> float:
        """``profile(t)[0][n - 1]``, the ``n``-th smallest horizon, without sorting when ``n`` is 1
        (a ``min`` in C). O(V) for ``n = 1``, O(V log V) otherwise."""
        e = min(self._le) if n == 1 else sorted(self._le)[n - 1]
        return e if e > t else t

    def overlapping(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[Reservation]:
        """Reservations on the candidate VMs that meet ``[start, end)``, ordered by start time
        (then by the order they were made)."""
        found: dict[int, tuple[float, int]] = {}
        for v in self._candidates(vms):
            busy = self._busy[v]
            i = bisect_left(busy, (start,))
            if i > 0 and busy[i - 1][1] > start:
                i -= 1
            for s, _, seq in busy[i:]:
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
        vm_list = self._candidates(vm_list)
        if not (math.isfinite(start) and math.isfinite(end) and start < end):
            raise CapacityError(f"slot table: reservation {rid!r} needs start < end, got [{start!r}, {end!r})")
        start, end = float(start), float(end)
        seq = self._next
        entry = (start, end, seq)
        busy = self._busy
        at = []
        for v in vm_list:                       # where it goes on each VM, and whether it fits
            row = busy[v]
            i = bisect_left(row, entry)
            if (i > 0 and row[i - 1][1] > start) or (i < len(row) and row[i][0] < end):
                other = self.overlapping(start, end, [v])[0]
                raise CapacityError(f"slot table: reservation {rid!r} [{start:g}, {end:g}) on VM {v} overlaps "
                                    f"reservation {other.id!r} [{other.start:g}, {other.end:g})")
            at.append(i)
        self._next += 1
        res = Reservation(rid, tuple(vm_list), start, end)
        for v, i in zip(vm_list, at):
            busy[v].insert(i, entry)
        self._touch(res.vms)
        self._seq_of[rid] = seq
        self._by_seq[seq] = res
        self.version += 1
        return res

    def release(self, rid: Hashable) -> Reservation:
        """Remove a reservation (the lease or task is gone, e.g. preempted) and return it."""
        seq = self._seq(rid)
        res = self._by_seq.pop(seq)
        del self._seq_of[rid]
        entry = (res.start, res.end, seq)
        busy = self._busy
        for v in res.vms:
            row = busy[v]
            del row[bisect_left(row, entry)]
        self._touch(res.vms)
        self.version += 1
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
        old = (res.start, res.end, seq)
        new = (short.start, short.end, seq)
        for v in res.vms:
            busy = self._busy[v]
            busy[bisect_left(busy, old)] = new   # same start: the order holds
        self._touch(res.vms)
        self._by_seq[seq] = short
        self.version += 1
        return short

    def forget_before(self, t: float) -> int:
        """Drop the reservations that ended at or before ``t`` (history a scheduler no longer
        needs); returns how many. O(R)."""
        old = [r.id for r in self._by_seq.values() if r.end <= t]
        for rid in old:
            self.release(rid)
        return len(old)

    def _check(self) -> None:
        """Invariants (for tests): per VM, intervals sorted and disjoint, mirrored in the window
        arrays and the summaries; every booking belongs to exactly one reservation that lists
        the VM."""
        self._sync()
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
            k = len(busy)
            assert self._lo[v, 0] == -BIG and list(self._lo[v, 1:k + 1]) == [b[1] for b in busy]
            assert list(self._hi[v, :k]) == [b[0] for b in busy] and (self._hi[v, k:] == BIG).all()
            assert (self._lo[v, k + 1:] == BIG).all()
            assert (self._fs[v], self._fe[v]) == ((busy[0][0], busy[0][1]) if k else (BIG, BIG))
            assert self._ss[v] == (busy[1][0] if k > 1 else BIG) and self._le[v] == (busy[-1][1] if k else -BIG)
            assert self._ff[v] == (busy[0][0] if k else -BIG)
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
