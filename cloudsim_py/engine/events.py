"""The event record and the addressed message (the engine knows no kinds of events, no clouds)."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple


class Event(NamedTuple):
    """One scheduled event: at ``time``, call ``action(arg)``.

    Events are ordered by ``(time, phase, seq)``. ``phase`` orders what happens at one instant;
    its values are the model's own declaration (the engine only compares them). ``seq`` numbers
    events in the order they were scheduled and is unique, so a comparison never reaches
    ``action`` or ``arg``. The event is also the handle for :meth:`Simulation.cancel`.
    """

    time: float
    phase: int
    seq: int
    action: Callable[[Any], Any]
    arg: Any


class Message(NamedTuple):
    """What :meth:`Simulation.send` delivers: ``dest.receive(message)`` at ``sent_at + delay``."""

    sender: Any
    dest: Any
    payload: Any
    sent_at: float
    delay: float
