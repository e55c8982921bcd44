"""A custom metric: the 95th-percentile wait of wide jobs, computed from a run's per-job records.

    python examples/custom_metric.py                  # runs k1_backfilling.yaml in memory
    python examples/custom_metric.py results/examples/k1/easy/jobs.csv   # or reads a run's jobs.csv

The summary's metrics are fixed (docs/metrics.md); a metric of your own is a few lines of Python
over the per-job columns: ``result.records.columns`` (numpy arrays: ``id submit start finish
procs runtime estimate wait response bsld ...``) in memory, or the same columns in the
``jobs.csv`` that ``cloudsim-py run --out DIR`` writes. A scenario file cannot name one."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from cloudsim_py import load_scenario, run_scenario

HERE = Path(__file__).resolve().parent

#: a job is "wide" when it asks for more than this share of the machine
WIDE_SHARE = 0.25


def wide_job_p95_wait(columns: Mapping[str, Sequence[float]], hosts: int) -> float:
    """95th percentile of the wait, in seconds, of the jobs wider than ``WIDE_SHARE`` of the
    machine: backfilling favours narrow jobs, and the average wait hides what wide ones pay."""
    procs = np.asarray(columns["procs"], dtype=float)
    wait = np.asarray(columns["wait"], dtype=float)
    wide = wait[procs > WIDE_SHARE * hosts]
    return float(np.percentile(wide, 95)) if wide.size else 0.0


def from_jobs_csv(path: str | Path) -> dict[str, list[float]]:
    """The finished jobs' ``procs`` and ``wait`` columns of a run's ``jobs.csv``."""
    cols: dict[str, list[float]] = {"procs": [], "wait": []}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["state"] == "finished":
                cols["procs"].append(float(row["procs"]))
                cols["wait"].append(float(row["wait"]))
    return cols


def main(jobs_csv: str | None = None, hosts: int = 64) -> dict[str, float]:
    if jobs_csv is not None:
        value = wide_job_p95_wait(from_jobs_csv(jobs_csv), hosts)
        print(f"{jobs_csv}: wide-job p95 wait {value / 60:8.1f} min")
        return {jobs_csv: value}
    out = {}
    for policy, result in run_scenario(load_scenario(HERE / "k1_backfilling.yaml")):
        out[policy] = wide_job_p95_wait(result.records.columns, hosts)
        print(f"{policy:13} avg wait {result.summary['avg_wait'] / 60:7.1f} min   "
              f"wide-job p95 wait {out[policy] / 60:7.1f} min")
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
