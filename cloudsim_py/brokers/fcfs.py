"""First-come first-served: start queue-head jobs while they fit; the head blocks the rest."""

from __future__ import annotations

from .base import Broker, register_broker


@register_broker("fcfs", "First-come first-served: the queue head blocks everything behind it")
class FcfsBroker(Broker):
    """FCFS on tier 0 (Schwiegelshohn and Yahyapour 1998); needs no runtime estimate."""

    def schedule(self, now: float) -> None:
        queue = self.queue
        dc = self.dc
        free = dc.idle(0)
        started = 0
        for job in queue.jobs:
            if job.procs > free:
                break
            dc.start(job, 0)
            free -= job.procs
            started += 1
        if started:
            del queue.jobs[:started]
