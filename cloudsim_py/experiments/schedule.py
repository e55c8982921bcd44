"""The schedule file of one run, ``schedule.csv`` (columns ``time,action,job,tier,hosts``, host
ids space-separated, then ``datacenter`` in the file a scenario run writes,
``cloudsim_py.outputs.schedule``), written from a datacenter's ``record=True`` log, read back,
and turned into the segments a Gantt chart draws. Imports nothing from the simulator."""

from __future__ import annotations

import csv
import io
import os
from typing import Iterable, Sequence

import attrs

from ..errors import ExperimentError

COLUMNS = ("time", "action", "job", "tier", "hosts")
#: the header of a scenario run's file (every datacenter of the run, named)
NAMED_COLUMNS = COLUMNS + ("datacenter",)
ACTIONS = ("start", "finish", "kill", "suspend", "resume", "swap", "reject")


@attrs.define(slots=True, frozen=True)
class ScheduleEvent:
    """One datacenter action: ``tier`` and ``hosts`` after the action (-1 and () for a reject)."""

    time: float
    action: str
    job: int
    tier: int
    hosts: tuple[int, ...]
    datacenter: str = ""


def write_schedule(path: str, log: Iterable[Sequence]) -> int:
    """Write a ``Datacenter.log`` (tuples ``(time, action, job id, tier, host ids)``) as
    ``schedule.csv``; returns the number of rows. Times keep every digit (``repr``)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    n = 0
    for time, action, job, tier, hosts in log:
        writer.writerow([repr(float(time)), action, job, tier, " ".join(str(h) for h in hosts)])
        n += 1
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())
    return n


def read_schedule(path: str) -> list[ScheduleEvent]:
    """Read ``schedule.csv``; errors name the file and line."""
    try:
        fh = open(path, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise ExperimentError(f"{path}: no such schedule file") from None
    with fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        names = tuple(h.strip() for h in header) if header is not None else None
        if names not in (COLUMNS, NAMED_COLUMNS):
            raise ExperimentError(f"{path}:1: expected the header {','.join(NAMED_COLUMNS)} (or without "
                                  f"datacenter), got {header}")
        width = len(names)
        events = []
        for n, row in enumerate(reader, 2):
            if not row:
                continue
            if len(row) != width:
                raise ExperimentError(f"{path}:{n}: {len(row)} cells, expected {width}")
            time, action, job, tier, hosts = (c.strip() for c in row[:5])
            if action not in ACTIONS:
                raise ExperimentError(f"{path}:{n}: unknown action {action!r}; known: {', '.join(ACTIONS)}")
            try:
                events.append(ScheduleEvent(float(time), action, int(job), int(tier),
                                            tuple(int(h) for h in hosts.split()),
                                            row[5] if width > 5 else ""))
            except ValueError as exc:
                raise ExperimentError(f"{path}:{n}: {exc}") from None
    return events


@attrs.define(slots=True, frozen=True)
class Segment:
    """A job on some hosts in one tier from ``start`` to ``end``; ``ended_by`` is the action
    that closed it (finish, kill, suspend, swap) or ``open`` if the schedule ends first."""

    job: int
    tier: int
    hosts: tuple[int, ...]
    start: float
    end: float
    ended_by: str
    #: what the job does there: ``run`` (progress), ``lost`` (a run thrown away by a kill), or
    #: a cloud's overhead (``transfer``, ``save``, ``migrate``, ``reload``, ``shutdown``,
    #: ``cancelled``; ``intervals.csv``)
    kind: str = "run"


@attrs.define(slots=True, frozen=True)
class Mark:
    """A kill (on the hosts the job lost) or a migration (a resume: ``hosts`` are the new ones,
    ``source`` the ones the job was suspended on)."""

    time: float
    kind: str
    job: int
    tier: int
    hosts: tuple[int, ...]
    source: tuple[int, ...] = ()


@attrs.define(slots=True)
class Timeline:
    segments: list
    marks: list
    rejected: int
    start: float
    end: float
    hosts: int          #: highest host id + 1 (rows of the chart)
    tiers: int          #: highest tier + 1
    #: with several datacenters (or clouds): ``(name, first row, rows)`` of each, in the order
    #: they first appear; their hosts (VMs) are numbered on from the previous one's
    groups: list = attrs.Factory(list)


def timeline(events: Sequence[ScheduleEvent]) -> Timeline:
    """Segments and marks of a schedule. start and resume open a segment; finish, kill and
    suspend close it; swap closes it and opens one in the new tier on the same hosts. With
    several datacenters the hosts of each are put after those of the previous one
    (:attr:`Timeline.groups`)."""
    events, groups = _one_numbering(events)
    open_: dict[int, tuple[float, int, tuple[int, ...]]] = {}
    suspended_on: dict[int, tuple[int, ...]] = {}
    segments: list[Segment] = []
    marks: list[Mark] = []
    rejected = 0
    top_host, top_tier = -1, 0
    for i, e in enumerate(events):
        where = f"schedule event {i + 1} (t={e.time:g}, {e.action} job {e.job})"
        if e.hosts:
            top_host = max(top_host, max(e.hosts))
        top_tier = max(top_tier, e.tier)
        if e.action == "reject":
            rejected += 1
            continue
        if e.action in ("start", "resume"):
            if e.job in open_:
                raise ExperimentError(f"{where}: the job is already running")
            open_[e.job] = (e.time, e.tier, e.hosts)
            if e.action == "resume":
                marks.append(Mark(e.time, "migration", e.job, e.tier, e.hosts, suspended_on.pop(e.job, ())))
            continue
        if e.job not in open_:
            raise ExperimentError(f"{where}: the job is not running")
        t0, tier, hosts = open_.pop(e.job)
        segments.append(Segment(e.job, tier, hosts, t0, e.time, e.action))
        if e.action == "swap":
            open_[e.job] = (e.time, e.tier, e.hosts)
        elif e.action == "kill":
            marks.append(Mark(e.time, "kill", e.job, tier, hosts))
        elif e.action == "suspend":
            suspended_on[e.job] = hosts
    start = events[0].time if events else 0.0
    end = events[-1].time if events else 0.0
    for job, (t0, tier, hosts) in open_.items():
        segments.append(Segment(job, tier, hosts, t0, end, "open"))
    return Timeline(segments, marks, rejected, start, end, top_host + 1, top_tier + 1, groups)


def _one_numbering(events: Sequence[ScheduleEvent]) -> tuple[Sequence[ScheduleEvent], list]:
    """The events with the hosts of every datacenter numbered on from the previous one's, and
    the groups; the events as they are when there is one datacenter."""
    rows: dict[str, int] = {}
    for e in events:
        top = max(e.hosts) + 1 if e.hosts else 0
        rows[e.datacenter] = max(rows.get(e.datacenter, 0), top)
    if len(rows) < 2:
        return events, []
    first, groups, at = {}, [], 0
    for name, n in rows.items():
        first[name] = at
        groups.append((name, at, n))
        at += n
    return [attrs.evolve(e, hosts=tuple(h + first[e.datacenter] for h in e.hosts)) for e in events], groups
