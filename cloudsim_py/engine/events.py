"""Event kinds, their phase inside one timestamp, and the event record (knows nothing about clouds)."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple


class EventKind(IntEnum):
    """What an event does. The value indexes the simulation's handler table."""

    FINISH = 0    #: a job's last process completes (datacenter)
    RESTORE = 1   #: a resumed job's migration cost is paid, it starts progressing (datacenter)
    ARRIVAL = 2   #: a job is submitted (workload feeder)
    TIMER = 3     #: a wake-up asked for with ``wake_at`` (broker)
    SLICE = 4     #: end of a time slice in ``slice`` fidelity mode (progress model)


#: Order of kinds inside one timestamp: state changes that free or occupy capacity first,
#: then arrivals, then timers. Documented in docs/time-and-ordering.md.
PHASE = {
    EventKind.FINISH: 0,
    EventKind.RESTORE: 0,
    EventKind.SLICE: 1,
    EventKind.ARRIVAL: 2,
    EventKind.TIMER: 3,
}


class Event(NamedTuple):
    """One scheduled event. Ordered by ``(time, phase, seq)``; ``seq`` is unique, so the
    comparison never reaches ``kind`` or ``target``."""

    time: float
    phase: int
    seq: int
    kind: EventKind
    target: Any
