"""What a datacenter tells the entities that subscribe to it: its broker first, then anyone
(a broker of another cloud, a recorder, a progress bar, a metrics probe). Imports only the errors."""

from __future__ import annotations

from typing import Any

from ..errors import PolicyError

#: the hooks a datacenter calls, in the order of this tuple's documentation: the fast path (a
#: list of bound methods per hook, no lookup per call)
HOOKS = ("on_submit", "on_start", "on_finish", "on_kill", "on_suspend", "on_resume", "on_swap",
         "on_reject")

#: every other kind of event a listener may hear (``on_<kind>``), with who tells it. Built-in
#: ones are listed here; a plugin adds its own with :func:`declare_event` and sends them with
#: :meth:`~cloudsim_py.infrastructure.datacenter.Datacenter.emit`.
_EVENTS: dict[str, str] = {
    "timer": "the engine, to the broker that set a timer",
    "message": "the engine, to the broker a message was sent to",
    "phase": "a cloud's local mapping, to its phase listeners",
    "run_start": "run_scenario, to the listeners it is given, before each run",
}


def declare_event(kind: str, doc: str = "") -> str:
    """Make ``kind`` a known kind of event: listeners with an ``on_<kind>`` method are then
    told of it by ``datacenter.emit(kind, ...)`` instead of being refused when they subscribe.
    Declaring a kind twice is harmless; returns ``kind``."""
    if not isinstance(kind, str) or not kind.isidentifier() or f"on_{kind}" in HOOKS:
        raise PolicyError(f"declare_event: {kind!r} must be a name (letters, digits, _) other than "
                          "the built-in hooks")
    _EVENTS.setdefault(kind, doc)
    return kind


def is_declared(kind: str) -> bool:
    """Whether ``kind`` was declared (built-in hooks' kinds are not: they have their own path)."""
    return kind in _EVENTS


def known_events() -> tuple[str, ...]:
    """The kinds of event listeners may hear: the built-in hooks' and the declared ones."""
    return tuple(h[3:] for h in HOOKS) + tuple(_EVENTS)


def emitted_hooks(listener: Any) -> dict[str, Any]:
    """The bound ``on_<kind>`` methods of ``listener`` for declared kinds (not the built-in
    hooks), by kind. A public ``on_`` method matching no known kind is an error naming it:
    a typo (``on_finsh``) or an event nobody sends (``on_host_down``) would otherwise never be
    called, silently."""
    out = {}
    for name in dir(listener):
        if not name.startswith("on_") or name in HOOKS:
            continue
        fn = getattr(listener, name, None)
        if not callable(fn):
            continue
        kind = name[3:]
        if kind not in _EVENTS:
            raise PolicyError(
                f"{type(listener).__name__}.{name}: no event {kind!r} is ever sent, so this method would "
                f"never be called; known events: {', '.join(known_events())}. Declare a new kind "
                f"with declare_event({kind!r}) and send it with datacenter.emit({kind!r}, ...)")
        out[kind] = fn
    return out


class DatacenterListener:
    """Subclass and override the hooks you need; ``dc.subscribe(listener)`` registers only
    the overridden ones, so an unused hook costs nothing. Any object with some ``on_<event>``
    methods can subscribe as well.

    Every hook is called after the datacenter has applied the change (a finished job's slots
    are already free), with the job; ``on_reject`` also gets the reason.
    """

    __slots__ = ()

    def on_submit(self, job: Any) -> None:
        """A job arrived and was accepted (it is QUEUED)."""

    def on_start(self, job: Any) -> None:
        """A job started (from scratch) and holds its slots."""

    def on_finish(self, job: Any) -> None:
        """A job finished; its slots are free."""

    def on_kill(self, job: Any) -> None:
        """A running job was killed: its work is lost and it is QUEUED again."""

    def on_suspend(self, job: Any) -> None:
        """A running job was suspended: it keeps its work and holds nothing."""

    def on_resume(self, job: Any) -> None:
        """A suspended job runs again (in place, or migrated)."""

    def on_swap(self, job: Any) -> None:
        """A running job moved to another tier on the same hosts."""

    def on_reject(self, job: Any, reason: str) -> None:
        """A job was refused (it can never fit, or a broker gave up on it)."""


def overridden_hooks(listener: Any) -> dict[str, Any]:
    """The bound hooks of ``listener`` that do something: for a :class:`DatacenterListener`
    those it overrides, for any other object those it has."""
    out = {}
    for name in HOOKS:
        fn = getattr(listener, name, None)
        if fn is None or getattr(fn, "__func__", None) is getattr(DatacenterListener, name):
            continue
        out[name] = fn
    return out
