"""The future event list: a sorted list keyed ``(time, phase, seq)`` with O(log n) cancel and
the earliest event kept at hand."""

from __future__ import annotations

from itertools import count
from typing import Any, Callable, Iterator

from sortedcontainers import SortedList

from .events import Event

INF = float("inf")
#: the head of an empty queue: later than any event (compares like an event)
END = (INF, 0, 0, None, None)


class EventQueue:
    """Events in total, deterministic order. ``seq`` numbers events in creation order, so two
    events with equal time and phase come out in the order they were scheduled.

    ``head`` is the earliest event (:data:`END` when empty), kept current by every operation:
    the run loop reads it as an attribute instead of indexing the sorted list per event.

    >>> q = EventQueue()
    >>> a = q.push(5.0, 3, print, "a")
    >>> b = q.push(5.0, 0, print, "b")
    >>> q.pop().arg, q.pop().arg
    ('b', 'a')
    """

    __slots__ = ("sorted", "seq", "head")

    def __init__(self) -> None:
        #: the events, a :class:`sortedcontainers.SortedList` (read with its public API only)
        self.sorted: SortedList = SortedList()
        #: the sequence counter, shared with anything else that must be ordered among events
        self.seq: Iterator[int] = count(1)
        self.head: tuple = END

    def push(self, time: float, phase: int, action: Callable[[Any], Any], arg: Any = None) -> Event:
        """Schedule ``action(arg)`` at ``time``; O(log n). Returns the handle for :meth:`cancel`."""
        ev = tuple.__new__(Event, (time, phase, next(self.seq), action, arg))
        self.sorted.add(ev)
        if ev < self.head:
            self.head = ev
        return ev

    def cancel(self, event: Event) -> None:
        """Remove a scheduled event; O(log n). Cancelling an event that already fired raises."""
        self.sorted.remove(event)
        if event is self.head:
            self._new_head()

    def pop(self) -> Event:
        """Remove and return the earliest event; raises IndexError when empty."""
        ev: Event = self.sorted.pop(0)
        self._new_head()
        return ev

    def _new_head(self) -> None:
        try:
            self.head = self.sorted[0]
        except IndexError:
            self.head = END

    def peek(self) -> Event | None:
        """The earliest event, or ``None`` when empty; O(1)."""
        head = self.head
        return None if head is END else head  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.sorted)

    def __bool__(self) -> bool:
        return self.head is not END

    def __iter__(self) -> Iterator[Event]:
        return iter(self.sorted)
