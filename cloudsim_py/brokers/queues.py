"""Waiting queues a broker chooses from (``Broker.queue_type``): FIFO for the k = 1 policies (a
deque for FCFS, which only takes from the front; a list for those that scan and start from the
middle), and one indexed by arrival and by size for the consolidation policies. Every queue supports
``add``, ``remove``, ``head``, ``len``, ``in`` and iteration in arrival order."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from operator import attrgetter
from typing import Callable, Generic, Iterable, Iterator, Protocol, TypeVar

from ..workload.job import Job, JobState

#: Arrival order: ``job.order`` = (submit time, id); a killed or suspended job keeps its place.
arrival = attrgetter("order")
QUEUED = JobState.QUEUED
_INF = float("inf")


class JobQueue(Protocol):
    """What the base broker and the tools rely on; a broker may use more of its own type."""

    def add(self, job: "Job") -> None: ...
    def remove(self, job: "Job") -> None: ...
    def head(self) -> "Job | None": ...
    def __len__(self) -> int: ...
    def __contains__(self, job: object) -> bool: ...
    def __iter__(self) -> Iterator["Job"]: ...


_Jobs = TypeVar("_Jobs", list, deque)


class _InArrivalOrder(Generic[_Jobs]):
    """What the two FIFO queues share: jobs in the order they were added, in ``jobs`` (a list
    or a deque, the owning broker's to scan without a copy); ``add`` is the container's own
    ``append`` (no Python call per arrival)."""

    __slots__ = ("jobs", "add")

    def __init__(self, jobs: _Jobs) -> None:
        self.jobs: _Jobs = jobs
        #: add a job at the back
        self.add: Callable[[Job], None] = jobs.append

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
        return f"{type(self).__name__}({[j.id for j in self.jobs]})"


class FifoQueue(_InArrivalOrder[list]):
    """Jobs in the order they were added (submission order), in a plain list: appending and
    dropping from the front are what FCFS and EASY do, and both are cheap; a broker that
    starts jobs from the middle (backfilling) drops them after its scan."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__([])

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

    def __getitem__(self, i: int) -> "Job":
        return self.jobs[i]


class FrontQueue(_InArrivalOrder[deque]):
    """Jobs in the order they were added, in a deque, for a broker that starts them only from
    the front (FCFS): taking the head is O(1), where a list's ``del jobs[:k]`` moves every job
    behind it (O(queue) per pass: thousands of jobs per start on an overloaded trace)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(deque())


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


#: Size order: ``(job.procs, job.order)``, read in C (no Python frame per queue update)
_size_key: Callable[["Job"], tuple[int, tuple[float, int]]] = attrgetter("procs", "order")


class _Sorted:
    """Jobs sorted by a key that is unique per job (``job.order`` is (submit time, id)), in a
    plain list beside the list of their keys: an update is one ``bisect`` of the keys and two
    ``insert``/``del`` in C, O(log n) comparisons plus a pointer shift of O(n) in C. The
    consolidation passes see queues of a few to a few hundred jobs, where this costs a third of
    ``sortedcontainers.SortedKeyList`` (whose lists hold up to a thousand items each, so it
    shifts as much pointers below that size and pays its own Python bookkeeping on top)."""

    __slots__ = ("key", "keys", "jobs")

    def __init__(self, key: Callable[["Job"], object]) -> None:
        self.key = key
        self.keys: list = []
        self.jobs: list[Job] = []

    def add(self, job: "Job") -> None:
        """Insert ``job`` after every key not above its own; O(log n + n) (the shift in C)."""
        k = self.key(job)
        i = bisect_right(self.keys, k)
        self.keys.insert(i, k)
        self.jobs.insert(i, job)

    def find(self, job: "Job") -> int:
        """Where ``job`` is held, -1 if it is not; O(log n)."""
        keys = self.keys
        k = self.key(job)
        i = bisect_left(keys, k)
        if i < len(keys) and keys[i] == k and self.jobs[i] is job:
            return i
        return -1

    def remove(self, job: "Job") -> None:
        """Drop ``job``; ValueError if it is not held; O(log n + n) (the shift in C)."""
        i = self.find(job)
        if i < 0:
            raise ValueError(f"{job!r} not in the queue")
        del self.keys[i]
        del self.jobs[i]


class WaitQueue:
    """Waiting jobs (queued, or suspended with saved state), indexed two ways, by arrival and by
    size (each a :class:`_Sorted`), so passes walk only the jobs that can matter."""

    __slots__ = ("_by_arrival", "_by_size")

    def __init__(self) -> None:
        self._by_arrival = _Sorted(arrival)
        self._by_size = _Sorted(_size_key)

    def add(self, job: "Job") -> None:
        """Add a waiting job (a new arrival, or a preempted job back in its arrival place);
        O(log n) comparisons."""
        self._by_arrival.add(job)
        self._by_size.add(job)

    def remove(self, job: "Job") -> None:
        """Forget a job (it started, or was rejected); O(log n) comparisons."""
        self._by_arrival.remove(job)
        self._by_size.remove(job)

    def __contains__(self, job: object) -> bool:
        return isinstance(job, Job) and self._by_arrival.find(job) >= 0

    def __len__(self) -> int:
        return len(self._by_arrival.jobs)

    def __iter__(self) -> Iterator["Job"]:
        """Arrival order."""
        return iter(self._by_arrival.jobs)

    def head(self) -> "Job | None":
        """The earliest arrival still waiting, ``None`` when the queue is empty."""
        jobs = self._by_arrival.jobs
        return jobs[0] if jobs else None

    def arrived_before(self, key: tuple[float, int]) -> list["Job"]:
        """The waiting jobs that arrived before ``key`` (a ``job.order``), in arrival order; a
        new list, O(log n + answer)."""
        by_arrival = self._by_arrival
        return by_arrival.jobs[:bisect_left(by_arrival.keys, key)]

    def by_size(self) -> Iterator["Job"]:
        """Smallest first (SMJF), ties in arrival order."""
        return iter(self._by_size.jobs)

    def fitting(self, procs: int) -> list["Job"]:
        """Jobs of at most ``procs`` processes, in arrival order; O(log n + answer)."""
        by_size = self._by_size.jobs
        if not by_size or by_size[0].procs > procs:   # O(1): most passes find nothing to fit
            return []
        small = by_size[:bisect_right(self._by_size.keys, (procs, (_INF, _INF)))]
        small.sort(key=arrival)
        return small
