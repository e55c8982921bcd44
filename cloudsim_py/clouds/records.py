"""Per-lease (and per-task) records of one cloud: every interval a lease spends on VMs, by kind
(image transfer, run, save, migration, reload), so a Gantt chart can draw each overhead. A
datacenter listener plus one hook a lease scheduler calls for the overheads it plans; imports
only the listener base and the job entity.

Kinds: ``transfer`` (disk image, S_I / b, before a lease or task first runs), ``run`` (progress),
``save`` (suspension: memory image written, M_j / S_c), ``migrate`` (image and memory moved to
other VMs before a resume elsewhere), ``reload`` (memory image read back, M_j / S_c, before it
runs again), ``cancelled`` (a transfer, migration or copy cut short because an advance
reservation took the VMs first, or a plan changed), and three of Haizea's (Sotomayor et al.):
``shutdown`` (after a best-effort run that was not cut short: the VMs stay booked, the next
lease starts after it), ``copy`` (a suspended lease's state sent ahead to the VMs it will resume
on, while it waits: **network traffic that holds no VM**, so a checker of VM occupancy must not
count it; its ``vms`` are the receiving VMs) and ``lost`` (runs thrown away when an advance
reservation cancelled a lease that had not run its scheduling threshold: the lease starts over,
so every run it had is lost; the runs of a lease add up to its run time).
Run and lost intervals come from the datacenter's start, resume, suspend, kill and finish; the
others from the scheduler's ``on_phase`` calls.
"""

from __future__ import annotations

import csv
import io
from operator import attrgetter
from typing import Any, NamedTuple

from ..infrastructure.listener import DatacenterListener

#: a host's id (the VMs of a run, read in C)
_ID = attrgetter("id")

KINDS = ("transfer", "run", "save", "migrate", "reload", "cancelled", "shutdown", "copy", "lost")
#: the kinds that hold no VM (an occupancy check skips them)
NOT_ON_VMS = ("copy",)


class Interval(NamedTuple):
    """``job`` (lease or task id) on ``vms`` doing ``kind`` over ``[start, end)``."""

    job: int
    kind: str
    start: float
    end: float
    vms: tuple[int, ...]


class LeaseRecords(DatacenterListener):
    """Subscribe to a cloud's datacenter and register with its lease scheduler
    (``scheduler.phase_listeners``); ``intervals`` then holds every interval in the order they
    closed, ``rejected`` every refused lease as ``(id, time, reason)``."""

    def __init__(self, dc: Any) -> None:
        self.dc = dc
        self.intervals: list[Interval] = []
        self.rejected: list[tuple[int, float, str]] = []
        self._open: dict[int, tuple[float, tuple[int, ...]]] = {}
        self._reload_end: dict[int, float] = {}
        #: the interval of a reload recorded when it began (cut short if the run is cut first)
        self._reload_at: dict[int, int] = {}

    # -- the scheduler's overheads ----------------------------------------------------------------
    def on_phase(self, job: Any, kind: str, start: float, end: float, vms: tuple[int, ...]) -> None:
        if kind == "reload":
            self._reload_end[job.id] = end
            if end > start:
                self._reload_at[job.id] = len(self.intervals)
        if end > start:
            self.intervals.append(Interval(job.id, kind, start, end, vms))

    # -- the datacenter's actions -----------------------------------------------------------------
    def on_start(self, job: Any) -> None:
        """The run opens now on the job's VMs (read in C). O(VMs)."""
        self._open[job.id] = (self.dc.now, tuple(map(_ID, job.run.hosts)))

    def on_resume(self, job: Any) -> None:
        now = self.dc.now
        self._open[job.id] = (self._reload_end.pop(job.id, now), tuple([h.id for h in job.run.hosts]))

    def _close(self, job: Any, kind: str = "run") -> None:
        start, vms = self._open.pop(job.id)
        now = self.dc.now
        k = self._reload_at.pop(job.id, None)
        if k is not None and self.intervals[k].end > now:      # stopped while reloading
            self.intervals[k] = self.intervals[k]._replace(end=now)
        if now > start:
            self.intervals.append(Interval(job.id, kind, start, now, vms))

    def on_kill(self, job: Any) -> None:
        """A killed job's work is thrown away, all of it (it starts over): its runs so far
        become ``lost``."""
        self._close(job, "lost")
        self.intervals = [i._replace(kind="lost") if i.job == job.id and i.kind == "run" else i
                          for i in self.intervals]

    def on_suspend(self, job: Any) -> None:
        self._close(job)

    def on_finish(self, job: Any) -> None:
        self._close(job)

    def on_reject(self, job: Any, reason: str) -> None:
        self.rejected.append((job.id, self.dc.now, reason))

    # -- views --------------------------------------------------------------------------------------
    def of(self, job_id: int) -> list[tuple[str, float, float, tuple[int, ...]]]:
        """The intervals of one lease, by start time: ``(kind, start, end, vms)``."""
        return sorted(((i.kind, i.start, i.end, i.vms) for i in self.intervals if i.job == job_id),
                      key=lambda x: (x[1], x[2]))

    def totals(self) -> dict[str, float]:
        """VM-seconds per kind."""
        out = dict.fromkeys(KINDS, 0.0)
        for i in self.intervals:
            out[i.kind] += (i.end - i.start) * len(i.vms)
        return out

    def to_csv(self) -> str:
        """``job,kind,start,end,vms`` (VM ids space-separated), one row per interval."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("job", "kind", "start", "end", "vms"))
        for i in sorted(self.intervals, key=lambda i: (i.start, i.job)):
            w.writerow((i.job, i.kind, repr(i.start), repr(i.end), " ".join(map(str, i.vms))))
        return buf.getvalue()
