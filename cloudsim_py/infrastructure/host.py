"""A physical host (one processor) split into k prioritized VM tier slots; tier 0 is the
highest CPU priority (the foreground). Plain data: only the datacenter mutates it."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.define(slots=True, eq=False, repr=False)
class TierSlot:
    """One VM tier on one host; holds at most one process.

    ``cpu`` is the process's true CPU usage, ``cpu_est`` what the broker was told (``None`` if
    unknown); ``eff`` and ``loss`` are the interference factors drawn when it was placed;
    ``speed`` the process's current speed (kept up to date by the progress model).
    """

    host: "Host"
    tier: int
    job: Any = None
    process: int = -1
    cpu: float = 0.0
    cpu_est: float | None = None
    eff: float = 1.0
    loss: float = 0.0
    speed: float = 0.0

    def __repr__(self) -> str:
        who = f"job {self.job.id}" if self.job is not None else "idle"
        return f"TierSlot(host={self.host.id}, tier={self.tier}, {who})"


@attrs.define(slots=True, eq=False, repr=False)
class Host:
    """A processor with ``len(slots)`` tier slots, a ``speed`` (work seconds per second; 1 is
    the reference processor of the traces) and a ``type`` (for heterogeneous VMs). ``load``:
    the estimated CPU load of its busy slots (what a broker can know; unknown usage counts 0),
    kept by the datacenter's capacity index."""

    id: int
    slots: list[TierSlot] = attrs.field(factory=list)
    load: float = 0.0
    speed: float = 1.0
    type: str = "default"

    @classmethod
    def make(cls, host_id: int, tiers: int, speed: float = 1.0, type: str = "default") -> "Host":
        host = cls(host_id, speed=speed, type=type)
        host.slots = [TierSlot(host, t) for t in range(tiers)]
        return host

    def __repr__(self) -> str:
        return f"Host({self.id}, {[s.job.id if s.job is not None else None for s in self.slots]})"
