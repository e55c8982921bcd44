"""The clock and the run loop: pops every event of the earliest timestamp, then runs the
end-of-timestamp hooks (a datacenter's scheduling pass) once. Knows nothing about hosts, jobs,
policies or which kinds of events exist: an event carries its own action."""

from __future__ import annotations

import gc
from heapq import heappop, heappush, heapreplace
from typing import Any, Callable, Iterable, Iterator

from ..errors import SpecError
from .events import Event, Message
from .queue import END, EventQueue
from .random import RandomStreams

INF = float("inf")

#: the collector's first threshold while a simulation runs (Python's default: 700). A run
#: allocates many small objects that mostly live long (a cloud run's task orders, plans, jobs,
#: bookings and records): at 700 the collector rescans them 10-18 % of a DAG run's time
#: (benchmarks/bench_clouds.py). A young collection scans every object made since the last one
#: that is still alive: on a trace, the jobs waiting in the queue and their events. At 10,000
#: the run of CTC-SP2 under FCFS or EASY (77,205 jobs, thousands waiting at a time) still paid
#: 13-17 young collections, 45-60 ms, each rescanning the same waiting jobs; at 100,000 it pays
#: none (docs/performance.md, *Process start*, fifth round). Only raised, never lowered (a
#: program's own higher threshold, or a disabled collector, stays), and restored after.
GC_YOUNG = 100_000


class Source:
    """A time-ordered stream of ``(time, item)`` pairs (a workload's arrivals) merged into the
    event order. It keeps exactly one pending entry, its next item, so a million-job trace costs
    one object, not a million events. Items are pulled lazily; ``fed`` counts those delivered."""

    __slots__ = ("sim", "action", "phase", "fed", "_items", "_last", "_seq")

    def __init__(self, sim: "Simulation", items: Iterable[tuple[float, Any]],
                 action: Callable[[Any], Any], phase: int) -> None:
        self.sim = sim
        self.action = action
        self.phase = phase
        self.fed = 0
        self._items: Iterator[tuple[float, Any]] = iter(items)
        self._last = -INF
        self._seq = sim.events.seq

    def _pull(self) -> tuple | None:
        """The entry of the next item, ordered like an :class:`Event`, or ``None`` at the end."""
        nxt = next(self._items, None)
        if nxt is None:
            return None
        t, item = nxt
        if t < self._last:
            raise ValueError(f"source times must not decrease: {t} after {self._last}")
        self._last = t
        now = self.sim.now
        return (t if t >= now else now, self.phase, next(self._seq), self, item)


