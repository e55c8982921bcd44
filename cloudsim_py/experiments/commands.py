"""CLI subcommands ``sweep``, ``plot``, ``report``, ``gantt`` and ``timeline`` (registered by
``cloudsim_py.cli`` through :func:`add_experiment_commands`).

    cloudsim-py sweep scenarios/papers/liu2015-figs4-6-small.yaml --jobs 2
    cloudsim-py plot results/x.parquet --x workload.model.load --y avg_bsld --hue policy
    cloudsim-py report results/x.parquet --rows tag.trace --baseline fcfs
    cloudsim-py gantt results/runs/3f2a9c0d1e4b --from 0 --to 3600
    cloudsim-py timeline results/quick/fcfs results/quick/easy
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import ExperimentError


def _over(text: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in text.split(",") if c.strip())


def _cmd_sweep(args: argparse.Namespace) -> int:
    from .backends import make_backend
    from .progress import SweepProgress
    from .store import ResultsStore
    from .runs import default_results_path, run_sweep, select_runs
    from .sweep import describe, load_sweep

    sweep = load_sweep(args.sweep)
    specs = select_runs(sweep.expand(args.runs_dir), args.only or ())
    path = args.results or sweep.results or default_results_path(sweep)
    if args.dry_run:
        finished = ResultsStore(path).finished() if os.path.exists(path) else set()
        todo = [s for s in specs if args.force or s.run_id not in finished]
        print(f"{args.sweep}: {len(specs)} valid runs, {len(todo)} to run, "
              f"{len(specs) - len(todo)} already in {path}")
        for s in todo[: args.show]:
            print(f"  {s.run_id}  {describe(s.params)}  [{', '.join(s.policies)}]")
        if len(todo) > args.show:
            print(f"  ... and {len(todo) - args.show} more")
        return 0
    backend = make_backend(args.jobs, args.dask)
    state: dict[str, Any] = {}

    def progress(done: int, failed: int, todo: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = SweepProgress(len(specs), len(specs) - todo)
        bar(done, failed, todo)

    if not args.quiet:
        print(f"{args.sweep}: {len(specs)} runs on {backend.description}, results in {path}", file=sys.stderr)
    result = run_sweep(sweep, path, backend=backend, force=args.force, prune=args.prune,
                       runs_dir=args.runs_dir, only=args.only or (), progress=None if args.quiet else progress)
    for run_id, params, error in result.failures[:10]:
        print(f"failed: {run_id} ({describe(params)}): {error}", file=sys.stderr)
    if result.failed > 10:
        print(f"... and {result.failed - 10} more failures (see the error column)", file=sys.stderr)
    print(f"sweep {sweep.name}: {result.total} runs; {result.ran} run now ({result.failed} failed), "
          f"{result.skipped} already done; results in {result.path}")
    return 1 if result.failed else 0


def _rows(path: str, where: list[str] | None) -> list[dict]:
    from .stats import select, succeeded
    from .store import read_results

    rows, failed = succeeded(read_results(path))
    if failed:
        print(f"{path}: {failed} row(s) of failed runs left out", file=sys.stderr)
    rows = select(rows, where or [])
    if not rows:
        raise ExperimentError(f"{path}: no rows left to use" + (f" after --where {' '.join(where)}" if where else ""))
    return rows


def _cmd_plot(args: argparse.Namespace) -> int:
    from .plots import plot_results, save_figure

    rows = _rows(args.results, args.where)
    fig = plot_results(rows, args.x, args.y, hue=args.hue, over=_over(args.over), band=args.band,
                       logy=args.logy, title=args.title, xlabel=args.xlabel, ylabels=args.ylabel or (),
                       legend=args.legend)
    prefix = args.output or f"{os.path.splitext(args.results)[0]}-{'-'.join(args.y)}"
    for path in save_figure(fig, prefix):
        print(f"wrote {path}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from .report import DEFAULT_METRICS, build_report, format_markdown, format_text

    rows = _rows(args.results, args.where)
    baseline = None if args.baseline.lower() == "none" else args.baseline
    blocks = build_report(rows, args.metric or DEFAULT_METRICS, rows_by=args.rows or (),
                          cols_by=args.cols, baseline=baseline, over=_over(args.over),
                          minutes=not args.seconds)
    fmt = format_markdown if args.format == "md" else format_text
    sys.stdout.write(fmt(blocks, args.rows or ()))
    return 0


def _cmd_gantt(args: argparse.Namespace) -> int:
    from .gantt import gantt_from_file, schedule_path
    from .plots import save_figure

    _check_window(args)
    if args.max_bars < 1:
        raise ExperimentError(f"--max-bars: expected a positive number, got {args.max_bars}")
    kw: dict[str, Any] = {"start": args.start, "end": args.end, "job_labels": not args.no_labels,
                          "max_bars": args.max_bars}
    if args.hosts is not None:
        kw["hosts"] = args.hosts
    if args.tiers is not None:
        kw["tiers"] = args.tiers
    fig = gantt_from_file(args.run, **kw)
    prefix = args.output or os.path.join(os.path.dirname(schedule_path(args.run)), "gantt")
    for path in save_figure(fig, prefix):
        print(f"wrote {path}")
    return 0


def _check_window(args: argparse.Namespace) -> None:
    import math

    for name, value in (("--from", args.start), ("--to", args.end)):
        if value is not None and not math.isfinite(value):
            raise ExperimentError(f"{name}: expected a finite time in seconds, got {value}")
    if args.start is not None and args.end is not None and args.end <= args.start:
        raise ExperimentError(f"--to {args.end:g} must be after --from {args.start:g}")


def _cmd_timeline(args: argparse.Namespace) -> int:
    from .plots import save_figure
    from .usage import timeline_path, usage_from_runs

    _check_window(args)
    if args.max_steps < 1:
        raise ExperimentError(f"--max-steps: expected a positive number, got {args.max_steps}")
    fig = usage_from_runs(args.runs, start=args.start, end=args.end, title=args.title, max_steps=args.max_steps)
    prefix = args.output or os.path.join(os.path.dirname(timeline_path(args.runs[0])), "timeline")
    for path in save_figure(fig, prefix):
        print(f"wrote {path}")
    return 0


def add_experiment_commands(subparsers: Any) -> None:
    """Add ``sweep``, ``plot``, ``report``, ``gantt`` and ``timeline`` to an argparse
    sub-parsers object."""
    from .gantt import MAX_BARS
    from .plots import BAND_ALIASES, BANDS, DEFAULT_BAND
    from .usage import MAX_STEPS

    p = subparsers.add_parser("sweep", help="run a sweep of scenarios into a results table",
                              description="Expand a sweep file (base scenario x grid x zipped axes), "
                              "validate every run, and run those not yet in the results table. "
                              "See docs/experiments.md.")
    p.add_argument("sweep", help="sweep YAML file")
    p.add_argument("--results", help="results table (.parquet or .csv; default: the sweep's "
                                     "`results`, else results/<name>.parquet)")
    p.add_argument("--jobs", type=int, help="worker processes (default: every core; 1 = in this process); "
                                            "with --dask local, the number of workers")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS "
                                                     "(tcp://host:8786), or 'local' for a LocalCluster")
    p.add_argument("--force", action="store_true", help="run again the runs already in the table")
    p.add_argument("--prune", action="store_true", help="drop rows of runs that are not in this sweep")
    p.add_argument("--runs-dir", help="write each run's summary.json and jobs.csv into DIR/<run id>/")
    p.add_argument("--only", action="append", metavar="AXIS=VALUE",
                   help="run only the runs with this axis value (repeatable), e.g. --only tag.trace=KTH")
    p.add_argument("--dry-run", action="store_true", help="validate and list the runs, run nothing")
    p.add_argument("--show", type=int, default=20, help="runs listed by --dry-run (default 20)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=_cmd_sweep)

    p = subparsers.add_parser("plot", help="plot a metric of a results table against a parameter",
                              description="Mean over seeds with a band (one standard deviation by "
                              "default, kept inside the metric's bounds), one line per --hue value, one "
                              "panel per --y, one legend below; axis labels with units (waits in "
                              "minutes). Writes OUT as given when it ends in .png, .pdf or .svg, else "
                              "OUT.png and OUT.pdf.")
    p.add_argument("results", help="results table (.parquet or .csv)")
    p.add_argument("--x", required=True, help="column on the x axis, e.g. workload.model.load")
    p.add_argument("--y", required=True, action="append", help="metric column (repeatable: one panel each)")
    p.add_argument("--hue", help="one line per value of this column, e.g. policy")
    p.add_argument("--where", action="append", metavar="COLUMN=VALUE", help="keep matching rows (repeatable)")
    p.add_argument("--over", default="seed", help="columns averaged over (comma-separated; default seed)")
    p.add_argument("--band", default=DEFAULT_BAND, choices=BANDS + tuple(BAND_ALIASES),
                   help="band around the mean: std (+/- one standard deviation, the default), ci "
                        "(95 %% confidence interval of the mean; very wide with two or three seeds), "
                        "minmax (lowest to highest run) or none; always inside the metric's bounds")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis (points <= 0 are counted "
                                                       "in a note on the panel)")
    p.add_argument("--title", help="title above the panels")
    p.add_argument("--xlabel", help="x axis label (default: the catalogue's, with the unit)")
    p.add_argument("--ylabel", action="append", help="y axis label: once for every panel, or once per --y")
    p.add_argument("--legend", metavar="TITLE", help="legend title (default: the --hue column's label); "
                                                     "'none' for no legend")
    p.add_argument("-o", "--out", "--output", dest="output", metavar="OUT",
                   help="output file (.png, .pdf or .svg), or a prefix for OUT.png and OUT.pdf "
                        "(default: the table's name and the metrics)")
    p.set_defaults(func=_cmd_plot)

    p = subparsers.add_parser("report", help="print a results table in the form of Liu 2015 Table 2",
                              description="Per metric: mean ± std over seeds per row and policy, and "
                              "the improvement in % against --baseline; waits and responses in minutes.")
    p.add_argument("results", help="results table (.parquet or .csv)")
    p.add_argument("--metric", action="append", help="metric column (repeatable; default avg_wait, "
                                                     "max_wait, avg_bsld, max_bsld)")
    p.add_argument("--rows", action="append", help="column(s) naming the table's rows, e.g. tag.trace")
    p.add_argument("--cols", default="policy", help="column naming the table's columns (default policy)")
    p.add_argument("--baseline", default="fcfs", help="column value improvements are measured "
                                                      "against (default fcfs; 'none' for no improvement)")
    p.add_argument("--over", default="seed", help="columns averaged over (comma-separated; default seed)")
    p.add_argument("--where", action="append", metavar="COLUMN=VALUE", help="keep matching rows (repeatable)")
    p.add_argument("--seconds", action="store_true", help="waits and responses in seconds (default minutes)")
    p.add_argument("--format", choices=("text", "md"), default="text")
    p.set_defaults(func=_cmd_report)

    p = subparsers.add_parser("gantt", help="draw the Gantt chart of one run (schedule.csv or a cloud's "
                                            "intervals.csv)",
                              description="Hosts (a cloud's VMs) x time, bars coloured by job, tiers "
                              "shaded, a cloud's overheads grey; kills, preemptions and migrations "
                              "marked. Reads RUN_DIR/intervals.csv (cloud runs) or RUN_DIR/schedule.csv "
                              "(run --schedule). Writes OUT (.png, .pdf, .svg) or OUT.png and OUT.pdf (default RUN_DIR/gantt). "
                              f"More than --max-bars bars (default {MAX_BARS:,}) in the window are "
                              "refused: draw a window with --from/--to.")
    p.add_argument("run", help="run folder holding schedule.csv or intervals.csv, or the file itself")
    p.add_argument("-o", "--out", "--output", dest="output", metavar="OUT",
                   help="output file (.png, .pdf or .svg), or a prefix for OUT.png and OUT.pdf")
    p.add_argument("--from", "--start", dest="start", type=float, metavar="T", help="first time shown (s)")
    p.add_argument("--to", "--end", dest="end", type=float, metavar="T", help="last time shown (s)")
    p.add_argument("--max-bars", type=int, default=MAX_BARS,
                   help=f"refuse charts with more bars in the window (default {MAX_BARS:,})")
    p.add_argument("--hosts", type=int, help="hosts drawn (default: the run's)")
    p.add_argument("--tiers", type=int, help="tiers drawn (default: the run's)")
    p.add_argument("--no-labels", action="store_true", help="no job ids on the bars")
    p.set_defaults(func=_cmd_gantt)

    p = subparsers.add_parser("timeline", help="draw utilization and queue length over time of one or "
                                               "several runs (timeline.csv)",
                              description="Busy processors over capacity per tier, and queued (and "
                              "suspended) jobs, as step lines, one per run; the datacenters or clouds "
                              "of a run summed. Reads RUN_DIR/timeline.csv (run --timeline). Writes "
                              "OUT (.png, .pdf, .svg) or OUT.png and OUT.pdf (default: the first run folder's timeline). "
                              f"More than --max-steps steps (default {MAX_STEPS:,}) in the window are "
                              "refused: draw a window with --from/--to.")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR", help="run folders holding timeline.csv (or the files)")
    p.add_argument("-o", "--out", "--output", dest="output", metavar="OUT",
                   help="output file (.png, .pdf or .svg), or a prefix for OUT.png and OUT.pdf")
    p.add_argument("--from", dest="start", type=float, metavar="T", help="first time shown (s)")
    p.add_argument("--to", dest="end", type=float, metavar="T", help="last time shown (s)")
    p.add_argument("--max-steps", type=int, default=MAX_STEPS,
                   help=f"refuse charts with more steps in the window (default {MAX_STEPS:,})")
    p.add_argument("--title")
    p.set_defaults(func=_cmd_timeline)
