"""The clock and run loop: pops every event of the earliest timestamp, then runs end-of-timestamp
hooks (the broker's scheduling pass) once. Knows nothing about hosts, jobs or policies."""

from __future__ import annotations

from typing import Any, Callable

from .events import PHASE, Event, EventKind
from .queue import EventQueue
from .random import RandomStreams

Handler = Callable[[Event], None]
_new_event = tuple.__new__


class Simulation:
    """Clock, future event list and named random streams of one simulated world.

    No module-level state: any number of simulations can live in one process. ``run`` can be
    called repeatedly (``run(until=t)``) to step the world, inspect it and act in between.

    Ordering rules (docs/time-and-ordering.md): events at equal times run in phase order
    (finishes and restores, slice ends, arrivals, timers), then in the order they were
    scheduled; after the last event of a timestamp every end-of-timestamp hook runs once.
    """

    __slots__ = ("now", "events", "random", "_handlers", "_hooks", "events_processed",
                 "timestamps", "progress", "progress_every")

    def __init__(self, seed: int = 0) -> None:
        self.now: float = 0.0
        self.events = EventQueue()
        self.random = RandomStreams(seed)
        self._handlers: list[Handler | None] = [None] * len(EventKind)
        self._hooks: list[Callable[[float], None]] = []
        self.events_processed = 0
        self.timestamps = 0
        #: optional ``progress(sim)`` callback, called every ``progress_every`` timestamps
        self.progress: Callable[["Simulation"], None] | None = None
        self.progress_every = 2048

    # -- wiring ---------------------------------------------------------------------------
    def on(self, kind: EventKind, handler: Handler) -> None:
        """Route events of ``kind`` to ``handler`` (one handler per kind)."""
        if self._handlers[kind] is not None and self._handlers[kind] != handler:
            raise ValueError(f"a handler for {kind.name} events is already installed")
        self._handlers[kind] = handler

    def after_timestamp(self, hook: Callable[[float], None]) -> None:
        """Run ``hook(now)`` once after all events of each timestamp."""
        self._hooks.append(hook)

    # -- scheduling -----------------------------------------------------------------------
    def schedule(self, time: float, kind: EventKind, target: Any) -> Event:
        """Schedule an event at absolute ``time`` (not before now); O(log n)."""
        if time < self.now:
            raise ValueError(f"t={self.now}: cannot schedule {kind.name} in the past ({time})")
        q = self.events
        q._seq += 1
        ev = _new_event(Event, (time, PHASE[kind], q._seq, kind, target))
        q._events.add(ev)
        return ev

    def cancel(self, event: Event) -> None:
        """Cancel a scheduled event; O(log n)."""
        self.events.cancel(event)

    # -- running --------------------------------------------------------------------------
    def run(self, until: float | None = None) -> float:
        """Process events until the queue is empty or the next event lies after ``until``.

        Events *at* ``until`` are processed. Returns the clock. Call again to go on.
        """
        events = self.events._events  # SortedList; direct access keeps the loop lean
        first = events._lists   # sublists of the SortedList, mutated in place: [0][0] is the min
        pop = events.pop
        handlers = self._handlers
        hooks = self._hooks
        processed = self.events_processed
        stamps = self.timestamps
        progress = self.progress
        every = self.progress_every
        try:
            while first:
                t = first[0][0][0]
                if until is not None and t > until:
                    break
                self.now = t
                while first and first[0][0][0] == t:
                    ev = pop(0)
                    processed += 1
                    handlers[ev[3]](ev)
                for hook in hooks:
                    hook(t)
                stamps += 1
                if progress is not None and stamps % every == 0:
                    self.events_processed = processed
                    progress(self)
        finally:
            self.events_processed = processed
            self.timestamps = stamps
        if until is not None and until > self.now and (not events or events[0][0] > until):
            self.now = until
        return self.now

    def peek(self) -> float | None:
        """Time of the next event, or ``None``."""
        return self.events.peek_time()
