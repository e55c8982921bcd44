#!/usr/bin/env python3
"""Fit the Feitelson 1996 model structure to PWA logs; writes the feitelson96 data files.

The paper's constants are not available (WORKLOAD_MODELS.md 3.1-3.2). This script keeps the
structure (module docstring of ``cloudsim_py/workload/models/feitelson96.py``) and fits every
constant to one cleaned log (same cleaning as ``table.prepare``):

- size weights: maximum likelihood for P(n) ~ w(n) n^-1.5 with one weight for n = 1, one per
  power of two and one for all other sizes - closed form: each class gets its observed share;
- runtime: the four constants (short_mean, long_mean, intercept and slope of the short-branch
  probability in the size) by maximum likelihood of each job's runtime given its size (matching
  only the aggregate mean / median / cv / correlation instead gave absurd conditional runtimes,
  e.g. serial jobs averaging 91 s where the SDSC log has 3,725 s);
- repetitions: runs = maximal sequences of consecutive jobs of one user with the same size (and
  the same executable where the log records it); Zipf exponent by maximum likelihood on the run
  lengths, truncated at the longest run seen;
- arrivals: mean time between new runs (first jobs of runs) = log span / number of runs.

Usage: python scripts/fit_feitelson96.py [--traces DIR] [--out-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cloudsim_py.experiments.liu2015 import traces_dir as default_traces_dir  # noqa: E402
from cloudsim_py.workload.archive import sha256_of  # noqa: E402
from cloudsim_py.workload.models.stats import describe  # noqa: E402
from cloudsim_py.workload.table import COL, prepare, read_table  # noqa: E402

#: (fit name, trace file, machine size) - two of the three logs Feitelson analysed directly.
FITS = (("SDSC-Par-1996", "SDSC-Par-1996-3.1-cln.swf.gz", 400),
        ("NASA-iPSC-1993", "NASA-iPSC-1993-3.1-cln.swf.gz", 128))
HARMONIC_ORDER = 1.5


def traces_dir(arg: str | None) -> Path:
    """``--traces``, else the project's default trace folder."""
    return Path(arg) if arg else Path(default_traces_dir())


def fit_sizes(procs: np.ndarray, machine: int) -> dict:
    """Closed-form ML weights relative to the plain harmonic level."""
    n = np.arange(1, machine + 1)
    base = n ** -HARMONIC_ORDER
    harmonic = base / base.sum()
    freq = np.bincount(procs, minlength=machine + 1)[1:] / len(procs)
    pow2 = (n & (n - 1)) == 0
    other = ~pow2
    out = {"serial_weight": float(freq[0] / harmonic[0]), "pow2_weights": {}}
    for k in n[pow2 & (n > 1)]:
        out["pow2_weights"][str(int(k))] = float(freq[k - 1] / harmonic[k - 1])
    out["other_weight"] = float(freq[other].sum() / harmonic[other].sum())
    return out


def model_runtime_stats(constants: dict, sizes: np.ndarray, f: np.ndarray) -> dict:
    """Mean, median, cv and Pearson corr(n, r) the runtime model implies for size shares ``f``."""
    s = sizes.astype(float)
    mu1, mu2 = constants["short_mean"], constants["long_mean"]
    p = np.clip(constants["short_prob_intercept"] + constants["short_prob_slope"] * s, 0.0, 1.0)
    m1n = p * mu1 + (1 - p) * mu2
    m1 = float(np.dot(f, m1n))
    m2 = float(np.dot(f, 2 * (p * mu1 ** 2 + (1 - p) * mu2 ** 2)))
    mean_n = float(np.dot(f, s))
    sd_n = float(np.sqrt(np.dot(f, (s - mean_n) ** 2)))
    sd = float(np.sqrt(max(m2 - m1 ** 2, 0.0)))

    def cdf(t: float) -> float:
        return float(np.dot(f, p * (1 - np.exp(-t / mu1)) + (1 - p) * (1 - np.exp(-t / mu2)))) - 0.5

    return {"mean": m1, "median": float(brentq(cdf, 1e-9, 1e15)), "cv": sd / m1,
            "corr": float((np.dot(f, s * m1n) - mean_n * m1) / (sd_n * sd))}


