"""Conservative backfilling planned afresh in one scheduling pass: an availability profile of the
running jobs, then a reservation for each waiting job in the policy's order; the jobs whose
reservation is *now* start. Shared by ``prio`` and ``pect``; imports only the profile.

Mu'alem and Feitelson 2001: every waiting job holds the earliest reservation that delays no job
before it in the order. Planned from scratch at every pass (instead of the ``conservative``
broker's persistent reservations and compression), because the order itself changes between
passes (priorities age, Scojo-PECT plans one runtime class per slice, load-adaptive reshaping
gives a job another size at every pass). With exact estimates and a fixed order this gives the
same starts as persistent reservations; a job that overruns its estimate is taken to end one
second from now, as the ``conservative`` broker assumes.
"""

from __future__ import annotations

from typing import Iterable

from .profile import AvailabilityProfile, held_end

#: a running job past its estimated end is assumed to end this many seconds from now
OVERRUN_S = 1.0


class Plan:
    """One pass of conservative backfilling over ``capacity`` processors at ``now``.

    ``busy``: ``(procs, estimated end)`` of what already holds processors. :meth:`reserve`
    books a waiting job at its earliest start and returns it; :attr:`blocked` becomes true once
    a job had to be reserved in the future (any later job starting now is then a backfill).

    >>> p = Plan(4, 0.0, [(3, 10.0)])
    >>> p.reserve(2, 5.0), p.blocked, p.reserve(1, 10.0), p.free_now()
    (10.0, True, 0.0, 0)
    """

    __slots__ = ("profile", "now", "blocked")

    def __init__(self, capacity: int, now: float, busy: Iterable[tuple[int, float]] = ()) -> None:
        profile = AvailabilityProfile(capacity, now)
        for procs, end in busy:
            profile.book(now, max(end - now, OVERRUN_S), procs)
        self.profile = profile
        self.now = now
        self.blocked = False

    def free_now(self) -> int:
        """Processors free from now until the next booked change."""
        return self.profile.free[0]

    def fits_now(self, procs: int, duration: float) -> bool:
        """Whether ``procs`` are free during ``[now, now + duration)`` with every booking so far."""
        time, free = self.profile.time, self.profile.free
        end = held_end(self.now, self.now + duration)     # a vanishing duration: the instant now
        for k in range(len(time)):       # the profile starts at now (it is never advanced)
            if time[k] >= end:
                return True
            if free[k] < procs:
                return False
        return True

    def reserve(self, procs: int, duration: float) -> float:
        """Book ``procs`` at the earliest time they are free for ``duration``; returns it."""
        start = self.profile.earliest(self.now, procs, duration)
        self.profile.book_span(start, held_end(start, start + duration), procs)
        if start > self.now:
            self.blocked = True
        return start

    def take_now(self, procs: int, duration: float) -> None:
        """Book ``procs`` from now (after :meth:`fits_now` said they are free)."""
        self.profile.book_span(self.now, held_end(self.now, self.now + duration), procs)
