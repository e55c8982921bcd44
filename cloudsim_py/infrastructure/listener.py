"""What a datacenter tells the entities that subscribe to it: its broker first, then anyone
(a broker of another cloud, a recorder, a progress bar, a metrics probe). Imports nothing."""

from __future__ import annotations

from typing import Any

#: the hooks a datacenter calls, in the order of this tuple's documentation
HOOKS = ("on_submit", "on_start", "on_finish", "on_kill", "on_suspend", "on_resume", "on_swap",
         "on_reject")


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
