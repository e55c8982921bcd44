"""First-come first-served: start queue-head jobs while they fit; the head blocks the rest."""

from __future__ import annotations

from .base import Broker, register_broker
from .queues import FrontQueue


@register_broker("fcfs", "First-come first-served: the queue head blocks everything behind it")
class FcfsBroker(Broker):
    """FCFS on tier 0 (Schwiegelshohn and Yahyapour 1998); needs no runtime estimate.

    A pass starts the jobs at the head of the queue while they fit and stops at the first that
    does not: O(1 + jobs started), whatever the length of the queue (the queue is a deque,
    :class:`~cloudsim_py.brokers.queues.FrontQueue`, whose head is taken in O(1))."""

    queue_type = FrontQueue

    def schedule(self, now: float) -> None:
        jobs = self.queue.jobs
        if not jobs:
            return
        dc = self.dc
        free = dc.idle(0)
        while jobs:
            job = jobs[0]
            if job.procs > free:
                break
            dc.start(job, 0)
            jobs.popleft()
            free -= job.procs
