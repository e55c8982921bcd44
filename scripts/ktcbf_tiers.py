"""KTCBF (Sindhuja and Santhosh, seed paper 004) on KTH-SP2 with k = 2, 3, 4 tiers: how many jobs
each tier takes, and the paper's claims (responsiveness against two tiers, migrations, accuracy of
the CPU-usage estimates), under either threshold rule (``datacenter.tier_threshold``).

    python scripts/ktcbf_tiers.py --tiers 4 --rule foreground --seed 0 [--error 0.5] [--jobs N]
    python scripts/ktcbf_tiers.py record [--out docs/data/paper004.csv]

The first prints one JSON line: the run's options, its summary numbers and the share of jobs per tier
(``placed``: the tier of each job's first placement; ``ran``: jobs that ran in the tier at
least once, by start, resume or priority swap). ``record`` makes the runs of
docs/reproduction-notes.md ("Four tiers that are used": k = 1-4, both rules, seeds 0 and 1, and
estimate errors 0.25 and 0.5 at k = 2 and 4) and writes them as the table the claims ledger
reads (``cloudsim_py.experiments.claims.paper004``); about 3 minutes on 2 cores. The paper's CPU-usage rule (1.0 for one process,
U(0.4, 1.0) otherwise), threshold 96 %, idle floor 4 %, liu2013 interference, migration cost
20 s (Liu 2013 section 5.1, which paper 004 generalises); 100 hosts, KTH's machine.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

import attrs

from cloudsim_py import prepare, read_table, simulate
from cloudsim_py.experiments.liu2015 import traces_dir
from cloudsim_py.workload.cpu import CpuEstimateModel

#: from $CLOUDSIM_PY_TRACES, else ../shared/traces beside the repository
TRACE = Path(traces_dir()) / "KTH-SP2-1996-2.1-cln.swf.gz"
FIELDS = ("jobs_finished", "avg_wait", "avg_response", "avg_bsld", "migrations", "preemptions", "swaps",
          "utilization", "cpu_utilization")


def tier_shares(log: list, tiers: int) -> dict[str, list[int]]:
    """From a schedule log (``record=True``): per tier, the jobs first placed there and the
    jobs that ran there at least once (start, resume or swap)."""
    placed = [0] * tiers
    ran: list[set[int]] = [set() for _ in range(tiers)]
    seen: set[int] = set()
    for _, action, job, tier, _hosts in log:
        if action in ("start", "resume", "swap"):
            ran[tier].add(job)
            if job not in seen:
                seen.add(job)
                placed[tier] += 1
    return {"placed": placed, "ran": [len(s) for s in ran]}


def run(tiers: int, rule: str, seed: int, error: float = 0.0, jobs: int | None = None,
        path: Path = TRACE) -> dict:
    table = prepare(read_table(path), 100, "trace")
    if jobs is not None:
        table = attrs.evolve(table, data=table.data[:jobs], line=table.line[:jobs],
                             procs=table.procs[:jobs], runtime=table.runtime[:jobs],
                             estimate=table.estimate[:jobs])
    estimate = CpuEstimateModel("error", error) if error > 0 else CpuEstimateModel()
    t0 = time.perf_counter()
    r = simulate(table, hosts=100, tiers=tiers, policy="ktcbf", seed=seed, interference="liu2013",
                 migration_cost=20.0, cpu_estimate=estimate, tier_threshold=rule, record=True)
    out = {"tiers": tiers, "rule": rule, "seed": seed, "error": error}
    out.update({k: r.summary[k] for k in FIELDS})
    out.update(tier_shares(r.datacenter.log or [], tiers))
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


#: the runs of ``record``: (tiers, rule, seed, error)
RECORD = ([(1, "foreground", s, 0.0) for s in (0, 1)] + [(2, "foreground", s, 0.0) for s in (0, 1)]
          + [(k, rule, s, 0.0) for s in (0, 1) for k in (3, 4) for rule in ("foreground", "stacked")]
          + [(k, "foreground", 0, e) for e in (0.25, 0.5) for k in (2, 4)])
OUT = Path(__file__).resolve().parent.parent / "docs" / "data" / "paper004.csv"


def record(out: Path = OUT) -> None:
    """Make every run of RECORD and write one CSV row each (per-tier counts as tier columns)."""
    rows = []
    for tiers, rule, seed, error in RECORD:
        r = run(tiers, rule, seed, error)
        row = {k: r[k] for k in ("tiers", "rule", "seed", "error", *FIELDS)}
        for name in ("placed", "ran"):
            row.update({f"{name}_{i}": (r[name][i] if i < tiers else 0) for i in range(4)})
        rows.append(row)
        print(json.dumps(r), flush=True)
    tmp = out.with_suffix(".csv.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, out)
    print(f"wrote {len(rows)} runs to {out}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["record"]:
        rp = argparse.ArgumentParser(description="record the runs the claims ledger reads")
        rp.add_argument("--out", type=Path, default=OUT)
        record(rp.parse_args(argv[1:]).out)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tiers", type=int, default=4)
    ap.add_argument("--rule", choices=("foreground", "stacked"), default="foreground")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--error", type=float, default=0.0, help="CPU-estimate error r: U(1-r, 1+r)")
    ap.add_argument("--jobs", type=int, default=None, help="only the first N jobs")
    a = ap.parse_args(argv)
    print(json.dumps(run(a.tiers, a.rule, a.seed, a.error, a.jobs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
