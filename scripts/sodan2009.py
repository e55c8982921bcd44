#!/usr/bin/env python3
"""Figures and tables of the Sodan 2009 reproduction (docs/reproduction.md), from the results
tables of the sweeps in scenarios/papers/sodan2009-*.yaml.

    cloudsim-py sweep scenarios/papers/sodan2009-figs1-3.yaml --jobs 2
    cloudsim-py sweep scenarios/papers/sodan2009-fig6-adaptive.yaml --jobs 2
    cloudsim-py sweep scenarios/papers/sodan2009-fig7-vm.yaml --jobs 2
    python scripts/sodan2009.py report            # figures in docs/figures, Markdown on stdout

The prediction figures run the base scenario (scenarios/sodan2009-base.yaml) once per seed,
as `cloudsim-py predict` does.

    python scripts/sodan2009.py record            # the runs behind Sodan 2009's claims

`record` runs, one after another, every run the claims ledger checks Sodan 2009 on
(cloudsim_py/experiments/claims/sodan2009.py): the base scenario with the overrides of
`record_runs()`, seeds 1-3, and appends one row per run to docs/data/sodan2009.csv. It is
resumable: a run whose row is already there is skipped (delete the file to record afresh,
e.g. after a change of the model). About 100 runs per seed of a few seconds each."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cloudsim_py.commands.predict import compare, format_rows, plot_prediction, predict_table, run_bases, simulated_table  # noqa: E402
from cloudsim_py.experiments.plots import _figure_class, save_figure  # noqa: E402
from cloudsim_py.experiments.style import colour, marker, paper_style  # noqa: E402
from cloudsim_py.experiments.store import read_results  # noqa: E402
from cloudsim_py.workload.efficiency import E1  # noqa: E402
from cloudsim_py.workload.reshape import relative_improvement  # noqa: E402

RESULTS = os.path.join(REPO, "results", "papers")
FIGS = os.path.join(REPO, "docs", "figures")
SCHEDULERS = ("FCFS", "Prio10", "PECT")
EFFS = ("WC", "E1", "E2", "E3")
FACTORS = (0.3, 0.5, 0.75, 1.0, 1.25, 1.5)
CLASSES = ("M", "L", "all")


def table(name):
    path = os.path.join(RESULTS, f"{name}.parquet")
    if not os.path.exists(path):
        sys.exit(f"{path}: run the sweep first (see the docstring)")
    rows = [r for r in read_results(path) if r["status"] == "ok"]
    return rows


def mean(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.fmean(vals) if vals else math.nan


def pick(rows, **kw):
    out = []
    for r in rows:
        if all(r.get(k) == v or (isinstance(v, float) and isinstance(r.get(k), (int, float)) and
                                 abs(r.get(k) - v) < 1e-9) for k, v in kw.items()):
            out.append(r)
    return out


def figs1_3(rows, L):
    """RR improvement over F_A per scheduler and class, one line per efficiency."""
    def point(sched, eff, fa, metric):
        sel = [r for r in rows if r["tag.scheduler"] == sched and abs(r["workload.moldable.factor"] - fa) < 1e-9
               and (fa == 1.0 or r["workload.moldable.efficiency"] == eff)]
        return mean(sel, metric), len(sel)

    Figure = _figure_class()
    for sched in SCHEDULERS:
        with paper_style():
            fig = Figure(figsize=(7.5, 2.9), layout="constrained")
            axes = fig.subplots(1, 3)
            for ax, cls in zip(axes, CLASSES):
                metric = f"avg_bsld_{cls}"
                base, _ = point(sched, "E1", 1.0, metric)
                for n, eff in enumerate(EFFS):
                    ys = [relative_improvement(base, point(sched, eff, fa, metric)[0], fa) for fa in FACTORS]
                    ax.plot(FACTORS, ys, marker=marker(n), color=colour(n), label=eff)
                ax.axhline(0.0, color="grey", linewidth=0.8)
                ax.set_xlabel("reshaping factor F_A")
                ax.set_ylabel(f"RR improvement, class {'all' if cls == 'all' else cls}")
            fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=len(EFFS),
                       title="efficiency", frameon=False)
            fig.suptitle(f"{sched}: RR improvement over F_A (positive = better; RR/RR_A - 1 below 1, "
                         f"-(RR_A/RR - 1) above)")
        save_figure(fig, os.path.join(FIGS, f"sodan2009-figs1-3-{sched}.png"))
    L += ["| scheduler | class | F_A = 1 | " + " | ".join(f"{e} 0.3 | {e} 0.5 | {e} 1.5" for e in EFFS) + " |",
          "|---|---|---:|" + "---:|" * (3 * len(EFFS))]
    for sched in SCHEDULERS:
        for cls in CLASSES:
            metric = f"avg_bsld_{cls}"
            base, n = point(sched, "E1", 1.0, metric)
            cells = []
            for eff in EFFS:
                for fa in (0.3, 0.5, 1.5):
                    cells.append(f"{100 * relative_improvement(base, point(sched, eff, fa, metric)[0], fa):+.0f} %")
            L.append(f"| {sched} | {'A' if cls == 'all' else cls} | {base:.2f} | " + " | ".join(cells) + " |")
    L.append("")
    # headline: F_A = 0.5 with E1, factors of RR and R
    L += ["| scheduler | RR_M | RR_L | RR_A | R_M | R_L | R_A | U at F_A 1 | U at 0.5 |", "|---|" + "---:|" * 8]
    for sched in SCHEDULERS:
        cells = []
        for key in ("avg_bsld_M", "avg_bsld_L", "avg_bsld_all", "avg_response_M", "avg_response_L", "avg_response_all"):
            cells.append(f"{point(sched, 'E1', 1.0, key)[0] / point(sched, 'E1', 0.5, key)[0]:.2f}")
        cells += [f"{point(sched, 'E1', 1.0, 'utilization')[0]:.3f}", f"{point(sched, 'E1', 0.5, 'utilization')[0]:.3f}"]
        L.append(f"| {sched} | " + " | ".join(cells) + " |")
    L.append("")
    # absolute comparison at F_A = 1
    L += ["| scheduler (F_A = 1) | R_S (h) | R_M (h) | R_L (h) | R_A (h) | RR_S | RR_M | RR_L | RR_A | U |",
          "|---|" + "---:|" * 9]
    for sched in SCHEDULERS:
        cells = [f"{point(sched, 'E1', 1.0, f'avg_response_{c}')[0] / 3600:.2f}" for c in ("S", "M", "L", "all")]
        cells += [f"{point(sched, 'E1', 1.0, f'avg_bsld_{c}')[0]:.2f}" for c in ("S", "M", "L", "all")]
        cells.append(f"{point(sched, 'E1', 1.0, 'utilization')[0]:.3f}")
        L.append(f"| {sched} | " + " | ".join(cells) + " |")
    L.append("")


def fig6(rows, L):
    L += ["| variant | RR_M | RR_L | RR_A | R_M (h) | R_L (h) | R_A (h) | U | runs |", "|---|" + "---:|" * 8]
    for v in ("none", "static0.5", "AllA", "AllA_noB", "LoadA", "LoadA_noB"):
        sel = [r for r in rows if r["tag.variant"] == v]
        cells = [f"{mean(sel, f'avg_bsld_{c}'):.2f}" for c in CLASSES]
        cells += [f"{mean(sel, f'avg_response_{c}') / 3600:.2f}" for c in CLASSES]
        cells += [f"{mean(sel, 'utilization'):.3f}", str(len(sel))]
        L.append(f"| {v} | " + " | ".join(cells) + " |")
    L.append("")


def fig7(rows, L):
    Figure = _figure_class()
    fig = Figure(figsize=(12.0, 3.6), layout="constrained")
    axes = fig.subplots(1, 3)
    vms = sorted({r["workload.moldable.vm_factor"] for r in rows})
    for ax, cls in zip(axes, CLASSES):
        for vm in vms:
            pts = []
            for fa in FACTORS:
                sel = [r for r in rows if abs(r["workload.moldable.vm_factor"] - vm) < 1e-9
                       and abs(r["workload.moldable.factor"] - fa) < 1e-9]
                if sel:
                    pts.append((fa, mean(sel, f"avg_bsld_{cls}")))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3.5,
                    label=f"{round(128 * vm)} nodes")
        ax.set_yscale("log")
        ax.set_xlabel("F_A")
        ax.set_ylabel(f"RR_{'A' if cls == 'all' else cls}")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle("PECT, E1: RR over F_A on VMs of 96-160 nodes (workload for 128)", fontsize="medium")
    save_figure(fig, os.path.join(FIGS, "sodan2009-fig7-vm"), formats=("png",))
    L += ["| nodes | " + " | ".join(f"RR_A at {fa:g}" for fa in FACTORS) + " |", "|---|" + "---:|" * len(FACTORS)]
    for vm in vms:
        cells = []
        for fa in FACTORS:
            sel = [r for r in rows if abs(r["workload.moldable.vm_factor"] - vm) < 1e-9
                   and abs(r["workload.moldable.factor"] - fa) < 1e-9]
            cells.append(f"{mean(sel, 'avg_bsld_all'):.1f} (U {mean(sel, 'utilization'):.2f})" if sel else "-")
        L.append(f"| {round(128 * vm)} | " + " | ".join(cells) + " |")
    L.append("")


def prediction(figs_rows, vm_rows, L, seeds):
    base_file = os.path.join(REPO, "scenarios", "sodan2009-base.yaml")
    bases, model = run_bases(base_file, [], seeds)
    model = model or E1
    pect_e1 = [r for r in figs_rows if r["tag.scheduler"] == "PECT"
               and (r["workload.moldable.efficiency"] == "E1" or abs(r["workload.moldable.factor"] - 1) < 1e-9)]
    for cls in ("all", "M", "L"):
        rows = compare(predict_table(bases, model, FACTORS, [1.0], cls), simulated_table(pect_e1, cls))
        L += [f"PECT, F_A sweep on 128 nodes, class {cls} (C_S^2 fitted = {rows[0]['cs2']:.2f}):", "",
              format_rows(rows, markdown=True), ""]
        if cls == "all":
            save_figure(plot_prediction(rows, "PECT, E1, 128 nodes: R predicted from U vs simulated"),
                        os.path.join(FIGS, "sodan2009-fig13-prediction"), formats=("png",))
    vms = sorted({r["workload.moldable.vm_factor"] for r in vm_rows})
    rows = compare(predict_table(bases, model, FACTORS, vms, "all"), simulated_table(vm_rows, "all"))
    rows = [r for r in rows if "sim_response" in r]
    L += ["PECT, VM sizes, class all:", "", format_rows(rows, markdown=True), ""]
    save_figure(plot_prediction(rows, "PECT, E1, VMs of 96-160 nodes: R predicted vs simulated"),
                os.path.join(FIGS, "sodan2009-fig14-prediction-vm"), formats=("png",))
    errs = [(r["sim_utilization"], r["error"]) for r in rows if math.isfinite(r["error"])]
    below = [abs(e) for u, e in errs if u < 0.9]
    L += [f"PECT VM runs (simulated U < 0.9): {sum(e <= 0.1 for e in below)} of {len(below)} within 10 %; "
          f"max |error| {100 * max(below):.1f} %, mean {100 * statistics.fmean(below):.1f} %", ""]
    # the same predictor for the space-sharing schedulers
    for sched, broker in (("FCFS", "{policy: prio, params: {priorities: false}}"), ("Prio10", "prio")):
        b2, _ = run_bases(base_file, [f"broker={broker}"], seeds)
        sel = [r for r in figs_rows if r["tag.scheduler"] == sched
               and (r["workload.moldable.efficiency"] == "E1" or abs(r["workload.moldable.factor"] - 1) < 1e-9)]
        rows = compare(predict_table(b2, model, FACTORS, [1.0], "all"), simulated_table(sel, "all"))
        L += [f"{sched}, F_A sweep on 128 nodes, class all (C_S^2 fitted = {rows[0]['cs2']:.2f}):", "",
              format_rows(rows, markdown=True), ""]
        if sched == "FCFS":
            save_figure(plot_prediction(rows, "FCFS, E1, 128 nodes: R predicted from U vs simulated"),
                        os.path.join(FIGS, "sodan2009-prediction-fcfs"), formats=("png",))


def shares(rows, L):
    """PECT with M 10 % / L 90 %: the Fig. 3 table for WC and E1."""
    def point(eff, fa, metric):
        sel = [r for r in rows if abs(r["workload.moldable.factor"] - fa) < 1e-9
               and (fa == 1.0 or r["workload.moldable.efficiency"] == eff)]
        return mean(sel, metric)

    L += ["| class | F_A = 1 | " + " | ".join(f"{e} {fa:g}" for e in ("WC", "E1") for fa in FACTORS if fa != 1.0) + " |",
          "|---|---:|" + "---:|" * 10]
    for cls in CLASSES:
        metric = f"avg_bsld_{cls}"
        base = point("E1", 1.0, metric)
        cells = [f"{100 * relative_improvement(base, point(e, fa, metric), fa):+.0f} %"
                 for e in ("WC", "E1") for fa in FACTORS if fa != 1.0]
        L.append(f"| {'A' if cls == 'all' else cls} | {base:.2f} | " + " | ".join(cells) + " |")
    r1, r5 = point("E1", 1.0, "avg_response_all"), point("E1", 0.5, "avg_response_all")
    L += ["", f"R_A at F_A = 1: {r1 / 3600:.2f} h, E1 0.5: {r5 / 3600:.2f} h (x {r1 / r5:.2f}); "
          f"U {point('E1', 1.0, 'utilization'):.3f}", ""]


# ------------------------------------------------------------------------------ record

RECORD = os.path.join(REPO, "docs", "data", "sodan2009.csv")
BASE = os.path.join(REPO, "scenarios", "sodan2009-base.yaml")
#: the schedulers of the recorded runs: the paper's three, and PECT under the other reading of
#: its non-type slice backfilling (``finish``) and with the shares M 10 % / L 90 %
BROKERS = {
    "FCFS": "{policy: prio, params: {priorities: false}}",
    "Prio10": "prio",
    "PECT": "pect",
    "PECT-finish": "{policy: pect, params: {slice_backfill: finish}}",
    "PECT-10/90": "{policy: pect, params: {shares: {M: 0.1, L: 0.9}}}",
    "PECT-finish-10/90": "{policy: pect, params: {slice_backfill: finish, shares: {M: 0.1, L: 0.9}}}",
}
#: Fig. 5's loads: L1 is the sweeps' offered load 0.85 (U = 0.76 under FCFS, the paper's L1);
#: L2 (U = 0.66) and L3 (U = 0.56) scale it by the paper's utilizations (reading: the paper
#: changes the Lublin model's arrival parameter instead)
LOADS = {"L1": 0.85, "L2": round(0.85 * 0.66 / 0.76, 3), "L3": round(0.85 * 0.56 / 0.76, 3)}
KEYS = ("scheduler", "efficiency", "factor", "vm_factor", "load", "variant", "seed")
METRICS = ("utilization", "makespan", "jobs_finished", "context_switches") + tuple(
    f"{m}_{c}" for c in ("S", "M", "L", "all") for m in ("count", "avg_response", "avg_bsld")) + tuple(
    f"{m}_{c}" for c in ("M", "L", "all") for m in ("avg_start_wait", "avg_elapsed"))


def record_runs() -> list[dict]:
    """Every recorded run's key (scheduler, efficiency, factor, vm_factor, load, variant)."""
    runs = []

    def add(scheduler, eff, fa, vm=1.0, load="L1", variant="static"):
        runs.append({"scheduler": scheduler, "efficiency": eff if fa != 1.0 or variant != "static" else "E1",
                     "factor": fa, "vm_factor": vm, "load": load, "variant": variant})

    for sched in ("FCFS", "Prio10", "PECT"):                        # Figs. 1-3
        add(sched, "E1", 1.0)
        for eff in EFFS:
            for fa in (0.3, 0.5, 0.75, 1.25, 1.5):
                add(sched, eff, fa)
    for sched in ("PECT-finish", "PECT-10/90", "PECT-finish-10/90"):  # the readings of section 3.4
        add(sched, "E1", 1.0)
        add(sched, "WC", 0.5)
        add(sched, "E1", 0.5)
    for variant in ("AllA", "AllA_noB", "LoadA", "LoadA_noB"):        # Fig. 6
        add("PECT", "E1", 1.0, variant=variant)
    for vm, fas in ((0.75, (0.3, 0.5, 0.75, 1.0)), (0.875, (0.3, 0.5, 0.75, 1.0)),  # Fig. 7
                    (1.125, (0.5, 0.75, 1.0, 1.25, 1.5)), (1.25, (0.5, 0.75, 1.0, 1.25, 1.5))):
        for fa in fas:
            add("PECT", "E1", fa, vm=vm)
    for load in ("L2", "L3"):                                         # Fig. 5
        add("PECT", "E1", 1.0, load=load)
        add("PECT", "E1", 0.5, load=load)
    return runs


