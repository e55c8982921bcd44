"""Waiting queues a broker chooses from (``Broker.queue_type``): FIFO for the k = 1 policies (a
deque for FCFS, which only takes from the front; a list for those that scan and start from the
middle), and one indexed by arrival and by size for the consolidation policies. Every queue supports
``add``, ``remove``, ``head``, ``len``, ``in`` and iteration in arrival order."""

from __future__ import annotations

from collections import deque
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Protocol

from sortedcontainers import SortedKeyList

from ..workload.job import JobState

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.job import Job

#: Arrival order: ``job.order`` = (submit time, id); a killed or suspended job keeps its place.
arrival = attrgetter("order")
QUEUED = JobState.QUEUED


class JobQueue(Protocol):
    """What the base broker and the tools rely on; a broker may use more of its own type."""

    def add(self, job: "Job") -> None: ...
    def remove(self, job: "Job") -> None: ...
    def head(self) -> "Job | None": ...
    def __len__(self) -> int: ...
    def __contains__(self, job: object) -> bool: ...
    def __iter__(self) -> Iterator["Job"]: ...


class FifoQueue:
    """Jobs in the order they were added (submission order), in a plain list: appending and
    dropping from the front are what FCFS and EASY do, and both are cheap.

    ``jobs`` is the list itself, for the broker that owns the queue to scan without a copy;
    ``add`` is the list's own ``append`` (no Python call per arrival)."""

    __slots__ = ("jobs", "add")

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        #: add a job at the back
        self.add: Callable[[Job], None] = self.jobs.append

    def remove(self, job: "Job") -> None:
        """O(n)."""
        self.jobs.remove(job)

    def head(self) -> "Job | None":
        """The oldest waiting job, ``None`` when the queue is empty."""
        return self.jobs[0] if self.jobs else None

    def pop(self, index: int) -> "Job":
        """Remove and return the job at ``index`` (0: the head)."""
        return self.jobs.pop(index)

    def drop_front(self, n: int) -> None:
        """Remove the first ``n`` jobs (those just started)."""
        del self.jobs[:n]

    def drop_started(self) -> None:
        """Keep only the jobs still queued, in place; O(n). A broker that starts jobs from
        the middle of ``jobs`` while scanning it (backfilling) calls this once after the scan
        rather than ``remove`` per job, which would shift the list under the scan."""
        self.jobs[:] = [j for j in self.jobs if j.state is QUEUED]

    def __len__(self) -> int:
        return len(self.jobs)

    def __bool__(self) -> bool:
        return bool(self.jobs)

    def __contains__(self, job: object) -> bool:
        return job in self.jobs

    def __iter__(self) -> Iterator["Job"]:
        return iter(self.jobs)

    def __getitem__(self, i: int) -> "Job":
        return self.jobs[i]

    def __repr__(self) -> str:
        return f"FifoQueue({[j.id for j in self.jobs]})"


class FrontQueue:
    """Jobs in the order they were added, in a deque, for a broker that starts them only from
    the front (FCFS): taking the head is O(1), where a list's ``del jobs[:k]`` moves every job
    behind it (O(queue) per pass: thousands of jobs per start on an overloaded trace).

    ``jobs`` is the deque itself, for the broker that owns the queue; ``add`` is its own
    ``append`` (no Python call per arrival)."""

    __slots__ = ("jobs", "add")

    def __init__(self) -> None:
        self.jobs: deque[Job] = deque()
        #: add a job at the back
        self.add: Callable[[Job], None] = self.jobs.append

    def remove(self, job: "Job") -> None:
        """O(n)."""
        self.jobs.remove(job)

    def head(self) -> "Job | None":
        """The oldest waiting job, ``None`` when the queue is empty."""
        return self.jobs[0] if self.jobs else None

    def __len__(self) -> int:
        return len(self.jobs)

    def __bool__(self) -> bool:
        return bool(self.jobs)

    def __contains__(self, job: object) -> bool:
        return job in self.jobs

    def __iter__(self) -> Iterator["Job"]:
        return iter(self.jobs)

    def __repr__(self) -> str:
        return f"FrontQueue({[j.id for j in self.jobs]})"


def merged_by_arrival(first: Iterable["Job"], second: list["Job"]) -> Iterator["Job"]:
    """The jobs of ``first`` and of ``second`` (each in arrival order, no job in both) in one
    arrival order, lazily: a pass that stops early pays only for the jobs it looked at. One
    comparison of arrival keys per job (``heapq.merge``'s general machinery cost three times
    as much per job, and the passes rarely look at more than a few)."""
    if not second:
        yield from first
        return
    ahead = iter(first)
    rest = iter(second)
    nxt: Job | None = next(rest)
    assert nxt is not None
    key = nxt.order
    for job in ahead:
        order = job.order
        while key < order:
            yield nxt
            nxt = next(rest, None)
            if nxt is None:
                yield job
                yield from ahead
                return
            key = nxt.order
        yield job
    yield nxt
    yield from rest


def _size_key(job: "Job") -> tuple[int, tuple[float, int]]:
    return (job.procs, job.order)


class WaitQueue:
    """Waiting jobs (queued, or suspended with saved state), indexed two ways, both O(log n)
    to update, so passes walk only the jobs that can matter."""

    __slots__ = ("_by_arrival", "_by_size")

    def __init__(self) -> None:
        self._by_arrival = SortedKeyList(key=arrival)
        self._by_size = SortedKeyList(key=_size_key)

    def add(self, job: "Job") -> None:
        """Add a waiting job (a new arrival, or a preempted job back in its arrival place)."""
        self._by_arrival.add(job)
        self._by_size.add(job)

    def remove(self, job: "Job") -> None:
        """Forget a job (it started, or was rejected); O(log n)."""
        self._by_arrival.remove(job)
        self._by_size.remove(job)

    def __contains__(self, job: object) -> bool:
        return job in self._by_arrival

    def __len__(self) -> int:
        return len(self._by_arrival)

    def __iter__(self) -> Iterator["Job"]:
        """Arrival order."""
        return iter(self._by_arrival)

    def head(self) -> "Job | None":
        """The earliest arrival still waiting, ``None`` when the queue is empty."""
        return self._by_arrival[0] if self._by_arrival else None

    def by_size(self) -> Iterator["Job"]:
        """Smallest first (SMJF), ties in arrival order."""
        return iter(self._by_size)

    def fitting(self, procs: int) -> list["Job"]:
        """Jobs of at most ``procs`` processes, in arrival order; O(log n + answer)."""
        by_size = self._by_size
        if not by_size or by_size[0].procs > procs:   # O(1): most passes find nothing to fit
            return []
        small = list(by_size.irange_key(max_key=(procs, (float("inf"), float("inf")))))
        small.sort(key=arrival)
        return small
