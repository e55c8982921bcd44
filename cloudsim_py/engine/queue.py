"""The future event list: the earliest event kept at hand, the others in a binary heap keyed
``(time, phase, seq)``, cancelled events left in it and skipped (O(log n) push and pop, O(1)
cancel)."""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from itertools import count
from typing import Any, Callable, Iterator

from .events import Event

INF = float("inf")
#: the head of an empty queue: later than any event (compares like an event)
END = (INF, 0, 0, None, None)


class EventQueue:
    """Events in total, deterministic order. ``seq`` numbers events in creation order, so two
    events with equal time and phase come out in the order they were scheduled.

    ``head`` is the earliest event (:data:`END` when empty) and is *not* in ``rest``, the binary
    heap (:mod:`heapq`) of the others: the run loop reads ``head`` as an attribute. A cancelled
    event other than the head stays in ``rest``, its ``seq`` in ``dead``, and is dropped when it
    would become the head (*lazy cancellation*): a cancel is one set insertion instead of a
    search and a removal, which matters where finishes move at every speed change (two tiers).
    The heap is rebuilt without its dead events when they outnumber the live ones, so memory
    stays within twice the pending events.

    >>> q = EventQueue()
    >>> a = q.push(5.0, 3, print, "a")
    >>> b = q.push(5.0, 0, print, "b")
    >>> q.pop().arg, q.pop().arg
    ('b', 'a')
    """

    __slots__ = ("rest", "dead", "seq", "head")

    def __init__(self) -> None:
        #: every event but the head, a binary heap (:mod:`heapq`), cancelled ones included
        self.rest: list[tuple] = []
        #: the ``seq`` of each cancelled event still in ``rest``
        self.dead: set[int] = set()
        #: the sequence counter, shared with anything else that must be ordered among events
        self.seq: Iterator[int] = count(1)
        self.head: tuple = END

    def push(self, time: float, phase: int, action: Callable[[Any], Any], arg: Any = None) -> Event:
        """Schedule ``action(arg)`` at ``time``; O(log n). Returns the handle for :meth:`cancel`."""
        ev = tuple.__new__(Event, (time, phase, next(self.seq), action, arg))
        head = self.head
        if ev < head:
            if head is not END:
                heappush(self.rest, head)
            self.head = ev
        else:
            heappush(self.rest, ev)
        return ev

    def cancel(self, event: Event) -> None:
        """Remove a scheduled event: O(1) (O(log n) for the head). Cancelling an event that is
        not pending (fired before the head, or cancelled already) raises ValueError."""
        head = self.head
        if event is head:
            self._next_head()
            return
        dead = self.dead
        seq = event[2]
        if event < head or seq in dead:
            raise ValueError(f"event {event!r} is not in the queue (it fired or was cancelled)")
        dead.add(seq)
        if len(dead) > 64 and 2 * len(dead) > len(self.rest):
            self._compact()

    def pop(self) -> Event:
        """Remove and return the earliest event; raises IndexError when empty."""
        ev = self.head
        if ev is END:
            raise IndexError("pop from an empty event queue")
        self._next_head()
        return ev  # type: ignore[return-value]

    def _next_head(self) -> None:
        """The earliest live event of ``rest`` becomes the head (dead ones on the way dropped)."""
        rest, dead = self.rest, self.dead
        while rest:
            ev = heappop(rest)
            if dead and ev[2] in dead:
                dead.discard(ev[2])
                continue
            self.head = ev
            return
        self.head = END

    def skip_dead(self) -> None:
        """After the run loop took the head from ``rest`` by itself: if it is a cancelled event,
        take the next live one instead."""
        head = self.head
        if head[2] in self.dead:
            self.dead.discard(head[2])
            self._next_head()

    def _compact(self) -> None:
        """``rest`` without its cancelled events; O(n)."""
        dead, rest = self.dead, self.rest
        rest[:] = [ev for ev in rest if ev[2] not in dead]     # in place: the run loop holds it
        heapify(rest)
        dead.clear()

    def peek(self) -> Event | None:
        """The earliest event, or ``None`` when empty; O(1)."""
        head = self.head
        return None if head is END else head  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.rest) - len(self.dead) + (self.head is not END)

    def __bool__(self) -> bool:
        return self.head is not END

    def __iter__(self) -> Iterator[Event]:
        """The events in order."""
        if self.head is not END:
            yield self.head  # type: ignore[misc]
            dead = self.dead
            yield from sorted(ev for ev in self.rest if ev[2] not in dead)  # type: ignore[misc]
