#!/usr/bin/env python3
"""Haizea's setting (SDSC Blue, 30 days, best-effort, with the injected AR files of
../shared/leases/blue-30days/injected/) from the sweep scenarios/papers/haizea-blue-ar.yaml:
when all best-effort work is done and the best-effort slowdown under Haizea 1.0's rules and Blue
configuration, with ARs served by preempting best-effort leases (suspend/resume), without
preemption (reject: an AR whose nodes are busy at its start is refused, as Haizea does), and
without ARs, over the share of the work in ARs (each share the mean over its 12 files: AR
durations 1-4 h x 3 sizes).

    nice -n 10 cloudsim-py sweep scenarios/papers/haizea-blue-ar.yaml --jobs 2
    python scripts/haizea_figures.py     # docs/figures/haizea-blue-ar.png, docs/data/haizea-blue-ar.csv

Prints the Markdown table used in docs/reproduction.md."""

from __future__ import annotations

import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cloudsim_py.experiments.plots import _figure_class  # noqa: E402
from cloudsim_py.experiments.store import read_results  # noqa: E402
from cloudsim_py.experiments.style import colour, marker, paper_style  # noqa: E402

RESULTS = "results/papers/haizea-blue-ar.parquet"
MODE = "broker.params.preemption"
FILE = re.compile(r"work_(\d+)-dur_(\d)h-size_\d(\w+)\.lwf$")
DAY = 86400.0


def main() -> None:
    rows = read_results(os.path.join(REPO, RESULTS))
    base = None
    by: dict[tuple[str, int], list[dict]] = {}
    csv = ["share_pct,duration_h,size,mode,be_done_s,be_avg_slowdown,be_avg_wait_s,ar_finished,ar_rejected,"
           "ar_avg_delay_s,be_preempted,be_requeued,gap_starts"]
    for r in rows:
        if r["status"] != "ok":
            raise SystemExit(f"{RESULTS}: run {r['run_id']} failed: {r['error']}")
        injected = r.get("leases.injected")
        if not injected:
            base = r
            continue
        m = FILE.search(str(injected))
        assert m, injected
        share, dur, size = int(m.group(1)), int(m.group(2)), m.group(3)
        by.setdefault((r[MODE], share), []).append(r)
        csv.append(f"{share},{dur},{size},{r[MODE]},{r['be_done']},{r['be_avg_slowdown']:.4f},{r['be_avg_wait']:.2f},"
                   f"{r['ar_finished']},{r['ar_rejected']},{r['ar_avg_delay']:.2f},{r['be_preempted']},{r['be_requeued']},"
                   f"{r['gap_starts']}")
    assert base is not None, "the run without ARs is missing"
    shares = sorted({s for _, s in by})
    mean = {k: {key: statistics.fmean(float(r[key]) for r in v)
                for key in ("be_done", "be_avg_slowdown", "ar_rejected", "be_preempted", "be_requeued", "gap_starts",
                            "ar_avg_delay")}
            for k, v in by.items()}
    lines = ["| ARs (% of work) | all BE done, suspend (days) | reject (days) | no ARs (days) | "
             "BE slowdown, suspend | reject | no ARs | BE leases started in a gap (suspend) | "
             "BE leases preempted by an AR, of them cancelled (suspend) | ARs refused (suspend / reject) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in shares:
        a, b = mean[("suspend", s)], mean[("reject", s)]
        lines.append(f"| {s} | {a['be_done'] / DAY:.2f} | {b['be_done'] / DAY:.2f} | {base['be_done'] / DAY:.2f} | "
                     f"{a['be_avg_slowdown']:.1f} | {b['be_avg_slowdown']:.1f} | {base['be_avg_slowdown']:.1f} | "
                     f"{a['gap_starts']:.1f} | {a['be_preempted']:.1f}, {a['be_requeued']:.1f} | "
                     f"{a['ar_rejected']:.2f} / {b['ar_rejected']:.2f} |")
    with paper_style():
        fig = _figure_class()(figsize=(7.0, 3.2), layout="constrained")
        axes = fig.subplots(1, 2)
        for ax, key, label, scale in ((axes[0], "be_done", "all best-effort work done (days)", DAY),
                                      (axes[1], "be_avg_slowdown", "best-effort average slowdown", 1.0)):
            for n, mode in enumerate(("suspend", "reject")):
                ax.plot(shares, [mean[(mode, s)][key] / scale for s in shares], marker=marker(n), color=colour(n),
                        label="ARs preempt (suspend/resume)" if mode == "suspend"
                        else "no preemption (busy ARs refused)")
            ax.axhline(float(base[key]) / scale, color="grey", linestyle="--", label="no ARs")
            ax.set_xlabel("share of the work in AR leases (%)")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        fig.suptitle("SDSC Blue, 30 days, 144 nodes, injected ARs, Haizea 1.0's rules (mean of 12 AR files)")
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3, frameon=False)
        fig.savefig(os.path.join(REPO, "docs", "figures", "haizea-blue-ar.png"), dpi=200)
    with open(os.path.join(REPO, "docs", "data", "haizea-blue-ar.csv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(csv) + "\n")
    print("\n".join(lines))
    print(f"\nno ARs: all BE done {base['be_done']:,.0f} s, slowdown {base['be_avg_slowdown']:.2f}, "
          f"wait {base['be_avg_wait']:,.0f} s; runs: {len(rows)}")


if __name__ == "__main__":
    main()
