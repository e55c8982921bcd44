"""Discrete-event kernel: clock, ordered event queue, named random streams. Imports nothing
from the rest of the package (it must stay usable for any model)."""

from .events import Event, EventKind, PHASE
from .queue import EventQueue
from .random import RandomStreams
from .simulation import Simulation

__all__ = ["Event", "EventKind", "EventQueue", "PHASE", "RandomStreams", "Simulation"]
