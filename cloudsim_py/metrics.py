"""Per-job records and the run summary, as the papers report them.

Wait = finish - submit - runtime (Liu 2015 section 4.1: restarts and slow background progress
count as waiting); response = finish - submit; bounded slowdown = max(1, response /
max(tau, runtime)) with tau = 10 s (Feitelson et al. 1997). Imports nothing from brokers."""

from __future__ import annotations

import math
from typing import Iterable

import attrs
import numpy as np

from .infrastructure.listener import DatacenterListener
from .validate import number
from .workload.job import Job

SUMMARY_KEYS = (
    "jobs_submitted", "jobs_finished", "jobs_rejected", "jobs_unfinished",
    "avg_wait", "max_wait", "avg_response", "avg_bsld", "max_bsld",
    "utilization", "cpu_utilization", "kills", "migrations", "preemptions", "context_switches", "swaps",
    "lost_work", "makespan", "events", "wall_seconds",
)

_INT_FIELDS = ("id", "procs", "kills", "suspensions", "migrations", "swaps", "tier")


@attrs.define(slots=True, frozen=True)
class MetricsSpec:
    """``tau``: the bounded-slowdown threshold (s); ``warmup``: the share of the earliest
    submitted jobs left out of averages and maxima."""

    tau: float = attrs.field(default=10.0, validator=number(0.0, low_open=True))
    warmup: float = attrs.field(default=0.0, validator=number(0.0, 1.0, high_open=True))


class JobRecords:
    """What happened to every finished job, as numpy columns sorted by (submit, id).

    Columns: ``id submit start finish procs runtime estimate wait response bsld kills
    suspensions migrations swaps tier lost_work`` (seconds; ``start`` is the first start,
    ``runtime`` the true runtime on dedicated processors, ``tier`` the tier of the last run).
    """

    FIELDS = ("id", "submit", "start", "finish", "procs", "runtime", "estimate", "wait",
              "response", "bsld", "kills", "suspensions", "migrations", "swaps", "tier",
              "lost_work")

    __slots__ = ("columns", "tau")

    def __init__(self, columns: dict[str, np.ndarray], tau: float = 10.0) -> None:
        self.columns = columns
        self.tau = tau

    @classmethod
    def from_jobs(cls, jobs: Iterable[Job], tau: float = 10.0) -> "JobRecords":
        # runtime: the true work of the run at the size it ran on (a moldable job may have been
        # started at another size than its description asked for); a rigid job's own runtime
        rows = [(j.id, j.submit_time, j.first_start, j.finish_time, j.procs, j.work,
                 j.runtime_estimate, j.kills, j.suspensions, j.migrations, j.swaps,
                 j.tier, j.lost_work) for j in jobs]
        names = ("id", "submit", "start", "finish", "procs", "runtime", "estimate", "kills",
                 "suspensions", "migrations", "swaps", "tier", "lost_work")
        if rows:
            arr = list(zip(*rows))
        else:
            arr = [()] * len(names)
        cols: dict[str, np.ndarray] = {
            n: np.asarray(a, dtype=np.int64 if n in _INT_FIELDS else np.float64)
            for n, a in zip(names, arr)}
        order = np.lexsort((cols["id"], cols["submit"]))
        cols = {n: c[order] for n, c in cols.items()}
        cols["response"] = cols["finish"] - cols["submit"]
        cols["wait"] = cols["response"] - cols["runtime"]
        cols["bsld"] = np.maximum(1.0, cols["response"] / np.maximum(tau, cols["runtime"]))
        return cls({n: cols[n] for n in cls.FIELDS}, tau)

    def __len__(self) -> int:
        return int(self.columns["id"].shape[0])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def row(self, i: int) -> dict:
        return {n: c[i].item() for n, c in self.columns.items()}

    def by_id(self) -> dict[int, dict]:
        """Rows keyed by job id (convenient in tests)."""
        return {int(self.columns["id"][i]): self.row(i) for i in range(len(self))}

    def to_csv(self) -> str:
        """``jobs.csv`` text; floats in ``repr`` form so equal runs give byte-identical files."""
        cols = [self.columns[n].tolist() for n in self.FIELDS]
        lines = [",".join(self.FIELDS)]
        for values in zip(*cols):
            lines.append(",".join(map(repr, values)))
        return "\n".join(lines) + "\n"


