"""What the streamed writers read of a datacenter and of its jobs: the structural types a
listener needs (any datacenter, a cloud's included, has them). Imports nothing."""

from __future__ import annotations

from typing import Any, Protocol, Sequence


class HostLike(Protocol):
    @property
    def id(self) -> int: ...


class RunLike(Protocol):
    """A job's run state: its current hosts (``None`` when not running), its last ones."""

    @property
    def hosts(self) -> Sequence[HostLike] | None: ...

    @property
    def last_hosts(self) -> Sequence[HostLike] | None: ...


class JobLike(Protocol):
    """A job as a datacenter's hooks give it: id, processors, the tier of its current (or last)
    run and its run state."""

    @property
    def id(self) -> int: ...

    @property
    def procs(self) -> int: ...

    @property
    def tier(self) -> int: ...

    @property
    def run(self) -> RunLike | None: ...


class Watched(Protocol):
    """A datacenter as the writers see it: its name, tiers, processors (hosts), clock, and the
    subscription of listeners."""

    @property
    def name(self) -> str: ...

    @property
    def tiers(self) -> int: ...

    @property
    def now(self) -> float: ...

    def subscribe(self, listener: Any, first: bool = False) -> Any: ...
