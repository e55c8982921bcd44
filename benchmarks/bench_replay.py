#!/usr/bin/env python3
"""How far a whole ``cloudsim-py run`` process is from the least a Python program must do: a
plain replay loop (read the SWF, simulate FCFS or EASY on one machine, print the averages), in
a few dozen lines with nothing but the standard library. Issue 19 asks for the whole process
within 3x of it.

    python benchmarks/bench_replay.py --loop TRACE PROCS fcfs      # just the plain loop
    python benchmarks/bench_replay.py --repeat 5                    # the comparison below
    python benchmarks/bench_replay.py --trace normalized/kth.swf:100:fcfs,easy

The comparison runs, for each trace and policy, fresh processes of ``python -m cloudsim_py.cli
run SCENARIO --quiet`` and of ``python bench_replay.py --loop ...``, alternating, and reports the
best CPU seconds (user + system, from the children's rusage) of each and their ratio. The
modules' bytecode is cached (in a temporary ``PYTHONPYCACHEPREFIX``, warmed by a first untimed
round) as for an installed package, unless ``--cold``. Traces
are read from $CLOUDSIM_PY_TRACES (default ../shared/traces beside the repository).

The loop cleans the trace the simple way (drops jobs without processors or with a negative
runtime, or wider than the machine; estimate: the requested time, at least the runtime), so its
averages are close to cloudsim_py's but need not be equal; it is a yardstick of speed.
"""

from __future__ import annotations

import argparse
import gzip
import heapq
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import deque


def read_swf(path: str, machine: int) -> list[tuple[float, float, int, float]]:
    """(submit, runtime, procs, estimate) of the jobs that can run, by submit time."""
    opener = gzip.open if path.endswith(".gz") else open
    jobs = []
    with opener(path, "rt") as fh:
        for line in fh:
            f = line.split()
            if not f or line.lstrip().startswith(";"):
                continue
            submit, run, procs, req_procs, req_time = (float(f[1]), float(f[3]), int(f[4]),
                                                       int(f[7]), float(f[8]))
            procs = procs if procs > 0 else req_procs
            if run < 0 or procs <= 0 or procs > machine:
                continue
            jobs.append((submit, run, procs, max(req_time, run)))
    jobs.sort(key=lambda j: j[0])
    return jobs


def replay(jobs: list[tuple[float, float, int, float]], machine: int, easy: bool) -> tuple[float, float]:
    """Average wait and bounded slowdown (tau = 10 s) under FCFS or EASY backfilling."""
    free, now, i, n = machine, 0.0, 0, len(jobs)
    running: list[tuple[float, int, float]] = []       # (end, procs, estimated end)
    queue: deque = deque()
    wait_sum = bsld_sum = 0.0

    def start(job):
        nonlocal free, wait_sum, bsld_sum
        submit, run, procs, est = job
        free -= procs
        heapq.heappush(running, (now + run, procs, now + est))
        wait_sum += now - submit
        bsld_sum += max(1.0, (now - submit + run) / max(run, 10.0))

    while i < n or running:
        now = min(jobs[i][0] if i < n else float("inf"), running[0][0] if running else float("inf"))
        while running and running[0][0] <= now:
            free += heapq.heappop(running)[1]
        while i < n and jobs[i][0] <= now:
            queue.append(jobs[i])
            i += 1
        while queue and queue[0][2] <= free:
            start(queue.popleft())
        if easy and len(queue) > 1:
            # the head's shadow time: when enough running jobs have ended by their estimates
            avail, shadow = free, now
            for _, procs, est_end in sorted(running, key=lambda r: r[2]):
                avail += procs
                shadow = est_end
                if avail >= queue[0][2]:
                    break
            extra = avail - queue[0][2]
            for job in list(queue)[1:]:
                if job[2] <= free and (now + job[3] <= shadow or job[2] <= extra):
                    if now + job[3] > shadow:
                        extra -= job[2]
                    queue.remove(job)
                    start(job)
    return wait_sum / n, bsld_sum / n


