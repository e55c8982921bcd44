"""Tutorial step 1: a policy in a file of its own, registered under a name a scenario can use.

Smallest job first: at every scheduling point, start the waiting jobs that fit, fewest
processors first (ties: earliest arrival). No reservation, so a wide job waits while narrow
ones keep arriving: in the tutorial's run the longest wait is a 64-processor job's
(docs/tutorial-broker.md).
"""

from __future__ import annotations

from cloudsim_py import Broker, register_broker


@register_broker("smallest-first", "Smallest job first, no reservations (tutorial)")
class SmallestFirst(Broker):
    """Start the narrowest waiting jobs that fit, in one pass over the queue."""

    def schedule(self, now: float) -> None:
        free = self.dc.idle()                      # idle processors of tier 0
        for job in sorted(self.queue, key=lambda j: (j.procs, j.submit_time, j.id)):
            if job.procs > free:
                break                              # sorted by size: nothing later fits either
            self.dc.start(job)                     # the datacenter checks it fits, or raises
            self.queue.remove(job)
            free -= job.procs
