"""EASY backfilling (Lifka 1995; Mu'alem and Feitelson 2001): a reservation for the queue head
only; a later job may start now if it does not delay that reservation, by the estimates."""

from __future__ import annotations

from itertools import islice

from sortedcontainers import SortedList

from ..workload.job import Job, JobState
from .base import Broker, register_broker

QUEUED = JobState.QUEUED


@register_broker("easy", "EASY backfilling: reserve for the queue head, backfill what cannot delay it")
class EasyBroker(Broker):
    """EASY on tier 0, using runtime estimates.

    The head's *shadow time* is the earliest estimated end at which enough processors are free;
    the *extra* processors are those still free at the shadow time after the head takes its
    share, counting every running job that ends by then (ties included: this is what matches
    Liu 2015 Table 2). A waiting job is backfilled, in queue order, if it fits now and either
    ends by the shadow time or uses no more than the extra processors.
    """

    def bind(self, dc) -> None:
        super().bind(dc)
        self._ends = SortedList()      # (estimated end, seq, procs) of running jobs
        self._entry: dict[Job, tuple] = {}
        self._seq = 0

    def _started(self, job: Job, now: float) -> None:
        self._seq += 1
        entry = (now + job.runtime_estimate, self._seq, job.procs)
        self._ends.add(entry)
        self._entry[job] = entry

    def on_finish(self, job: Job) -> None:
        self._ends.remove(self._entry.pop(job))

    def schedule(self, now: float) -> None:
        queue = self.queue
        if not queue:
            return
        dc = self.dc
        free = dc.idle(0)
        # start the head (and the next heads) while they fit
        started = 0
        for job in queue:
            if job.procs > free:
                break
            dc.start(job, 0)
            self._started(job, now)
            free -= job.procs
            started += 1
        if started:
            del queue[:started]
        if len(queue) < 2 or free == 0:
            return
        shadow, extra = self._reservation(queue[0].procs, free)
        backfilled = False
        for job in islice(queue, 1, None):   # no copy of the queue per pass
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
            self._started(job, now)
            free -= p
            backfilled = True
            if free == 0:
                break
        if backfilled:
            self.queue = [j for j in queue if j.state is QUEUED]

    def _reservation(self, need: int, free: int) -> tuple[float, int]:
        """Shadow time and extra processors for a head job of ``need`` processors."""
        acc = free
        shadow = None
        for end, _, procs in self._ends:
            if shadow is not None and end > shadow:
                break
            acc += procs
            if shadow is None and acc >= need:
                shadow = end
        if shadow is None:  # cannot happen while the head fits the machine
            return float("inf"), 0
        return shadow, acc - need
