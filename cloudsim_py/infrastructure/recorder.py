"""A listener that records every action of a datacenter as ``(time, action, job id, tier,
host ids)``: the schedule behind Gantt charts and the worked-example tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .listener import DatacenterListener

if TYPE_CHECKING:  # pragma: no cover
    from .datacenter import Datacenter

Entry = tuple[float, str, int, int, tuple[int, ...]]


class ScheduleRecorder(DatacenterListener):
    """``log`` holds one entry per start, finish, kill, suspend, resume, swap and reject (a
    reject has tier -1 and no hosts). Subscribe it to any datacenter: ``dc.subscribe(rec)``;
    ``Datacenter(..., record=True)`` does so and exposes the list as ``dc.log``."""

    def __init__(self, dc: "Datacenter") -> None:
        self.dc = dc
        self.log: list[Entry] = []

    def _add(self, action: str, job: Any, hosts: Any) -> None:
        ids = tuple(h.id for h in hosts) if hosts is not None else ()
        self.log.append((self.dc.now, action, job.id, job.tier, ids))

    def on_start(self, job: Any) -> None:
        self._add("start", job, job.run.hosts)

    def on_resume(self, job: Any) -> None:
        self._add("resume", job, job.run.hosts)

    def on_swap(self, job: Any) -> None:
        self._add("swap", job, job.run.hosts)

    def on_finish(self, job: Any) -> None:
        self._add("finish", job, job.run.last_hosts)

    def on_kill(self, job: Any) -> None:
        self._add("kill", job, job.run.last_hosts)

    def on_suspend(self, job: Any) -> None:
        self._add("suspend", job, job.run.last_hosts)

    def on_reject(self, job: Any, reason: str) -> None:
        self.log.append((self.dc.now, "reject", job.id, -1, ()))
