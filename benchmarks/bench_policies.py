#!/usr/bin/env python3
"""Speed of the k = 1 policies on real traces: whole-run seconds (read + clean + simulate +
metrics, in process), jobs/s and events/s, best of N repetitions.

    python benchmarks/bench_policies.py                 # the default set below
    python benchmarks/bench_policies.py --repeat 5 --trace normalized/kth.swf:100
    python benchmarks/bench_policies.py --process       # also time `cloudsim-py run` as a process
    python benchmarks/bench_policies.py --process --python /path/to/venv/bin/python

Traces are read from $CLOUDSIM_PY_TRACES (default ../shared/traces beside the repository).
The normalized/ files are the ones pyss was timed on (docs/performance.md)."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

from cloudsim_py import prepare, read_table, simulate
from cloudsim_py.experiments.liu2015 import traces_dir

DEFAULT = [
    ("normalized/kth.swf", 100, ("fcfs", "easy", "conservative")),
    ("normalized/lublin256.swf", 256, ("fcfs", "easy", "conservative")),
    ("KTH-SP2-1996-2.1-cln.swf.gz", 100, ("fcfs", "easy", "conservative")),
    ("CTC-SP2-1996-3.1-cln.swf.gz", 338, ("fcfs", "easy")),
]


def bench(path: str, procs: int, policy: str, repeat: int) -> tuple[float, float, int, int]:
    """Best whole-run and best simulate-only seconds, jobs and events."""
    best_total = best_sim = float("inf")
    jobs = events = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        table = prepare(read_table(path), procs, "trace")
        t1 = time.perf_counter()
        r = simulate(table, hosts=procs, policy=policy)
        t2 = time.perf_counter()
        best_total = min(best_total, t2 - t0)
        best_sim = min(best_sim, t2 - t1)
        jobs, events = r.summary["jobs_finished"], r.summary["events"]
    return best_total, best_sim, jobs, events


def bench_process(path: str, procs: int, policy: str, python: str, repeat: int) -> float:
    """Best wall time of a whole ``python -m cloudsim_py.cli run`` process (start-up, imports,
    scenario, trace, run, summary). Use an installed package: a source checkout under
    PYTHONDONTWRITEBYTECODE=1 recompiles every module at each start."""
    scenario = (f"name: bench\ndatacenter: {{hosts: {procs}}}\n"
                f"workload: {{trace: {path}, runtime_estimate: trace}}\nbroker: {policy}\n")
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as fh:
        fh.write(scenario)
    try:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            subprocess.run([python, "-m", "cloudsim_py.cli", "run", fh.name, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
            best = min(best, time.perf_counter() - t0)
        return best
    finally:
        os.unlink(fh.name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trace", action="append", metavar="FILE:PROCS[:policy,policy]",
                    help="trace relative to the trace folder (repeatable)")
    ap.add_argument("--process", action="store_true", help="also time a whole `cloudsim-py run` process")
    ap.add_argument("--python", default=sys.executable, help="interpreter for --process (default: this one)")
    args = ap.parse_args()
    plan = DEFAULT
    if args.trace:
        plan = []
        for spec in args.trace:
            name, procs, *pol = spec.split(":")
            plan.append((name, int(procs), tuple(pol[0].split(",")) if pol else ("fcfs", "easy", "conservative")))
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cpus; best of {args.repeat}; traces in {traces_dir()}")
    head = f"{'trace':32} {'policy':13} {'jobs':>7} {'whole s':>8} {'sim s':>7} {'jobs/s':>9} {'events/s':>9}"
    if args.process:
        head += f" {'process s':>9}"
    print(head)
    for name, procs, policies in plan:
        path = os.path.join(traces_dir(), name)
        if not os.path.isfile(path):
            print(f"{name:32} (missing, skipped)")
            continue
        for policy in policies:
            total, sim, jobs, events = bench(path, procs, policy, args.repeat)
            line = (f"{name:32} {policy:13} {jobs:7d} {total:8.2f} {sim:7.2f} {jobs / total:9,.0f} "
                    f"{events / total:9,.0f}")
            if args.process:
                line += f" {bench_process(path, procs, policy, args.python, args.repeat):9.2f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
