"""The waiting queue of the consolidation policies: jobs in arrival order and by size, both
O(log n) to update, so passes walk only the jobs that can matter."""

from __future__ import annotations

from operator import attrgetter
from typing import Iterator

from sortedcontainers import SortedKeyList

from ...workload.job import Job

#: Arrival order: ``job.order`` = (submit time, id); a killed or suspended job keeps its place.
arrival = attrgetter("order")


def _size_key(job: Job) -> tuple[int, tuple]:
    return (job.procs, job.order)


class WaitQueue:
    """Waiting jobs (queued, or suspended with saved state), indexed two ways."""

    __slots__ = ("_by_arrival", "_by_size")

    def __init__(self) -> None:
        self._by_arrival = SortedKeyList(key=arrival)
        self._by_size = SortedKeyList(key=_size_key)

    def add(self, job: Job) -> None:
        self._by_arrival.add(job)
        self._by_size.add(job)

    def remove(self, job: Job) -> None:
        self._by_arrival.remove(job)
        self._by_size.remove(job)

    def __contains__(self, job: Job) -> bool:
        return job in self._by_arrival

    def __len__(self) -> int:
        return len(self._by_arrival)

    def __iter__(self) -> Iterator[Job]:
        """Arrival order."""
        return iter(self._by_arrival)

    def head(self) -> Job | None:
        return self._by_arrival[0] if self._by_arrival else None

    def by_size(self) -> Iterator[Job]:
        """Smallest first (SMJF), ties in arrival order."""
        return iter(self._by_size)

    def fitting(self, procs: int) -> list[Job]:
        """Jobs of at most ``procs`` processes, in arrival order; O(log n + answer)."""
        small = list(self._by_size.irange_key(max_key=(procs, (float("inf"), float("inf")))))
        small.sort(key=arrival)
        return small
