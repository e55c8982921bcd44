#!/usr/bin/env python3
"""Li et al. (seed 001) Figs. 1 and 2 from the sweeps of scenarios/papers/li-fig1-loose.yaml and
li-fig2-tight.yaml: average job execution time of FDLS and FDMMS against the feedback constant
alpha, mean over the seeds with a 95 % confidence band, loose and tight side by side.

    cloudsim-py sweep scenarios/papers/li-fig1-loose.yaml --jobs 2
    cloudsim-py sweep scenarios/papers/li-fig2-tight.yaml --jobs 2
    python scripts/li_feedback_figures.py        # docs/figures/li-feedback.png, docs/data/li-feedback.csv

Prints the Markdown table used in docs/reproduction.md (the means and what the paper claims)."""

from __future__ import annotations

import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cloudsim_py.experiments.plots import _figure_class  # noqa: E402
from cloudsim_py.experiments.stats import t975  # noqa: E402
from cloudsim_py.experiments.style import colour, marker, paper_style  # noqa: E402
from cloudsim_py.experiments.store import read_results  # noqa: E402

SITUATIONS = (("loose", "results/papers/li-fig1-loose.parquet", "Fig. 1"),
              ("tight", "results/papers/li-fig2-tight.parquet", "Fig. 2"))
POLICIES = ("fdls", "fdmms")
ALPHA = "broker.0.params.alpha"


def load(path: str) -> dict[tuple[str, float], dict[int, float]]:
    """{(policy, alpha): {seed: avg job time}} of the finished runs."""
    out: dict[tuple[str, float], dict[int, float]] = {}
    for r in read_results(os.path.join(REPO, path)):
        if r["status"] != "ok":
            raise SystemExit(f"{path}: run {r['run_id']} failed: {r['error']}")
        policy = str(r["policy"]).split("(", 1)[0]          # rows are named by label: fdls(alpha=...)
        out.setdefault((policy, round(float(r[ALPHA]), 10)), {})[int(r["seed"])] = float(r["avg_job_time"])
    return out


def mean_ci(values: list[float]) -> tuple[float, float]:
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0
    return m, t975(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5


def main() -> None:
    with paper_style():
        fig = _figure_class()(figsize=(7.0, 3.2), layout="constrained")
        axes = fig.subplots(1, 2)
        draw(fig, axes)


def draw(fig, axes) -> None:
    """The two panels (one legend for both), the CSV and the Markdown table."""
    csv = ["situation,policy,alpha,seeds,mean_s,ci95_s"]
    lines = ["| situation | alpha | FDLS (s) | FDMMS (s) | FDMMS / FDLS | runs with FDMMS faster |",
             "|---|---:|---:|---:|---:|---:|"]
    claims = []
    for ax, (name, path, figname) in zip(axes, SITUATIONS):
        data = load(path)
        alphas = sorted({a for _, a in data})
        means: dict[str, list[float]] = {}
        for n, policy in enumerate(POLICIES):
            ms, cs = zip(*(mean_ci(list(data[(policy, a)].values())) for a in alphas))
            means[policy] = list(ms)
            ax.plot(alphas, ms, marker=marker(n), color=colour(n), label=policy.upper())
            # the 95 % band of the mean, never below 0 s
            ax.fill_between(alphas, [max(m - c, 0.0) for m, c in zip(ms, cs)], [m + c for m, c in zip(ms, cs)],
                            color=colour(n), alpha=0.15, linewidth=0)
            for a, m, c in zip(alphas, ms, cs):
                csv.append(f"{name},{policy},{a:g},{len(data[(policy, a)])},{m:.3f},{c:.3f}")
        ax.set_title(f"{name} (paper {figname})")
        ax.set_xlabel("feedback constant alpha")
        ax.set_ylabel("average job execution time (s)")
        for i, a in enumerate(alphas):
            ls, mm = means["fdls"][i], means["fdmms"][i]
            seeds = sorted(data[("fdls", a)])
            faster = sum(data[("fdmms", a)][k] < data[("fdls", a)][k] for k in seeds)
            lines.append(f"| {name} | {a:.1f} | {ls:,.1f} | {mm:,.1f} | {mm / ls:.3f} | {faster} of {len(seeds)} |")
        for policy in POLICIES:
            ms = means[policy]
            best = alphas[min(range(len(ms)), key=lambda i: (round(ms[i], 6), i))]
            # per seed: the time at each alpha against alpha 0, in %
            seeds = sorted(data[(policy, 0.0)])
            change = [statistics.fmean(100.0 * (data[(policy, a)][s] / data[(policy, 0.0)][s] - 1) for s in seeds)
                      for a in alphas]
            claims.append(f"{name} {policy}: alpha 0 {ms[0]:,.1f} s, best alpha {best:g} ({min(ms):,.1f} s), "
                          f"spread over alpha {100 * (max(ms) - min(ms)) / ms[0]:.1f} % of alpha 0, "
                          f"mean per-seed change vs alpha 0 from {min(change):+.1f} % to {max(change):+.1f} %")
        below = sum(m < ls for m, ls in zip(means["fdmms"], means["fdls"]))
        claims.append(f"{name}: FDMMS below FDLS at {below} of {len(alphas)} alphas")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2, frameon=False)
    os.makedirs(os.path.join(REPO, "docs", "figures"), exist_ok=True)
    os.makedirs(os.path.join(REPO, "docs", "data"), exist_ok=True)
    fig.savefig(os.path.join(REPO, "docs", "figures", "li-feedback.png"), dpi=200)
    with open(os.path.join(REPO, "docs", "data", "li-feedback.csv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(csv) + "\n")
    print("\n".join(lines))
    print()
    print("\n".join(claims))


if __name__ == "__main__":
    main()
