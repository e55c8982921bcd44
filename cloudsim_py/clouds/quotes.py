"""A cloud's answers to Li et al.'s task-checking requests (seed 001, section IV: "the
earliest time at which the task can start" on the cloud, asked of every cloud for every ready
task): from its slot table, or for an AR task under suspend-mode preemption from its hard
bookings alone (an AR may take what best-effort work holds). Composed by
:class:`~cloudsim_py.clouds.local.LocalCloud` (``quote``, ``quotes``); reads its two slot
tables and the datacenter's clock, changes nothing. Imports numpy, attrs and the slot table.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import numpy as np

from .lease_plan import INF, TINY
from .slottable import SlotTable

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter


@attrs.define(slots=True, eq=False)
class QuoteProfile:
    """What quotes read from one state (``version``) of a slot table, first asked at ``time``:
    the longest gap before a booking (:meth:`SlotTable.longest_gap` at :attr:`time`, taken when
    first needed: a quote whose ``n`` VMs are free for good by its not-before does not read it), the VMs'
    last ends in ascending order (:meth:`SlotTable.last_ends`; a horizon is the later of one and
    :attr:`time`, :meth:`SlotTable.horizon`) and their array only when a quote needs
    more than the first (a task of one VM: a ``min`` in C answers) or more than the VMs with no
    booking (:meth:`SlotTable.unbooked`, a count the table keeps: their horizon is the time),
    and the gap answers so far."""

    table: SlotTable
    version: int
    time: float
    #: :meth:`gap` once taken (NaN before)
    longest: float = math.nan
    sorted: list[float] | None = None
    as_array: np.ndarray | None = None
    answers: dict[tuple[int, float, float], float] = attrs.field(factory=dict)

    def renew(self, version: int, time: float) -> None:
        """Make this the profile of another state of the same table, first asked at ``time``:
        what it read from the old state is dropped, to be read again when first needed. O(1),
        and no object made (a cloud's table changes state at every booking and release; the
        quotes of Li et al.'s four clouds met about 14,000 states per 1,000 DAG jobs)."""
        self.version = version
        self.time = time
        self.longest = math.nan
        self.sorted = None
        self.as_array = None
        if self.answers:
            self.answers = {}

    def gap(self) -> float:
        """The table's longest gap before a booking at :attr:`time` (:meth:`SlotTable.longest_gap`,
        taken at the first call: the same number, the table being at :attr:`version`). O(V) in
        C once, then O(1)."""
        g = self.longest
        if g != g:
            g = self.longest = self.table.longest_gap(self.time)
        return g

    def horizon(self, n: int) -> float:
        """The ``n``-th smallest horizon at :attr:`time`. O(V) in C without the sorted list when
        ``n`` VMs have no booking (their last ends are ``-BIG``, the smallest: the answer is the
        time) or ``n = 1``, O(1) once it is made (O(V log V), at most once per state)."""
        ends = self.sorted
        if ends is None:
            if n <= self.table.unbooked():
                return self.time
            if n == 1:
                return self.table.horizon(1, self.time)
            ends = self.sorted = self.table.last_ends()
        e = ends[n - 1]
        return e if e > self.time else self.time

    def array(self) -> np.ndarray:
        """The sorted horizons as an array (the batch quotes of :meth:`Quotes.quotes`)."""
        if self.as_array is None:
            if self.sorted is None:
                self.sorted = self.table.last_ends()
            self.as_array = np.maximum(np.array(self.sorted), self.time)
        return self.as_array


class Quotes:
    """Quotes from a cloud's ``table`` (every booking) and ``hard`` (the bookings no AR can
    take), at the datacenter ``dc``'s present time; ``hard_for_ar``: an AR task is quoted from
    the hard bookings (suspend-mode preemption), else from the table like any task. Each state
    of a table is looked at once (:class:`QuoteProfile`, kept while its version holds)."""

    __slots__ = ("table", "hard", "n_vms", "dc", "hard_for_ar", "_profiles", "_sim")

    def __init__(self, table: SlotTable, hard: SlotTable, dc: "Datacenter", hard_for_ar: bool) -> None:
        self.table = table
        self.hard = hard
        self.n_vms = table.n_vms
        self.dc = dc
        self._sim = dc.sim              #: its clock (``dc.now`` without the property's call)
        self.hard_for_ar = hard_for_ar
        #: the two tables' profiles (hard or not -> see :meth:`_profile`)
        self._profiles: dict[bool, QuoteProfile] = {}

    def quote(self, n: int, duration: float, not_before: float, ar: bool = False) -> float:
        """Li et al. IV: the answer to a task-checking request, the earliest time ``>= not_before``
        at which ``n`` VMs are free for ``duration`` by the slot table (an AR may take what
        best-effort work holds: only the hard bookings count); ``inf`` if the cloud is too small.

        O(1) after one look at each state of the table (:class:`QuoteProfile`, taken at the
        first quote after a booking changed, at time ``t0``: O(V) in C, and O(V log V) once if a
        quote of that state needs more than one VM): a duration longer
        than every gap before a booking at ``t0`` (gaps only shrink as time goes on) fits only
        after the horizons, so the answer is ``max(not_before, now, horizons[n - 1])``;
        the same when ``n`` VMs are free for good by ``not_before`` (``horizons[n - 1] <=
        not_before``: no numpy at all); otherwise a count of the VMs free over the task's
        interval from the booking lists (:meth:`SlotTable.has_free`, O(V), stopping at the
        ``n``-th) and, if too few, one :meth:`SlotTable.earliest_start_lists` (``earliest_start``'s
        answer from the booking lists: no window rows rewritten, no numpy), remembered for the
        same state, time and question (tasks of one type ask the same)."""
        if n > self.n_vms:
            return INF
        now = self._sim.now
        hard = ar and self.hard_for_ar
        prof = self._profile(hard, now)
        table = prof.table
        nb = not_before if not_before > now else now
        d = duration if duration > 0 else TINY
        h = prof.horizon(n)
        if h <= nb or d > prof.gap():
            # n VMs are free for good from not_before on (their last bookings end by then), or
            # the duration fits in no gap: after the horizons
            return h if h > nb else nb
        if table.has_free(n, nb, nb + d):
            return nb                        # n VMs are free from not_before on: the usual answer
        return self._gap_quote(hard, prof, n, d, not_before, now)

    def _profile(self, hard: bool, now: float) -> "QuoteProfile":
        """The :class:`QuoteProfile` of the hard table or the table, for its present state
        (one per table, renewed at the first quote after a booking changed: O(1); what it reads
        from the table is read when first needed)."""
        table = self.hard if hard else self.table
        prof = self._profiles.get(hard)
        if prof is None:
            prof = self._profiles[hard] = QuoteProfile(table, table.version, now)
        elif prof.version != table.version:
            prof.renew(table.version, now)
        return prof

    def _gap_quote(self, hard: bool, prof: "QuoteProfile", n: int, d: float, nb: float, now: float) -> float:
        """The answer for a duration that may fit in a gap: remembered for this state of the
        table by ``(n, d, not_before)`` and reused while it is not in the past (the times that
        fit do not change with the state, so the earliest one from a later time is the same as
        long as it is still ahead)."""
        memo = prof.answers
        key = (n, d, nb)
        got = memo.get(key)
        if got is None or got < now:
            table = self.hard if hard else self.table
            got = memo[key] = table.earliest_start_lists(n, d, nb if nb > now else now)[0]
        return got

    def quotes(self, n: np.ndarray, duration: np.ndarray, not_before: np.ndarray, ar: np.ndarray) -> np.ndarray:
        """:meth:`quote` of many tasks at once (arrays of VMs, durations, not-befores and AR
        flags), the same numbers: O(tasks) in numpy (plus O(W) per task whose duration may fit
        in a gap before a booking, and one :meth:`SlotTable.earliest_start` per distinct such
        question that does not fit from its not-before time)."""
        if not self.hard_for_ar or not ar.any():
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
        h = prof.array()[(np.minimum(n, n_vms) if too_big else n) - 1]
        q = np.maximum(h, nb)
        if too_big:
            q[n > n_vms] = INF
        longest = prof.gap()
        if float(d.min()) <= longest:                                     # some may fit in a gap
            # those whose n-th horizon is by their not-before have n VMs free for good from
            # then: q is already their answer
            gap = np.flatnonzero((d <= longest) & (n <= n_vms) & (h > nb))
            table = self.hard if hard else self.table
            start = nb[gap]
            now_ok = table.free_count(start, start + d[gap]) >= n[gap]
            q[gap[now_ok]] = start[now_ok]   # n VMs free from not_before on: the usual answer
            for k in gap[~now_ok].tolist():
                q[k] = self._gap_quote(hard, prof, int(n[k]), float(d[k]), float(not_before[k]), now)
        return q
