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
  :meth:`SlotTable.earliest_start_lists` gives the same answer from the booking lists (a
  scheduling pass's head reservation), :meth:`SlotTable.start_bound` a time it cannot be before.
- :meth:`SlotTable.free_lists` (as a dict: :meth:`SlotTable.free_until`) - the VMs free at a
  time and until when (a scheduling pass); :meth:`SlotTable.any_free` - whether there is one.
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
VMs changed since the last question that needs them. A VM whose longest gap is shorter than a
duration, and whose first booking begins sooner than that after ``not_before``, can hold it only
in its last window, from its last end: :meth:`SlotTable.earliest_start_lists` answers from the
summaries and lists only the other VMs' windows, with the count of ``earliest_start`` in the
same floating-point operations, so the two agree to the last bit.

Complexity (``V`` VMs, ``K`` bookings on the busiest VM, ``W = V (K + 1)`` windows, ``k`` VMs
of a reservation, ``c`` VMs changed since the arrays were last read): ``earliest_start``
O(c K + W log W) in numpy (sorting the windows that can hold the duration),
``earliest_start_lists`` O(V log V) in C-level list operations plus O(g K) for the ``g`` VMs
with long gaps (O(c) when a kept answer still holds), ``start_bound`` O(V log V), ``free_vms``
O(c K + W), ``free_lists`` (and ``free_until``) O(V) from the summaries,
``longest_gap`` O(V), ``horizon`` O(V log V), ``reserve``, ``release``, ``shorten`` O(k K),
``overlapping`` O(V log K + output).
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_left, bisect_right
from itertools import compress, islice, repeat
from operator import attrgetter, ge, lt
from typing import Any, Hashable, Iterable, Iterator, Sequence

import attrs
import numpy as np

from ..errors import CapacityError
from .extremes import FEW, Extreme

#: "never" as a finite number (windows' arithmetic stays finite: no inf - inf)
BIG = 1.0e300
#: below this, a window start plus a duration is far from BIG (its arithmetic is plain)
_HUGE = 1.0e299
#: a booking's place on a VM "after its last booking", beyond any list's length (reserve)
_AFTER = sys.maxsize


@attrs.frozen(slots=True)
class Reservation:
    """``vms`` booked over ``[start, end)`` by ``id`` (a lease id, a ``(job, task)`` pair...)."""

    id: Hashable
    vms: tuple[int, ...]
    start: float
    end: float


#: a reservation's start (the sort key of :meth:`SlotTable.overlapping`)
_START = attrgetter("start")


@attrs.define(slots=True, eq=False)
class _Kept:
    """An answer of the slot table kept across its changes, with what proves it again
    (:meth:`SlotTable._all_free_again`, :meth:`SlotTable._bound_again`): VMs that alone rule
    out every earlier time (``witnesses``, of which ``need`` must be unchanged), the windows
    holding the answer that a later ``not_before`` could make too short (``(start, end)``), and
    the VMs changed since it was last proved (``touched``, kept by :meth:`SlotTable._touch`).

    ``chain`` (all-free answers only): when no VM alone rules out every earlier time, the
    times before the answer in consecutive pieces ``[previous end, end)``, each with the VMs
    that rule it out (:meth:`SlotTable._all_free_from`); a piece's VMs that change leave it
    (they may no longer rule it out), and the chain proves the answer while every piece not
    over by ``not_before`` keeps one."""

    vms: Any                       #: the candidates as asked (the same object)
    members: frozenset[int] | None  #: the candidate ids (``None``: all)
    not_before: float
    value: float
    witnesses: set[int]
    need: int
    windows: set[tuple[float, float]] = attrs.Factory(set)
    touched: set[int] = attrs.Factory(set)
    chain: list[tuple[float, set[int]]] = attrs.Factory(list)


@attrs.define(slots=True, eq=False)
class _Floor:
    """An answer ``value`` of :meth:`SlotTable.earliest_start_lists` for ``n`` of the candidates
    ``vms`` (the same object) and ``duration`` from ``not_before``, which stays a time the same
    question cannot be answered before (:meth:`SlotTable.start_bound`) at a later
    ``not_before`` while fewer than ``slack`` VMs have been freed since after ``not_before``.

    Before ``value`` at most ``n - slack`` of the candidates were free over any ``[t, t +
    duration)``. A booking made since only takes time away; one released (or shortened) that
    ended by ``not_before`` gave back only time before it, which no such interval meets; so
    at a later state a VM can be free over an interval before ``value`` where it was not only if
    one of its bookings ending after ``not_before`` was released or shortened since
    (``loose``): fewer than ``slack`` such VMs leave fewer than ``n`` free before ``value``."""

    vms: Any                       #: the candidates as asked (the same object)
    n: int
    duration: float
    not_before: float
    value: float
    slack: int                     #: ``n`` less the most candidates free before ``value``
    loose: set[int] = attrs.Factory(set)   #: VMs with a booking ending after not_before freed since


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
                 "_fs", "_fe", "_ss", "_le", "_ig", "_ff", "_asked", "_kept", "_fm", "_fm_t", "_fm_changed",
                 "_floor", "_fe_lo", "_fm_lo", "_unbooked", "_least_le")

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
        #: the earliest last end, kept for the quotes that ask it at most states
        #: (:meth:`horizon`); every change of a VM's summary is noted by :meth:`_changed`
        self._least_le = Extreme(self._le)
        #: how many VMs have no booking (their ``_le`` is ``-BIG``): kept at every change, so
        #: :meth:`unbooked` (read at every new state by the quotes) is O(1)
        self._unbooked = n_vms
        #: the last candidate tuple asked of earliest_start_lists and its ids sorted (a scheduling
        #: pass asks with the same lease's VMs again and again)
        self._asked: tuple[tuple, tuple[int, ...]] = ((), ())
        #: answers of earliest_start_lists (all candidates) and start_bound kept across changes
        self._kept: dict[tuple, _Kept] = {}
        #: free_map's answer at time _fm_t (the VMs whose first booking begins after it, by id,
        #: with that start) and the VMs changed since it was made
        self._fm: dict[int, float] = {}
        self._fm_t = math.inf
        self._fm_changed: set[int] = set()
        #: at most the earliest value of _fm (a free VM's first booking's start): lowered when
        #: one comes in, made exact when it is not after the time asked
        self._fm_lo = -BIG
        #: the last answer of earliest_start_lists for fewer VMs than its candidates, a floor of
        #: the same question's answers at later states (:class:`_Floor`, :meth:`start_bound`)
        self._floor: _Floor | None = None
        #: at most the earliest end of a first booking (min(_fe)): lowered by a booking or a
        #: shortening, made exact by free_map when it is not after the time asked
        self._fe_lo = -BIG

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
        """VMs whose bookings changed: their summaries now (:meth:`_summarize`), their window
        rows when next needed. O(K) per VM."""
        self._summarize(vms)
        self._changed(vms)

    def _changed(self, vms: Iterable[int]) -> None:
        """VMs whose summaries are up to date and whose window rows and kept answers are not."""
        dirty = self._dirty
        if len(dirty) < self.n_vms:             # (every row out of date already: no news)
            dirty.update(vms)
        self._fm_changed.update(vms)
        noted = self._least_le.changed
        if len(noted) <= FEW:                   # (more: the next question reads every VM anyway)
            noted.update(vms)
        for kept in self._kept.values():
            kept.touched.update(vms)

    def _summarize(self, vms: Iterable[int]) -> None:
        """The VMs' summaries from their bookings: first booking's start and end, second
        booking's start, last end, longest gap between two bookings (one loop per VM, no list
        made). O(K) per VM."""
        busy = self._busy
        fs, fe, ss, le, ig, ff = self._fs, self._fe, self._ss, self._le, self._ig, self._ff
        joined = 0                              # VMs that became unbooked, less those booked again
        for v in vms:
            row = busy[v]
            k = len(row)
            if k:
                if le[v] == -BIG:
                    joined -= 1
                first = row[0]
                ff[v] = fs[v] = first[0]
                fe[v] = first[1]
                le[v] = row[-1][1]
                if k > 1:
                    ss[v] = row[1][0]
                    longest = -BIG
                    prev = first[1]
                    for i in range(1, k):
                        b = row[i]
                        gap = b[0] - prev
                        if gap > longest:
                            longest = gap
                        prev = b[1]
                    ig[v] = longest
                else:
                    ss[v] = BIG
                    ig[v] = 0.0
            else:
                if le[v] != -BIG:
                    joined += 1
                fs[v] = fe[v] = ss[v] = BIG
                le[v] = ff[v] = -BIG
                ig[v] = 0.0
        self._unbooked += joined

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

    def _ids(self, vms: Iterable[int] | None) -> Sequence[int]:
        """The candidate ids of :meth:`_candidates` (``range`` for all VMs), remembered for the
        last tuple asked (the same object: a tuple cannot change). O(1) then, else
        O(k log k)."""
        if vms is None:
            return range(self.n_vms)
        asked = self._asked
        if vms is asked[0]:
            return asked[1]
        ids = tuple(self._candidates(vms))
        if isinstance(vms, tuple):
            self._asked = (vms, ids)
        return ids

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

    def earliest_start_lists(self, n: int, duration: float, not_before: float = 0.0,
                             vms: Iterable[int] | None = None) -> tuple[float, tuple[int, ...]]:
        """:meth:`earliest_start`'s answer, bit for bit, from the booking lists and the per-VM
        summaries instead of the window arrays (no rows rewritten, no numpy): for a question
        asked once per state of the table, such as a scheduling pass's head reservation.

        Most VMs have one window that can hold the duration, their last: only the others' are
        listed (:meth:`_gapped`, :meth:`_shared`). All the candidates needed (a suspended lease
        asked on its own VMs): :meth:`_all_free_from`, O(V) plus O(g K) in Python for the ``g``
        distinct booking lists with a gap that may hold the duration; the answer is kept for the
        same candidates (``None`` or the same tuple) and duration, and given again while the
        changes since leave it true (:meth:`_all_free_again`, O(c) for ``c`` VMs changed).
        Else :meth:`_starts_ends` and :func:`_first_count`: O(V log V) in C-level sorts, O(g K)
        in Python, and O(V) for the VMs chosen; the answer is kept as :meth:`start_bound`'s floor
        with its slack (:func:`_most_before`: O(e log V) for ``e`` distinct window ends before
        BIG)."""
        cand = self._ids(vms)
        if isinstance(n, bool) or not (isinstance(n, (int, np.integer)) and 1 <= n <= len(cand)):
            raise CapacityError(f"slot table: cannot find {n!r} VMs among {len(cand)} candidates")
        if not (duration > 0 and math.isfinite(duration)):
            raise CapacityError(f"slot table: duration {duration!r} must be finite and > 0")
        d, nb = float(duration), float(not_before)
        if n == len(cand):
            key = ("all", id(vms), d)
            kept = self._kept.get(key) if vms is None or isinstance(vms, tuple) else None
            if kept is not None and kept.vms is vms:
                t = self._all_free_again(kept, d, nb)
                if t is not None:
                    return t, tuple(cand)
            found = self._all_free_from(cand, d, nb)
            if found is None:
                return self.earliest_start(n, d, nb, vms)   # near BIG: the arrays' own arithmetic
            t, witnesses, windows, chain = found
            if vms is None or isinstance(vms, tuple):
                self._keep(key, _Kept(vms, None if vms is None else frozenset(cand), nb, t, witnesses, 1, windows,
                                      chain=chain))
            return t, tuple(cand)
        gapped = self._gapped(cand, d, nb)
        starts, ends, big, gaps = self._starts_ends(cand, gapped, d, nb)
        if not starts or not starts[-1] + d < _HUGE:
            return self.earliest_start(n, d, nb, vms)
        t = _first_count(starts, ends, big, n, d)
        if vms is None or isinstance(vms, tuple):
            self._floor = _Floor(vms, n, d, nb, t, n - _most_before(starts, ends, d, t))
        return t, tuple(self._free_over(cand, gaps, t, t + d)[:n])

    def _free_over(self, cand: Sequence[int], gaps: dict[int, list[tuple[float, float]]], t: float,
                   end: float) -> list[int]:
        """The candidates free over ``[t, end)``, in id order: a VM of ``gaps`` (its windows
        that can hold the duration, :meth:`_starts_ends`) when one of them holds it, any other
        when its last end is by ``t``. All VMs: one C-level comparison of the last ends, then
        the gapped VMs' answers written in (each shared list of windows looked at once);
        candidates: O(k) in Python."""
        le = self._le
        if not isinstance(cand, range):
            return [v for v in cand
                    if (le[v] <= t if v not in gaps else any([lo <= t and hi >= end for lo, hi in gaps[v]]))]
        ok = list(map(ge, repeat(t), le))       # le[v] <= t
        holds: dict[int, bool] = {}
        for v, windows in gaps.items():
            got = holds.get(id(windows))
            if got is None:
                got = holds[id(windows)] = any([lo <= t and hi >= end for lo, hi in windows])
            ok[v] = got
        return list(compress(cand, ok))

    def start_bound(self, n: int, duration: float, not_before: float = 0.0,
                    vms: Iterable[int] | None = None) -> float:
        """A time :meth:`earliest_start` cannot answer before (same arguments, which are not
        checked here): the ``k``-th latest last end among the candidates with one window that
        can hold the duration, ``k`` being one more than the candidates that may stay out
        (``len(candidates) - n + 1``); ``not_before`` if there are fewer such VMs, or near
        :data:`BIG`. Before it those ``k`` VMs are all busy, so fewer than ``n`` are free. For
        a caller that needs the answer only if it is early enough (a second way to run the
        head, :meth:`BackfillQueue._hold`). O(V) for :meth:`_plain_ends`, O(V log V) in C for the ``k``
        latest ends. The bound is kept for the same question (candidates ``None`` or the same
        tuple, ``n``, duration) and given again while ``k`` of those VMs are unchanged
        (:meth:`_bound_again`, O(VMs changed), before the O(V) look at the last ends that only
        a new bound needs): a bound no longer the latest is still a bound.

        First of all, the floor (:class:`_Floor`): the last answer of :meth:`earliest_start_lists`
        to the same question (the same candidates object, ``n`` and duration; a ``not_before``
        not earlier), kept while fewer VMs than its slack have had time freed after its
        ``not_before`` (:meth:`_loosen`), is given as it is: O(1). (A moved head's question on
        Blue: the answer asked anew at about 300 passes of 800, its floor proving it cannot win at
        the others.)"""
        d, nb = float(duration), float(not_before)
        floor = self._floor
        if floor is not None and floor.vms is vms and floor.n == n and floor.duration == d and floor.not_before <= nb:
            t = floor.value                     # (its loose VMs are fewer than its slack: release)
            return t if t > nb else nb
        cand = self._ids(vms)
        k = len(cand) - n + 1
        if not 1 <= k <= len(cand):
            return nb
        key = ("bound", id(vms), n, d)
        keep = vms is None or isinstance(vms, tuple)     # a list could change under the same id
        kept = self._kept.get(key) if keep else None
        if kept is not None and kept.vms is vms and self._bound_again(kept, nb) and kept.value > nb:
            bound = kept.value
        elif not max(max(self._le), nb) + d < _HUGE:
            return nb
        else:
            ends = self._plain_ends(cand, d, nb)
            if len(ends) < k:
                return nb
            ends.sort()                         # (in C: fewer steps than a heap of the k latest)
            bound = ends[-k]
            fs, ig, le = self._fs, self._ig, self._le
            if keep:
                witnesses = {v for v in cand if le[v] >= bound and ig[v] < d and (fs[v] - nb < d or fs[v] == BIG)}
                self._keep(key, _Kept(vms, None, nb, bound, witnesses, k))
        return bound if bound > nb else nb

    def _bound_again(self, kept: _Kept, not_before: float) -> bool:
        """Whether :meth:`start_bound`'s kept bound still holds at ``not_before``: no earlier
        ``not_before``, and ``need`` of its witnesses unchanged (each still has one window that
        can hold the duration, from its last end at or after the bound: a later ``not_before``
        only shortens the others). Then it is proved again from here. O(changed VMs)."""
        if not_before < kept.not_before:
            return False
        witnesses = kept.witnesses
        witnesses -= kept.touched
        kept.touched.clear()
        kept.not_before = not_before
        return len(witnesses) >= kept.need

    def _keep(self, key: tuple, kept: _Kept) -> None:
        """Keep an answer (at most four: the head's questions of the current pass; more are
        forgotten, each kept answer costs every change a set update)."""
        if len(self._kept) >= 4:
            self._kept.clear()
        self._kept[key] = kept

    def _plain_ends(self, cand: Sequence[int], duration: float, not_before: float) -> list[float]:
        """The last ends of the candidates not :meth:`_gapped` (one window that can hold the
        duration, from ``max(last end, not_before)``), in candidate order. O(V)."""
        d, nb = duration, not_before
        fs, ig, le = self._fs, self._ig, self._le
        if isinstance(cand, range):
            return [e for e, f, g in zip(le, fs, ig) if g < d and (f - nb < d or f == BIG)]
        return [le[v] for v in cand if ig[v] < d and (fs[v] - nb < d or fs[v] == BIG)]

    def _gapped(self, cand: Sequence[int], duration: float, not_before: float) -> list[int]:
        """The candidate VMs with a window before their last one that may hold ``duration``
        from ``not_before``: a gap between bookings that long (``_ig``), or a first booking that
        begins at least that long after ``not_before``. Every other VM has one such window, its
        last, from ``max(last end, not_before)`` to ``BIG`` (a VM never booked: one window, all
        time). Exact: ``hi - max(lo, nb)`` never exceeds ``hi - lo`` in floating point, so no
        gap shorter than ``_ig`` holds it from a later time either. O(V)."""
        d, nb = duration, not_before
        fs, ig = self._fs, self._ig
        if isinstance(cand, range):
            return [v for v, f, g in zip(cand, fs, ig) if g >= d or (f - nb >= d and f != BIG)]
        return [v for v in cand if ig[v] >= d or (fs[v] - nb >= d and fs[v] != BIG)]

    def _shared(self, gapped: list[int]) -> dict[tuple, list[int]]:
        """The VMs ``gapped`` by booking list (the VMs of one wide lease or AR share theirs), so
        that each list's windows are made once. O(g K)."""
        busy = self._busy
        shared: dict[tuple, list[int]] = {}
        for v in gapped:
            shared.setdefault(tuple(busy[v]), []).append(v)
        return shared

    def _all_free_from(self, cand: Sequence[int], duration: float, not_before: float
                       ) -> tuple[float, set[int], set[tuple[float, float]], list[tuple[float, set[int]]]] | None:
        """The earliest start ``t >= not_before`` at which every candidate is free for
        ``duration`` (:meth:`earliest_start` with ``n`` all the candidates), or ``None`` near
        :data:`BIG`; with what proves it again later (:class:`_Kept`): the VMs that alone rule
        out every earlier time (one window that can hold the duration, from ``t``; or a first
        such window from ``t``), the windows holding ``[t, t + duration)`` that begin before
        ``t`` and end before BIG, and, when ``t`` was moved by a booking list's window, the chain
        of the times it passed (``[not_before, t0)`` ruled out by the VMs whose one window begins
        at ``t0``, the latest last end; each move from ``t`` to a window's start ``lo`` by that
        list's VMs: its earlier windows end before ``t + duration``, so none of them holds an
        interval from ``[t, lo)``).

        There the count of :meth:`earliest_start` reaches ``n`` exactly when every candidate
        has a window that can hold the duration and holds ``[t, t + duration)`` (a VM holds at
        most one; and then no window can start after ``t`` and end before ``t + duration``,
        which the count would subtract). So: ``t`` from the latest last end of the VMs with one
        window (and ``not_before``), then for each booking list with gaps the first window that
        ends at or after ``t + duration``; if it starts later, ``t`` moves there (no time before
        can do), until a round moves nothing. O(V) plus O(g K) per round; a round that moves
        ``t`` passes a window."""
        d, nb = duration, not_before
        last = max(self._plain_ends(cand, d, nb), default=nb)
        t = last if last > nb else nb
        shared = self._shared(self._gapped(cand, d, nb))
        lists = [_gap_windows(key, d, nb) for key in shared]
        t0 = t
        moves: list[tuple[float, list[int]]] = []
        holding: list[tuple[float, float]] = []
        moved = True
        while moved:
            moved = False
            holding.clear()
            for windows, owners in zip(lists, shared.values()):
                end = t + d
                for lo, hi in windows:
                    if hi >= end:
                        if lo > t:
                            t = lo
                            moved = True
                            moves.append((lo, owners))
                        holding.append((lo, hi))
                        break
                else:
                    return None            # no window holds it: only near BIG
        if not t + d < _HUGE:
            return None
        witnesses = self._witnesses(cand, t, d, nb)
        for windows, owners in zip(lists, shared.values()):
            if windows[0][0] == t:
                witnesses.update(owners)
        chain: list[tuple[float, set[int]]] = []
        if moves and not witnesses:
            if t0 > nb:
                chain.append((t0, self._witnesses(cand, t0, d, nb)))
            chain += [(lo, set(owners)) for lo, owners in moves]
        return t, witnesses, {(lo, hi) for lo, hi in holding if lo < t and hi < BIG}, chain

    def _all_free_again(self, kept: _Kept, duration: float, not_before: float) -> float | None:
        """:meth:`_all_free_from`'s kept answer ``t`` if it still holds at ``not_before``, else
        ``None``: ``not_before`` between the last proof and ``t``; a witness unchanged (so no
        earlier time, a later ``not_before`` only shortening windows), or an unchanged VM left in
        each piece of the kept chain not over by ``not_before`` (the same argument piece by
        piece), or else a witness found now (:meth:`_witnesses`, O(V)); each kept window still
        long enough from ``not_before``; and every candidate changed since holding ``[t, t +
        duration)`` (:meth:`_holding`). Then it is proved again from here: the changed VMs'
        windows kept, the witnesses and the chain's VMs those unchanged (or the witnesses found
        now). O(c K + kept windows + c per piece of the chain) for ``c`` VMs changed, O(V) more
        for new witnesses."""
        t, d, nb = kept.value, duration, not_before
        if not kept.not_before <= nb <= t:
            return None
        touched = kept.touched
        witnesses = kept.witnesses - touched
        chain = kept.chain
        for _, owners in chain:                 # (a VM changed may no longer rule its piece out)
            owners -= touched
        if nb < t and not witnesses and not (chain and all([owners for end, owners in chain if end > nb])):
            witnesses = self._witnesses(range(self.n_vms) if kept.members is None else kept.members, t, d, nb)
            if not witnesses:
                return None
        for lo, hi in kept.windows:
            if lo < nb and hi - nb < d:
                return None
        members = kept.members
        fs, ig, le = self._fs, self._ig, self._le
        fresh = []
        for v in [v for v in (touched if members is None else touched & members)  # not one window ending by t
                  if not (le[v] <= t and ig[v] < d and (fs[v] - nb < d or fs[v] == BIG))]:
            w = self._holding(v, t, d, nb)
            if w is None:
                return None
            if w[0] < t and w[1] < BIG:
                fresh.append(w)
        kept.windows.update(fresh)
        kept.witnesses = witnesses
        touched.clear()
        kept.not_before = nb
        return t

    def _witnesses(self, cand: Iterable[int], t: float, duration: float, not_before: float) -> set[int]:
        """The candidates that alone rule out every start before ``t``: one window that can hold
        ``duration`` from ``not_before``, from their last end, which is ``t``. O(V)."""
        d, nb = duration, not_before
        fs, ig, le = self._fs, self._ig, self._le
        return {v for v in cand if le[v] == t and ig[v] < d and (fs[v] - nb < d or fs[v] == BIG)}

    def _holding(self, v: int, t: float, duration: float, not_before: float) -> tuple[float, float] | None:
        """VM ``v``'s window that can hold ``duration`` from ``not_before`` and holds ``[t, t +
        duration)``, as ``(start, end)``, or ``None``; for ``t + duration`` below ``_HUGE``.
        O(1) for a VM with one such window, else O(K): the windows of :func:`_gap_windows` looked
        at in turn without the list, up to the first that begins after ``t`` (every later one
        does too)."""
        d, nb = duration, not_before
        fs, ig, le = self._fs, self._ig, self._le
        if ig[v] < d and (fs[v] - nb < d or fs[v] == BIG):
            e = le[v]
            return ((e if e > nb else nb), BIG) if e <= t else None
        end = t + d
        lo = -BIG
        for s, e, _ in self._busy[v]:
            a = lo if lo > nb else nb
            if a > t:
                return None
            if s - a >= d and s >= end:
                return a, s
            lo = e
        a = lo if lo > nb else nb
        return (a, BIG) if a <= t and BIG - a >= d and BIG >= end else None

    def _starts_ends(self, cand: Sequence[int], gapped: list[int], duration: float,
                     not_before: float) -> tuple[list[float], list[float], int, dict[int, list[tuple[float, float]]]]:
        """The windows of the candidate VMs that can hold ``duration`` from ``not_before``, as
        :meth:`earliest_start` takes them (``start = max(lo, not_before)`` where ``hi - start >=
        duration``): their starts sorted, their ends before ``BIG`` sorted, how many end at
        ``BIG``, and the windows of the ``gapped`` VMs (:meth:`_gapped`) by VM. The other VMs'
        starts are their sorted last ends, those before ``not_before`` raised to it (that
        ``BIG - start`` holds the duration is the caller's check). O(V log V) in C-level list
        operations, O(g K) in Python."""
        d, nb = duration, not_before
        le = self._le
        gaps: dict[int, list[tuple[float, float]]] = {}
        if gapped and isinstance(cand, range):  # the last ends of the others, in C
            plain = [True] * len(le)
            for v in gapped:
                plain[v] = False
            starts = sorted(compress(le, plain))
        elif gapped:
            out = set(gapped)
            starts = sorted([le[v] for v in cand if v not in out])
        else:
            starts = sorted(le) if isinstance(cand, range) else sorted([le[v] for v in cand])
        below = bisect_right(starts, nb)
        starts[:below] = [nb] * below
        if not gapped:
            return starts, [], len(starts), gaps
        ends: list[float] = []
        for key, owners in self._shared(gapped).items():
            windows = _gap_windows(key, d, nb)
            k = len(owners)
            for v in owners:
                gaps[v] = windows
            for lo, hi in windows:
                starts += [lo] * k
                if hi < BIG:
                    ends += [hi] * k
        starts.sort()
        ends.sort()
        return starts, ends, len(starts) - len(ends), gaps

    def free_vms(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[int]:
        """Candidate VMs with no reservation meeting ``[start, end)``, in id order. From the
        window arrays (O(c K + W) in numpy) while few of their rows are out of date; when more
        than a quarter are (a lease pass, which does not read the arrays, changed many VMs
        since), from the booking lists instead (:meth:`_free_listed`), which leaves the rows
        for a question that needs them."""
        if len(self._dirty) * 4 > self.n_vms:
            return self._free_listed(start, end, vms)
        lo, hi, ids = self._windows(vms)
        free = np.flatnonzero(((lo <= start) & (hi >= end)).any(axis=1))
        return (ids[free] if ids is not None else free).tolist()

    def _free_listed(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[int]:
        """:meth:`free_vms` from the booking lists: a VM whose bookings all end by ``start`` or
        all begin at or after ``end`` is free (its summary says so), any other is asked by a
        bisection in its bookings (:meth:`_is_free`). O(V) plus O(log K) per VM booked around
        the interval."""
        fs, le, is_free = self._fs, self._le, self._is_free
        return [v for v in self._ids(vms) if le[v] <= start or fs[v] >= end or is_free(v, start, end)]

    def free_until(self, t: float, vms: Iterable[int] | None = None) -> dict[int, float]:
        """The candidate VMs free at ``t`` (in no reservation covering ``t``), each with the start of
        its next reservation (``inf`` if none), in id order: how long each could be used from ``t``.
        :meth:`free_lists`'s cost."""
        ids, until = self.free_lists(t, vms)
        inf = math.inf
        return {v: (u if u < BIG else inf) for v, u in zip(ids, until)}

    def any_free(self, t: float) -> bool:
        """Whether some VM is free at ``t``: O(V) in C when one's first booking begins after
        ``t`` (or it has none), else :meth:`free_lists`."""
        return max(self._fs) > t or bool(self.free_lists(t)[0])

    def free_lists(self, t: float, vms: Iterable[int] | None = None) -> tuple[list[int], list[float]]:
        """The candidate VMs (all by default) free at ``t`` as two lists, ids ascending and until
        when each is free (the start of its next booking; :data:`BIG` for never booked again),
        from the summaries and the booking lists, without the window arrays (no row rewritten).

        A VM whose first booking begins after ``t`` is free until it; one whose first booking
        covers ``t`` is busy; one whose first booking is over by ``t`` is free until its second
        if that begins after ``t``, else its bookings are bisected (the last one begun by ``t``
        must be over). All VMs: O(V) in C loops (``compress`` over comparisons of the
        summaries; the VMs with a first booking over are looked for only when the earliest first
        end says there are any: a scheduling pass at the present usually finds none, a lease's
        booking being released when it ends), O(F log F) to merge the ``F`` free VMs of the two
        kinds, O(log K) per VM whose second booking began by ``t``. Candidates: O(k log k) to
        sort them (once per tuple asked, :meth:`_ids`), then O(k)."""
        fs, fe = self._fs, self._fe
        if vms is None:
            ids = range(len(fs))
            ahead = list(compress(ids, map(lt, repeat(t), fs)))
            if min(fe) > t:
                return ahead, list(map(fs.__getitem__, ahead))
            over = list(compress(ids, map(ge, repeat(t), fe)))
        else:
            cand = self._ids(vms)
            ahead = [v for v in cand if fs[v] > t]
            over = [v for v in cand if fe[v] <= t]
            if not over:
                return ahead, [fs[v] for v in ahead]
        ss, busy = self._ss, self._busy
        pairs = list(zip(ahead, map(fs.__getitem__, ahead)))
        key = (t, math.inf)                     # after every booking that begins by t
        for v in over:
            u = ss[v]
            if u <= t:                          # a second booking begun by t: the list decides
                row = busy[v]                   # two or more bookings begun by t
                i = bisect_right(row, key)
                if row[i - 1][1] > t:
                    continue                    # the last one begun by t is not over
                u = row[i][0] if i < len(row) else BIG
            pairs.append((v, u))
        pairs.sort()
        return [v for v, _ in pairs], [u for _, u in pairs]

    def free_map(self, t: float) -> dict[int, float] | None:
        """:meth:`free_lists` of every VM at ``t`` as one dict (id -> until when, ids ascending),
        or ``None`` when a VM's first booking is over by ``t`` (then ask :meth:`free_lists`).
        For a caller that asks at times that seldom go back (a cloud's scheduling passes at the
        present): the last answer is brought up to date from the VMs changed since
        (:meth:`_changed` records them) and the time passed, instead of being made from all
        ``V`` VMs. With no first booking over, the free VMs are exactly those whose first
        booking begins after ``t``, free until it; so the kept dict holds those of its time,
        and at a later ``t`` loses the ones whose first booking has begun.

        O(V) in C for the check of the first ends; O(c) for the ``c`` VMs changed since, O(F)
        in C when ``t`` moved past a kept lower bound of the earliest start among the ``F``
        free VMs (that start; a scan of them when it has begun), O(F log F) when a VM joined
        below the highest id (the dict made again in id order, its values read from the first
        starts); O(V) in C (as :meth:`free_lists`) at a time before the last one's. The dict is the
        table's own: copy it to change it."""
        if self._fe_lo <= t:
            self._fe_lo = lo = min(self._fe)
            if lo <= t:
                return None
        fs = self._fs
        changed = self._fm_changed
        if t < self._fm_t:                      # (the first call, or back in time) all of it
            ids = compress(range(len(fs)), map(lt, repeat(t), fs))
            self._fm = fm = {v: fs[v] for v in ids}
            changed.clear()
            self._fm_t = t
            self._fm_lo = -BIG
            return fm
        fm = self._fm
        lo = self._fm_lo
        joined = False
        if changed:
            last = next(reversed(fm), -1)       # the highest id (fm is in id order)
            for v in changed:
                f = fs[v]
                if f > t:
                    if v not in fm:
                        if v < last:            # (a VM joining after the others keeps the order)
                            joined = True
                        last = v
                    fm[v] = f
                    if f < lo:
                        lo = f
                else:
                    fm.pop(v, None)
            changed.clear()
        if t > self._fm_t:
            if lo <= t:                         # (else no first booking of a free VM has begun)
                lo = min(fm.values(), default=BIG)
                if lo <= t:                     # a first booking of a free VM has begun
                    for v in [v for v, f in fm.items() if f <= t]:
                        del fm[v]
                    lo = min(fm.values(), default=BIG)
            self._fm_t = t
        self._fm_lo = lo
        if joined:                              # (its values are the first starts)
            self._fm = fm = {v: fs[v] for v in sorted(fm)}
        return fm

    def free_count(self, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """For each interval ``[start[i], end[i])``, how many VMs are free over it (a VM is free
        over an interval when one of its windows holds it; its windows are disjoint, so it
        counts once). O(W) per interval, in numpy."""
        self._sync()
        lo, hi = self._lo.ravel(), self._hi.ravel()
        return ((lo[None, :] <= start[:, None]) & (hi[None, :] >= end[:, None])).sum(axis=1)

    def has_free(self, n: int, start: float, end: float) -> bool:
        """Whether at least ``n`` VMs are free over ``[start, end)``: ``free_count`` of that one
        interval ``>= n``, from the per-VM summaries and booking lists instead of the window
        arrays (no rows rewritten, no numpy; a quote asks it once per question that may fit in
        a gap). A VM after its last booking or before its first is free, one whose first
        booking meets the interval is not, any other is looked up as :meth:`_is_free` does (the
        window between the booking begun last before ``start`` and the next). Stops at the
        ``n``-th free VM: O(V) at most, plus O(log K) per VM looked up."""
        fs, fe, le = self._fs, self._fe, self._le
        left = n
        for v in range(self.n_vms):
            if le[v] <= start or fs[v] >= end:
                left -= 1
            elif fe[v] > start or not self._is_free(v, start, end):
                continue
            else:
                left -= 1
            if left <= 0:
                return True
        return left <= 0

    def longest_gap(self, t: float) -> float:
        """An upper bound of the longest free window after ``t`` that ends before a booking (0 if
        none): the longest gap between two bookings, or from ``t`` to the latest first booking
        that starts after ``t``. A duration longer than that fits only after the horizons
        (:meth:`horizon`), so ``earliest_start(n, d, nb)`` is then ``max(nb, horizon(n, t))``
        for every ``nb >= t`` (:meth:`LocalCloud.quote`). O(V) in C (two ``max`` over the
        summaries; kept in heaps, :class:`~cloudsim_py.clouds.extremes.Extreme`, as the earliest
        last end is, they cost more than these: the latest first start changes at every booking,
        and a quote reads the gap at about a third of the states)."""
        latest = max(self._ff)
        return max(max(self._ig), latest - t if latest > t else 0.0)

    def last_ends(self) -> list[float]:
        """Each VM's last booking's end (``-BIG`` for a VM never booked), ascending: the horizons
        (:meth:`horizon`) before they are raised to a time. O(V log V) in C."""
        return sorted(self._le)

    def unbooked(self) -> int:
        """How many VMs have no booking (their last end is ``-BIG``: the ``n``-th smallest
        horizon is then ``t`` for every ``n`` up to this count). O(1): counted at every booking
        and release (it was a count over the last ends, O(V), at every state a quote read)."""
        return self._unbooked

    def horizon(self, n: int, t: float) -> float:
        """The ``n``-th smallest horizon at ``t``: each VM is free for good from its horizon, the
        end of its last booking or ``t`` if later. The earliest last end, kept in a heap
        (:class:`~cloudsim_py.clouds.extremes.Extreme`), when ``n`` is 1: O(c log V) for the
        ``c`` VMs changed since it was last asked (it was a ``min`` over every VM, about 6,000
        machine instructions over 48 VMs, at every new state a quote read); else O(V log V)."""
        e = self._least_le.get() if n == 1 else sorted(self._le)[n - 1]
        return e if e > t else t

    def overlapping(self, start: float, end: float, vms: Iterable[int] | None = None) -> list[Reservation]:
        """Reservations on the candidate VMs that meet ``[start, end)``, ordered by start time
        (then by the order they were made). All VMs: one look at each reservation (O(R log R),
        ``R`` the reservations held: a cloud of many VMs usually holds a few wide ones), the
        same list as the VMs' bisections below; candidates: O(k log K + output)."""
        if vms is None:
            # a booking meets the interval exactly when the per-VM walk below finds it on its
            # VMs: it begins before the end and ends after the start (an empty or inverted
            # interval too); made order, then a stable sort by start
            hits = [r for r in self._by_seq.values() if r.start < end and r.end > start]
            hits.sort(key=_START)
            return hits
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

    def _plain_ids(self, vms: Iterable[int]) -> bool:
        """Whether ``vms`` is a tuple of VM ids (plain ``int``) strictly ascending and in range:
        what :meth:`_candidates` would give, in its order, with no duplicate. O(k) in C."""
        if type(vms) is not tuple or not vms:
            return False
        if len(vms) == 1:                       # (a 1-VM task's booking: one look)
            v = vms[0]
            return type(v) is int and 0 <= v < self.n_vms
        return (set(map(type, vms)) == {int} and 0 <= vms[0] and vms[-1] < self.n_vms
                and all(map(lt, vms, islice(vms, 1, None))))

    def reservations_of(self, vm: int) -> list[Reservation]:
        """The reservations of one VM, by start time."""
        (vm,) = self._candidates([vm])
        return [self._by_seq[seq] for _, _, seq in self._busy[vm]]

    # -- updates ---------------------------------------------------------------------------------

    def reserve(self, rid: Hashable, vms: Iterable[int], start: float, end: float) -> Reservation:
        """Book ``vms`` over ``[start, end)`` for ``rid``; CapacityError if the id is taken, a VM is
        unknown or listed twice, or a VM is already booked in that interval (naming both ids).
        O(k log K) for ``k`` VMs: a booking after a VM's last one (a start now, the usual case)
        or before its first moves its summary on in O(1), one between bookings makes it anew
        (O(K))."""
        if rid in self._seq_of:
            raise CapacityError(f"slot table: reservation {rid!r} exists already")
        vm_list: Sequence[int]
        if self._plain_ids(vms):                # (a start's VMs: taken in id order) as they are
            vm_list = vms                       # type: ignore[assignment]
        else:
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
        le = self._le
        at: Iterable[int]
        if max(map(le.__getitem__, vm_list)) <= start:
            at = repeat(_AFTER)                 # after every VM's last booking (a start now): one C max
        else:
            at = []
            for v in vm_list:                   # where it goes on each VM, and whether it fits
                row = busy[v]
                if le[v] <= start:              # after every booking (none begins at start)
                    at.append(len(row))
                    continue
                i = bisect_left(row, entry)
                if (i > 0 and row[i - 1][1] > start) or (i < len(row) and row[i][0] < end):
                    other = self.overlapping(start, end, [v])[0]
                    raise CapacityError(f"slot table: reservation {rid!r} [{start:g}, {end:g}) on VM {v} overlaps "
                                        f"reservation {other.id!r} [{other.start:g}, {other.end:g})")
                at.append(i)
        self._next += 1
        res = Reservation(rid, tuple(vm_list), start, end)
        fs, fe, ss, ig, ff = self._fs, self._fe, self._ss, self._ig, self._ff
        inside = []
        took = 0                                # VMs booked for the first time
        for v, i in zip(vm_list, at):
            row = busy[v]
            k = len(row)
            if i < k:
                row.insert(i, entry)
                if i:                           # between bookings: the summary anew
                    inside.append(v)
                    continue
                # before its first booking (a start now, an AR later): the new first, the
                # second being the old first, and one more gap
                gap = row[1][0] - end
                ss[v] = row[1][0]
                ff[v] = fs[v] = start
                fe[v] = end
                if k == 1 or gap > ig[v]:
                    ig[v] = gap
                continue
            # after its last booking (the usual start): the summary one step on, as the loop of
            # _summarize would end
            row.append(entry)
            if k == 0:
                took += 1
                ff[v] = fs[v] = start
                fe[v] = end
                ss[v] = BIG
                ig[v] = 0.0
            else:
                gap = start - le[v]
                if k == 1:
                    ss[v] = start
                    ig[v] = gap
                elif gap > ig[v]:
                    ig[v] = gap
            le[v] = end
        self._unbooked -= took
        if inside:
            self._summarize(inside)
        if end < self._fe_lo:                   # (a first booking may end then)
            self._fe_lo = end
        self._changed(res.vms)
        self._seq_of[rid] = seq
        self._by_seq[seq] = res
        self.version += 1
        return res

    def release(self, rid: Hashable) -> Reservation:
        """Remove a reservation (the lease or task is gone, e.g. preempted) and return it.
        O(k) for ``k`` VMs when it is each one's first booking (the usual end of a lease: the
        summary moves on to the next booking, or is that of a VM never booked, and the longest
        gap stays unless the one removed was it), else O(K) more per VM (its summary made
        anew, :meth:`_summarize`); O(k) more while a floor is kept (:meth:`_loosen`)."""
        seq = self._seq(rid)
        res = self._by_seq.pop(seq)
        del self._seq_of[rid]
        if self._floor is not None:
            self._loosen(res)
        entry = (res.start, res.end, seq)
        busy = self._busy
        fs, fe, ss, le, ig, ff = self._fs, self._fe, self._ss, self._le, self._ig, self._ff
        others = []
        gone = 0                                # VMs left with no booking
        for v in res.vms:
            row = busy[v]
            if row[0][2] != seq:                # a later booking: the summary anew
                del row[bisect_left(row, entry)]
                others.append(v)
                continue
            del row[0]                          # its first (a run ending): the next one is first
            if not row:                         # it was the only one: as if never booked
                gone += 1
                fs[v] = fe[v] = ss[v] = BIG
                le[v] = ff[v] = -BIG
                ig[v] = 0.0
                continue
            first = row[0]
            ff[v] = fs[v] = first[0]
            fe[v] = first[1]
            if len(row) == 1:
                ss[v] = BIG
                ig[v] = 0.0
            else:
                ss[v] = row[1][0]
                if first[0] - res.end >= ig[v]:
                    others.append(v)            # the gap gone may have been the longest
        self._unbooked += gone
        if others:
            self._summarize(others)
        self._changed(res.vms)
        self.version += 1
        return res

    def _loosen(self, res: Reservation) -> None:
        """``res`` released or shortened: its VMs count as loosened for the kept floor
        (:class:`_Floor`) if it ended after the floor's ``not_before``; the floor is dropped once
        they are as many as its slack. O(k) for ``k`` VMs."""
        floor = self._floor
        assert floor is not None
        if res.end > floor.not_before:
            loose = floor.loose
            loose.update(res.vms)
            if len(loose) >= floor.slack:
                self._floor = None

    def shorten(self, rid: Hashable, new_end: float) -> Reservation:
        """End a reservation early at ``new_end`` (``start < new_end <= end``): its VMs are free
        from then on. Returns the shortened reservation."""
        seq = self._seq(rid)
        res = self._by_seq[seq]
        if not (res.start < new_end <= res.end):
            raise CapacityError(f"slot table: reservation {rid!r} [{res.start:g}, {res.end:g}) cannot end at "
                                f"{new_end!r} (must be after its start and not after its end)")
        short = attrs.evolve(res, end=float(new_end))
        if short.end < self._fe_lo:
            self._fe_lo = short.end
        if self._floor is not None:
            self._loosen(res)
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
            assert self._ig[v] == max([busy[i + 1][0] - busy[i][1] for i in range(k - 1)], default=0.0)
            assert self._ff[v] == (busy[0][0] if k else -BIG)
        assert self._least_le.get() == min(self._le)
        assert count == sum(len(r.vms) for r in by_seq.values())
        assert self._fe_lo <= min(self._fe)
        assert self._unbooked == sum(1 for busy in self._busy if not busy) == self._le.count(-BIG)


def _gap_windows(bookings: Iterable[tuple[float, float, int]], duration: float,
                 not_before: float) -> list[tuple[float, float]]:
    """The windows around ``bookings`` (one VM's ``(start, end, seq)``, by start) that can hold
    ``duration`` from ``not_before``, each as ``(max(lo, not_before), hi)``, in time order:
    :meth:`SlotTable.earliest_start`'s ``start`` and ``hi`` where ``fits``. O(K).

    >>> _gap_windows([(2.0, 3.0, 0), (9.0, 10.0, 1)], 4.0, 1.0)   # [1, 2) is too short
    [(3.0, 9.0), (10.0, 1e+300)]
    """
    out = []
    lo = -BIG
    nb, d = not_before, duration
    for s, e, _ in bookings:
        a = lo if lo > nb else nb
        if s - a >= d:
            out.append((a, s))
        lo = e
    a = lo if lo > nb else nb
    if BIG - a >= d:
        out.append((a, BIG))
    return out


def _most_before(starts: list[float], ends: list[float], duration: float, t: float) -> int:
    """The highest count of :func:`_first_count` (``#{starts <= s} - #{ends < s + duration}``)
    over the starts ``s`` before ``t``, 0 if none: how many VMs at most were free over an
    interval that began before ``t``. The count at the ``i``-th start is ``i + 1 - k_i`` at the
    last of equal starts (``k_i`` ends passed, growing with ``i``), so its highest value is
    ``P_j - j`` over the ``j``-th smallest ends (``P_j`` the starts before ``t`` whose ``s +
    duration`` is at most that end: those that have passed at most ``j`` ends), the first of
    equal ends, and ``P - g`` for all ``P`` starts before ``t`` and all ``g`` ends. O(e log F)
    for ``e`` distinct ends.

    >>> _most_before([0.0, 2.0, 5.0], [4.0], 3.0, 5.0)     # at 0 one VM; at 2 [0, 4) is gone
    1
    """
    before = bisect_left(starts, t)
    most = before - len(ends)
    prev = None
    for j, e in enumerate(ends):
        if e != prev:
            prev = e
            c = bisect_right(starts, e, 0, before, key=lambda s: s + duration) - j
            if c > most:
                most = c
    return most if most > 0 else 0


def _first_count(starts: list[float], ends: list[float], big: int, n: int, duration: float) -> float:
    """:meth:`SlotTable.earliest_start`'s count in plain Python: the first of the sorted window
    ``starts`` at which ``#{starts <= t} - #{ends < t + duration}`` reaches ``n`` (``ends``: the
    sorted ends before :data:`BIG`; ``big`` windows end at BIG), or the first start if none does
    (numpy's ``argmax`` of all false).

    The first term only grows with ``t``; so does the second (``t + duration`` does), and while
    it stays ``k`` the first start that can reach ``n`` is the ``(n + k)``-th: the scan jumps
    there, and each jump passes at least one more end. O(e log F) for ``e`` ends passed.

    Two VMs from 0, one booked over ``[4, 5)``, the other over ``[0, 2)``; two of them for 3 s:
    the windows that can hold 3 s are ``[0, 4)`` and ``[5, BIG)`` on the first VM and
    ``[2, BIG)`` on the second. At 2 (the 2nd start) ``[0, 4)`` has ended before 2 + 3, so only
    one VM is free; at 5 (the 3rd) both are.

    >>> _first_count([0.0, 2.0, 5.0], [4.0], 2, 2, 3.0)
    5.0
    >>> _first_count([0.0, 2.0, 5.0], [4.0], 2, 3, 3.0)     # three VMs among two: none
    0.0
    """
    m = len(starts)
    at = n - 1
    while at < m:
        t = starts[at]
        bound = t + duration
        k = bisect_left(ends, bound) + (big if BIG < bound else 0)
        if bisect_right(starts, t, at) - k >= n:
            return t
        at = n + k - 1
    return starts[0]