def traces_dir() -> str:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.environ.get("CLOUDSIM_PY_TRACES", os.path.join(os.path.dirname(here), "shared", "traces"))


DEFAULT = [("normalized/kth.swf", 100), ("normalized/lublin256.swf", 256),
           ("KTH-SP2-1996-2.1-cln.swf.gz", 100), ("CTC-SP2-1996-3.1-cln.swf.gz", 338)]


def cpu_of(cmd: list[str], env: dict, cwd: str | None = None) -> float:
    """CPU seconds (user + system) of one fresh child process. ``cwd``: run it there (a
    ``python -m`` child puts its working folder first on ``sys.path``, so run from a checkout
    it would import that checkout's package whatever ``PYTHONPATH`` says)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loop", nargs=3, metavar=("TRACE", "PROCS", "POLICY"), help="run the plain loop once")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trace", action="append", metavar="FILE:PROCS[:policy,policy]")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cold", action="store_true",
                    help="keep the environment's bytecode setting (default: a fresh bytecode cache, "
                         "warmed by a first untimed round)")
    args = ap.parse_args()
    if args.loop:
        path, procs, policy = args.loop
        wait, bsld = replay(read_swf(path, int(procs)), int(procs), policy == "easy")
        print(f"avg_wait {wait:.1f} avg_bsld {bsld:.2f}")
        return
    plan = [(name, procs, ("fcfs", "easy")) for name, procs in DEFAULT]
    if args.trace:
        plan = []
        for spec in args.trace:
            name, procs, *pol = spec.split(":")
            plan.append((name, int(procs), tuple(pol[0].split(",")) if pol else ("fcfs", "easy")))
    env = dict(os.environ)
    made: list[str] = []                  # temporary folders, removed at the end
    if not args.cold:
        # compiled modules, as an installed package has them: a source checkout run under
        # PYTHONDONTWRITEBYTECODE=1 recompiles every module at every start (about 0.25 s)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="bench-replay-pyc-")
        made.append(env["PYTHONPYCACHEPREFIX"])
    away = tempfile.mkdtemp(prefix="bench-replay-run-")     # the runs' folder, outside any checkout
    made.append(away)
    try:
        _replay(args, plan, env, away)
    finally:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)


def _replay(args: argparse.Namespace, plan: list, env: dict, away: str) -> None:
    """Each trace and policy of ``plan``: the plain loop and the whole run, alternating."""
    print(f"# CPU s of fresh processes, best of {args.repeat} after a warm-up run, alternating; "
          f"{args.python}{' (cold: no bytecode cache)' if args.cold else ''}")
    print(f"{'trace':32} {'policy':6} {'loop s':>7} {'run s':>7} {'run/loop':>8}")
    for name, procs, policies in plan:
        path = os.path.join(traces_dir(), name)
        if not os.path.isfile(path):
            print(f"{name:32} (missing, skipped)")
            continue
        for policy in policies:
            scenario = (f"name: bench\ndatacenter: {{hosts: {procs}}}\n"
                        f"workload: {{trace: {path}, runtime_estimate: trace}}\nbroker: {policy}\n")
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as fh:
                fh.write(scenario)
            try:
                loop = run = float("inf")
                for round_ in range(args.repeat + 1):
                    loop_s = cpu_of([args.python, os.path.abspath(__file__), "--loop", path, str(procs),
                                     policy], env)
                    run_s = cpu_of([args.python, "-m", "cloudsim_py.cli", "run", fh.name, "--quiet", "--force"], env,
                                   cwd=away)
                    if round_:  # the first round warms the bytecode cache and the page cache
                        loop, run = min(loop, loop_s), min(run, run_s)
            finally:
                os.unlink(fh.name)
            print(f"{name:32} {policy:6} {loop:7.2f} {run:7.2f} {run / loop:8.2f}", flush=True)


if __name__ == "__main__":
    main()
