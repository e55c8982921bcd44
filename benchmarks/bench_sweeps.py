#!/usr/bin/env python3
"""Speed of the sweep machinery: per-run overhead and local-backend scaling, in runs/minute.

    python benchmarks/bench_sweeps.py                        # defaults below
    python benchmarks/bench_sweeps.py --tiny 400 --medium 24 --repeat 3

*Overhead*: ``--tiny`` runs of a 5-job scenario, each simulated in a few milliseconds, once
in a plain loop (``load_scenario`` + ``run_scenario``) and once as a sweep (expansion,
validation, results table rewritten after every run, progress callback) in this process
(``--jobs 1``). The difference per run is what the sweep adds to a run.

*Scaling*: ``--medium`` runs of a 3,000-job lublin03 workload under EASY (about 0.15 s each)
as a sweep with 1 and then 2 worker processes; runs/minute, the speed-up, and how many cores
the sweep kept busy on average (CPU seconds of this process and its workers / wall seconds):
below the number of workers, the machine's other jobs took the rest.

Best of ``--repeat`` for each figure. The machine is shared with other jobs: compare figures
measured back to back."""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time

from cloudsim_py.experiments.backends import DaskBackend, LocalBackend, cores
from cloudsim_py.experiments.runs import run_sweep
from cloudsim_py.experiments.sweep import load_sweep
from cloudsim_py.scenario import load_scenario, run_scenario

TINY = {"datacenter": {"hosts": 4},
        "workload": {"jobs": [{"submit": 10 * i, "procs": 1 + i % 4, "runtime": 50 + 7 * i} for i in range(5)]},
        "broker": "easy"}
MEDIUM = {"datacenter": {"hosts": 128},
          "workload": {"model": {"name": "lublin03", "jobs": 3000, "procs": 128, "load": 0.8}},
          "broker": "easy"}


def plain_loop(n: int) -> float:
    t0 = time.perf_counter()
    for seed in range(n):
        run_scenario(load_scenario({**TINY, "seed": seed}))
    return time.perf_counter() - t0


def cpu_seconds() -> float:
    """User + system seconds of this process and of its finished children (the workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def sweep_seconds(base: dict, n: int, jobs: int, dask: bool = False) -> tuple[float, float]:
    """Wall seconds of a sweep of ``n`` seeds, and the cores it kept busy on average (not
    counting Dask workers, which are not our children)."""
    sweep = load_sweep({"name": "bench", "base": base, "grid": {"seed": list(range(n))}})
    backend = DaskBackend("local", jobs) if dask else LocalBackend(jobs)
    with tempfile.TemporaryDirectory() as tmp:
        c0, t0 = cpu_seconds(), time.perf_counter()
        result = run_sweep(sweep, os.path.join(tmp, "r.parquet"), backend=backend,
                           progress=lambda *a: None)
        seconds = time.perf_counter() - t0
        busy = (cpu_seconds() - c0) / seconds
    assert result.ran == n and not result.failures, result
    return seconds, busy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiny", type=int, default=300, help="runs for the overhead figure")
    ap.add_argument("--medium", type=int, default=16, help="runs for the scaling figure")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="also the tiny runs on a 2-worker LocalCluster "
                                                       "(including the cluster's start, about 2 s)")
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {cores()} cores usable, "
          f"load average {os.getloadavg()[0]:.2f}")

    run_scenario(load_scenario({**TINY, "seed": 0}))          # imports and first-call costs
    loop = min(plain_loop(args.tiny) for _ in range(args.repeat))
    swept = min(sweep_seconds(TINY, args.tiny, 1)[0] for _ in range(args.repeat))
    print(f"overhead ({args.tiny} runs of 5 jobs, in process):")
    print(f"  plain loop  {loop:7.2f} s  {args.tiny / loop * 60:10,.0f} runs/min  {loop / args.tiny * 1e3:6.2f} ms/run")
    print(f"  sweep       {swept:7.2f} s  {args.tiny / swept * 60:10,.0f} runs/min  {swept / args.tiny * 1e3:6.2f} ms/run")
    print(f"  per-run overhead of the sweep: {(swept - loop) / args.tiny * 1e3:.2f} ms")
    pooled = min(sweep_seconds(TINY, args.tiny, 2)[0] for _ in range(args.repeat))
    print(f"  sweep, 2 worker processes {pooled:7.2f} s  {args.tiny / pooled * 60:10,.0f} runs/min  "
          f"{pooled / args.tiny * 1e3:6.2f} ms/run (pool start, pickling, two cores)")

    if args.dask:
        on_dask = min(sweep_seconds(TINY, args.tiny, 2, dask=True)[0] for _ in range(args.repeat))
        print(f"  sweep, Dask LocalCluster (2) {on_dask:7.2f} s  {args.tiny / on_dask * 60:10,.0f} runs/min  "
              f"{on_dask / args.tiny * 1e3:6.2f} ms/run (with the cluster's start)")

    print(f"scaling ({args.medium} runs of 3,000 jobs under EASY):")
    base_rate = None
    for jobs in (1, 2):
        best, busy = min(sweep_seconds(MEDIUM, args.medium, jobs) for _ in range(args.repeat))
        rate = args.medium / best * 60
        base_rate = base_rate or rate
        print(f"  --jobs {jobs}   {best:7.2f} s  {rate:8.1f} runs/min  speed-up {rate / base_rate:.2f}  "
              f"CPU busy {busy:.2f} cores (load average now {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
