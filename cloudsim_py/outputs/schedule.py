"""``schedule.csv`` streamed while a run goes: one row per action of a datacenter (start,
finish, kill, suspend, resume, swap, reject), the rows of a Gantt chart. Every kind of system
writes it: a datacenter's, and each cloud's datacenter in a cloud system (whose hosts are the
cloud's VMs), the ``datacenter`` column telling them apart.

Columns ``time,action,job,tier,hosts,datacenter``: ``tier`` and ``hosts`` (ids,
space-separated) are those after the action (a start's, a swap's new tier) or, for a finish,
kill or suspend, those the job just left; a reject has tier -1 and no hosts. Rows in the order
the actions happened (the listeners' order). ``experiments.schedule.read_schedule`` reads it."""

from __future__ import annotations

from typing import Sequence

from ..infrastructure.listener import DatacenterListener
from .streamed import StreamedCsv
from .watch import HostLike, JobLike, Watched

COLUMNS = ("time", "action", "job", "tier", "hosts", "datacenter")


def csv_text(text: str) -> str:
    """``text`` as one CSV cell (quoted when it holds a comma, a quote or a line break)."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _ids(hosts: Sequence[HostLike] | None) -> str:
    return " ".join([str(h.id) for h in hosts]) if hosts else ""


class ScheduleCsv(StreamedCsv):
    """The writer; :meth:`watch` subscribes it to a datacenter (every datacenter of a run)."""

    name = "schedule.csv"

    def __init__(self, path: str) -> None:
        super().__init__(path, ",".join(COLUMNS) + "\n")

    def watch(self, dc: Watched) -> None:
        dc.subscribe(_ScheduleTap(self, dc))


class _ScheduleTap(DatacenterListener):
    """One datacenter's actions, as rows of its writer (the name quoted once, here)."""

    __slots__ = ("out", "dc", "tail")

    def __init__(self, out: ScheduleCsv, dc: Watched) -> None:
        self.out = out
        self.dc = dc
        name = dc.name
        self.tail = "," + csv_text(name) + "\n"

    def _row(self, action: str, job: JobLike, tier: int, hosts: Sequence[HostLike] | None) -> None:
        self.out.write(f"{self.dc.now!r},{action},{job.id},{tier},{_ids(hosts)}{self.tail}")

    def _now(self, action: str, job: JobLike) -> None:
        run = job.run
        self._row(action, job, job.tier, run.hosts if run is not None else None)

    def _left(self, action: str, job: JobLike) -> None:
        run = job.run
        self._row(action, job, job.tier, run.last_hosts if run is not None else None)

    def on_start(self, job: JobLike) -> None:
        self._now("start", job)

    def on_resume(self, job: JobLike) -> None:
        self._now("resume", job)

    def on_swap(self, job: JobLike) -> None:
        self._now("swap", job)

    def on_finish(self, job: JobLike) -> None:
        self._left("finish", job)

    def on_kill(self, job: JobLike) -> None:
        self._left("kill", job)

    def on_suspend(self, job: JobLike) -> None:
        self._left("suspend", job)

    def on_reject(self, job: JobLike, reason: str) -> None:
        self._row("reject", job, -1, None)
