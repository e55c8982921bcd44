"""Turns a workload into arrival events: one pending arrival at a time, so a million-job trace
never fills the event queue. Also builds :class:`Job` objects from table rows lazily."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

import numpy as np

from ..engine import Event, EventKind, Simulation
from ..errors import TraceError
from .cpu import CpuEstimateModel, CpuUsageModel
from .job import Job
from .table import COL, WorkloadTable


def jobs_from_table(table: WorkloadTable, cpu_usage: CpuUsageModel | None = None,
                    cpu_estimate: CpuEstimateModel | None = None,
                    rng_usage: np.random.Generator | None = None,
                    rng_estimate: np.random.Generator | None = None,
                    chunk: int = 4096) -> Iterator[Job]:
    """Yield a :class:`Job` per row of a prepared table (see ``table.prepare``).

    CPU usage is drawn per job, in row order, from ``rng_usage``; its estimate from
    ``rng_estimate``. Without a usage model every process uses 100 %.
    """
    if table.procs is None:
        raise TraceError(f"{table.source}: table not prepared (call prepare() first)")
    ids = table.data[:, COL["job"]].astype(np.int64).tolist()
    submits = table.data[:, COL["submit"]].tolist()
    procs = table.procs.tolist()
    runtimes = table.runtime.tolist()
    estimates = table.estimate.tolist()
    usage_model = cpu_usage or CpuUsageModel("full")
    estimate_model = cpu_estimate or CpuEstimateModel("exact")
    rng_u = rng_usage or np.random.default_rng(0)
    rng_e = rng_estimate or np.random.default_rng(1)
    n = len(ids)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        # draws are made per chunk (vectorised) but in row order, so they do not depend on chunk
        usages = usage_model.draw_many(procs[lo:hi], rng_u)
        ests = estimate_model.estimate_many(usages, rng_e)
        for row in range(lo, hi):
            job = Job(ids[row], submits[row], procs[row], runtime=runtimes[row],
                      runtime_estimate=estimates[row], row=row)
            # the samplers guarantee values in (0, 1]: set after the constructor's checks
            job._cpu_usage = usages[row - lo]
            job.cpu_estimate = ests[row - lo]
            yield job


class JobFeeder:
    """Schedules the arrival of each job of ``jobs`` (sorted by submit time) and hands it to
    ``submit`` when it arrives. Only the next arrival is ever in the event queue."""

    __slots__ = ("sim", "_jobs", "_submit", "_last", "fed", "_next")

    def __init__(self, sim: Simulation, jobs: Iterable[Job], submit: Callable[[Job], None]) -> None:
        self.sim = sim
        self._jobs = iter(jobs)
        self._submit = submit
        self._last = -float("inf")
        self.fed = 0
        self._next: Event | None = None
        sim.on(EventKind.ARRIVAL, self._on_arrival)
        self._schedule_next()

    def _schedule_next(self) -> None:
        job = next(self._jobs, None)
        if job is None:
            self._next = None
            return
        t = job.submit_time
        if t < self._last:
            raise TraceError(f"job {job.id}: submit time {t} before the previous job's {self._last}; "
                             "jobs must be sorted by submit time")
        self._last = t
        self._next = self.sim.schedule(max(t, self.sim.now), EventKind.ARRIVAL, job)

    def _on_arrival(self, ev: Event) -> None:
        self.fed += 1
        self._schedule_next()
        self._submit(ev.target)

    @property
    def exhausted(self) -> bool:
        return self._next is None
