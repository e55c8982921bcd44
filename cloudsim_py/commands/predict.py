"""CLI subcommand ``predict``: Sodan 2009 section 6.2's M/G/1 prediction of the mean response R
for other reshaping factors F_A and machine factors F_VM, from a base run (F_A = 1 on the
original machine), beside the simulated R of a results table, with a plot.

    cloudsim-py predict scenarios/sodan2009-base.yaml --seeds 1..3 \\
        --factor 0.3 0.5 0.75 1 1.25 1.5 --results results/papers/sodan2009-figs1-3.parquet \\
        --where tag.scheduler=PECT --where workload.moldable.efficiency=E1 -o docs/figures/x

The base is a run folder (``summary.json`` and ``jobs.csv``, e.g. from ``cloudsim-py run --out``)
or a scenario file, run here once per ``--seeds`` value with F_A = F_VM = 1. C_S^2 is fitted on
each base run; for each (F_A, F_VM) the work the reshaped workload implies (the efficiency model
of the scenario, or ``--efficiency``) moves the utilization, and eq. (7)+(8) give R (mean over
the bases). The computation is :mod:`cloudsim_py.experiments.predict`'s; this module reads runs
and tables and prints, plots.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
from typing import Any, Sequence

import attrs
import numpy as np

from ..errors import ExperimentError
from ..tables import format_table

CLASS_CHOICES = ("all", "S", "M", "L")


@attrs.define(slots=True, frozen=True)
class Base:
    """One base run: job columns (``submit``, ``finish``, ``procs``, ``runtime``), machine size."""

    columns: dict
    hosts: int
    label: str


def read_run_folder(path: str) -> Base:
    """A run folder's ``summary.json`` (for the machine size) and ``jobs.csv``."""
    summary = os.path.join(path, "summary.json")
    jobs = os.path.join(path, "jobs.csv")
    for f in (summary, jobs):
        if not os.path.isfile(f):
            raise ExperimentError(f"{path}: not a run folder (no {os.path.basename(f)}); give a run "
                                  "folder written by 'cloudsim-py run --out' or a scenario file")
    with open(summary, encoding="utf-8") as fh:
        doc = json.load(fh)
    hosts = doc.get("hosts")
    if not isinstance(hosts, int) or hosts < 1:
        raise ExperimentError(f"{summary}: no machine size ('hosts')")
    cols: dict[str, list[float]] = {k: [] for k in ("submit", "finish", "procs", "runtime")}
    with open(jobs, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [k for k in cols if k not in (reader.fieldnames or ())]
        if missing:
            raise ExperimentError(f"{jobs}: missing column(s) {', '.join(missing)}")
        for row in reader:
            for k in cols:
                cols[k].append(float(row[k]))
    if not cols["submit"]:
        raise ExperimentError(f"{jobs}: no finished job")
    return Base({k: np.asarray(v) for k, v in cols.items()}, hosts, path)


def _seeds(text: str | None) -> list[int | None]:
    if text is None:
        return [None]
    a, sep, b = text.partition("..")
    try:
        return list(range(int(a), int(b) + 1)) if sep else [int(x) for x in text.split(",")]
    except ValueError:
        raise ExperimentError(f"--seeds {text!r}: expected A..B or a comma-separated list") from None


def run_bases(path: str, overrides: Sequence[str], seeds: list[int | None]) -> tuple[list[Base], Any]:
    """Run a scenario file as the base (F_A = F_VM = 1), once per seed; returns the bases and
    the scenario's efficiency model (``None`` without ``workload.moldable``)."""
    from ..scenario import load_scenario
    from ..scenario.run import prepare, run_one
    from ..systems import DatacenterSystem

    bases = []
    model = None
    for seed in seeds:
        extra = list(overrides) + ([f"seed={seed}"] if seed is not None else [])
        scenario = load_scenario(path, extra)
        system = scenario.system
        if not isinstance(system, DatacenterSystem):
            raise ExperimentError(f"{path}: predictions are for a datacenter's workload (workload.moldable), "
                                  f"not a cloud system")
        moldable = system.moldable
        if moldable is not None:
            model = moldable.efficiency
            if moldable.factor != 1.0 or moldable.vm_factor != 1.0:
                system = attrs.evolve(system, moldable=attrs.evolve(moldable, factor=1.0, vm_factor=1.0))
                scenario = attrs.evolve(scenario, system=system)
        prepared = prepare(scenario)
        result = run_one(scenario, scenario.brokers[0], prepared)
        c = result.records.columns
        bases.append(Base({k: c[k] for k in ("submit", "finish", "procs", "runtime")}, prepared.info()["hosts"],
                          f"{path} seed {scenario.seed}"))
    return bases, model


def predict_table(bases: Sequence[Base], model: Any, factors: Sequence[float], vms: Sequence[float],
                  cls: str = "all", classes: Any = None) -> list[dict]:
    """Predicted utilization and R for every (F_A, F_VM), the mean over the bases; each base's
    C_S^2 is fitted on its own run (``cls``: the arrival rate and R of one runtime class)."""
    from ..experiments.predict import BaseRun, implied_utilization, predict_response
    from ..workload.reshape import CLASS_NAMES, RuntimeClasses, reshape_jobs, vm_size

    classes = classes or RuntimeClasses()
    fitted = []
    for b in bases:
        mask = None
        if cls != "all":
            mask = classes.classify(b.columns["runtime"]) == CLASS_NAMES.index(cls)
        run = BaseRun.from_records(b.columns, b.hosts, mask)
        fitted.append((b, run, run.cs2))
    out = []
    for vm in vms:
        for fa in factors:
            us, rs = [], []
            machine = 0
            for b, run, cs2 in fitted:
                machine = vm_size(b.hosts, vm)
                work = reshape_jobs(b.columns["procs"].astype(np.int64), b.columns["runtime"], fa,
                                    machine, model).work
                us.append(float(implied_utilization(run.utilization, run.work, work, run.machine, machine)))
                rs.append(float(predict_response(run, work, machine, cs2)))
            out.append({"factor": fa, "vm_factor": vm, "machine": machine,
                        "cs2": float(np.mean([f[2] for f in fitted])),
                        "utilization": float(np.mean(us)), "response": float(np.mean(rs))})
    return out


FACTOR = "workload.moldable.factor"
VM_FACTOR = "workload.moldable.vm_factor"


def response_metric(cls: str = "all") -> str:
    """The results column of the mean response of ``cls``."""
    return "avg_response" if cls == "all" else f"avg_response_{cls}"


def reshaping_rows(rows: Sequence[dict], cls: str = "all", source: str = "the results table") -> tuple[list[dict], int]:
    """The rows of a reshaping sweep: those with an F_A value (``workload.moldable.factor``) and
    the response metric; a table that mixes them with other runs keeps these, and the count of
    the others is returned. None left is an error that says what is missing."""
    metric = response_metric(cls)
    if rows and not any(FACTOR in r for r in rows):
        raise ExperimentError(f"{source} has no {FACTOR} column (not a reshaping sweep?)")
    with_factor = [r for r in rows if r.get(FACTOR) is not None]
    if not with_factor:
        raise ExperimentError(f"{source}: no row has a {FACTOR} value" + (" after --where" if rows else ""))
    kept = [r for r in with_factor if r.get(metric) is not None and r.get("utilization") is not None]
    if not kept:
        hint = " (run with metrics.classes)" if cls != "all" else ""
        raise ExperimentError(f"{source} has no {metric} and utilization on its reshaping rows{hint}")
    return kept, len(rows) - len(kept)


def simulated_table(rows: Sequence[dict], cls: str = "all") -> dict[tuple[float, float], dict]:
    """Mean utilization and R per (F_A, F_VM) of a results table's rows (those of a reshaping
    sweep: see :func:`reshaping_rows`)."""
    metric = response_metric(cls)
    kept, _ = reshaping_rows(rows, cls)
    out: dict[tuple[float, float], dict] = {}
    for r in kept:
        vm = r.get(VM_FACTOR)
        key = (float(r[FACTOR]), 1.0 if vm is None else float(vm))
        out.setdefault(key, {"u": [], "r": []})
        out[key]["u"].append(float(r["utilization"]))
        out[key]["r"].append(float(r[metric]))
    return {k: {"utilization": float(np.mean(v["u"])), "response": float(np.mean(v["r"])), "runs": len(v["u"])}
            for k, v in out.items()}


def read_simulated(path: str, where: Sequence[str], cls: str = "all") -> dict[tuple[float, float], dict]:
    """``--results``: read, select and check the table (before any simulation, so that a wrong
    path or table fails at once); rows of other sweeps in a mixed table are left out, with a
    note on stderr."""
    from ..experiments.stats import select, succeeded
    from ..experiments.store import read_results

    if not os.path.isfile(path):
        raise ExperimentError(f"--results {path}: no such file")
    rows, _ = succeeded(read_results(path))
    rows = select(rows, where)
    kept, other = reshaping_rows(rows, cls, f"--results {path}")
    if other:
        print(f"--results {path}: {other} row(s) without {FACTOR} or {response_metric(cls)} left out",
              file=sys.stderr)
    return simulated_table(kept, cls)


def compare(predicted: Sequence[dict], simulated: dict[tuple[float, float], dict]) -> list[dict]:
    rows = []
    for p in predicted:
        s = simulated.get((p["factor"], p["vm_factor"]))
        row = dict(p)
        if s is not None:
            row.update(sim_utilization=s["utilization"], sim_response=s["response"], runs=s["runs"],
                       error=(p["response"] - s["response"]) / s["response"] if math.isfinite(p["response"]) else math.inf)
        rows.append(row)
    return rows


def format_rows(rows: Sequence[dict], markdown: bool = False) -> str:
    head = ["F_A", "F_VM", "nodes", "U pred", "R pred (h)", "U sim", "R sim (h)", "error"]
    body = []
    for r in rows:
        sim = "sim_response" in r
        body.append([f"{r['factor']:g}", f"{r['vm_factor']:g}", str(r["machine"]), f"{r['utilization']:.3f}",
                     f"{r['response'] / 3600:.2f}" if math.isfinite(r["response"]) else "inf",
                     f"{r['sim_utilization']:.3f}" if sim else "-",
                     f"{r['sim_response'] / 3600:.2f}" if sim else "-",
                     f"{100 * r['error']:+.1f} %" if sim and math.isfinite(r["error"]) else "-"])
    return format_table(head, body, markdown=markdown)


def plot_prediction(rows: Sequence[dict], title: str | None = None) -> Any:
    """R over utilization: simulated points and predicted ones (one colour per F_VM)."""
    from ..experiments.plots import _figure_class
    from ..experiments.style import colour, paper_style

    with paper_style():
        Figure = _figure_class()
        fig = Figure(figsize=(5.4, 4.0), layout="constrained")
        ax = fig.subplots()
        vms = sorted({r["vm_factor"] for r in rows})
        for i, vm in enumerate(vms):
            pts = sorted((r for r in rows if r["vm_factor"] == vm and math.isfinite(r["response"])),
                         key=lambda r: r["utilization"])
            color = colour(i)
            label = f"F_VM={vm:g}" if len(vms) > 1 else ""
            ax.plot([r["utilization"] for r in pts], [r["response"] / 3600 for r in pts], "--", marker="x",
                    color=color, label=f"predicted {label}".strip())
            sim = sorted((r for r in rows if r["vm_factor"] == vm and "sim_response" in r),
                         key=lambda r: r["sim_utilization"])
            if sim:
                ax.plot([r["sim_utilization"] for r in sim], [r["sim_response"] / 3600 for r in sim], "-",
                        marker="o", color=color, label=f"simulated {label}".strip())
                for r in sim:
                    ax.annotate(f"{r['factor']:g}", (r["sim_utilization"], r["sim_response"] / 3600),
                                fontsize="x-small", xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel("utilization U")
        ax.set_ylabel("mean response R (h)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
        if title:
            ax.set_title(title, fontsize="medium")
    return fig


def _import_plugins(entries: Sequence[str]) -> set[str]:
    """Import the ``--plugin`` modules or ``.py`` files (as a scenario's ``plugins``: the only
    user code ``predict`` imports); returns their module names."""
    from ..registry import load_plugin

    names = set()
    for entry in entries:
        try:
            names.add(load_plugin(entry))
        except (ImportError, OSError) as exc:
            raise ExperimentError(f"--plugin {entry!r}: cannot import it: {exc}") from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:        # SystemExit, an error of the plugin's own code
            raise ExperimentError(f"--plugin {entry!r}: importing it raised {type(exc).__name__}: {exc}") from None
    return names


def _user_efficiency(name: str, plugins: set[str]) -> str:
    """``--efficiency``: a registered model's name, or ``module:attr`` whose module is one of the
    ``--plugin`` modules (naming user code on the command line does not import it)."""
    if ":" in name:
        module = name.partition(":")[0]
        if module not in plugins:
            raise ExperimentError(f"--efficiency {name!r} names user code: import its module with "
                                  f"--plugin {module} (or register the model in a plugin and give its name)")
    return name


def _cmd_predict(args: argparse.Namespace) -> int:
    from ..workload.efficiency import efficiency_model

    # every input is checked before the first simulation (a base scenario may run for minutes)
    for path in args.base:
        if not os.path.exists(path):
            raise ExperimentError(f"{path}: no such run folder or scenario file")
        if os.path.isdir(path) and args.seeds is not None:
            raise ExperimentError(f"--seeds: {path} is a run folder, not a scenario")
    seeds = _seeds(args.seeds)
    model = None
    if args.efficiency is not None:
        model = efficiency_model(_user_efficiency(args.efficiency, _import_plugins(args.plugin or ())),
                                 where="--efficiency")
    if args.out:
        from ..experiments.plots import _figure_class

        _figure_class()         # matplotlib is there before anything runs
    simulated: dict = {}
    if args.results is not None:
        simulated = read_simulated(args.results, args.where or (), args.job_class)
    bases: list[Base] = []
    scenario_model = None
    for path in args.base:
        if os.path.isdir(path):
            bases.append(read_run_folder(path))
        else:
            more, m = run_bases(path, args.set or (), seeds)
            bases += more
            scenario_model = scenario_model or m
    model = model or scenario_model
    if model is None:
        raise ExperimentError("give --efficiency (the base is not a scenario with workload.moldable)")
    predicted = predict_table(bases, model, args.factor, args.vm, args.job_class)
    rows = compare(predicted, simulated)
    print(f"base: {len(bases)} run(s), efficiency {getattr(model, 'name', model)}, class {args.job_class}, "
          f"fitted C_S^2 = {rows[0]['cs2']:.3f}" if rows else "no prediction asked")
    print(format_rows(rows, markdown=args.format == "md"))
    if args.out:
        from ..experiments.plots import save_figure

        title = f"R predicted from U (M/G/1) vs simulated, class {args.job_class}"
        for path in save_figure(plot_prediction(rows, title), args.out):
            print(f"wrote {path}", file=sys.stderr)
    return 0


def add_predict_command(subparsers: Any) -> None:
    """Add ``predict`` to an argparse sub-parsers object."""
    p = subparsers.add_parser("predict", help="predict R for other F_A / F_VM from a base run (M/G/1, "
                                              "Sodan 2009 section 6.2)")
    p.add_argument("base", nargs="+", help="base run: a run folder (summary.json, jobs.csv) or a scenario file")
    p.add_argument("--set", action="append", metavar="KEY.PATH=VALUE", help="override a value of a base scenario")
    p.add_argument("--seeds", help="run a base scenario once per seed: A..B or a list (default: its seed)")
    p.add_argument("--efficiency", help="efficiency model (default: the base scenario's workload.moldable); "
                                        "module:attr only for a module given with --plugin")
    p.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE",
                   help="import user code first (a module name or a .py file), as a scenario's plugins")
    p.add_argument("--factor", type=float, nargs="+", default=[0.3, 0.5, 0.75, 1.0, 1.25, 1.5],
                   help="F_A values to predict (default 0.3 0.5 0.75 1 1.25 1.5)")
    p.add_argument("--vm", type=float, nargs="+", default=[1.0], help="F_VM values (default 1)")
    p.add_argument("--class", dest="job_class", choices=CLASS_CHOICES, default="all",
                   help="predict the R of one runtime class (default all)")
    p.add_argument("--results", help="results table of the simulated runs (a reshaping sweep)")
    p.add_argument("--where", action="append", metavar="COLUMN=VALUE", help="select rows of --results (repeatable)")
    p.add_argument("-o", "--out", help="write the plot to OUT (.png, .pdf or .svg), or to OUT.png and OUT.pdf")
    p.add_argument("--format", choices=("text", "md"), default="text")
    p.set_defaults(func=_cmd_predict)
