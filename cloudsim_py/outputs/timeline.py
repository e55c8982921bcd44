"""``timeline.csv`` streamed while a run goes: the state of each datacenter over time as step
changes, one row per time at which it changed (the state after the last action at that time;
a time whose actions leave the state as it was has no row). Before a datacenter's first row
everything is zero. Every kind of system writes it (a cloud system one set of rows per cloud).

Columns ``time,datacenter,running,queued,suspended,busy_0,...,busy_<k-1>``: the jobs holding
processors, those waiting to start (submitted, or killed and waiting again; at the datacenter,
not at another cloud's scheduler), those suspended (holding nothing, waiting to resume), and
the processors (a datacenter's hosts, a cloud's VMs) busy in each tier. ``k`` is the most tiers
of the run's datacenters; a datacenter with fewer leaves the others' cells empty. Rows are in
time order, the datacenters of one time in the order they were watched.

Memory: the jobs running and queued (ids), nothing per finished job."""

from __future__ import annotations

from ..infrastructure.listener import DatacenterListener
from .schedule import csv_text
from .streamed import StreamedCsv
from .watch import JobLike, Watched

#: the columns before the per-tier ones
FIRST = ("time", "datacenter", "running", "queued", "suspended")
#: where the counts of :attr:`_TimelineTap.state` are
RUNNING, QUEUED, SUSPENDED, BUSY = 0, 1, 2, 3


def columns(tiers: int) -> tuple[str, ...]:
    """The header of a run whose datacenters have at most ``tiers`` tiers."""
    return FIRST + tuple(f"busy_{t}" for t in range(tiers))


class TimelineCsv(StreamedCsv):
    """The writer for datacenters of at most ``tiers`` tiers; :meth:`watch` subscribes it to
    each. Rows of one time are held until the clock moves on (or :meth:`close`)."""

    name = "timeline.csv"

    def __init__(self, path: str, tiers: int) -> None:
        super().__init__(path, ",".join(columns(tiers)) + "\n")
        self.tiers = tiers
        self._taps: list[_TimelineTap] = []
        #: the time of the actions not yet written (None: nothing pending)
        self._pending: float | None = None

    def watch(self, dc: Watched) -> None:
        if dc.tiers > self.tiers:
            raise ValueError(f"datacenter {dc.name!r} has {dc.tiers} tiers; the file has columns for {self.tiers}")
        tap = _TimelineTap(self, dc, self.tiers)
        self._taps.append(tap)
        dc.subscribe(tap)

    def changing(self, now: float) -> None:
        """An action at ``now`` is about to change a datacenter: the rows of an earlier time
        are final, write them."""
        pending = self._pending
        if pending is not None and now != pending:
            self._flush(pending)
        self._pending = now

    def _flush(self, time: float) -> None:
        for tap in self._taps:
            if tap.state != tap.written:
                self.write(f"{time!r},{tap.label},{','.join(map(str, tap.state))}{tap.blank}\n")
                tap.written[:] = tap.state
        self._pending = None

    def finish(self) -> None:
        if self._pending is not None:
            self._flush(self._pending)


class _TimelineTap(DatacenterListener):
    """One datacenter's counts (``state``: running, queued, suspended, busy per tier) and the
    last row written of them."""

    __slots__ = ("out", "dc", "label", "blank", "state", "written", "queued", "running")

    def __init__(self, out: TimelineCsv, dc: Watched, tiers: int) -> None:
        self.out = out
        self.dc = dc
        self.label = csv_text(dc.name)
        self.blank = "," * (tiers - dc.tiers)
        self.state: list[int] = [0] * (BUSY + dc.tiers)
        self.written: list[int] = list(self.state)
        #: ids of the jobs waiting to start here (a reject of one of them removes it)
        self.queued: dict[int, None] = {}
        #: id -> (tier, processors) of the jobs holding processors
        self.running: dict[int, tuple[int, int]] = {}

    def _hold(self, job: JobLike, tier: int) -> None:
        self.running[job.id] = (tier, job.procs)
        self.state[RUNNING] += 1
        self.state[BUSY + tier] += job.procs

    def _release(self, job: JobLike) -> None:
        tier, procs = self.running.pop(job.id)
        self.state[RUNNING] -= 1
        self.state[BUSY + tier] -= procs

    def on_submit(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self.queued[job.id] = None
        self.state[QUEUED] += 1

    def on_start(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        if self.queued.pop(job.id, 0) is None:
            self.state[QUEUED] -= 1
        self._hold(job, job.tier)

    def on_finish(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self._release(job)

    def on_kill(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self._release(job)
        self.queued[job.id] = None
        self.state[QUEUED] += 1

    def on_suspend(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self._release(job)
        self.state[SUSPENDED] += 1

    def on_resume(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self.state[SUSPENDED] -= 1
        self._hold(job, job.tier)

    def on_swap(self, job: JobLike) -> None:
        self.out.changing(self.dc.now)
        self._release(job)
        self._hold(job, job.tier)

    def on_reject(self, job: JobLike, reason: str) -> None:
        if self.queued.pop(job.id, 0) is None:
            self.out.changing(self.dc.now)
            self.state[QUEUED] -= 1

