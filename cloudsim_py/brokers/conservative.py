"""Conservative backfilling (Mu'alem and Feitelson 2001): every waiting job holds a reservation
in an availability profile; a job may jump ahead only where it delays no earlier reservation."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import compress

from sortedcontainers import SortedList

from ..engine import Event
from ..workload.job import Job
from .base import Broker, register_broker
from .profile import INF, AvailabilityProfile, held_end


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
    estimates) nothing is gained and nothing is rescanned. Compression is repeated until no
    reservation moves (a job that moves can open a window for an earlier arrival).

    A job still running at its estimated end has an unknown end, only a later one: when a
    reservation comes due without its processors, every such job is booked until further notice
    (``INF``) and given back when it ends. Reservations that still fit keep their place; the
    others get the earliest window that now fits, which is ``INF`` (no window, no wake-up) for a
    job that needs an overrunning job's processors. Nothing is polled: the broker is woken only
    by finishes, arrivals and reservations coming due.
    """

    def bind(self, dc) -> None:
        super().bind(dc)
        self.profile = AvailabilityProfile(len(dc.hosts), dc.now)
        self._due = SortedList()                 # (reserved start, arrival seq, job)
        self._res: dict[Job, tuple] = {}         # job -> its entry in _due, in arrival order
        self._end: dict[Job, float] = {}         # running job -> booked end (INF: overrunning)
        self._new: list[Job] = []
        self._seq = 0
        self._timer: Event | None = None         # pending wake-up for a reservation, if any
        self._timer_at = -1.0
        self._gains: list[float] = []            # end of each interval of capacity gained
        self._gain_starts: list[float] = []      # ... and its start
        self._most: list[int] = []               # ... and the most free over it (_compress_queue)
        self._seen: dict[Job, int] = {}          # job -> len(_gains) when last placed/checked
        self._gained_now = False
        self._starting: Job | None = None        # the job this broker is starting now
        self._foreign = False                    # someone else started, killed or suspended a job: re-plan

    def on_submit(self, job: Job) -> None:
        self.queue.add(job)
        self._new.append(job)

    def on_start(self, job: Job) -> None:
        if job is not self._starting:
            # started by someone else (a program stepping the simulation): its reservation,
            # if any, is void and the profile no longer matches the machine; the next pass
            # re-plans with the job booked until its estimated end
            entry = self._res.pop(job, None)
            if entry is not None:
                self._due.remove(entry)
                del self._seen[job]
            if job in self._new:
                self._new.remove(job)
            self._end[job] = job.start_time + job.runtime_estimate  # type: ignore[operator]
            self._foreign = True

    def on_kill(self, job: Job) -> None:
        # this policy neither kills nor suspends: someone else did; its booking is void
        if self._end.pop(job, None) is not None:
            self._foreign = True

    on_suspend = on_kill

    def on_finish(self, job: Job) -> None:
        end = self._end.pop(job, None)
        now = self.dc.now
        if end is not None and end > now and not self._foreign:
            self.profile.release_span(now, end, job.procs)
            self._gain_starts.append(now)
            self._gains.append(end)
            self._gained_now = True

    def _reserve(self, job: Job, now: float, seq: int) -> None:
        """The earliest window that fits; ``INF`` (nothing booked) while none does."""
        est = job.runtime_estimate
        start = self.profile.earliest(now, job.procs, est)
        if start < INF:
            self.profile.book_span(start, start + est, job.procs)
        entry = (start, seq, job)
        self._due.add(entry)
        self._res[job] = entry
        self._seen[job] = len(self._gains)

    def schedule(self, now: float) -> None:
        profile = self.profile
        profile.advance(now)
        if self._foreign:
            # someone else changed the machine: rebuild the profile, then let every
            # reservation look for an earlier window over [now, its start) (a full compression)
            self._foreign = False
            self.queue.drop_started()
            self._replan(now)
            self._gain_starts.append(now)
            self._gains.append(INF)
            self._gained_now = True
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
            self._end[job] = start + job.runtime_estimate   # the booked end (start == now)
            started = True
        if started:
            self.queue.drop_started()
        self._wake_for_next_reservation(now)

    def on_timer(self, token) -> None:
        self._timer = None

    def _wake_for_next_reservation(self, now: float) -> None:
        """A reservation can come due when nothing else happens (its window was made by a job
        that ended early): keep one wake-up pending at the earliest reservation. (Whether
        another event comes first cannot be told from here: a slice end or a rejected arrival
        causes no scheduling pass.)"""
        due = self._due
        t = due[0][0] if due else INF
        if self._timer is not None:
            if self._timer_at == t:
                return
            self.dc.cancel_wake(self._timer)
            self._timer = None
        if now < t < INF:
            self._timer = self.dc.wake_at(t, "reservation")
            self._timer_at = t

    def _compress_queue(self, now: float) -> None:
        """Move every reservation to the earliest time it now fits, in arrival order, and
        repeat until none moves. A job's new window must overlap capacity gained since it last
        looked (an interval ``[gs, ge)`` of the log it has not seen): so it starts before its
        own start and before the latest such ``ge``, and after the earliest ``gs`` minus its
        estimate; windows are only looked for there.

        Which windows, exactly. A job booked at ``s`` for ``e`` can move in two ways only:

        - *into its own booking*: a window running past ``s`` covers the step just before
          ``s`` (its own booking counts as free), so it fits exactly when that step has room;
          it then starts where that run of steps with room begins (:func:`_run_start`, a C
          loop backwards). The step before ``s`` is read only when a gain reaches it.
        - *ending by its start*: a window inside ``[lo, s - e]`` does not touch the job's own
          booking, so whether one fits is a question about the profile alone
          (:func:`_free_window`): every window starting in ``[lo, lo + e)`` covers the same
          steps (one C ``min``; :meth:`~AvailabilityProfile.earliest_covering`), otherwise a
          C ``max`` then the step scan of :meth:`~AvailabilityProfile.earliest`. Being about
          the profile alone, its answer serves other jobs: a range found empty for a size
          and an estimate is recorded, and a later job with that estimate, at least that
          size and a range inside it is not asked again while no gain reaches those windows
          (:func:`_untouched`); bookings since only took capacity away.

        Before either, a job larger than the most processors free over every gain it has not
        seen is passed over: a new window of its own has a point whose capacity rose since it
        last looked, the last gain that raised it is one of those, and that point has had no
        more free since that gain was logged (or the compression began) than the most free
        over the gain's interval then (``most``, one C ``max`` per gain; only a later gain
        could raise it, bookings only lower it).

        The new place is the earlier of the two. A move logs as gained only the part of its old
        booking that its new window does not cover (where they overlap nothing changed). The
        span of a job's unseen gains (earliest start, latest end) is shared by the jobs that
        looked at the log at the same point, and extended by the gains logged since (a C
        ``min`` and ``max`` over those) rather than computed again after every move.

        Complexity, with Q waiting jobs, S steps in the profile and P passes (P = 1 when no
        reservation moves; each move appends a gain, so another pass follows): O(P Q) visits,
        each O(1) for a job that has seen the whole log, none of whose unseen gains starts
        before its own start or none of which has room for it, otherwise O(log S) bisects
        plus C loops over the steps (and a Python scan of the steps in its range when its
        estimate is shorter than the range and no recorded empty range covers it); a move
        adds O(S) (list inserts of the profile; only the parts of the old and new bookings
        that do not overlap are changed, :func:`_move`) and a C ``max`` over the steps of the
        gain it logs, and the due list is updated once per moved job, O(log Q). At the fixed
        point the log is kept (every job has seen it) and cleared once it holds ``_LOG_KEPT``
        gains, O(Q) then, instead of every job's count of gains seen reset each time. The same
        schedule as the step-by-step search from ``lo``: only checks that cannot succeed are
        left out."""
        profile = self.profile
        gains = self._gains
        gain_starts = self._gain_starts
        seen = self._seen
        due = self._due
        res = self._res
        jobs = list(res)                        # arrival order
        time = profile.time                     # changed in place, never replaced
        free = profile.free
        n = len(gains)
        # most[g]: the most processors free over gain g's interval when it was logged or the
        # compression began (its points can have more since only through later gains)
        most = self._most
        logged = len(most)                      # every job has seen the gains before this one
        most.extend(map(profile.max_free, gain_starts[logged:], gains[logged:]))
        # estimate -> (lo, hi, m, procs): the profile had no window of procs for that estimate
        # starting in [lo, hi) when the log held m gains (nor of more processors)
        empty: dict[float, tuple[float, float, int, int]] = {}
        before: dict[Job, tuple] = {}   # a job that moved -> its entry in _due before
        # k -> (m, lo, hi, f): the span of gains[k:m] and the most of most[k:m], extended by the
        # gains logged since when asked
        spans: dict[int, tuple[int, float, float, int]] = {}
        moved = True
        while moved:
            moved = False
            for job in jobs:
                k = seen[job]
                if k == n:
                    continue
                seen[job] = n
                entry = res[job]
                start = entry[0]
                if k == n - 1:                  # the common case: one gain unseen
                    limit = gains[k]
                    lo = gain_starts[k]
                    f = most[k]
                else:
                    span = spans.get(k)         # jobs that looked at the same time share it
                    if span is None:
                        lo = min(gain_starts[k:])
                        limit = max(gains[k:])
                        f = max(most[k:])
                        spans[k] = (n, lo, limit, f)
                    else:
                        m, lo, limit, f = span
                        if m < n:               # gains logged since: extend it by them
                            g = min(gain_starts[m:])
                            if g < lo:
                                lo = g
                            g = max(gains[m:])
                            if g > limit:
                                limit = g
                            g = max(most[m:])
                            if g > f:
                                f = g
                            spans[k] = (n, lo, limit, f)
                if lo >= start:
                    continue                    # all of it gained at or after its own start
                procs = job.procs
                if procs > f:
                    continue                    # no point gained has room for it
                reaches = limit >= start        # some of it gained just before its own start
                if reaches:
                    limit = start
                est = job.runtime_estimate
                # a few ulps lower: the rounding of gs - est (abs written out: no call)
                lo -= est + ((lo if lo >= 0.0 else -lo) + est) * 1e-12
                if lo < now:
                    lo = now
                if limit <= lo:
                    continue
                if reaches and start < INF and free[bisect_left(time, start) - 1] >= procs:
                    # the step before its booking has room: it moves, to the start of the run
                    # of steps with room up to its booking, unless a window ending by its start
                    # (below) comes earlier
                    run = _run_start(profile, lo, procs, start)
                    if limit > run:
                        limit = run
                else:
                    run = INF
                # windows ending by its start: the profile alone decides (its own booking plays
                # no part); not asked again over a range already found empty
                if start < INF:
                    # a few ulps higher
                    end = start - est + ((start if start >= 0.0 else -start) + est) * 1e-12
                    if end < limit:
                        limit = end
                new = run
                if limit > lo:
                    known = empty.get(est)
                    if not (known is not None and known[3] <= procs and known[0] <= lo
                            and limit <= known[1]
                            and (known[2] == n or _untouched(known, est, gain_starts, gains, n))):
                        new = _free_window(profile, lo, limit, procs, est)
                        if new == INF:
                            if known is None or procs <= known[3] or limit > known[1]:
                                empty[est] = (lo, limit, n, procs)
                            new = run
                if new < start:
                    if start < INF:
                        end = start + est
                        new_end = new + est
                        _move(profile, start, end, new, new_end, procs)
                        # what it gave back and did not take again: [start, end) less its new
                        # window; where the two overlap, nothing changed
                        gain_starts.append(max(start, new_end))
                        gains.append(end)
                        most.append(profile.max_free(gain_starts[-1], end))
                        n += 1
                    else:
                        profile.book_span(new, new + est, procs)
                    seen[job] = n
                    if job not in before:
                        before[job] = entry
                    res[job] = (new, entry[1], job)
                    moved = True
        # the due list learns each job's last move only
        for job, entry in before.items():
            due.remove(entry)
            due.add(res[job])
        # a fixed point: every job has seen the whole log (seen[job] == n). The log is kept
        # (the next compression reads only what is logged after n), and starts afresh only
        # once it is long: setting every job's count back to 0 costs a dict of the queue
        if n >= _LOG_KEPT:
            gains.clear()
            gain_starts.clear()
            most.clear()
            seen.update(dict.fromkeys(jobs, 0))

    def _replan(self, now: float) -> None:
        """A reservation came due without its processors: some running job outlived its
        estimate. Its end is unknown, only later than now: book it until further notice
        (``INF``; :meth:`on_finish` gives it back). Rebuild the profile: running jobs, then the
        reservations that still fit where they are (arrival order decides which, if not all
        do), then the others at the earliest window that fits now (``INF`` if none), in arrival
        order; finally compress into the places the moved jobs left."""
        ends = self._end
        profile = AvailabilityProfile(len(self.dc.hosts), now)
        for job, end in ends.items():
            if end <= now:
                end = ends[job] = INF
            profile.book_span(now, end, job.procs)
        self.profile = profile
        gains = self._gains
        moved = []
        for entry in sorted(self._due, key=_arrival):
            start, _, job = entry
            end = start + job.runtime_estimate
            # an estimate that vanishes on the clock at its start still needs its processors at
            # that instant, as AvailabilityProfile.earliest has it (held_end)
            if now <= start < INF and profile.min_free(start, held_end(start, end)) >= job.procs:
                profile.book_span(start, end, job.procs)
            else:
                moved.append(entry)
                if start < INF and end > now:
                    # its old place from now on, for the compression (the profile begins now)
                    self._gain_starts.append(start if start > now else now)
                    gains.append(end)
        for entry in moved:
            _, seq, job = entry
            self._due.remove(entry)
            self._reserve(job, now, seq)
        if moved:
            self._compress_queue(now)


