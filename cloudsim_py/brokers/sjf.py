"""Shortest-estimate-first with EASY backfilling (``sjf-backfill``): the waiting job of the
shortest runtime estimate is the head (ties: the earliest arrival); heads start while they fit;
the first that does not fit gets EASY's reservation, and the other waiting jobs are backfilled
around it in *arrival* order. Written on its own, not with the job-picking pass
(``brokers/picking.py``), so that the JobPicking environment's equivalence with it is a real
check of the pass's decisions (tests/learning); the reservation and the backfill are EASY's own
(``brokers/ends.py``), as in the pass."""

from __future__ import annotations

from typing import Any

from .base import register_broker
from .easy import EasyBroker
from .ends import backfill


@register_broker("sjf-backfill", "Shortest estimate first, EASY reservation for it, backfill in arrival order")
class SjfBackfillBroker(EasyBroker):
    """SJF with EASY backfilling on tier 0 (the reservation and backfill tests as
    :class:`~cloudsim_py.brokers.easy.EasyBroker`'s, only the head is the shortest estimate).
    Finding the head is a scan of the queue (O(n) per start), as plain as it can be."""

    def schedule(self, now: float) -> None:
        jobs = self.queue.jobs
        if not jobs:
            return
        dc = self.dc
        free = dc.idle(0)
        while jobs:
            head = min(jobs, key=_sjf_key)
            if head.procs > free:
                break
            dc.start(head, 0)
            free -= head.procs
            jobs.remove(head)
        else:
            return
        if len(jobs) < 2 or free == 0:
            return
        shadow, extra = self._reservation(head.procs, free)
        if backfill(dc, (job for job in jobs if job is not head), now, free, shadow, extra):
            self.queue.drop_started()


def _sjf_key(job: Any) -> tuple[float, tuple[float, int]]:
    """Shortest estimate first, then arrival."""
    return (job.runtime_estimate, job.order)
