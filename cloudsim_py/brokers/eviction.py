"""Choosing whom to preempt for a job that does not fit: later arrivals newest first until it
fits, then those not needed after all stay, smallest first (Liu 2015 Alg. 3 lines 21-24 and
34-39; Liu 2013 section 4.1, the CMBF example of Fig. 1a)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from .queues import arrival

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.job import Job


def take_newest_first(newest_first: Iterable["Job"], free: int, need: int) -> tuple[list["Job"], int]:
    """Collect jobs from ``newest_first`` until ``free`` plus their processors covers ``need``;
    returns them and the processors then free."""
    taken: list[Job] = []
    for job in newest_first:
        if free >= need:
            break
        free += job.procs
        taken.append(job)
    return taken, free


def keep_smallest(victims: list["Job"], spare: int) -> list["Job"]:
    """Remove from ``victims`` (in place) the jobs that fit the ``spare`` processors left over,
    smallest first (ties: earliest arrival); returns ``victims``."""
    if spare > 0:
        for job in sorted(victims, key=lambda j: (j.procs, arrival(j))):
            if job.procs <= spare:
                spare -= job.procs
                victims.remove(job)
    return victims