def fit_runtime(procs: np.ndarray, runtime: np.ndarray) -> tuple[dict, dict]:
    """Maximum likelihood of r | n ~ p(n) Exp(short_mean) + (1 - p(n)) Exp(long_mean),
    p(n) = clip(a + b n, 0, 1); several Nelder-Mead starts, the best likelihood kept."""
    n = procs.astype(float)

    def nll(x: np.ndarray) -> float:
        mu1, mu2 = np.exp(x[0]), np.exp(x[1])
        p = np.clip(x[2] + x[3] * n, 1e-12, 1 - 1e-12)
        return -float(np.sum(np.log(p / mu1 * np.exp(-runtime / mu1) + (1 - p) / mu2 * np.exp(-runtime / mu2))))

    best = None
    mean = float(runtime.mean())
    for mu1, mu2, a, b in ((100.0, 2 * mean, 0.6, -1e-3), (300.0, mean, 0.8, -1e-2), (50.0, 0.5 * mean, 0.5, 0.0),
                           (30.0, 3 * mean, 0.7, -5e-3)):
        res = minimize(nll, [np.log(mu1), np.log(mu2), a, b], method="Nelder-Mead",
                       options={"maxiter": 40000, "xatol": 1e-9, "fatol": 1e-9})
        if best is None or res.fun < best.fun:
            best = res
    x = best.x
    constants = {"short_mean": float(np.exp(x[0])), "long_mean": float(np.exp(x[1])),
                 "short_prob_intercept": float(x[2]), "short_prob_slope": float(x[3])}
    if constants["short_mean"] > constants["long_mean"]:
        raise SystemExit("runtime fit swapped its branches; check the starting points")
    sizes, counts = np.unique(procs, return_counts=True)
    target = {"mean": mean, "median": float(np.median(runtime)), "cv": float(runtime.std() / mean),
              "corr": float(np.corrcoef(procs, runtime)[0, 1])}
    return constants, {"method": "maximum likelihood", "neg_log_likelihood": float(best.fun),
                       "target": target, "model": model_runtime_stats(constants, sizes, counts / counts.sum())}


def runs_of(table) -> tuple[np.ndarray, np.ndarray]:
    """Run lengths, and the submit time of each run's first job."""
    d = table.data
    user, app, submit = d[:, COL["user"]], d[:, COL["app"]], d[:, COL["submit"]]
    order = np.lexsort((submit, user))
    u, a, n, s = user[order], app[order], table.procs[order], submit[order]
    same = (u[1:] == u[:-1]) & (n[1:] == n[:-1]) & (a[1:] == a[:-1]) & (u[1:] >= 0)
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    lengths = np.diff(np.concatenate((starts, [len(u)])))
    return lengths, s[starts]


def fit_zipf(lengths: np.ndarray) -> tuple[float, int]:
    kmax = int(lengths.max())
    k = np.arange(1, kmax + 1, dtype=float)
    total_log = float(np.log(lengths).sum())

    def nll(a: float) -> float:
        return a * total_log + len(lengths) * np.log((k ** -a).sum())

    res = minimize_scalar(nll, bounds=(0.5, 8.0), method="bounded", options={"xatol": 1e-8})
    return float(res.x), kmax


def fit_one(name: str, path: Path, machine: int) -> dict:
    raw = read_table(path)
    table = prepare(raw, machine, estimate="actual")
    procs, runtime, submit = table.procs, table.runtime, table.data[:, COL["submit"]]
    sizes = fit_sizes(procs, machine)
    rt, rt_check = fit_runtime(procs, runtime)
    lengths, _ = runs_of(table)
    expo, kmax = fit_zipf(lengths)
    span = float(submit.max() - submit.min())
    constants = {**sizes, **rt, "repeat_exponent": expo, "max_repeats": kmax,
                 "mean_interarrival": span / len(lengths)}
    return {
        "model": "feitelson96",
        "fit": name,
        "label": f"feitelson96 structure fitted to {name} by cloudsim_py; NOT the paper's published constants",
        "method": " ".join(__doc__.split("\n\n")[1:3]).replace("\n", " "),
        "script": "scripts/fit_feitelson96.py",
        "trace": path.name,
        "trace_sha256": sha256_of(path),
        "cleaning": "cloudsim_py.workload.table.prepare (runtime <= 0 and processors <= 0 dropped)",
        "machine_procs": machine,
        "harmonic_order": HARMONIC_ORDER,
        "constants": constants,
        "runtime_fit": rt_check,
        "repetition": {"runs": int(len(lengths)), "mean_run_length": float(lengths.mean()),
                       "single_run_share": float(np.mean(lengths == 1))},
        "targets": describe(submit, procs, runtime, machine),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", help="folder holding the shared traces")
    ap.add_argument("--out-dir", help="output folder (default: the package data folder)")
    args = ap.parse_args(argv)
    out_dir = Path(args.out_dir) if args.out_dir else REPO / "cloudsim_py" / "workload" / "models" / "data"
    status = 0
    for name, trace, machine in FITS:
        path = traces_dir(args.traces) / trace
        if not path.is_file():
            print(f"warning: {path} not found; fit {name} skipped", file=sys.stderr)
            status = 1
            continue
        data = fit_one(name, path, machine)
        dest = out_dir / f"feitelson96_{name.lower()}.json"
        dest.write_text(json.dumps(data, indent=1) + "\n")
        c = data["constants"]
        print(f"{dest}: serial_weight {c['serial_weight']:.3g}, other {c['other_weight']:.3g}, "
              f"runtime {c['short_mean']:.0f}/{c['long_mean']:.0f} s p(n) = {c['short_prob_intercept']:.3f} "
              f"{c['short_prob_slope']:+.2e} n, zipf {c['repeat_exponent']:.3f} (max {c['max_repeats']}), "
              f"new job every {c['mean_interarrival']:.0f} s")
        print(f"   runtime target {data['runtime_fit']['target']}\n   runtime model  {data['runtime_fit']['model']}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
