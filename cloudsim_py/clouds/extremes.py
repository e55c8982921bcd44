"""The least (or greatest) of a list of numbers that its owner changes in place, a few entries
at a time, and asks for often: a slot table's per-VM summaries (the earliest last end, the
earliest first end). Imports only :mod:`heapq`.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush

#: more indices changed than this since the last question of an :class:`Extreme`: it is
#: answered by the C loop over the values (so an owner may stop noting changes once its set
#: holds more than this many)
FEW = 4


class Extreme:
    """The least of ``values`` (``most=True``: the greatest), which the owner changes in place
    and notes the changed indices of in :attr:`changed` (a set it may update directly, and stop
    updating once it holds more than :data:`FEW`).

    Why: the slot table asked ``min`` over all its VMs' summaries for every quote of a new state
    and every pass whose time passed a bound, a C loop of some 6,000 machine instructions over
    48 VMs (a Python comparison per VM), while a booking or a release changes one or a few VMs.
    Here a heap of ``(value, index)`` pairs (values negated for the greatest) holds every
    index's present value, and stale pairs besides; a question first pushes the indices changed
    since the last one with their present values (O(c log H) for ``c`` changed), then drops
    stale pairs from the top until the top's value is its index's present one (each pair is
    dropped once: O(log H) amortised), so the top is the least present value: the number
    ``min`` (``max``) gives. The heap is made anew from the values (O(V)) when it would hold
    more than four pairs a value, so it stays within O(V). When more than :data:`FEW` indices
    changed between two questions (a booking of many VMs, or many bookings: Li et al.'s tasks
    take up to 16 VMs), pushing them costs more than the C loop, so ``min`` (``max``) answers
    and the heap is made anew at the next question with fewer.

    ``values`` must hold numbers without NaN (a value never equals a NaN, so a NaN's pair could
    never be the answer), and every change must be noted before the next question."""

    __slots__ = ("values", "changed", "_heap", "_sign", "_cap", "_stale")

    def __init__(self, values: list[float], most: bool = False) -> None:
        self.values = values
        #: indices whose value changed since the last question (the owner adds to it)
        self.changed: set[int] = set()
        self._sign = -1.0 if most else 1.0
        self._cap = 4 * len(values) + 64
        self._heap: list[tuple[float, int]] = []
        #: the heap is out of date: made anew before it is read
        self._stale = True

    def _remake(self) -> list[tuple[float, int]]:
        """The heap anew from the present values: one pair an index. O(V)."""
        sign = self._sign
        heap = self._heap = [(sign * v, i) for i, v in enumerate(self.values)]
        heapify(heap)
        self._stale = False
        return heap

    @property
    def pairs(self) -> int:
        """How many pairs the heap holds, stale ones included (at most ``4 V + 64`` after a
        question). O(1)."""
        return len(self._heap)

    def get(self) -> float:
        """The least value (``most``: the greatest), as ``min(values)`` (``max``) gives it: the
        value itself (of equal values, possibly another one: 0.0 for -0.0, which compare
        equal). O((c + d) log H) for ``c <= FEW`` indices changed since the last question and
        ``d`` stale pairs dropped (each pushed once), O(1) when nothing changed; O(V) in C when
        more changed, and O(V) at the next question with fewer (the heap made anew)."""
        values, changed = self.values, self.changed
        sign = self._sign
        heap = self._heap
        if changed:
            if len(changed) > FEW:
                changed.clear()
                self._stale = True
                return max(values) if sign < 0 else min(values)
            if self._stale or len(heap) + len(changed) > self._cap:
                heap = self._remake()
            else:
                for i in changed:
                    heappush(heap, (sign * values[i], i))
            changed.clear()
        elif self._stale:
            heap = self._remake()
        while True:
            key, i = heap[0]
            v = values[i]
            if sign * v == key:
                return v
            heappop(heap)