class JobLog(DatacenterListener):
    """The records' listener: keeps the jobs that finished and those rejected (with the
    reason), from any number of datacenters it is subscribed to."""

    def __init__(self) -> None:
        self.finished: list[Job] = []
        self.rejected: list[Job] = []
        self.reasons: dict[int, str] = {}
        # the finish hook is the list's own append (C): no Python call per finished job
        setattr(self, "on_finish", self.finished.append)

    def on_reject(self, job: Job, reason: str) -> None:
        self.rejected.append(job)
        self.reasons[job.id] = reason

    def cpu_work(self) -> float:
        """CPU-seconds of the finished work: each job's work times the CPU usage of each of its
        processes (100 % where usage is not modelled)."""
        total = 0.0
        for j in self.finished:
            usage = j.desc.usage(j.procs)
            total += j.work * sum(usage) if usage is not None else j.work * j.procs
        return total


def summarize(records: JobRecords, *, hosts: int, submitted: int, rejected: int,
              unfinished: int = 0, cpu_work: float | None = None, events: int = 0,
              wall_seconds: float = 0.0, warmup: float = 0.0, kills: int | None = None,
              migrations: int | None = None, preemptions: int | None = None,
              swaps: int | None = None, context_switches: int = 0) -> dict:
    """The summary dictionary (keys in :data:`SUMMARY_KEYS`).

    All finished jobs count unless ``warmup`` (a share in [0, 1)) drops the earliest-submitted
    jobs from the averages and maxima; counts and utilization always cover the whole run.
    ``utilization`` is processor-seconds of finished work over hosts x makespan (under
    consolidation two tiers share a host, so it can exceed 1); ``cpu_utilization`` weighs the
    work by each process's CPU usage (Liu 2013's "busy CPU cycles").
    """
    if not 0.0 <= warmup < 1.0:
        raise ValueError(f"warmup share {warmup} outside [0, 1)")
    c = records.columns
    n_all = len(records)
    skip = int(n_all * warmup)
    wait, resp, bsld = c["wait"][skip:], c["response"][skip:], c["bsld"][skip:]
    n = wait.shape[0]
    makespan = float(c["finish"].max() - c["submit"].min()) if n_all else 0.0
    capacity = hosts * makespan
    work = float(np.dot(c["procs"], c["runtime"])) if n_all else 0.0

    def total(name: str, given: int | None) -> int:
        return int(given) if given is not None else int(c[name].sum())

    return {
        "jobs_submitted": submitted,
        "jobs_finished": n_all,
        "jobs_rejected": rejected,
        "jobs_unfinished": unfinished,
        "avg_wait": float(wait.mean()) if n else math.nan,
        "max_wait": float(wait.max()) if n else math.nan,
        "avg_response": float(resp.mean()) if n else math.nan,
        "avg_bsld": float(bsld.mean()) if n else math.nan,
        "max_bsld": float(bsld.max()) if n else math.nan,
        "utilization": work / capacity if capacity > 0 else math.nan,
        "cpu_utilization": cpu_work / capacity if cpu_work is not None and capacity > 0 else math.nan,
        "kills": total("kills", kills),
        "migrations": total("migrations", migrations),
        "preemptions": total("suspensions", preemptions),
        "context_switches": context_switches,
        "swaps": total("swaps", swaps),
        "lost_work": float(c["lost_work"].sum()) if n_all else 0.0,
        "makespan": makespan,
        "events": events,
        "wall_seconds": wall_seconds,
    }


def format_summary(summary: dict, title: str | None = None) -> str:
    """A plain-text table of a summary (times also in minutes, as Liu 2015 Table 2)."""
    lines = [title] if title else []
    keys = [k for k in SUMMARY_KEYS if k in summary]
    width = max(len(k) for k in keys)
    for key in keys:
        v = summary[key]
        if isinstance(v, float):
            text = f"{v:,.4f}" if abs(v) < 100 else f"{v:,.1f}"
            if key in ("avg_wait", "max_wait", "avg_response", "makespan") and not math.isnan(v):
                text += f"  ({v / 60:,.1f} min)"
        else:
            text = f"{v:,}"
        lines.append(f"{key.ljust(width)}  {text}")
    return "\n".join(lines)
