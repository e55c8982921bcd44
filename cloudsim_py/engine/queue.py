"""The future event list: the earliest event kept at hand, the others in a sorted list keyed
``(time, phase, seq)`` (O(log n) push and cancel)."""

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

    ``head`` is the earliest event (:data:`END` when empty) and is *not* in ``rest``, the
    :class:`sortedcontainers.SortedList` of the others: taking the next event is one
    ``rest.pop(0)`` (no lookup of the new minimum after it), and the run loop reads ``head``
    as an attribute.

    >>> q = EventQueue()
    >>> a = q.push(5.0, 3, print, "a")
    >>> b = q.push(5.0, 0, print, "b")
    >>> q.pop().arg, q.pop().arg
    ('b', 'a')
    """

    __slots__ = ("rest", "seq", "head")

    def __init__(self) -> None:
        #: every event but the head, a :class:`sortedcontainers.SortedList` (public API only)
        self.rest: SortedList = SortedList()
        #: the sequence counter, shared with anything else that must be ordered among events
        self.seq: Iterator[int] = count(1)
        self.head: tuple = END

    def push(self, time: float, phase: int, action: Callable[[Any], Any], arg: Any = None) -> Event:
        """Schedule ``action(arg)`` at ``time``; O(log n). Returns the handle for :meth:`cancel`."""
        ev = tuple.__new__(Event, (time, phase, next(self.seq), action, arg))
        head = self.head
        if ev < head:
            if head is not END:
                self.rest.add(head)
            self.head = ev
        else:
            self.rest.add(ev)
        return ev

    def cancel(self, event: Event) -> None:
        """Remove a scheduled event; O(log n). Cancelling an event that already fired raises."""
        if event is self.head:
            self._next_head()
        else:
            self.rest.remove(event)

    def pop(self) -> Event:
        """Remove and return the earliest event; raises IndexError when empty."""
        ev = self.head
        if ev is END:
            raise IndexError("pop from an empty event queue")
        self._next_head()
        return ev  # type: ignore[return-value]

    def _next_head(self) -> None:
        try:
            self.head = self.rest.pop(0)
        except IndexError:
            self.head = END

    def peek(self) -> Event | None:
        """The earliest event, or ``None`` when empty; O(1)."""
        head = self.head
        return None if head is END else head  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.rest) + (self.head is not END)

    def __bool__(self) -> bool:
        return self.head is not END

    def __iter__(self) -> Iterator[Event]:
        """The events in order."""
        if self.head is not END:
            yield self.head  # type: ignore[misc]
            yield from self.rest