#: how many gains the log keeps, seen by every job, before it starts afresh (see
#: ConservativeBroker._compress_queue); any value gives the same schedules
_LOG_KEPT = 4096


def _move(profile: AvailabilityProfile, start: float, end: float, new: float, new_end: float,
          procs: int) -> None:
    """Move a booking of ``procs`` from ``[start, end)`` to ``[new, new_end)`` (``new < start``).
    When the two overlap, nothing changes over ``[start, new_end)``: only ``[new, start)`` is
    taken and ``[new_end, end)`` given back, fewer steps to change than releasing the whole old
    booking and taking the whole new one, with the same steps as a result (the same splits at
    the same times, the same merges). O(log S) plus C loops over the steps of the two parts."""
    if new_end > start:
        profile.book_span(new, start, procs)
        profile.release_span(new_end, end, procs)
    else:
        profile.release_span(start, end, procs)
        profile.book_span(new, new_end, procs)


def _arrival(entry: tuple) -> int:
    return entry[1]


def _free_window(profile: AvailabilityProfile, lo: float, limit: float, procs: int,
                 est: float) -> float:
    """The earliest window of ``procs`` for ``est`` starting in ``[lo, limit)`` in the profile as
    it is (``INF`` if none). Every window starting in ``[lo, lo + est)`` covers the steps from
    the one holding the instant before ``limit`` to the last one starting before ``lo + est``:
    when there are such steps, one C ``min`` rules all windows out or
    :meth:`~AvailabilityProfile.earliest_covering` finds the only candidate; otherwise a C
    ``max`` over the range, then the step scan of :meth:`~AvailabilityProfile.earliest`.
    O(log S) bisects plus C loops, or O(S) for the scan."""
    time = profile.time
    i = bisect_left(time, limit) - 1
    j = bisect_left(time, lo + est)
    if i < j:
        if min(profile.free[i:j]) < procs:
            return INF
        return profile.earliest_covering(lo, procs, est, None, i, j)
    if profile.max_free(lo, limit) < procs:
        return INF
    return profile.earliest(lo, procs, est, None, limit)


