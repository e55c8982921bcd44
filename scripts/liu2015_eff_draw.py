"""Liu 2015 Table 2, consolidation cells, under each reading of when the background efficiency
is drawn (``interference.eff_draw``): the markdown table of docs/reproduction-notes.md,
"When the background efficiency is drawn".

    cloudsim-py sweep scenarios/papers/liu2015-table2-eff-draw.yaml --jobs 2
    python scripts/liu2015_eff_draw.py [--results results/papers/liu2015-table2-eff-draw.parquet]

Each cell: mean ± standard deviation over the seeds, then ours / paper. ``slice`` is the slice
reading with ``slice_s`` 60 s, ``slice600`` with 600 s."""

from __future__ import annotations

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
READINGS = ("placement", "slice", "slice600", "process", "mean")
METRICS = (("avg_wait", "avg wait (min)", 60.0), ("max_wait", "max wait (min)", 60.0),
           ("avg_bsld", "avg bsld", 1.0), ("max_bsld", "max bsld", 1.0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(REPO, "results", "papers", "liu2015-table2-eff-draw.parquet"))
    args = ap.parse_args()
    sys.path.insert(0, REPO)
    from cloudsim_py.experiments.liu2015 import TABLE2
    from cloudsim_py.experiments.store import read_results

    by: dict[tuple[str, str, str], list[dict]] = {}
    for r in read_results(args.results):
        if r.get("status") == "ok":
            by.setdefault((r["tag.trace"], r["policy"], r["tag.eff_draw"]), []).append(r)
    print("| trace | policy | metric | paper | " + " | ".join(READINGS) + " |")
    print("|---|---|---|---:|" + "---:|" * len(READINGS))
    ratios: dict[str, list[float]] = {h: [] for h in READINGS}
    for trace in ("KTH", "CTC"):
        for policy in ("ccfcfs", "acfcfs"):
            for i, (metric, label, scale) in enumerate(METRICS):
                paper = TABLE2[trace][policy][i]
                cells = []
                for how in READINGS:
                    rows = by.get((trace, policy, how), [])
                    if not rows:
                        cells.append("-")
                        continue
                    values = [r[metric] / scale for r in rows]
                    mean = statistics.fmean(values)
                    sd = statistics.stdev(values) if len(values) > 1 else 0.0
                    ratios[how].append(mean / paper)
                    cells.append(f"{mean:,.1f} ± {sd:,.1f} ({mean / paper:.2f})")
                print(f"| {trace} | {policy.upper()} | {label} | {paper:,.1f} | " + " | ".join(cells) + " |")
    print()
    print("| reading | runs | cells | ours / paper: min | mean | max | mean of the averages only |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for how in READINGS:
        r = ratios[how]
        if not r:
            continue
        n = sum(len(v) for k, v in by.items() if k[2] == how)
        avgs = [x for j, x in enumerate(r) if j % 4 in (0, 2)]   # avg wait, avg bsld
        print(f"| {how} | {n} | {len(r)} | {min(r):.2f} | {statistics.fmean(r):.2f} | {max(r):.2f} | "
              f"{statistics.fmean(avgs):.2f} |")


if __name__ == "__main__":
    main()
