"""The waiting best-effort leases of one cloud, in queue order (each plan's ``key``: its
submission time, then a number drawn when it was planned). Shared by reference between
:class:`~cloudsim_py.clouds.local.LocalCloud`, which adds to it, and its queue discipline,
which walks it and takes out what it starts. Imports nothing but the plans (for typing).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from .lease_plan import Plan

_KEY = attrgetter("key")


class WaitingQueue:
    """Plans in ascending ``key`` order (keys are distinct: the plan's number breaks every tie),
    as a sorted list would keep them, held in an insertion-ordered dict.

    Why a dict: nearly every lease or DAG task joins at the end (its key, ``(submission,
    number)``, is after every key waiting: it was planned last, at the present), and most leave
    from the front, once started. A sorted list pays a bisection over its sublists and a key
    comparison of tuples for each add and each remove (about 2.5 % of a sampling profile of
    the WfFormat copies under FDLS); here a plan whose key is after the last one added is appended
    in O(1), and a removal is O(1). A plan that joins in the middle (a suspended lease re-queued
    with its old key) makes the dict anew in key order: O(W log W) for ``W`` waiting plans, as
    rare as suspensions. Iteration gives the plans in key order, as a sorted list does; a test
    compares the two on random adds and removes.

    A dict leaves a removed entry's place empty until it is made anew, and an iteration walks
    past the empty places before the first plan: with plans leaving from the front and the
    passes iterating from it, those walks cost about 1,000 machine instructions an iteration
    on the WfFormat copies (76 M of the run's 5,480 M: more than half of what the dict saves).
    So the dict is made anew (O(W))
    once the removals since it was made exceed ``16 + W / 4``: an iteration walks past at most
    that many empty places, and a removal costs O(1) amortised (at most about four plans
    copied).

    A plan's ``key`` must not change while it waits (as for a sorted list keyed by it), and the
    queue must not be added to while it is being iterated (a dict raises then)."""

    __slots__ = ("_plans", "_last", "_gone")

    def __init__(self) -> None:
        self._plans: dict[Plan, None] = {}
        #: a key at or after every waiting plan's (the last one appended; None: nothing waits)
        self._last: tuple[float, int] | None = None
        #: plans removed since the dict was made (its empty places)
        self._gone = 0

    def add(self, p: "Plan") -> None:
        """``p`` joins the queue at its place by key. O(1) at the end, O(W log W) elsewhere."""
        key = p.key
        last = self._last
        if last is None or key > last:
            self._plans[p] = None
            self._last = key
            return
        plans = list(self._plans)
        plans.append(p)
        plans.sort(key=_KEY)
        self._plans = dict.fromkeys(plans)
        self._gone = 0

    def remove(self, p: "Plan") -> None:
        """``p`` leaves the queue (a ValueError if it is not there). O(1) amortised (the dict
        made anew, O(W), after ``16 + W / 4`` removals)."""
        plans = self._plans
        try:
            del plans[p]
        except KeyError:
            raise ValueError(f"{p!r} is not in the waiting queue") from None
        if not plans:
            self._last = None
        gone = self._gone + 1
        if gone > 16 + (len(plans) >> 2):
            self._plans = dict.fromkeys(plans)
            gone = 0
        self._gone = gone

    def __contains__(self, p: object) -> bool:
        return p in self._plans

    def __iter__(self) -> Iterator["Plan"]:
        return iter(self._plans)

    def __len__(self) -> int:
        return len(self._plans)

    def __bool__(self) -> bool:
        return bool(self._plans)

    def __repr__(self) -> str:
        return f"WaitingQueue({len(self._plans)} plans)"
