"""Rows of a workload table as job descriptions, made lazily, with the CPU usage and its
estimate drawn per chunk of jobs in one numpy call (so a million-job trace stays compact)."""

from __future__ import annotations

from itertools import repeat
from typing import Iterator

import numpy as np

from ..errors import TraceError
from .cpu import CpuEstimateModel, CpuUsageModel
from .description import RigidJob
from .table import COL, WorkloadTable


def descriptions_from_table(table: WorkloadTable, cpu_usage: CpuUsageModel | None = None,
                            cpu_estimate: CpuEstimateModel | None = None,
                            rng_usage: np.random.Generator | None = None,
                            rng_estimate: np.random.Generator | None = None,
                            chunk: int = 4096) -> Iterator[RigidJob]:
    """Yield a :class:`RigidJob` per row of a prepared table (see ``table.prepare``).

    CPU usage is drawn per job, in row order, from ``rng_usage``; its estimate from
    ``rng_estimate``. Without a usage model every process uses 100 %.
    """
    if table.procs is None or table.runtime is None or table.estimate is None:
        raise TraceError(f"{table.source}: table not prepared (call prepare() first)")
    ids_col = table.data[:, COL["job"]]
    submit_col = table.data[:, COL["submit"]]
    procs_col, runtime_col, estimate_col = table.procs, table.runtime, table.estimate
    usage_model = cpu_usage or CpuUsageModel("full")
    estimate_model = cpu_estimate or CpuEstimateModel("exact")
    rng_u = rng_usage or np.random.default_rng(0)
    rng_e = rng_estimate or np.random.default_rng(1)
    new = tuple.__new__
    n = int(procs_col.shape[0])
    machine = table.machine_procs
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        # the columns become Python values a chunk at a time (a whole trace as Python lists
        # would hold ~160 bytes a job for the whole run); draws are made per chunk
        # (vectorised) but in row order, so they do not depend on chunk; prepare() validated
        # the columns, so the descriptions are built without re-checking
        ids = ids_col[lo:hi].astype(np.int64).tolist()
        submits = submit_col[lo:hi].tolist()
        procs = procs_col[lo:hi].tolist()
        runtimes = runtime_col[lo:hi].tolist()
        estimates = estimate_col[lo:hi].tolist()
        if machine is not None and max(procs) > machine:
            usages, ests = _draw_fitting(procs, machine, usage_model, estimate_model, rng_u, rng_e)
        else:
            usages = usage_model.draw_many(procs, rng_u)
            ests = estimate_model.estimate_many(usages, rng_e)
        # the fields of each row in RigidJob's order, zipped and made descriptions in C
        yield from map(new, repeat(RigidJob), zip(ids, submits, procs, runtimes, estimates, usages, ests,
                                                   range(lo, hi)))


def _draw_fitting(procs: list[int], machine: int, usage_model: CpuUsageModel,
                  estimate_model: CpuEstimateModel, rng_u: np.random.Generator,
                  rng_e: np.random.Generator) -> tuple[list, list]:
    """Usage and estimates for the rows that fit the machine; ``None`` for the others."""
    fit = [i for i, p in enumerate(procs) if p <= machine]
    usages_fit = usage_model.draw_many([procs[i] for i in fit], rng_u)
    ests_fit = estimate_model.estimate_many(usages_fit, rng_e)
    usages: list = [None] * len(procs)
    ests: list = [None] * len(procs)
    for k, i in enumerate(fit):
        usages[i] = usages_fit[k]
        ests[i] = ests_fit[k]
    return usages, ests
