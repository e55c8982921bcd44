"""EASY backfilling (Lifka 1995; Mu'alem and Feitelson 2001): a reservation for the queue head
only; a later job may start now if it does not delay that reservation, by the estimates."""

from __future__ import annotations

from itertools import islice

from .base import Broker, register_broker
from .ends import EstimatedEnds, backfill, reservation


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
        self.ends = dc.subscribe(EstimatedEnds())

    def schedule(self, now: float) -> None:
        queue = self.queue
        jobs = queue.jobs
        if not jobs:
            return
        dc = self.dc
        free = dc.idle(0)
        # start the head (and the next heads) while they fit
        started = 0
        for job in jobs:
            if job.procs > free:
                break
            dc.start(job, 0)
            free -= job.procs
            started += 1
        if started:
            del jobs[:started]
        if len(jobs) < 2 or free == 0:
            return
        shadow, extra = self._reservation(jobs[0].procs, free)
        if backfill(dc, islice(jobs, 1, None), now, free, shadow, extra):   # no copy of the queue
            queue.drop_started()

    def _reservation(self, need: int, free: int) -> tuple[float, int]:
        """Shadow time and extra processors for a head job of ``need`` processors
        (:func:`~cloudsim_py.brokers.ends.reservation`; a method, so that a subclass or a test
        probe can watch the reservations given)."""
        return reservation(self.ends, need, free)
