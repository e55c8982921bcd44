"""``interference.job_progress: barriers``: a job's processes each run at their own speed and
wait for each other every ``barrier_work`` seconds of work (a bulk-synchronous parallel job: no
process starts a step before every process has finished the previous one). The reading lies
between ``lockstep`` (as the step shrinks) and ``per_process`` (once the step exceeds the job's
work); docs/progress.md.

:class:`BarrierClock` keeps one running job's processes by the time each reaches the next
barrier, so that a change of one process's speed costs O(1) instead of settling and re-timing
all n of them: the job's next barrier is the latest of those times, and its finish that barrier
plus the steps after it at the slowest speed (both cached). Only a barrier, a placement or a
settle touches every process again. The rule over a list of remaining works that it replaced is
the tests' oracle (tests/execution/barrier_rule.py)."""

from __future__ import annotations

import math
from operator import attrgetter
from typing import Any

_EPS = 1e-9
_speed_of = attrgetter("speed")
_INF = math.inf
#: a cached extreme that a change made unknown (nan: every comparison with it is false)
_UNKNOWN = math.nan


class BarrierClock:
    """One running job's processes under ``job_progress: barriers``, kept by the time each
    reaches the next barrier.

    Per process ``i``: ``rem[i]``, its work left at time ``at[i]``, ``speed[i]`` since then,
    and ``arrive[i]``, when it reaches the barrier ``level`` (at or before ``at[i]`` if it is
    waiting there; ``inf`` if it stands still short of it). The barrier is passed at the
    latest arrival; after it every process stands at ``level`` and the next barrier is one
    ``step`` further. At constant speeds the job's work is done ``level / least`` after the
    barrier for the slowest speed ``least``.

    The latest arrival and the slowest speed are cached (``last``, ``slowest``): a change
    that moves past the cached value replaces it, one that takes its holder back from it makes
    it unknown (``nan``), found again by one ``max``/``min`` over the list when next asked
    (C loops). A job's processes mostly change speed together, so this costs less than keeping
    heaps up to date at every change.

    Current while ``of`` is the run's list of slots (a placement, a resume or a swap makes a
    new one: :meth:`rebuild` then). ``frozen``: settled and not progressing (the job was
    suspended, or pays a migration cost), so a rebuild starts the processes again from their
    settled work at the rebuild's time. Equal to the list rule within rounding
    (tests/execution/test_barrier_clock.py)."""

    __slots__ = ("of", "step", "level", "rem", "at", "speed", "arrive", "last", "slowest",
                 "frozen", "now", "due")

    def __init__(self, slots: list, work: float, step: float, now: float) -> None:
        """A job placed with ``work`` left in each process; O(n)."""
        self.step = step
        self.level = max(0.0, work - step)
        self.rem = [work] * len(slots)
        self.frozen = True
        #: the finish last scheduled from this clock (the progress model's, to move the finish
        #: event only when it changed)
        self.due = -1.0
        self.rebuild(slots, now)

    def rebuild(self, slots: list, now: float) -> None:
        """Take the speeds of ``slots`` (the run's new placement) from ``now``: a frozen clock
        starts again from its settled work, a current one is settled at its old speeds first.
        O(n)."""
        if not self.frozen:
            self.settle(now)
        self.now = now
        self.of = slots
        self.frozen = False
        self.speed = list(map(_speed_of, slots))
        self.slowest = _UNKNOWN
        self.at = [now] * len(slots)
        self._time_arrivals(now)

    def _time_arrivals(self, now: float) -> None:
        """Every process's arrival at ``level`` from its work at ``now``; O(n)."""
        level = self.level
        self.arrive = [now if left - level <= _EPS else (now + (left - level) / v if v > 0.0 else _INF)
                       for left, v in zip(self.rem, self.speed)]
        self.last = _UNKNOWN

    def barrier_time(self) -> float:
        """When the last process reaches the barrier (``inf`` if one stands still short of
        it); O(1), or O(n) in C when a change made it unknown."""
        t = self.last
        if t != t:        # unknown (nan)
            t = self.last = max(self.arrive)
        return t

    def least(self) -> float:
        """The slowest process's speed; O(1), or O(n) in C when a change made it unknown."""
        v = self.slowest
        if v != v:        # unknown (nan)
            v = self.slowest = min(self.speed)
        return v

    def catch_up(self, now: float) -> None:
        """Pass the barriers reached by ``now`` (at the speeds held since the last change).

        At the barrier's time ``t`` every process stands at ``level``; from there each step
        takes ``step / least``, so the steps whole within ``now - t`` are passed in one count
        (the count ``k`` below), and the processes are kept as starting the step under
        way together at its start ``t'``: work ``level'`` at ``t'`` each, arriving at
        ``t' + (level' - next) / v``. O(n) in list operations when a barrier was reached,
        else O(1)."""
        self.now = now
        t = self.barrier_time()
        if t > now:
            return
        n = len(self.rem)
        level, step = self.level, self.step
        least = self.least()
        if level <= 0.0 or (least > 0.0 and (now - t) * least >= level):     # all done
            done = t + level / least if level > 0.0 else t
            self.level = 0.0
            self.rem = [0.0] * n
            self.at = [now] * n
            self.arrive = [done] * n
            self.last = done
            return
        if least > 0.0:
            k = math.floor((now - t) * least / step)
            if k:
                level -= k * step
                t += k * step / least
        nxt = level - step if level > step else 0.0
        gap = level - nxt
        self.level = nxt
        self.rem = [level] * n
        self.at = [t] * n
        self.arrive = [t + gap / v if v > 0.0 else _INF for v in self.speed]
        self.last = t + gap / least if least > 0.0 else _INF

    def moved(self, slot: Any, old: float, new: float) -> None:
        """The process in ``slot`` runs at ``new`` (instead of ``old``) from the time of the
        last :meth:`catch_up`: its work is settled at its old speed, its arrival timed again,
        the cached latest arrival and slowest speed kept. O(1)."""
        i = slot.process
        now = self.now
        speed = self.speed
        v = speed[i]
        left = self.rem[i]
        level = self.level
        if left > level:
            left -= v * (now - self.at[i])
            if left - level <= _EPS:
                left = level
            self.rem[i] = left
        self.at[i] = now
        speed[i] = new
        least = self.slowest
        if new < least:
            self.slowest = new
        elif v == least and new > v:
            self.slowest = _UNKNOWN
        arrive = self.arrive
        was = arrive[i]
        if left > level:
            a = now + (left - level) / new if new > 0.0 else _INF
        elif was > now:
            a = now
        else:
            return
        arrive[i] = a
        last = self.last
        if a >= last:
            self.last = a
        elif was == last:
            self.last = _UNKNOWN

    def end(self, now: float) -> float:
        """When the job's work is done at the current speeds (after :meth:`catch_up` to
        ``now``): the barrier's time plus ``level / least``; ``inf`` while a process stands
        still. O(1) but for an unknown cached value (the two caches read inline: this is the
        re-rate's hot path)."""
        t = self.last
        if t != t:
            t = self.last = max(self.arrive)
        if t == _INF:
            return _INF
        if t < now:
            t = now
        level = self.level
        if level <= _EPS:
            return t
        least = self.slowest
        if least != least:
            least = self.slowest = min(self.speed)
        return t + level / least if least > 0.0 else _INF

    def settle(self, now: float) -> float:
        """Every process's work at ``now``, the clock then frozen (no progress until the next
        :meth:`rebuild`); returns the least advanced process's work. O(n)."""
        if not self.frozen:
            self.catch_up(now)
            level = self.level
            rem, at = self.rem, self.at
            for i, v in enumerate(self.speed):
                left = rem[i]
                if left > level and v:
                    left -= v * (now - at[i])
                    rem[i] = left if left > level else level
                at[i] = now
            self.frozen = True
        return max(self.rem)


def barrier_clock(run: Any, step: float, now: float) -> BarrierClock:
    """``run``'s clock, current at ``now``: made at a placement from scratch (its size
    changed, or none yet), rebuilt on a new list of slots, else caught up."""
    c = run.speeds
    if c is None or len(c.rem) != run.size:
        c = run.speeds = BarrierClock(run.slots, run.remaining, step, now)
    elif c.of is not run.slots or c.frozen:
        c.rebuild(run.slots, now)
    elif c.now != now:      # (a refresh at now has caught it up already)
        c.catch_up(now)
    return c


def current_clock(run: Any, now: float) -> "BarrierClock | None":
    """``run``'s clock caught up to ``now`` if it is current (running on the slots it was built
    for); None otherwise (none yet, frozen, or a new placement: the re-rate rebuilds it)."""
    if run is None:
        return None
    c = run.speeds
    if c is None or c.frozen or c.of is not run.slots:
        return None
    c.catch_up(now)
    return c
