"""Discrete-event kernel: clock, ordered event queue, sources, messages, named random streams.
Imports nothing from the rest of the package (it must stay usable for any model)."""

from .events import Event, Message
from .queue import EventQueue
from .random import RandomStreams
from .simulation import Simulation, Source

__all__ = ["Event", "EventQueue", "Message", "RandomStreams", "Simulation", "Source"]