class Simulation:
    """Clock, future event list and named random streams of one simulated world.

    No module-level state: any number of simulations can live in one process, and any number
    of entities (datacenters, brokers, sources) in one simulation. ``run(until=t)`` and
    :meth:`step` can be called repeatedly to step the world, inspect it and act in between.

    Ordering (docs/time-and-ordering.md): entries are ordered by ``(time, phase, seq)``; the
    model declares what its phases mean (the engine only compares them). After the last event
    of a timestamp every end-of-timestamp hook runs once, in the order they were added.

    ``latency``: the default delay of :meth:`send`, a number or ``latency(sender, dest)``.
    """

    __slots__ = ("now", "events", "random", "latency", "events_processed", "timestamps",
                 "_hooks", "_resume_hooks", "_sources", "_returned")

    def __init__(self, seed: int = 0, latency: float | Callable[[Any, Any], float] = 0.0) -> None:
        self.now: float = 0.0
        self.events = EventQueue()
        self.random = RandomStreams(seed)
        self.latency = latency
        self.events_processed = 0
        self.timestamps = 0
        self._hooks: list[Callable[[float], None]] = []
        self._resume_hooks: list[Callable[[float], None]] = []
        #: heap of the sources' pending entries, (time, phase, seq, source, item)
        self._sources: list[tuple] = []
        self._returned = False      # run() has returned once: a program may act between runs

    # -- wiring ---------------------------------------------------------------------------
    def after_timestamp(self, hook: Callable[[float], None]) -> None:
        """Run ``hook(now)`` once after all events of each timestamp."""
        self._hooks.append(hook)

    def on_resume(self, hook: Callable[[float], None]) -> None:
        """Run ``hook(now)`` whenever :meth:`run` (or :meth:`step`) is called again after it
        returned: a program stepping the simulation may have acted in between (a datacenter
        then holds the scheduling pass it would have had at the end of that timestamp)."""
        self._resume_hooks.append(hook)

    def add_source(self, items: Iterable[tuple[float, Any]], action: Callable[[Any], Any],
                   phase: int = 0) -> Source:
        """Merge ``(time, item)`` pairs (non-decreasing times) into the event order, each item
        handled by ``action(item)`` with ``phase``. Any number of sources; each holds one
        pending entry (times before the clock are delivered now)."""
        src = Source(self, items, action, phase)
        entry = src._pull()
        if entry is not None:
            heappush(self._sources, entry)
        return src

    # -- scheduling -----------------------------------------------------------------------
    def schedule(self, time: float, action: Callable[[Any], Any], arg: Any = None,
                 phase: int = 0) -> Event:
        """Call ``action(arg)`` at absolute ``time`` (not before now); O(log n)."""
        if time < self.now:
            raise ValueError(f"t={self.now}: cannot schedule {getattr(action, '__name__', action)} "
                             f"in the past ({time})")
        return self.events.push(time, phase, action, arg)

    def cancel(self, event: Event) -> None:
        """Cancel a scheduled event; O(log n)."""
        self.events.cancel(event)

    def send(self, dest: Any, payload: Any, delay: float | None = None, *, sender: Any = None,
             phase: int = 0) -> Event:
        """Deliver ``payload`` to ``dest.receive(message)`` after ``delay`` seconds (default:
        the simulation's ``latency``); returns the delivery event."""
        if delay is None:
            lat = self.latency
            delay = lat(sender, dest) if callable(lat) else lat
        if not delay >= 0:
            raise ValueError(f"t={self.now}: message delay must be >= 0, got {delay}")
        msg = Message(sender, dest, payload, self.now, delay)
        return self.events.push(self.now + delay, phase, dest.receive, msg)

    # -- running --------------------------------------------------------------------------
    def peek(self) -> float | None:
        """Time of the next event (queued or from a source), or ``None``."""
        ev = self.events.peek()
        heap = self._sources
        if heap and (ev is None or heap[0] < ev):
            return heap[0][0]
        return None if ev is None else ev.time

    def step(self) -> float | None:
        """Process one timestamp (its events, then the end-of-timestamp hooks, repeated while
        they schedule more at that time); returns its time, or ``None`` if nothing is left."""
        t = self.peek()
        if t is not None:
            self.run(until=t)
        return t

    def run(self, until: float | None = None) -> float:
        """Process events until none are left or the next one lies after ``until``.

        Events *at* ``until`` are processed. Returns the clock. Call again to go on. An
        ``until`` that is NaN or infinite is a :class:`~cloudsim_py.errors.SpecError` (the clock
        would move there).
        """
        if until is not None and not -INF < until < INF:
            raise SpecError("until", f"must be a finite time, got {until}")
        queue = self.events
        qheap = queue.rest
        dead = queue.dead
        heap = self._sources
        hooks = self._hooks
        processed = self.events_processed
        stamps = self.timestamps
        limit = INF if until is None else until
        st = heap[0][0] if heap else INF      # time of the earliest source entry
        if self._returned:
            for hook in self._resume_hooks:
                hook(self.now)
            st = heap[0][0] if heap else INF
        collector = gc.get_threshold()
        if collector[0] < GC_YOUNG:
            gc.set_threshold(GC_YOUNG, *collector[1:])
        try:
            while True:
                t = queue.head[0]
                if st < t:
                    t = st
                if t > limit or t == INF:
                    break
                self.now = t
                while True:     # every entry at t, queued events and sources merged in order
                    ev = queue.head
                    if st < ev[0] or (st == ev[0] and heap and heap[0] < ev):
                        if st != t:
                            break
                        head = heap[0]
                        src = head[3]
                        entry = src._pull()
                        if entry is None:
                            heappop(heap)
                        else:
                            heapreplace(heap, entry)
                        st = heap[0][0] if heap else INF
                        processed += 1
                        src.fed += 1
                        src.action(head[4])
                        continue
                    if ev[0] != t:
                        break
                    if qheap:       # EventQueue.pop, inlined
                        queue.head = heappop(qheap)
                        if dead:
                            queue.skip_dead()
                    else:
                        queue.head = END
                    processed += 1
                    ev[3](ev[4])
                for hook in hooks:
                    hook(t)
                stamps += 1
                st = heap[0][0] if heap else INF   # a hook may have added a source
        finally:
            self.events_processed = processed
            self.timestamps = stamps
            self._returned = True
            gc.set_threshold(*collector)
        if until is not None and until > self.now:
            self.now = until   # nothing is left before 'until': the clock moves there
        return self.now
