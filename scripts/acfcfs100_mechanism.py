#!/usr/bin/env python3
"""ACFCFS with the paper's CPU usage against every process at 100 % (ACFCFS-100, Liu 2015
section 4.3.2): the schedule's starts, swaps and kills by tier, the evidence of
docs/reproduction-notes.md, "ACFCFS-100 on every shared trace".

    python scripts/acfcfs100_mechanism.py kth ctc [--seed 1] [--job-progress lockstep]

One line per trace and usage: the average bounded slowdown and the counts of (action, tier)
from the datacenter's schedule log: ``start`` by the tier started in, ``swap`` by the tier
swapped to (0: up from the background, 1: down), ``kill`` by the tier killed in (0: a foreground
tentative run evicted, 1: a background run killed). Scenarios from scenarios/traces/; the
``liu2015`` preset, with its own job progress (barriers every 1,800 s) unless ``--job-progress``
names another."""

from __future__ import annotations

import argparse
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def counts(trace: str, seed: int, progress: str | None = None) -> list[str]:
    sys.path.insert(0, REPO)
    from cloudsim_py import simulate
    from cloudsim_py.scenario import load_scenario
    from cloudsim_py.scenario.run import prepare
    from cloudsim_py.workload.cpu import CpuUsageModel

    scenario = load_scenario(os.path.join(REPO, "scenarios", "traces", f"{trace}.yaml"),
                             [f"seed={seed}", "broker=acfcfs"])
    prepared = prepare(scenario)
    hosts = prepared.info()["hosts"]
    lines = []
    for usage in ("paper", "full"):
        model = {"preset": "liu2015", "job_progress": progress} if progress else "liu2015"
        r = simulate(prepared.table, hosts=hosts, tiers=2, policy="acfcfs", seed=seed, interference=model,
                     cpu_usage=CpuUsageModel(usage), record=True)
        c = collections.Counter((action, tier) for _, action, _, tier, _ in r.datacenter.log or ()
                                if action in ("start", "swap", "kill"))
        parts = " ".join(f"{a}@{t}={c[(a, t)]}" for a in ("start", "swap", "kill") for t in (0, 1))
        lines.append(f"{trace} {usage:5} avg_bsld {r.summary['avg_bsld']:.2f} {parts}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--job-progress", choices=("lockstep", "per_process", "barriers"))
    a = ap.parse_args()
    for trace in a.traces:
        for line in counts(trace, a.seed, a.job_progress):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
