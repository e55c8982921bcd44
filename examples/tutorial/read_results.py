"""Tutorial step 3: read what ``cloudsim-py run --out DIR`` wrote, with the standard library.

    python examples/tutorial/read_results.py results/tutorial/sf

With several brokers, DIR holds one folder per broker label, each with ``summary.json`` (the
run's metrics under ``"summary"``, what ran beside them) and ``jobs.csv`` (one row per job).
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path


def read_run(folder: Path) -> dict[str, float]:
    """The metrics of one run, and the widest job that waited the longest, from its files."""
    summary = json.loads((folder / "summary.json").read_text())["summary"]
    with open(folder / "jobs.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["state"] == "finished"]
    longest = max(rows, key=lambda r: float(r["wait"]))
    return {"avg_wait": summary["avg_wait"], "max_wait": summary["max_wait"],
            "avg_bsld": summary["avg_bsld"], "longest_wait_procs": float(longest["procs"])}


def main(out_dir: str) -> dict[str, dict[str, float]]:
    runs = {}
    for folder in sorted(p for p in Path(out_dir).iterdir() if (p / "summary.json").is_file()):
        runs[folder.name] = r = read_run(folder)
        print(f"{folder.name:15} avg wait {r['avg_wait'] / 60:7.1f} min   max wait "
              f"{r['max_wait'] / 60:7.1f} min (a {r['longest_wait_procs']:.0f}-processor job)   "
              f"avg bsld {r['avg_bsld']:8.2f}")
    return runs


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/tutorial/sf")