def overrides(run: dict) -> list[str]:
    out = [f"broker={BROKERS[run['scheduler']]}", f"workload.moldable.efficiency={run['efficiency']}",
           f"workload.moldable.factor={run['factor']}", f"workload.moldable.vm_factor={run['vm_factor']}",
           f"workload.model.load={LOADS[run['load']]}", f"seed={run['seed']}"]
    if run["variant"] != "static":
        out.append(f"broker.params.reshape={run['variant']}")
    return out


def key_of(row: dict) -> tuple:
    return tuple(str(row[k]) for k in KEYS)


def record(seeds: list[int], path: str = RECORD) -> None:
    import csv
    import time

    from cloudsim_py import load_scenario, run_scenario

    done = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8", newline="") as fh:
            done = {key_of(r) for r in csv.DictReader(fh)}
    todo = [{**run, "seed": seed} for seed in seeds for run in record_runs()]
    todo = [run for run in todo if key_of(run) not in done]
    new = not os.path.exists(path)
    with open(path, "a", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        if new:
            out.writerow(KEYS + METRICS)
        for i, run in enumerate(todo, 1):
            t0 = time.perf_counter()
            (_, result), = run_scenario(load_scenario(BASE, overrides(run)))
            s = result.summary
            out.writerow([run[k] for k in KEYS] + [f"{float(s[m]):.10g}" for m in METRICS])
            fh.flush()
            print(f"[{i}/{len(todo)}] {' '.join(f'{k}={run[k]}' for k in KEYS)}: "
                  f"{time.perf_counter() - t0:.1f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["report", "record"])
    ap.add_argument("--seeds", default="1..3", help="seeds (default 1..3): of the recorded runs, or the "
                                                    "base runs of the prediction")
    args = ap.parse_args()
    a, _, b = args.seeds.partition("..")
    seeds = list(range(int(a), int(b or a) + 1))
    if args.command == "record":
        record(seeds)
        return
    L: list[str] = []
    figs = table("sodan2009-figs1-3")
    L += ["### Figs. 1-3", ""]
    figs1_3(figs, L)
    L += ["### Fig. 6", ""]
    fig6(table("sodan2009-fig6-adaptive"), L)
    vm = table("sodan2009-fig7-vm")
    L += ["### Fig. 7", ""]
    fig7(vm, L)
    shares_path = os.path.join(RESULTS, "sodan2009-pect-shares.parquet")
    if os.path.exists(shares_path):
        L += ["### PECT with M 10 % / L 90 %", ""]
        shares(table("sodan2009-pect-shares"), L)
    L += ["### Figs. 13-14", ""]
    prediction(figs, vm, L, seeds)
    print("\n".join(L))


if __name__ == "__main__":
    main()
