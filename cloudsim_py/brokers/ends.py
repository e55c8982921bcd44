"""Estimated ends of running jobs (start + runtime estimate), shared by the backfilling
policies: EASY's shadow time, conservative backfilling's profile; and EASY's two steps,
:func:`reservation` and :func:`backfill`, shared by ``easy``, ``sjf-backfill`` and the
job-picking pass (``brokers/picking.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from sortedcontainers import SortedList

from ..infrastructure.listener import DatacenterListener

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter
    from ..workload.job import Job

INF = float("inf")


class EstimatedEnds(DatacenterListener):
    """``(estimated end, seq, procs)`` of every running job in ascending order, O(log n) to
    update. A listener of the datacenter (``dc.subscribe(ends)``), so jobs started by someone
    else (a program stepping the simulation, another broker) are known too, and a job that
    stops running for any reason is forgotten; a resumed job is expected to run its whole
    estimate again (a broker does not know how much of it is done)."""

    __slots__ = ("_sorted", "_entry", "_seq")

    def __init__(self) -> None:
        self._sorted = SortedList()
        self._entry: dict[Job, tuple[float, int, int]] = {}
        self._seq = 0

    def on_start(self, job: "Job") -> None:
        self._seq += 1
        entry = (job.start_time + job.runtime_estimate, self._seq, job.procs)  # type: ignore[operator]
        self._sorted.add(entry)
        self._entry[job] = entry

    on_resume = on_start

    def on_finish(self, job: "Job") -> None:
        entry = self._entry.pop(job, None)
        if entry is not None:
            self._sorted.remove(entry)

    on_kill = on_suspend = on_finish

    def end_of(self, job: "Job") -> float | None:
        """The estimated end of a running job (``None`` if it is not running)."""
        entry = self._entry.get(job)
        return entry[0] if entry is not None else None

    def jobs(self) -> Iterator[tuple["Job", float]]:
        """``(job, estimated end)`` in start order."""
        return ((job, e[0]) for job, e in self._entry.items())

    def __iter__(self) -> Iterator[tuple[float, int, int]]:
        """``(end, seq, procs)``, earliest end first."""
        return iter(self._sorted)

    def __len__(self) -> int:
        return len(self._entry)

    def __contains__(self, job: object) -> bool:
        return job in self._entry


def reservation(ends: Iterable[tuple[float, int, int]], need: int, free: int) -> tuple[float, int]:
    """EASY's shadow time and extra processors for a job of ``need`` processors when ``free``
    are idle now and ``need > free``: the earliest estimated end at which enough processors are
    free, and what is left then after the job takes its share, counting every running job that
    ends by then (ties included: this is what matches Liu 2015 Table 2). ``inf, 0`` if the
    running jobs never free enough (only jobs the policy does not know of can cause it).
    O(running jobs ending by the shadow time)."""
    acc = free
    shadow = None
    for end, _, procs in ends:
        if shadow is not None and end > shadow:
            break
        acc += procs
        if shadow is None and acc >= need:
            shadow = end
    if shadow is None:
        return INF, 0
    return shadow, acc - need


def backfill(dc: "Datacenter", candidates: Iterable["Job"], now: float, free: int, shadow: float,
             extra: int) -> int:
    """EASY's backfill on tier 0: each candidate, in the order given, starts if it fits the
    ``free`` processors and either ends by ``shadow`` (by its estimate) or uses no more than the
    ``extra`` processors (which it then takes); stops when nothing is free. Returns how many
    started (the caller drops them from its queue). O(candidates looked at)."""
    started = 0
    for job in candidates:
        p = job.procs
        if p > free:
            continue
        if now + job.runtime_estimate <= shadow:
            pass
        elif p <= extra:
            extra -= p
        else:
            continue
        dc.start(job, 0)
        free -= p
        started += 1
        if free == 0:
            break
    return started
