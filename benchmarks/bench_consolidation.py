#!/usr/bin/env python3
"""Speed of the consolidation policies against the same engine's EASY, on real traces:
whole-run seconds (read + clean + simulate + metrics), jobs/s, events/s and the ratio to EASY.

    python benchmarks/bench_consolidation.py [--repeat 3] [--trace FILE:PROCS ...] [--job-progress lockstep]

EASY runs as it normally does (one tier); the consolidation policies on two tiers with the
liu2015 preset and the papers' CPU usage rule; ``--job-progress`` another reading than the
preset's (barriers every 1,800 s of work; the figures before 2026-11-25 were measured under
``lockstep``). Traces from $CLOUDSIM_PY_TRACES."""

from __future__ import annotations

import argparse
import os
import platform
import time

from cloudsim_py import prepare, read_table, simulate
from cloudsim_py.experiments.liu2015 import traces_dir

DEFAULT = [("KTH-SP2-1996-2.1-cln.swf.gz", 100), ("NASA-iPSC-1993-3.1-cln.swf.gz", 128),
           ("SDSC-Par-1996-3.1-cln.swf.gz", 400)]
POLICIES = [("easy", 1), ("ccfcfs", 2), ("acfcfs", 2), ("cmbf", 1), ("ambf", 1), ("cmcbf", 2),
            ("amcbf", 2), ("ktcbf", 2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trace", action="append", metavar="FILE:PROCS")
    ap.add_argument("--policies", default=",".join(p for p, _ in POLICIES))
    ap.add_argument("--job-progress", choices=("lockstep", "per_process", "barriers"),
                    help="how a job advances from its processes (default: the liu2015 preset's)")
    args = ap.parse_args()
    model = {"preset": "liu2015", "job_progress": args.job_progress} if args.job_progress else None
    plan = [(t.split(":")[0], int(t.split(":")[1])) for t in args.trace] if args.trace else DEFAULT
    wanted = args.policies.split(",")
    print(f"# {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cpus, "
          f"best of {args.repeat}")
    print(f"{'trace':32} {'policy':8} {'tiers':>5} {'jobs':>7} {'whole s':>8} {'jobs/s':>8} "
          f"{'events/s':>9} {'x EASY':>7}")
    for name, procs in plan:
        path = os.path.join(traces_dir(), name)
        if not os.path.isfile(path):
            print(f"{name:32} (missing, skipped)")
            continue
        easy = None
        for policy, tiers in POLICIES:
            if policy not in wanted and policy != "easy":
                continue
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                table = prepare(read_table(path), procs, "trace")
                s = simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1,
                             interference=model if tiers > 1 else None).summary
                best = min(best, time.perf_counter() - t0)
            easy = best if policy == "easy" else easy
            print(f"{name:32} {policy:8} {tiers:5d} {s['jobs_finished']:7d} {best:8.2f} "
                  f"{s['jobs_finished'] / best:8,.0f} {s['events'] / best:9,.0f} {best / easy:7.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
