"""Estimated ends of running jobs (start + runtime estimate), shared by the backfilling
policies: EASY's shadow time, conservative backfilling's profile."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from sortedcontainers import SortedList

from ..infrastructure.listener import DatacenterListener

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.job import Job


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
