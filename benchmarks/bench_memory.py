#!/usr/bin/env python3
"""Peak memory and speed of long runs: N generated jobs under EASY, each size in a fresh process.

    python benchmarks/bench_memory.py                        # 1M and 10M jobs, jobs.csv streamed
    python benchmarks/bench_memory.py --jobs 1000000 --no-csv
    python benchmarks/bench_memory.py --tree /path/to/other/checkout --no-csv   # an older tree

The workload is a cheap synthetic stream (no table in memory): Poisson arrivals, power-of-two
sizes of 1-32 processes (1 and 2 twice as likely) on 128 processors (``--hosts``), log-uniform
runtimes of 1 s - 10 h, estimates 1-3 x the runtime, offered load 0.85 (``--load``); drawn 65,536
jobs at a time from one seeded generator, as rigid job descriptions without CPU usage. The run is
EASY to the end with the records and the summary (``runner.build`` + ``World.run`` +
``runner.results``, what ``simulate`` does) and ``jobs.csv`` streamed into a temporary folder
(removed afterwards); with ``--no-csv``, ``simulate(..., policy="easy")`` alone. Printed: jobs, wall seconds, jobs/s, peak RSS (``ru_maxrss``) and peak
RSS per job (``--tracemalloc``: also the traced peak and the allocation sites of what the run
holds at its end). jobs/CPU s counts the process's CPU time (the machine is shared: wall time varies
with the other load, CPU time much less).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

CHILD = r"""
import os, resource, shutil, sys, tempfile, time
import numpy as np
from cloudsim_py.workload.description import RigidJob

n, hosts, csv, load = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", float(sys.argv[4])
trace = len(sys.argv) > 5 and sys.argv[5] == "1"
if trace:
    import tracemalloc
    tracemalloc.start(4)

def stream(n, hosts, seed=1, chunk=65536):
    rng = np.random.default_rng(seed)
    sizes = np.array([1, 1, 2, 2, 4, 8, 16, 32])
    # mean work per job: E[procs] * E[runtime]; arrival rate for a load of 0.85
    mean_procs = sizes.mean()
    lo, hi = np.log(1.0), np.log(36000.0)
    mean_run = (np.exp(hi) - np.exp(lo)) / (hi - lo)
    rate = load * hosts / (mean_procs * mean_run)
    t = 0.0
    new = tuple.__new__
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        submit = t + np.cumsum(rng.exponential(1.0 / rate, m))
        t = float(submit[-1])
        procs = rng.choice(sizes, m)
        run = np.exp(rng.uniform(lo, hi, m))
        est = run * rng.uniform(1.0, 3.0, m)
        for i, s, p, r, e in zip(range(start + 1, start + m + 1), submit.tolist(), procs.tolist(),
                                 run.tolist(), est.tolist()):
            yield new(RigidJob, (i, s, p, r, e, None, None, -1))

t0 = time.perf_counter()
c0 = time.process_time()
if csv:
    from cloudsim_py.brokers.spec import BrokerSpec
    from cloudsim_py.infrastructure.spec import DatacenterSpec
    from cloudsim_py.outputs import JobsCsv
    from cloudsim_py.runner import build, results
    folder = tempfile.mkdtemp(prefix="bench-memory-")
    world = build(stream(n, hosts), datacenter=DatacenterSpec(hosts=hosts), broker=BrokerSpec("easy"))
    writer = JobsCsv(os.path.join(folder, "jobs.csv"))
    world.log.sinks.append(writer)
    world.run()
    summary, records = results(world)
    writer.close(world.log)
    size = os.path.getsize(os.path.join(folder, "jobs.csv"))
    shutil.rmtree(folder)
else:
    from cloudsim_py import simulate
    summary = simulate(stream(n, hosts), hosts=hosts, policy="easy").summary
    size = 0
secs = time.perf_counter() - t0
cpu = time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if trace:
    # what the run still holds at its end (the records included), by allocation site
    snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    current, traced_peak = tracemalloc.get_traced_memory()
    print(f"traced: peak {traced_peak / 2**20:,.0f} MB, held at the end {current / 2**20:,.0f} MB", file=sys.stderr)
    for stat in snap.statistics("traceback")[:6]:
        frame = stat.traceback[-1]
        print(f"  {stat.size / 2**20:8,.1f} MB {stat.count:>9,} blocks  {frame.filename}:{frame.lineno}", file=sys.stderr)
print(summary["jobs_finished"], secs, cpu, peak, size, summary["utilization"], summary["avg_wait"])
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, action="append", help="jobs per run (repeatable; default 1M and 10M)")
    ap.add_argument("--hosts", type=int, default=128)
    ap.add_argument("--load", type=float, default=0.85, help="offered load (default 0.85)")
    ap.add_argument("--no-csv", action="store_true", help="do not stream jobs.csv (older trees cannot)")
    ap.add_argument("--tree", default=REPO, help="checkout to measure (default: this one)")
    ap.add_argument("--tracemalloc", action="store_true",
                    help="also trace Python allocations (2-3x slower): traced peak and the top sites")
    args = ap.parse_args()
    print(f"# EASY on {args.hosts} processors, synthetic stream; tree {args.tree}; "
          f"jobs.csv {'not written' if args.no_csv else 'streamed'}; {sys.version.split()[0]}")
    print(f"{'jobs':>11} {'wall s':>8} {'CPU s':>8} {'jobs/CPU s':>10} {'peak RSS MB':>12} {'bytes/job':>10} "
          f"{'csv MB':>8} {'util':>6} {'avg wait s':>10}")
    for n in args.jobs or [1_000_000, 10_000_000]:
        env = dict(os.environ, PYTHONPATH=args.tree)
        res = subprocess.run([sys.executable, "-c", CHILD, str(n), str(args.hosts), "0" if args.no_csv else "1",
                              str(args.load), "1" if args.tracemalloc else "0"],
                             env=env, capture_output=True, text=True)
        if args.tracemalloc and res.returncode == 0:
            print(res.stderr.rstrip())
        if res.returncode != 0:
            print(f"{n:>11,} failed: {res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode}")
            continue
        done, secs, cpu, peak, size, util, wait = res.stdout.split()
        jobs, cpu_f, peak_i = int(done), float(cpu), int(peak)
        print(f"{jobs:>11,} {float(secs):>8.1f} {cpu_f:>8.1f} {jobs / cpu_f:>10,.0f} {peak_i / 2**20:>12,.0f} "
              f"{peak_i / jobs:>10,.0f} {int(size) / 2**20:>8,.0f} {float(util):>6.3f} {float(wait):>10,.0f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
