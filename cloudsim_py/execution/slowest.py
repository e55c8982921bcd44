"""A running job's slowest process: :func:`slowest` over a narrow job's slots, and
:class:`SlowestSpeed`, the slots' speeds kept as a multiset so that a wide job's slowest speed
follows the changes of its slots instead of being found again over its whole width (Liu 2013
section 5.1: "the progress of a job depends on the progress of the slowest process in the
job")."""

from __future__ import annotations

from collections import Counter
from heapq import heapify, heappop, heappush
from operator import attrgetter
from typing import Any

_speed_of = attrgetter("speed")


class SlowestSpeed:
    """The speeds of one run's slots as a multiset (each distinct speed and how many slots run
    at it) with a lazy min-heap of the distinct speeds, so that a wide job's slowest process is
    kept as the slots around it change instead of found again over its whole width.

    ``of``: the run's list of slots it was built from (the run's ``slots`` being another list,
    after a placement, a resume or a swap, means it is out of date: rebuild it). Equal to
    ``min`` over the slots' speeds (tests/execution/test_slowest_speed.py)."""

    __slots__ = ("of", "counts", "heap")

    def __init__(self, slots: list) -> None:
        """Built from the slots' current speeds; O(n) for n slots (the counting in C)."""
        self.of = slots
        self.counts: dict[float, int] = dict(Counter(map(_speed_of, slots)))
        self.heap = list(self.counts)
        heapify(self.heap)

    def moved(self, slot: Any, old: float, new: float) -> None:
        """One slot's speed went from ``old`` (which must be held) to ``new`` (``slot`` itself
        is not needed here: the signature is the one a progress model's refresh calls on every
        per-run aggregate it keeps, :class:`~.barriers.BarrierClock` too); O(log d) for d
        distinct speeds, amortized (a heap grown to more than twice the distinct speeds, by a
        speed added or one no longer held, is rebuilt)."""
        counts = self.counts
        n = counts[old] - 1
        grown = n == 0
        if n:
            counts[old] = n
        else:
            del counts[old]
        if new in counts:
            counts[new] += 1
        else:
            counts[new] = 1
            heappush(self.heap, new)
            grown = True
        if grown and len(self.heap) > 2 * len(counts) + 16:
            heap = self.heap = list(counts)
            heapify(heap)

    def min(self) -> float:
        """The slowest speed held; O(1), plus the lazy removal of speeds no slot runs at
        (amortized O(log d) per :meth:`moved`)."""
        heap = self.heap
        counts = self.counts
        while heap[0] not in counts:
            heappop(heap)
        return heap[0]


def slowest(slots: list) -> float:
    """The least ``speed`` among ``slots`` (not empty): ``min`` over their speeds, the same rule
    (the first least, compared by ``<``), in a loop. O(n) for n slots, about twice as fast as
    ``min(map(attrgetter("speed"), slots))`` on 8-32 slots: the loop's attribute reads are the
    interpreter's specialised reads of a slot, the getter's are not."""
    least = slots[0].speed
    for slot in slots:
        if slot.speed < least:
            least = slot.speed
    return least
