"""A cloud run's ``intervals.csv`` (``cloud,job,kind,start,end,vms``: every interval a lease or
DAG task spent on VMs, by kind; ``cloudsim_py.clouds.records``) read back and turned into the
segments and marks a Gantt chart draws: VMs x time, runs coloured by job, overheads shaded,
preemptions and migrations marked. Imports nothing from the simulator."""

from __future__ import annotations

import csv
from typing import Sequence

import attrs

from ..errors import ExperimentError
from .schedule import Mark, Segment, Timeline

COLUMNS = ("cloud", "job", "kind", "start", "end", "vms")
#: the kinds on a VM that are not progress: drawn shaded (``copy`` holds no VM and is not drawn)
OVERHEADS = ("transfer", "save", "migrate", "reload", "shutdown", "cancelled")
KINDS = ("run", "lost", "copy") + OVERHEADS


@attrs.define(slots=True, frozen=True)
class Interval:
    cloud: str
    job: int
    kind: str
    start: float
    end: float
    vms: tuple[int, ...]


def read_intervals(path: str) -> list[Interval]:
    """Read ``intervals.csv``; errors name the file and line."""
    try:
        fh = open(path, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise ExperimentError(f"{path}: no such intervals file") from None
    with fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None or tuple(h.strip() for h in header) != COLUMNS:
            raise ExperimentError(f"{path}:1: expected the header {','.join(COLUMNS)}, got {header}")
        out = []
        for n, row in enumerate(reader, 2):
            if not row:
                continue
            if len(row) != len(COLUMNS):
                raise ExperimentError(f"{path}:{n}: {len(row)} cells, expected {len(COLUMNS)}")
            cloud, job, kind, start, end, vms = row
            if kind not in KINDS:
                raise ExperimentError(f"{path}:{n}: unknown kind {kind!r}; known: {', '.join(KINDS)}")
            try:
                out.append(Interval(cloud, int(job), kind, float(start), float(end),
                                    tuple(int(v) for v in vms.split())))
            except ValueError as exc:
                raise ExperimentError(f"{path}:{n}: {exc}") from None
    return out


def interval_timeline(intervals: Sequence[Interval]) -> Timeline:
    """Segments (``kind`` the interval's; a run ``ended_by`` ``suspend`` when the job runs again
    later, else ``finish``; a lost run ``ended_by`` ``kill``) and marks: a ``kill`` at the end
    of the last lost run before the job starts over, a ``migration`` where a run or a lost run
    is on other VMs than the job's previous one. The VMs of each cloud are numbered on from the
    previous cloud's (:attr:`Timeline.groups`); ``copy`` intervals hold no VM and are left out."""
    rows: dict[str, int] = {}
    for i in intervals:
        rows[i.cloud] = max(rows.get(i.cloud, 0), max(i.vms) + 1 if i.vms else 0)
    first, groups, at = {}, [], 0
    for name, n in rows.items():
        first[name] = at
        groups.append((name, at, n))
        at += n
    by_job: dict[int, list[Interval]] = {}
    for i in intervals:
        if i.kind != "copy":
            by_job.setdefault(i.job, []).append(i)
    segments: list[Segment] = []
    marks: list[Mark] = []
    for job, items in by_job.items():
        items.sort(key=lambda i: (i.start, i.end))
        runs = [i for i in items if i.kind in ("run", "lost")]
        previous: tuple[int, ...] | None = None
        for k, i in enumerate(items):
            vms = tuple(v + first[i.cloud] for v in i.vms)
            if i.kind not in ("run", "lost"):
                segments.append(Segment(job, 0, vms, i.start, i.end, i.kind, i.kind))
                continue
            later = [r for r in runs if r.start >= i.end and r is not i]
            if i.kind == "lost":
                ended_by = "kill"
                if not later or later[0].kind == "run":
                    marks.append(Mark(i.end, "kill", job, 0, vms))
            else:
                ended_by = "suspend" if later else "finish"
            if previous is not None and vms != previous:
                marks.append(Mark(i.start, "migration", job, 0, vms, previous))
            previous = vms
            segments.append(Segment(job, 0, vms, i.start, i.end, ended_by, i.kind))
    start = min((i.start for i in intervals), default=0.0)
    end = max((i.end for i in intervals), default=0.0)
    return Timeline(segments, marks, 0, start, end, at, 1, groups if len(groups) > 1 else [])
