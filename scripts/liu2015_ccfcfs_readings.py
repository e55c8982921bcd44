#!/usr/bin/env python3
"""CCFCFS and ACFCFS on KTH and CTC (Liu 2015 Table 2) under readings of the model the text
leaves open (issue 18: "find the rest of the excess" of CTC CCFCFS): one line per (trace,
policy, reading, seed) with the four Table 2 cells, and the same cells under the metric
readings of the execution time t_e (section 4.1: "w_t = t_f - t_a - t_e ... t_e is the
execution time of the job"): ``runtime`` (the trace's runtime, what cloudsim_py reports),
``final`` (the duration of the run that finished: finish - its start; wait = that start -
submit), ``first`` (finish - the first start; wait = first start - submit).

    python scripts/liu2015_ccfcfs_readings.py --seeds 1 2 3 --reading lockstep \\
        --reading progress=per_process_all_idle [--traces kth ctc] [--policies ccfcfs acfcfs]

A reading is ``name`` or ``name=key:value,key:value`` of ``interference`` overrides (the
liu2015 preset; ``preset`` alone: the preset as it is, barriers every 1,800 s of work since
2026-11-25; ``lockstep`` alone: the preset with lockstep progress, its default before);
``progress=X`` is short for ``job_progress:X``. Prints JSON lines (append them to a file with ``>>``);
``--table FILE [--metric runtime|final|first]`` prints the markdown table of such a file (mean
± sd over the seeds, ours / paper) and how many of the 16 cells are within 15 %."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PAPER = {  # Liu 2015 Table 2: avg wait (min), max wait (min), avg bsld, max bsld
    ("kth", "ccfcfs"): (154.0, 4605, 73.3, 18604), ("kth", "acfcfs"): (105.2, 4984, 30.8, 11521),
    ("ctc", "ccfcfs"): (566.5, 8453, 76.3, 23306), ("ctc", "acfcfs"): (345.9, 6077, 27.2, 13272),
}


class LastStart:
    """Each finished job's start of the run that finished (``job.start_time`` then)."""

    def __init__(self) -> None:
        self.start: dict[int, float] = {}

    def on_finish(self, job) -> None:
        self.start[job.id] = job.start_time


def parse_reading(text: str) -> tuple[str, dict]:
    if text == "preset":
        return text, {}
    if text == "lockstep":
        return text, {"job_progress": "lockstep"}
    if text.startswith("progress="):
        return text, {"job_progress": text.split("=", 1)[1]}
    name, _, body = text.partition("=")
    over: dict = {}
    for part in body.split(","):
        k, _, v = part.partition(":")
        try:
            over[k] = float(v)
        except ValueError:
            over[k] = v
    return name, over


def cells(submit, finish, runtime, te, tau=10.0):
    import numpy as np
    resp = finish - submit
    wait = resp - te
    bsld = np.maximum(resp / np.maximum(te, tau), 1.0)
    return [float(wait.mean() / 60), float(wait.max() / 60), float(bsld.mean()), float(bsld.max())]


def run(trace: str, policy: str, reading: str, seed: int) -> dict:
    sys.path.insert(0, REPO)
    import numpy as np
    from cloudsim_py import simulate
    from cloudsim_py.scenario import load_scenario
    from cloudsim_py.scenario.run import prepare
    from cloudsim_py.workload.cpu import CpuUsageModel

    name, over = parse_reading(reading)
    scenario = load_scenario(os.path.join(REPO, "scenarios", "traces", f"{trace}.yaml"),
                             [f"seed={seed}", f"broker={policy}"])
    prepared = prepare(scenario)
    hosts = prepared.info()["hosts"]
    last = LastStart()
    t0 = time.perf_counter()
    r = simulate(prepared.table, hosts=hosts, tiers=2, policy=policy, seed=seed,
                 interference={"preset": "liu2015", **over}, cpu_usage=CpuUsageModel("paper"),
                 listeners=[last])
    wall = time.perf_counter() - t0
    c = r.records.columns
    submit, finish, runtime, first = c["submit"], c["finish"], c["runtime"], c["start"]
    final = np.array([last.start[int(i)] for i in c["id"]])
    s = r.summary
    out = {"trace": trace, "policy": policy, "reading": name, "seed": seed, "wall": round(wall, 1),
           "kills": s["kills"], "swaps": s["swaps"],
           "runtime": [s["avg_wait"] / 60, s["max_wait"] / 60, s["avg_bsld"], s["max_bsld"]],
           "final": cells(submit, finish, runtime, finish - final),
           "first": cells(submit, finish, runtime, finish - first)}
    return out


CELL_NAMES = ("avg wait (min)", "max wait (min)", "avg bsld", "max bsld")


def table(path: str, metric: str) -> list[str]:
    """Markdown rows: one per (trace, policy, cell), one column per reading in the file's order,
    each cell mean ± sd over the seeds (ours / paper); last rows: the seeds and how many of the
    16 cells (and of CTC CCFCFS's 4) are within 15 % of the paper's."""
    import statistics
    runs: dict = {}
    for line in open(path):
        d = json.loads(line)
        runs.setdefault(d["reading"], {}).setdefault((d["trace"], d["policy"]), []).append(d[metric])
    readings = list(runs)
    keys = [(t, p) for t in ("kth", "ctc") for p in ("ccfcfs", "acfcfs")]
    out = ["| trace | policy | cell | paper | " + " | ".join(readings) + " |",
           "|---|---|---|---:|" + "---:|" * len(readings)]
    ok = dict.fromkeys(readings, 0)
    ctc = dict.fromkeys(readings, 0)
    for k in keys:
        for i, cell in enumerate(CELL_NAMES):
            row = [k[0].upper(), k[1].upper(), cell, f"{PAPER[k][i]:,}"]
            for reading in readings:
                xs = [v[i] for v in runs[reading].get(k, [])]
                if not xs:
                    row.append("-")
                    continue
                m = statistics.fmean(xs)
                sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
                ratio = m / PAPER[k][i]
                if abs(ratio - 1) <= 0.15:
                    ok[reading] += 1
                    ctc[reading] += k == ("ctc", "ccfcfs")
                row.append(f"{m:,.1f} ± {sd:,.1f} ({ratio:.2f})")
            out.append("| " + " | ".join(row) + " |")
    seeds = [str(min(len(v) for v in runs[r].values())) for r in readings]
    out.append("| | | seeds | | " + " | ".join(seeds) + " |")
    out.append("| | | cells within 15 % | | " + " | ".join(f"{ok[r]} of 16" for r in readings) + " |")
    out.append("| | | CTC CCFCFS within 15 % | | " + " | ".join(f"{ctc[r]} of 4" for r in readings) + " |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", help="print the table of this JSON-lines file instead of running")
    ap.add_argument("--metric", default="runtime", choices=("runtime", "final", "first"))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--reading", action="append", default=[])
    ap.add_argument("--traces", nargs="+", default=["kth", "ctc"])
    ap.add_argument("--policies", nargs="+", default=["ccfcfs", "acfcfs"])
    a = ap.parse_args()
    if a.table:
        print("\n".join(table(a.table, a.metric)))
        return 0
    for reading in a.reading or ["lockstep"]:
        for trace in a.traces:
            for policy in a.policies:
                for seed in a.seeds:
                    print(json.dumps(run(trace, policy, reading, seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
