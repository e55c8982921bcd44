"""Conservative backfilling (Mu'alem and Feitelson 2001): every waiting job holds a reservation
in an availability profile; a job may jump ahead only where it delays no earlier reservation."""

from __future__ import annotations

from sortedcontainers import SortedList

from ..engine import Event
from ..workload.job import Job
from .base import Broker, register_broker
from .ends import EstimatedEnds
from .profile import AvailabilityProfile


@register_broker("conservative", "Conservative backfilling: a reservation for every waiting job")
class ConservativeBroker(Broker):
    """Conservative backfilling on tier 0, using runtime estimates.

    Arriving jobs get the earliest reservation that fits the profile of running jobs and earlier
    reservations. When a job ends before its estimate, its unused booking is released and the
    queue is *compressed*: in arrival order, each reservation is moved to the earliest time that
    now fits (never later than it was). Jobs start when their reservation comes due.

    What cannot have changed is not rescanned. Each reservation was the earliest that fitted
    when the job was last placed or checked, so it can only move into capacity gained since: a
    new window must start before the end of some interval gained after that check (the unused
    estimate of a job that ended early, or the old spot of a job that moved). Gains are logged;
    each job remembers how much of the log it has seen, and its search stops at the latest end
    among the gains it has not seen (and at its own start). When jobs end on time (exact
    estimates) nothing is gained and nothing is rescanned.
    """

    def bind(self, dc) -> None:
        super().bind(dc)
        self.profile = AvailabilityProfile(len(dc.hosts), dc.now)
        self._due = SortedList()                 # (reserved start, arrival seq, job)
        self._res: dict[Job, tuple] = {}         # job -> its entry in _due
        self.ends = dc.subscribe(EstimatedEnds())  # running jobs' estimated ends
        self._new: list[Job] = []
        self._seq = 0
        self._timer: Event | None = None         # pending wake-up for a reservation, if any
        self._timer_at = -1.0
        self._gains: list[float] = []            # end of each interval of capacity gained
        self._seen: dict[Job, int] = {}          # job -> len(_gains) when last placed/checked
        self._gained_now = False
        self._starting: Job | None = None        # the job this broker is starting now
        self._foreign = False                    # someone else started a job: re-plan

    def on_submit(self, job: Job) -> None:
        self.queue.add(job)
        self._new.append(job)

    def on_start(self, job: Job) -> None:
        if job is not self._starting:
            # started by someone else (a program stepping the simulation): its reservation,
            # if any, is void and the profile no longer matches the machine
            entry = self._res.pop(job, None)
            if entry is not None:
                self._due.remove(entry)
                del self._seen[job]
            if job in self._new:
                self._new.remove(job)
            self._foreign = True

    def on_finish(self, job: Job) -> None:
        end = self.ends.end_of(job)   # the broker hears first; the ends forget it next
        now = self.dc.now
        if end is not None and end > now:
            self.profile.release(now, end - now, job.procs)
            self._gains.append(end)
            self._gained_now = True

    def _reserve(self, job: Job, now: float, seq: int) -> None:
        start = self.profile.earliest(now, job.procs, job.runtime_estimate)
        self.profile.book(start, job.runtime_estimate, job.procs)
        entry = (start, seq, job)
        self._due.add(entry)
        self._res[job] = entry
        self._seen[job] = len(self._gains)

    def schedule(self, now: float) -> None:
        profile = self.profile
        profile.advance(now)
        if self._foreign:
            self._foreign = False
            self.queue.drop_started()
            self._replan(now)
        if self._gained_now:
            self._gained_now = False
            self._compress_queue(now)
        for job in self._new:
            self._seq += 1
            self._reserve(job, now, self._seq)
        self._new.clear()
        due = self._due
        dc = self.dc
        started = False
        while due and due[0][0] <= now:
            start, seq, job = due[0]
            if job.procs > dc.idle(0):
                # a running job outlived its estimate: the profile was wrong, re-plan
                self._replan(now)
                if not due or due[0][0] > now or due[0][2].procs > dc.idle(0):
                    break
                continue
            due.pop(0)
            del self._res[job]
            del self._seen[job]
            self._starting = job
            dc.start(job, 0)
            self._starting = None
            started = True
        if started:
            self.queue.drop_started()
        self._wake_for_next_reservation(now)

    def on_timer(self, token) -> None:
        self._timer = None

    def _wake_for_next_reservation(self, now: float) -> None:
        """A reservation can come due when nothing else happens (its window was made by a job
        that ended early): ask to be woken then, unless an event comes first anyway."""
        due = self._due
        if not due:
            return
        t = due[0][0]
        if t <= now:
            return
        nxt = self.dc.sim.peek()
        if nxt is not None and nxt <= t:
            return                                  # a pass will happen before t anyway
        if self._timer is not None:
            if self._timer_at == t:
                return
            self.dc.cancel_wake(self._timer)
        self._timer = self.dc.wake_at(t, "reservation")
        self._timer_at = t

    def _compress_queue(self, now: float) -> None:
        """Move every reservation to the earliest time it now fits, in arrival order; for each
        job, windows are only looked for where they can start: before its own start and before
        the end of the latest gain it has not seen."""
        profile = self.profile
        gains = self._gains
        seen = self._seen
        for entry in sorted(self._due, key=lambda e: e[1]):
            start, seq, job = entry
            unseen = gains[seen[job]:]
            seen[job] = len(gains)
            if not unseen:
                continue
            limit = max(unseen)
            if start < limit:
                limit = start
            if limit <= now or profile.max_free(now, limit) < job.procs:
                continue
            est = job.runtime_estimate
            new = profile.earliest(now, job.procs, est, own=(start, start + est), before=limit)
            if new < start:
                profile.release(start, est, job.procs)
                profile.book(new, est, job.procs)
                gains.append(start + est)
                seen[job] = len(gains)
                self._due.remove(entry)
                moved = (new, seq, job)
                self._due.add(moved)
                self._res[job] = moved

    def _replan(self, now: float) -> None:
        """Rebuild the profile from scratch; running jobs past their estimate are assumed to end
        one second from now (the only case where reservations can come due without room)."""
        profile = AvailabilityProfile(len(self.dc.hosts), now)
        for job, end in self.ends.jobs():
            profile.book(now, max(end, now + 1.0) - now, job.procs)
        self.profile = profile
        entries = sorted(self._due, key=lambda e: e[1])
        self._due.clear()
        self._res.clear()
        self._seen.clear()
        for _, seq, job in entries:
            self._reserve(job, now, seq)