def _untouched(known: tuple[float, float, int, int], est: float, gain_starts: list[float],
               gains: list[float], n: int) -> bool:
    """Whether no gain logged after ``known`` was recorded reaches a window of length ``est``
    starting in ``known``'s ``[lo, hi)``: such windows lie in ``[lo, hi + est)``, and bookings
    since then only took capacity away, so the profile still has none. O(gains since)."""
    lo, hi, m = known[:3]
    end = hi + est
    for g in range(m, n):
        if gain_starts[g] < end and gains[g] > lo:
            return False
    return True


def _run_start(profile: AvailabilityProfile, lo: float, procs: int, start: float) -> float:
    """Where the run of steps with ``procs`` free that ends at ``start`` begins (``lo`` if it
    holds ``lo``): the caller checked that the step before ``start`` has room. A job booked
    at ``start`` fits from there, its own booking counting as free. The last short step is
    found by a C loop backwards: O(log S) plus the steps of the run."""
    time, free = profile.time, profile.free
    k = bisect_left(time, start) - 1            # the step before start
    k0 = bisect_right(time, lo) - 1             # the step holding lo
    if k0 < 0:
        k0 = 0
    if k <= k0:
        return lo
    back = free[k0:k]
    back.reverse()
    short = next(compress(range(k - 1, k0 - 1, -1), map(procs.__gt__, back)), None)
    if short is None:
        return lo
    t = time[short + 1]
    return t if t > lo else lo
