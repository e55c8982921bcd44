"""Turns a workload into arrival events: one pending arrival at a time, so a million-job trace
never fills the event queue. Also builds :class:`Job` objects from table rows lazily."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

import numpy as np

from ..engine import EventKind, Simulation
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
    """Streams the arrival of each job of ``jobs`` (sorted by submit time) into the simulation
    and hands it to ``submit`` when it arrives. Jobs are created lazily, one ahead."""

    __slots__ = ("sim", "_submit", "fed")

    def __init__(self, sim: Simulation, jobs: Iterable[Job], submit: Callable[[Job], None]) -> None:
        self.sim = sim
        self._submit = submit
        self.fed = 0
        sim.stream(EventKind.ARRIVAL, self._timed(jobs), self._on_arrival)

    @staticmethod
    def _timed(jobs: Iterable[Job]) -> Iterator[tuple[float, Job]]:
        last = -float("inf")
        for job in jobs:
            t = job.submit_time
            if t < last:
                raise TraceError(f"job {job.id}: submit time {t} before the previous job's {last}; "
                                 "jobs must be sorted by submit time")
            last = t
            yield t, job

    def _on_arrival(self, job: Job) -> None:
        self.fed += 1
        self._submit(job)
