"""The future event list: a sorted list keyed ``(time, phase, seq)`` with O(log n) cancel."""

from __future__ import annotations

from typing import Any

from sortedcontainers import SortedList

from .events import PHASE, Event, EventKind


class EventQueue:
    """Events in total, deterministic order. ``seq`` numbers events in creation order, so two
    events with equal time and phase come out in the order they were scheduled.

    >>> q = EventQueue()
    >>> a = q.push(5.0, EventKind.TIMER, "a")
    >>> b = q.push(5.0, EventKind.FINISH, "b")
    >>> q.pop().target, q.pop().target
    ('b', 'a')
    """

    __slots__ = ("_events", "_seq")

    def __init__(self) -> None:
        self._events: SortedList = SortedList()
        self._seq = 0

    def push(self, time: float, kind: EventKind, target: Any) -> Event:
        """Schedule an event; O(log n). Returns the event, the handle for :meth:`cancel`."""
        self._seq += 1
        ev = tuple.__new__(Event, (time, PHASE[kind], self._seq, kind, target))
        self._events.add(ev)
        return ev

    def cancel(self, event: Event) -> None:
        """Remove a scheduled event; O(log n). Cancelling an event that already fired raises."""
        self._events.remove(event)

    def pop(self) -> Event:
        """Remove and return the earliest event."""
        return self._events.pop(0)

    def peek_time(self) -> float | None:
        """Time of the earliest event, or ``None`` when empty."""
        return self._events[0][0] if self._events else None

    def __len__(self) -> int:
        return len(self._events)

    def __bool__(self) -> bool:
        return bool(self._events)

    def __iter__(self):
        return iter(self._events)
