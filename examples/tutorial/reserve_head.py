"""Tutorial step 4: a reservation policy written with the public helpers.

EASY backfilling, written the plain way: the queue head gets a reservation at its *shadow
time*, the earliest estimated end of the running jobs after which enough processors are free;
a later job may start now only if it cannot delay that reservation (it ends, by its estimate,
before the shadow time, or it uses only processors the head will not need).

It needs two things a broker does not keep by itself:

* the running jobs' estimated ends, earliest first: :class:`EstimatedEnds`, a datacenter
  listener kept up to date on every start, finish, kill, suspension and resumption;
* the waiting jobs in arrival order: ``self.queue``, a :class:`FifoQueue` (``queue.jobs`` is
  its list, ``queue.head()`` the oldest job, ``queue.drop_started()`` forgets the jobs started
  during this pass).

The built-in ``easy`` policy (cloudsim_py/brokers/easy.py) makes the same decisions; the test
of this example checks that both give the same schedule.
"""

from __future__ import annotations

from cloudsim_py import Broker, EstimatedEnds, FifoQueue, register_broker


@register_broker("reserve-head", "EASY-like: a reservation for the queue head only (tutorial)")
class ReserveHead(Broker):
    """Start jobs in arrival order; when the head does not fit, reserve for it and backfill."""

    queue_type = FifoQueue                 # the default, named here because we use its methods
    queue: FifoQueue

    def bind(self, dc) -> None:  # type: ignore[no-untyped-def]
        super().bind(dc)                   # sets self.dc and makes self.queue
        self.ends = dc.subscribe(EstimatedEnds())

    def schedule(self, now: float) -> None:
        free = self.dc.idle()
        # 1. start the head while it fits (FCFS)
        while (head := self.queue.head()) is not None and head.procs <= free:
            self.dc.start(head)
            self.queue.pop(0)
            free -= head.procs
        if head is None:
            return
        # 2. the head's reservation: shadow time and the processors it leaves over
        shadow, extra = self.reservation(head.procs, free)
        # 3. backfill later jobs that cannot delay it
        for job in self.queue.jobs[1:]:
            if job.procs > free:
                continue
            if now + job.runtime_estimate <= shadow:
                pass                       # done before the head needs the processors
            elif job.procs <= extra:
                extra -= job.procs         # runs on processors the head leaves over
            else:
                continue
            self.dc.start(job)
            free -= job.procs
        self.queue.drop_started()

    def reservation(self, need: int, free: int) -> tuple[float, int]:
        """``(shadow time, extra processors)`` for a head job of ``need`` processors when
        ``free`` are idle now: walk the estimated ends, earliest first, adding each job's
        processors, until the head fits; jobs ending at that same time count as well."""
        available = free
        shadow: float | None = None
        for end, _, procs in self.ends:    # (estimated end, tie-breaker, processors)
            if shadow is not None and end > shadow:
                break
            available += procs
            if shadow is None and available >= need:
                shadow = end
        if shadow is None:                 # only when the head can never fit
            return float("inf"), 0
        return shadow, available - need
