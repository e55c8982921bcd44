"""Liu 2013 and Liu 2015's load sweeps on the synthetic workloads, reduced, and the tables the
claims ledger reads (issue 18 items 4 and 5).

    python scripts/liu_sweeps.py run       # the three sweeps below, one process (--jobs 1)
    python scripts/liu_sweeps.py record    # docs/data/liu2015-figs.csv, liu2013.csv, liu-fw-sensitivity.csv
    python scripts/reproduce.py claims     # the ledger in docs/reproduction.md
    python scripts/liu_sweeps.py sensitivity   # the FW claims under each feitelson96 reading (Markdown)

Sweeps (scenarios/papers/): ``liu2015-figs4-10-small.yaml`` (Liu 2015 section 4.2 and Figs.
7-10), ``liu2013-small.yaml`` (Liu 2013 Figs. 3-4 and section 5.4), ``liu-fw-sensitivity.yaml``
(the Feitelson-workload claims under eight readings of the feitelson96 model) and
``liu-fw-size.yaml`` (the calibrated one with 100,000 jobs, recorded with them). Each recorded row
is the mean over the seeds of one (workload, variant, load[, study]) cell, with the number of
seeds; times in seconds; ``migrations`` is per job (Liu 2013's mig_num)."""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
from typing import Any, Iterable, Mapping

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SWEEPS = {
    "liu2015-figs": "scenarios/papers/liu2015-figs4-10-small.yaml",
    "liu2013": "scenarios/papers/liu2013-small.yaml",
    "liu-fw-sensitivity": "scenarios/papers/liu-fw-sensitivity.yaml",
    "liu-fw-size": "scenarios/papers/liu-fw-size.yaml",
}
RESULTS = {
    "liu2015-figs": "results/papers/liu2015-figs4-10-small.parquet",
    "liu2013": "results/papers/liu2013-small.parquet",
    "liu-fw-sensitivity": "results/papers/liu-fw-sensitivity.parquet",
    "liu-fw-size": "results/papers/liu-fw-size.parquet",
}
METRICS = ("avg_wait", "avg_response", "avg_bsld", "max_wait", "max_bsld", "utilization", "kills",
           "migrations")


def _parse(value: Any) -> Any:
    """An axis value as the table holds it (mappings as JSON text)."""
    if isinstance(value, str) and value.startswith("{"):
        return json.loads(value)
    return value


def liu2013_variant(row: Mapping[str, Any]) -> str:
    """The name of a Liu 2013 run: the policy in Figs. 3-4, else AMCBF with its study's value
    (AMCBF-E10, AMCBF-UN, AMCBF-M600, AMCBF-C95, AMCBF-C100)."""
    study = row["tag.study"]
    policy = str(row["policy"]).upper()
    if study == "figs":
        return policy
    if study == "cpu-estimate":
        est = _parse(row["workload.cpu_estimate"])
        return f"{policy}-UN" if est == "unknown" else f"{policy}-E{round(100 * float(est['error']))}"
    if study == "migration-cost":
        return f"{policy}-M{int(float(row['datacenter.migration_cost']))}"
    if study == "cpu-mean":
        usage = _parse(row["workload.cpu_usage"])
        return f"{policy}-C100" if usage == "full" else f"{policy}-C{round(100 * float(usage['mean']))}"
    raise ValueError(f"unknown study {study!r}")


def sensitivity_variant(row: Mapping[str, Any]) -> str:
    if row["tag.paper"] == "liu2015":
        return str(row["policy"]).upper()
    return str(row["tag.variant"])


def aggregate(rows: Iterable[Mapping[str, Any]], key_names: tuple[str, ...], key) -> list[dict]:
    """Mean over the seeds of each cell ``key(row)`` (a tuple matching ``key_names``)."""
    cells: dict[tuple, list[Mapping[str, Any]]] = {}
    for r in rows:
        if r.get("status") != "ok":
            continue
        cells.setdefault(key(r), []).append(r)
    out = []
    for k in sorted(cells, key=lambda t: tuple(str(x) if not isinstance(x, float) else f"{x:012.4f}" for x in t)):
        rs = cells[k]
        rec: dict[str, Any] = dict(zip(key_names, k))
        rec["seeds"] = len({r["seed"] for r in rs})
        for m in METRICS:
            values = [float(r[m]) / (float(r["jobs_finished"]) if m == "migrations" else 1.0)
                      for r in rs if r.get(m) is not None]
            rec[m] = f"{statistics.fmean(values):.6g}" if values else ""
        out.append(rec)
    return out


def load(r: Mapping[str, Any]) -> float:
    return round(float(r["workload.model.load"]), 4)


