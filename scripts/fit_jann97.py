#!/usr/bin/env python3
"""Refit the Jann et al. 1997 model form to the CTC SP2 log; writes the jann97 data file.

Jann et al.'s per-size-range parameter tables are not available (WORKLOAD_MODELS.md 5.1-5.2).
This script applies their *method* to their *data* (WORKLOAD_MODELS.md 5.3): the cleaned CTC SP2
log of the Parallel Workloads Archive, restricted by default to Jann's period (25 Jun - 12 Sep
1996, the 322-node batch partition), cut into power-of-two size ranges; per range a two-branch
hyper-Erlang of common order is fitted by three-moment matching to (a) the gaps between
successive submissions of that range's jobs and (b) their runtimes; the sizes inside a range keep
their empirical distribution. The result is labelled as a refit everywhere.

Usage: python scripts/fit_jann97.py [--traces DIR] [--whole-log] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cloudsim_py.experiments.liu2015 import traces_dir as default_traces_dir  # noqa: E402
from cloudsim_py.workload.archive import sha256_of  # noqa: E402
from cloudsim_py.workload.models.hypererlang import fit_hyper_erlang, raw_moments  # noqa: E402
from cloudsim_py.workload.models.stats import describe  # noqa: E402
from cloudsim_py.workload.table import prepare, read_table  # noqa: E402

TRACE = "CTC-SP2-1996-3.1-cln.swf.gz"
#: Jann et al.'s period ends 12 Sep 1996 (PWA m_jann97); midnight EDT (UTC-4) after that day.
WINDOW_END_UNIX = int(dt.datetime(1996, 9, 13, tzinfo=dt.timezone(dt.timedelta(hours=-4))).timestamp())
#: Upper ends of the size ranges (WORKLOAD_MODELS.md 5.3's power-of-two example; the last range
#: ends at the largest size seen).
RANGE_TOPS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


def traces_dir(arg: str | None) -> Path:
    """``--traces``, else the project's default trace folder."""
    return Path(arg) if arg else Path(default_traces_dir())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", help="folder holding the shared traces")
    ap.add_argument("--whole-log", action="store_true", help="fit the whole cleaned log, not Jann's period")
    ap.add_argument("--out", help="output JSON (default: the package data file)")
    args = ap.parse_args(argv)

    path = traces_dir(args.traces) / TRACE
    if not path.is_file():
        print(f"error: {path} not found (set --traces or CLOUDSIM_PY_TRACES)", file=sys.stderr)
        return 1
    raw = read_table(path)
    table = prepare(raw, raw.header.machine_size or 338, estimate="actual")  # same cleaning as the simulator
    submit = table.data[:, 1]
    procs, runtime = table.procs, table.runtime
    start = raw.header.unix_start_time or 0
    if args.whole_log:
        keep = np.ones(len(submit), dtype=bool)
        period = "whole cleaned log (26 Jun 1996 - May 1997)"
        fit_name = "CTC-SP2-1996-whole"
    else:
        keep = submit < WINDOW_END_UNIX - start
        period = "Jann et al.'s period: log start (26 Jun 1996) to 12 Sep 1996 inclusive"
        fit_name = "CTC-SP2-1996"
    submit, procs, runtime = submit[keep], procs[keep], runtime[keep]
    machine = int(procs.max())

    ranges = []
    lo = 1
    for hi in [t for t in RANGE_TOPS if t < machine] + [machine]:
        mask = (procs >= lo) & (procs <= hi)
        if mask.sum() >= 3:
            gaps = np.diff(submit[mask])
            runs = runtime[mask]
            gm, rm = raw_moments(gaps), raw_moments(runs)
            ia, rt = fit_hyper_erlang(*gm), fit_hyper_erlang(*rm)
            sizes, counts = np.unique(procs[mask], return_counts=True)
            ranges.append({
                "lo": lo, "hi": hi, "jobs": int(mask.sum()),
                "interarrival": ia.as_dict(), "runtime": rt.as_dict(),
                "sizes": [int(s) for s in sizes],
                "size_probs": [round(float(c) / float(mask.sum()), 10) for c in counts],
                "sample": {"interarrival_moments": list(gm), "runtime_moments": list(rm),
                           "interarrival_cv": float(gaps.std() / gaps.mean()),
                           "runtime_cv": float(runs.std() / runs.mean())},
            })
        lo = hi + 1

    out = {
        "model": "jann97",
        "fit": fit_name,
        "label": f"jann97 refitted to CTC-SP2 ({fit_name}); NOT Jann et al.'s published parameter table",
        "method": "WORKLOAD_MODELS.md 5.3: per power-of-two size range, two-branch hyper-Erlang of "
                  "common order fitted by three-moment matching to inter-submission gaps and runtimes; "
                  "empirical sizes within each range",
        "script": "scripts/fit_jann97.py" + (" --whole-log" if args.whole_log else ""),
        "trace": TRACE,
        "trace_sha256": sha256_of(path),
        "period": period,
        "cleaning": "cloudsim_py.workload.table.prepare (runtime <= 0 and processors <= 0 dropped)",
        "machine_procs": machine,
        "ranges": ranges,
        "targets": describe(submit, procs, runtime, machine),
    }
    dest = Path(args.out) if args.out else (
        REPO / "cloudsim_py" / "workload" / "models" / "data" / f"jann97_{fit_name.lower()}.json")
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{dest}: {len(ranges)} ranges from {int(keep.sum())} jobs on {machine} processors")
    for r in ranges:
        print(f"  {r['lo']:>3}-{r['hi']:<3} {r['jobs']:>6} jobs  interarrival {r['interarrival']}  runtime {r['runtime']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
