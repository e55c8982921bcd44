#!/usr/bin/env python3
"""How the cost per job grows when the trace and the machine are doubled together, or when the
machine alone is doubled (``--machine``).

    python benchmarks/bench_growth.py [--trace FILE:PROCS] [--factors 1,2,4] [--repeat 2]
    python benchmarks/bench_growth.py --machine [--jobs 20000] [--sizes 128,...,131072] \
        [--policies easy:1,acfcfs:2,amcbf:2] [--timeout 120]

The trace is copied ``f`` times (each copy's jobs renumbered, arrivals unchanged, so ``f`` jobs
arrive wherever one did) onto a machine ``f`` times as large: the offered load stays the same
while the queue and the running jobs grow ``f`` times. A scheduling pass whose work grows with
the queue or the machine shows here as CPU microseconds per job growing with ``f``; passes of
O(log n) work per job look at stay nearly flat. CPU seconds of ``simulate`` alone (the trace
is read and cleaned before the clock starts), best of ``--repeat``; ``growth`` is the cost per
job at ``f`` over the cost at the first factor (1.00: flat). Traces from $CLOUDSIM_PY_TRACES.

``--machine`` (issue 19, cloud scale): a fixed number of Lublin & Feitelson jobs (``lublin03``
generated for each machine size, so the sizes scale with the machine: ``uhi = log2(procs)``,
offered load 0.8, seed 1, estimates by ``tsafrir05``) on machines of 128 to 131,072 processors,
doubling. Each run is a fresh process (CPU seconds of ``simulate`` alone: building the
datacenter, the hosts and the job descriptions included, generating the table not); one that
takes more than ``--timeout`` wall seconds is stopped and shown as ``>`` (the larger sizes of
that policy are then skipped). The printed jobs/s is jobs finished over those CPU seconds. To
measure an older tree, run this script with ``PYTHONPATH`` set to it (it uses only public
functions)."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
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


MACHINE_CHILD = r"""
import sys, time
import numpy as np
from cloudsim_py import prepare, simulate
from cloudsim_py.engine import RandomStreams
from cloudsim_py.workload.models.lublin03 import Lublin03
jobs, procs, policy, tiers = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
raw = Lublin03(procs=procs, load=0.8).generate(jobs, np.random.default_rng(1))
table = prepare(raw, procs, "tsafrir05", rng=RandomStreams(1)["runtime_estimate"])
t0 = time.process_time()
s = simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1).summary
print(time.process_time() - t0, s["jobs_finished"], float(np.mean(table.procs)))
"""


def machine(args: argparse.Namespace) -> None:
    """The machine doubled at a fixed job count (``--machine``); see the module's docstring."""
    sizes = [int(x) for x in args.sizes.split(",")]
    plan = [(p.split(":")[0], int(p.split(":")[1])) for p in args.policies.split(",")]
    print(f"# {platform.python_implementation()} {platform.python_version()}, {args.jobs} lublin03 "
          f"jobs (load 0.8, seed 1) per machine size, CPU s of simulate in a fresh process, best of "
          f"{args.repeat}, timeout {args.timeout:g} s")
    print(f"{'policy':8} {'tiers':>5} {'procs':>7} {'mean width':>10} {'jobs':>7} {'CPU s':>8} {'jobs/s':>8}")
    for policy, tiers in plan:
        stopped = False
        for procs in sizes:
            if stopped:
                print(f"{policy:8} {tiers:5d} {procs:7d} {'':>10} {'':>7} {'skipped':>8}", flush=True)
                continue
            best, done, width = float("inf"), 0, 0.0
            for _ in range(args.repeat):
                try:
                    out = subprocess.run([sys.executable, "-c", MACHINE_CHILD, str(args.jobs), str(procs),
                                          policy, str(tiers)], capture_output=True, text=True,
                                         timeout=args.timeout, check=True).stdout.split()
                except subprocess.TimeoutExpired:
                    stopped = True
                    break
                cpu, done, width = float(out[0]), int(out[1]), float(out[2])
                best = min(best, cpu)
            if stopped:
                print(f"{policy:8} {tiers:5d} {procs:7d} {'':>10} {'':>7} {'>' + format(args.timeout, 'g'):>8}",
                      flush=True)
                continue
            print(f"{policy:8} {tiers:5d} {procs:7d} {width:10.1f} {done:7d} {best:8.2f} {done / best:8.0f}",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--machine", action="store_true",
                    help="double the machine at a fixed count of lublin03 jobs instead")
    ap.add_argument("--jobs", type=int, default=20000, help="--machine: jobs per run")
    ap.add_argument("--sizes", default=",".join(str(128 << i) for i in range(11)),
                    help="--machine: machine sizes (processors)")
    ap.add_argument("--timeout", type=float, default=120.0, help="--machine: wall seconds per run")
    ap.add_argument("--trace", default="NASA-iPSC-1993-3.1-cln.swf.gz:128", metavar="FILE:PROCS")
    ap.add_argument("--factors", default="1,2,4")
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs (--machine: 1 is fine)")
    ap.add_argument("--policies", default=",".join(f"{p}:{t}" for p, t in POLICIES),
                    help="POLICY:TIERS,... (default: EASY and every consolidation policy)")
    args = ap.parse_args()
    if args.machine:
        if args.policies == ap.get_default("policies"):
            args.policies = "easy:1,acfcfs:2,amcbf:2"
        machine(args)
        return
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
