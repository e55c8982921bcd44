#!/usr/bin/env python3
"""How the cost per job grows when the trace and the machine are doubled together.

    python benchmarks/bench_growth.py [--trace FILE:PROCS] [--factors 1,2,4] [--repeat 2]

The trace is copied ``f`` times (each copy's jobs renumbered, arrivals unchanged, so ``f`` jobs
arrive wherever one did) onto a machine ``f`` times as large: the offered load stays the same
while the queue and the running jobs grow ``f`` times. A scheduling pass whose work grows with
the queue or the machine shows here as CPU microseconds per job growing with ``f``; passes of
O(log n) work per job look at stay nearly flat. CPU seconds of ``simulate`` alone (the trace
is read and cleaned before the clock starts), best of ``--repeat``; ``growth`` is the cost per
job at ``f`` over the cost at the first factor (1.00: flat). Traces from $CLOUDSIM_PY_TRACES."""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from cloudsim_py import prepare, read_table, simulate
from cloudsim_py.experiments.liu2015 import traces_dir
from cloudsim_py.workload.table import COL, WorkloadTable

POLICIES = [("easy", 1), ("ccfcfs", 2), ("acfcfs", 2), ("cmbf", 1), ("ambf", 1), ("cmcbf", 2),
            ("amcbf", 2), ("ktcbf", 2), ("ktcbf", 3)]


def copies(table: WorkloadTable, f: int) -> WorkloadTable:
    """``f`` copies of the raw ``table``'s jobs, the k-th copy's ids shifted by k times the
    largest id, stably sorted by submit time (the copies of one job arrive together)."""
    ids = table.data[:, COL["job"]]
    step = float(ids.max()) if ids.size else 0.0
    parts = []
    for k in range(f):
        part = table.data.copy()
        part[:, COL["job"]] += k * step
        parts.append(part)
    data = np.concatenate(parts)
    order = np.argsort(data[:, COL["submit"]], kind="stable")
    return WorkloadTable(data=data[order], header=table.header, source=f"{table.source} x{f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trace", default="NASA-iPSC-1993-3.1-cln.swf.gz:128", metavar="FILE:PROCS")
    ap.add_argument("--factors", default="1,2,4")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--policies", default=",".join(f"{p}:{t}" for p, t in POLICIES),
                    help="POLICY:TIERS,... (default: EASY and every consolidation policy)")
    args = ap.parse_args()
    name, procs = args.trace.split(":")[0], int(args.trace.split(":")[1])
    factors = [int(f) for f in args.factors.split(",")]
    plan = [(p.split(":")[0], int(p.split(":")[1])) for p in args.policies.split(",")]
    raw = read_table(os.path.join(traces_dir(), name))
    tables = {f: prepare(copies(raw, f), procs * f, "trace") for f in factors}
    print(f"# {platform.python_implementation()} {platform.python_version()}, {name} on {procs} "
          f"processors times f, CPU s of simulate, best of {args.repeat}")
    print(f"{'policy':8} {'tiers':>5} {'f':>3} {'hosts':>6} {'jobs':>8} {'CPU s':>7} {'us/job':>7} "
          f"{'growth':>7}")
    for policy, tiers in plan:
        first = None
        for f in factors:
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.process_time()
                s = simulate(tables[f], hosts=procs * f, tiers=tiers, policy=policy, seed=1).summary
                best = min(best, time.process_time() - t0)
            per_job = best / s["jobs_finished"] * 1e6
            first = per_job if first is None else first
            print(f"{policy:8} {tiers:5d} {f:3d} {procs * f:6d} {s['jobs_finished']:8d} {best:7.2f} "
                  f"{per_job:7.1f} {per_job / first:7.2f}", flush=True)


if __name__ == "__main__":
    main()