def tables(results: Mapping[str, str]) -> dict[str, list[dict]]:
    from cloudsim_py.experiments.store import read_results
    out = {}
    path = results["liu2015-figs"]
    if os.path.exists(path):
        out["liu2015-figs"] = aggregate(read_results(path), ("workload", "variant", "load"),
                                        lambda r: (r["tag.workload"], r["tag.variant"], load(r)))
    path = results["liu2013"]
    if os.path.exists(path):
        out["liu2013"] = aggregate(read_results(path), ("workload", "study", "variant", "load"),
                                   lambda r: (r["tag.workload"], r["tag.study"], liu2013_variant(r), load(r)))
    sens = [r for name in ("liu-fw-sensitivity", "liu-fw-size") if os.path.exists(results[name])
            for r in read_results(results[name])]
    if sens:
        out["liu-fw-sensitivity"] = aggregate(sens, ("fw", "paper", "variant", "load"),
                                              lambda r: (r["tag.fw"], r["tag.paper"], sensitivity_variant(r), load(r)))
    return out


FW_WHERE = ("FWload", "FW", "section 4.2")
#: the sensitivity table's columns, in this order (the sweep's tag.fw values)
FW_READINGS = ("fitted", "calibrated", "calibrated-20k", "calibrated-100k", "serial17", "repeat10", "norepeat", "nasa",
               "nasa-norepeat")


def sensitivity_evidence(sens: list[dict], fw: str, data: str):
    """The evidence the FW claims read for variant ``fw`` of the sensitivity sweep: its rows as
    the FW rows of liu2015-figs / liu2013, with the JW rows of the recorded paper sweeps."""
    from cloudsim_py.experiments.claims.core import Evidence, read_csv
    l15 = [r for r in _maybe(read_csv, os.path.join(data, "liu2015-figs.csv")) if r["workload"] == "JWload"]
    l13 = [r for r in _maybe(read_csv, os.path.join(data, "liu2013.csv")) if r["workload"] == "JWorkload"]
    for r in sens:
        if r["fw"] != fw:
            continue
        metrics = {k: v for k, v in r.items() if k not in ("fw", "paper", "variant")}
        if r["paper"] == "liu2015":
            l15.append({"workload": "FWload", "variant": r["variant"], **metrics})
        else:
            v = r["variant"].replace("AMCBF-600", "AMCBF-M600")
            l13.append({"workload": "FWorkload", "study": "figs", "variant": v, **metrics})
    return Evidence(tables={"liu2015-figs": tuple(l15), "liu2013": tuple(l13)})


def _maybe(read, path: str) -> tuple:
    return read(path) if os.path.exists(path) else ()


def sensitivity_table(data: str) -> str:
    """Markdown: each FW claim (rows) under each variant of the sensitivity sweep (columns)."""
    from cloudsim_py.experiments.claims import ledger
    from cloudsim_py.experiments.claims import liu2013, liu2015
    from cloudsim_py.experiments.claims.core import read_csv
    sens = list(read_csv(os.path.join(data, "liu-fw-sensitivity.csv")))
    seen = set(r["fw"] for r in sens)
    variants = [v for v in FW_READINGS if v in seen] + sorted(seen - set(FW_READINGS))
    claims = [c for c in liu2015.figure_claims() + liu2013.claims()
              if (c.where == "section 4.2" or any(w in c.where.split(", ") for w in FW_WHERE[:2]))
              and "Figs. 7-8" not in c.where and "Figs. 9-10" not in c.where]
    cols = {v: ledger(claims, sensitivity_evidence(sens, v, data)) for v in variants}
    lines = ["| claim | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants)]
    for i, c in enumerate(claims):
        cells = []
        for v in variants:
            row = cols[v][i]
            ours = row.ours if len(row.ours) <= 34 else row.ours[:32].rstrip(" ,;:(") + " ..."
            cells.append("-" if row.verdict.startswith("not attempted") else f"{row.verdict}: {ours}")
        if all(x == "-" for x in cells):
            continue
        lines.append(f"| {c.paper}, {c.where.replace('FWload', 'FW').replace(', FW', '')}: {c.text} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_csv(path: str, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the sweeps (resumable)")
    run.add_argument("--only", choices=sorted(SWEEPS), action="append")
    rec = sub.add_parser("record", help="write docs/data/<name>.csv from the sweeps' tables")
    rec.add_argument("--out", default=os.path.join(REPO, "docs", "data"))
    sen = sub.add_parser("sensitivity", help="print the FW claims under each feitelson96 reading")
    sen.add_argument("--data", default=os.path.join(REPO, "docs", "data"))
    args = ap.parse_args(argv)
    sys.path.insert(0, REPO)
    if args.command == "run":
        for name in args.only or SWEEPS:
            cmd = [sys.executable, "-m", "cloudsim_py.cli", "sweep", SWEEPS[name], "--jobs", "1"]
            print(" ".join(cmd), flush=True)
            subprocess.run(cmd, cwd=REPO, check=True)
        return 0
    if args.command == "sensitivity":
        print(sensitivity_table(args.data), end="")
        return 0
    found = tables({k: os.path.join(REPO, v) for k, v in RESULTS.items()})
    for name, rows in found.items():
        if rows:
            path = os.path.join(args.out, f"{name}.csv")
            write_csv(path, rows)
            print(f"{path}: {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
