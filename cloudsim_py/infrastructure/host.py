"""A physical host (one processor) split into k prioritized VM tier slots; tier 0 is the
highest CPU priority (the foreground). Plain data: only the datacenter mutates it."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Iterable, Iterator, Sequence, overload

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
    the reference processor of the traces) and a ``type`` (for heterogeneous VMs). Its
    estimated CPU load (what a broker can know of its busy slots) is kept by the datacenter's
    capacity index alone, in one buffer for all hosts (``CapacityIndex.load_buf``, read through
    ``Datacenter.host_load``): a placement or release of n processes writes n floats there, not
    n attributes besides."""

    id: int
    slots: list[TierSlot] = attrs.field(factory=list)
    speed: float = 1.0
    type: str = "default"

    @classmethod
    def make(cls, host_id: int, tiers: int, speed: float = 1.0, type: str = "default") -> "Host":
        host = cls(host_id, speed=speed, type=type)
        host.slots = [TierSlot(host, t) for t in range(tiers)]
        return host

    def __repr__(self) -> str:
        return f"Host({self.id}, {[s.job.id if s.job is not None else None for s in self.slots]})"


class LazyHosts(Sequence[Host]):
    """A datacenter's hosts, each made at its first read (and then kept: the same object at
    every read). Making 100,000 hosts with their slots costs a quarter of a second; a one-tier
    datacenter in span mode (``Datacenter._spans``) reads none of them unless asked. ``groups``:
    ``(count, speed, type)`` in host-id order. :meth:`listed` makes the missing ones and gives
    the list."""

    __slots__ = ("_made", "_ends", "_groups", "_tiers", "_all")

    def __init__(self, groups: Iterable[tuple[int, float, str]], tiers: int) -> None:
        self._groups = [g for g in groups if g[0] > 0]
        self._ends: list[int] = []
        n = 0
        for count, _, _ in self._groups:
            n += count
            self._ends.append(n)
        self._made: list[Host | None] = [None] * n
        self._tiers = tiers
        self._all = False

    def _make(self, i: int) -> Host:
        _, speed, type_ = self._groups[bisect_right(self._ends, i)]
        h = self._made[i] = Host.make(i, self._tiers, speed, type_)
        return h

    def listed(self) -> list[Host]:
        """Every host, as a list (the missing ones made now: O(hosts) the first time)."""
        made = self._made
        if not self._all:
            for i, h in enumerate(made):
                if h is None:
                    self._make(i)
            self._all = True
        return made   # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, i: int) -> Host: ...
    @overload
    def __getitem__(self, i: slice) -> list[Host]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            if self._all:
                return self._made[i]
            return [self[k] for k in range(*i.indices(len(self._made)))]
        h = self._made[i]
        if h is None:
            return self._make(i if i >= 0 else i + len(self._made))
        return h

    def __iter__(self) -> Iterator[Host]:
        return iter(self.listed())

    def __repr__(self) -> str:
        return f"LazyHosts({len(self._made)} hosts, {sum(h is not None for h in self._made)} made)"
