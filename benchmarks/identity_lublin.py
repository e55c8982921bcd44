#!/usr/bin/env python3
"""Hashes of what a run outputs on generated Lublin jobs, to compare two trees by hand (issue 19).

    PYTHONPATH=/path/to/other/tree python benchmarks/identity_lublin.py > other.txt
    python benchmarks/identity_lublin.py > this.txt && diff other.txt this.txt

``compare_commits.py --only outputs`` compares ``jobs.csv`` on KTH-SP2, whose 100 processors a
one-tier datacenter keeps per host. This runs 3,000 ``lublin03`` jobs on 4,096 processors (span
mode, ``Datacenter.span_mode_hosts``) under FCFS, EASY, conservative, CMBF and AMBF, and 1,500
on 512 processors under ACFCFS and AMCBF (two tiers), and prints per run the sha256 (first 16
hex digits) of ``records.to_csv()``, of the summary without ``wall_seconds`` and of the schedule
recorder's log (every action with its host ids, as ``schedule.csv`` names them). Uses only
public functions, so it runs on older trees too."""

from __future__ import annotations

import hashlib

import numpy as np

from cloudsim_py import prepare, simulate
from cloudsim_py.engine import RandomStreams
from cloudsim_py.workload.models.lublin03 import Lublin03


def lublin(jobs: int, procs: int):
    raw = Lublin03(procs=procs, load=0.8).generate(jobs, np.random.default_rng(1))
    return prepare(raw, procs, "tsafrir05", rng=RandomStreams(1)["runtime_estimate"])


def digest(x: object) -> str:
    return hashlib.sha256(repr(x).encode()).hexdigest()[:16]


def hashes(table, procs: int, policy: str, tiers: int, **extra) -> tuple[str, str, str]:
    """One run's digests: its records' CSV, its summary without ``wall_seconds``, the
    datacenter's log (also used by identity_two_tier.py)."""
    r = simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1, record=True, **extra)
    summary = {k: v for k, v in r.summary.items() if k != "wall_seconds"}
    return digest(r.records.to_csv()), digest(summary), digest(r.world.datacenter.log)


def main() -> None:
    one, two = lublin(3000, 4096), lublin(1500, 512)
    print(f"{'policy':13} {'tiers':>5} {'procs':>5} {'records':>16} {'summary':>16} {'log':>16}")
    for policy, tiers in [("fcfs", 1), ("easy", 1), ("conservative", 1), ("cmbf", 1), ("ambf", 1),
                          ("acfcfs", 2), ("amcbf", 2)]:
        procs, table = (4096, one) if tiers == 1 else (512, two)
        records, summary, log = hashes(table, procs, policy, tiers)
        print(f"{policy:13} {tiers:5d} {procs:5d} {records:>16} {summary:>16} {log:>16}", flush=True)


if __name__ == "__main__":
    main()
