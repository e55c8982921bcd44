"""Availability profile: free processors over future time, as a step function, for
reservation-based policies (conservative backfilling).

Plain Python lists with ``bisect``: inserting a breakpoint is a C memmove, and the searches stop
at the first window that fits, so the cost per query is the number of steps scanned."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from itertools import compress, islice

INF = float("inf")


def held_end(start: float, end: float) -> float:
    """Until when a job booked over ``[start, end)`` holds its processors: ``end``, or the next
    time on the clock when its duration vanished there (``start + duration == start``, e.g.
    2.5e-10 s at t = 5e6). Such a job still runs, and ends, at ``start``: a booking of no length
    would leave its processors free in the profile for another job at that instant."""
    return end if end > start else math.nextafter(start, INF)


def _overdrawn(start: float, end: float, delta: int, left: int, at: float) -> ValueError:
    """The error of an edit that would leave ``left`` processors free at ``at`` (below 0 or
    above the capacity)."""
    return ValueError(f"profile: changing [{start}, {end}) by {delta} processors leaves {left} free at t={at}")


class AvailabilityProfile:
    """``free[i]`` processors are free during ``[time[i], time[i+1])``; the last step lasts
    forever. Running jobs and reservations are booked against the capacity.

    >>> p = AvailabilityProfile(capacity=4, now=0.0)
    >>> p.book(0.0, 10.0, 3)
    >>> p.earliest(0.0, 2, 5.0)       # only 1 free until t=10
    10.0
    >>> p.earliest(0.0, 1, 5.0)
    0.0
    """

    __slots__ = ("capacity", "time", "free")

    def __init__(self, capacity: int, now: float = 0.0) -> None:
        self.capacity = capacity
        self.time: list[float] = [now]
        self.free: list[int] = [capacity]

    def __len__(self) -> int:
        return len(self.time)

    def advance(self, now: float) -> None:
        """Forget the steps that ended at or before ``now``; O(steps dropped)."""
        i = bisect_right(self.time, now) - 1
        if i > 0:
            del self.time[:i]
            del self.free[:i]

    def earliest(self, now: float, procs: int, duration: float,
                 own: tuple[float, float] | None = None, before: float = INF) -> float:
        """Earliest ``t >= now`` with ``procs`` free during ``[t, t + duration)``; scans the
        steps from ``now`` up to the first window that fits.

        ``own = (start, end)``: count a booking of ``procs`` in that interval as free (where
        would this job go if its own reservation were released?) without touching the profile.
        ``before``: only windows starting before this time are of interest (``INF`` otherwise).
        """
        time, free = self.time, self.free
        if own is not None:
            o0, o1 = own
            # the steps a .. b-1 start in [o0, o1): they count as free. If windows may start
            # at or after o0, steps must not straddle the own booking's edges (merging may have
            # removed them). If they all start before o0 (compression: before <= own start),
            # no split is needed: a window starting before o0 ends before o1 (o1 = o0 +
            # duration), a step straddling o1 cannot cut it short, and one straddling o0 ends
            # a run before o0 exactly when the split step before o0 would.
            if before > o0:
                a = self._split(max(o0, time[0]))
                b = self._split(o1) if o1 < INF else len(time)
            else:
                a = bisect_left(time, o0)
                b = bisect_left(time, o1) if o1 < INF else len(time)
            # a copy with the own steps given room: the profile itself is left as it is
            free = free[:]
            if b > a:
                free[a:b] = [procs] * (b - a)
        n = len(time)
        k = bisect_right(time, now) - 1
        if k < 0:
            k = 0
        start = -1.0
        for k in range(k, n):
            if free[k] >= procs:
                if start < 0.0:
                    start = time[k]
                    if start < now:
                        start = now
                    if start >= before:
                        return INF
                # as bookings are computed, not end - start
                if k + 1 == n or start + duration <= time[k + 1]:
                    return start
            else:
                start = -1.0
                if time[k] >= before:
                    return INF
        return INF

    def max_free(self, t0: float, t1: float) -> int:
        """Most processors free at any moment of ``[t0, t1)`` within the profile (0 for an
        interval that is empty or over before the profile's origin: the past holds nothing)."""
        time = self.time
        if t0 < time[0]:
            t0 = time[0]
        if t1 <= t0:
            return 0
        i = bisect_right(time, t0) - 1
        j = bisect_left(time, t1)
        return max(self.free[i:j])

    def min_free(self, t0: float, t1: float) -> int:
        """Fewest processors free at any moment of ``[t0, t1)`` (``capacity`` for an empty
        interval): whether a booking there still fits."""
        if t1 <= t0:
            return self.capacity
        time = self.time
        i = max(bisect_right(time, t0) - 1, 0)
        j = max(bisect_left(time, t1), i + 1)
        return min(self.free[i:j])

    def earliest_covering(self, now: float, procs: int, duration: float,
                          own: tuple[float, float] | None, i: int, j: int) -> float:
        """:meth:`earliest` from ``now`` before some time ``before``, when every window
        starting in ``[now, before)`` covers the steps ``i .. j-1`` (``i < j``; the caller
        checked that they hold ``procs`` free and end before ``own`` starts): the only
        window that can fit is the run of steps with ``procs`` free (or in ``own``) around
        step ``i``, from its start (or ``now``). Same answer as :meth:`earliest`, without the
        step-by-step scan: the two ends of the run are found by C loops (``map`` over the
        list), O(log steps + steps in the run) with a small constant."""
        time, free = self.time, self.free
        if own is not None:
            o0, o1 = own
            # the own steps [a, b) count as free; no split needed, windows start before o0
            # (see earliest)
            a = bisect_left(time, o0)
            b = bisect_left(time, o1) if o1 < INF else len(time)
        else:
            a = b = 0
        n = len(time)
        # left: back from step i to the step holding now, the last step short of procs
        k0 = bisect_right(time, now) - 1
        if k0 < 0:
            k0 = 0
        s = i
        if i > k0:
            back = free[k0:i]
            back.reverse()
            r = next(compress(range(i - 1, -1, -1), map(procs.__gt__, back)), None)
            s = k0 if r is None else r + 1
        t = time[s] if time[s] > now else now
        # right: from step j on, the first step short of procs (the own steps are not)
        e = next(compress(range(j, n), map(procs.__gt__, islice(free, j, None))), n)
        if a <= e < b:
            e = next(compress(range(b, n), map(procs.__gt__, islice(free, b, None))), n)
        end = time[e] if e < n else INF
        return t if t + duration <= end else INF

    def _split(self, t: float) -> int:
        """Index of the step starting exactly at ``t`` (inserted if needed)."""
        time = self.time
        i = bisect_left(time, t)
        if i < len(time) and time[i] == t:
            return i
        if i == 0:
            raise ValueError(f"profile: time {t} is before its origin {time[0]}")
        time.insert(i, t)
        self.free.insert(i, self.free[i - 1])
        return i

    def book(self, start: float, duration: float, procs: int) -> None:
        """Take ``procs`` during ``[start, start + duration)``; raises if that oversubscribes."""
        self.book_span(start, start + duration, procs)

    def release(self, start: float, duration: float, procs: int) -> None:
        """Give back ``procs`` during ``[start, start + duration)`` (a booking that ended early
        or is being moved)."""
        self.release_span(start, start + duration, procs)

    def book_span(self, start: float, end: float, procs: int) -> None:
        """Take ``procs`` during ``[start, end)`` (``end`` may be ``INF``: until further notice).

        Spans given by their ends, not by durations: ``now + (end - now)`` need not equal
        ``end`` in floating point, and a release must cover exactly what was booked. An empty
        span (``end <= start``) books nothing: a job whose duration may vanish on the clock
        (``start + duration == start``) is booked up to :func:`held_end` by its caller, and
        released the same way (conservative's replan and :class:`~cloudsim_py.brokers.plan.Plan`
        do)."""
        self._add(start, end, -procs)

    def release_span(self, start: float, end: float, procs: int) -> None:
        """Give back ``procs`` during ``[start, end)``, the exact ends of an earlier booking."""
        self._add(start, end, procs)

    def _add(self, start: float, end: float, delta: int) -> None:
        """Change the steps of ``[start, end)`` by ``delta``: split at the two ends (if no step
        starts there), add (in place for a span of one step, most of a compression's edits;
        otherwise by one C ``map`` over the slice), merge equal neighbours at the ends.
        O(log steps) bisects plus C loops over the steps of the span; the splits and merges
        are written out here (this runs twice for every move of a compression)."""
        time, free = self.time, self.free
        if start < time[0]:
            start = time[0]
        if end <= start:
            return
        i = bisect_left(time, start)
        if i == len(time) or time[i] != start:
            time.insert(i, start)                       # i > 0: start is after the origin
            free.insert(i, free[i - 1])
        if end < INF:
            j = bisect_left(time, end, i)
            if j == len(time) or time[j] != end:
                time.insert(j, end)
                free.insert(j, free[j - 1])
        else:
            j = len(time)
        if j == i + 1:                                  # one step (most bookings' edits)
            v = free[i] + delta
            if v < 0 or v > self.capacity:
                raise _overdrawn(start, end, delta, v, time[i])
            free[i] = v
        else:
            new = list(map(delta.__add__, free[i:j]))   # the steps' new values, by C loops
            if min(new) < 0 if delta < 0 else max(new) > self.capacity:
                k, v = next((k, v) for k, v in enumerate(new, i) if v < 0 or v > self.capacity)
                raise _overdrawn(start, end, delta, v, time[k])
            free[i:j] = new
        # merge equal neighbours at the two edges we may have created
        if j < len(time) and free[j] == free[j - 1]:
            del time[j]
            del free[j]
        if i > 0 and free[i] == free[i - 1]:
            del time[i]
            del free[i]

    def steps(self) -> list[tuple[float, int]]:
        return list(zip(self.time, self.free))
