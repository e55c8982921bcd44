"""The clock and run loop: pops every event of the earliest timestamp, then runs end-of-timestamp
hooks (the broker's scheduling pass) once. Knows nothing about hosts, jobs or policies."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from .events import PHASE, Event, EventKind
from .queue import EventQueue
from .random import RandomStreams

Handler = Callable[[Event], None]
INF = float("inf")


class Simulation:
    """Clock, future event list and named random streams of one simulated world.

    No module-level state: any number of simulations can live in one process. ``run`` can be
    called repeatedly (``run(until=t)``) to step the world, inspect it and act in between.

    Ordering rules (docs/time-and-ordering.md): events at equal times run in phase order
    (finishes and restores, slice ends, arrivals, timers), then in the order they were
    scheduled; after the last event of a timestamp every end-of-timestamp hook runs once.

    A *stream* (:meth:`stream`) is a time-ordered iterable of items merged into the event
    order without entering the queue: the workload's arrivals, which would otherwise double
    the queue traffic. A stream item runs after queued events of a lower or equal phase at
    the same time and before those of a higher phase.
    """

    __slots__ = ("now", "events", "random", "_handlers", "_hooks", "events_processed",
                 "timestamps", "progress", "progress_every", "model", "_stream",
                 "_stream_handler", "_stream_phase", "_stream_time", "_stream_item")

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
        #: the world being simulated (set by it, e.g. the datacenter), for observers
        self.model: Any = None
        self._stream: Iterator[tuple[float, Any]] | None = None
        self._stream_handler: Callable[[Any], None] | None = None
        self._stream_phase = 0
        self._stream_time = INF
        self._stream_item: Any = None

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
        return self.events.push(time, kind, target)

    def cancel(self, event: Event) -> None:
        """Cancel a scheduled event; O(log n)."""
        self.events.cancel(event)

    def stream(self, kind: EventKind, items: Iterable[tuple[float, Any]],
               handler: Callable[[Any], None]) -> None:
        """Merge ``(time, item)`` pairs (non-decreasing times) into the event order, each
        handled by ``handler(item)`` with the phase of ``kind``. One stream per simulation."""
        if self._stream is not None:
            raise ValueError("this simulation already has a stream")
        self._stream = iter(items)
        self._stream_handler = handler
        self._stream_phase = PHASE[kind]
        self._next_item()

    def _next_item(self) -> None:
        nxt = next(self._stream, None)  # type: ignore[arg-type]
        if nxt is None:
            self._stream_time = INF
            self._stream_item = None
            return
        t, item = nxt
        if t < self._stream_time and self._stream_item is not None:
            raise ValueError(f"stream times must not decrease: {t} after {self._stream_time}")
        self._stream_time = t if t >= self.now else self.now
        self._stream_item = item

    # -- running --------------------------------------------------------------------------
    def run(self, until: float | None = None) -> float:
        """Process events until none are left or the next one lies after ``until``.

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
        limit = INF if until is None else until
        sphase = self._stream_phase
        shandler = self._stream_handler
        next_item = self._next_item
        try:
            while True:
                st = self._stream_time
                t = first[0][0][0] if first else INF
                if st < t:
                    t = st
                if t > limit or t == INF:
                    break
                self.now = t
                while True:
                    if first:
                        ev = first[0][0]
                        if ev[0] == t and (st != t or ev[1] <= sphase):
                            pop(0)
                            processed += 1
                            handlers[ev[3]](ev)
                            continue
                    if st == t:
                        item = self._stream_item
                        next_item()
                        st = self._stream_time
                        processed += 1
                        shandler(item)  # type: ignore[misc]
                        continue
                    break
                for hook in hooks:
                    hook(t)
                stamps += 1
                if progress is not None and stamps % every == 0:
                    self.events_processed = processed
                    progress(self)
        finally:
            self.events_processed = processed
            self.timestamps = stamps
        if until is not None and until > self.now:
            self.now = until   # nothing is left before 'until': the clock moves there
        return self.now

    def peek(self) -> float | None:
        """Time of the next event (queued or streamed), or ``None``."""
        q = self.events.peek_time()
        st = self._stream_time
        if q is None:
            return None if st == INF else st
        return q if q <= st else st
