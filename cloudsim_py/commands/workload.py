"""CLI subcommands ``workload generate`` and ``workload stats``.

``workload generate --model lublin03 --jobs 10000 --procs 128 --load 0.8 --seed 1 -o out.swf``
writes a valid SWF file whose header records the model, every parameter, the seed and the
achieved offered load. ``workload stats FILE.swf`` prints job count, machine size, offered load,
size and runtime summaries and the Liu 2015 Table 1 short-job table, and warns (naming the line)
where the header disagrees with the jobs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import yaml

from ..errors import CloudSimError, OutputError, ScenarioError, TraceError
from ..workload.models import generate_from_spec, model_parameters, workload_models
from ..workload.models.header import header_load
from ..workload.models.stats import describe, header_problems, short_job_table, SIZE_CLASSES
from ..workload.models.tsafrir05 import default_max_est, tsafrir05_estimates
from ..workload.swf import write_swf
from ..workload.table import COL, jobs_over_limit, prepare, read_table


def parse_params(items: list[str]) -> dict[str, Any]:
    """``key=value`` pairs (values read as YAML: numbers, booleans, lists, mappings); dotted
    keys nest, e.g. ``batch.serial_prob=0.3`` -> ``{"batch": {"serial_prob": 0.3}}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ScenarioError(f"--param {item!r}: expected key=value")
        try:
            value = yaml.safe_load(text) if text.strip() else None
        except yaml.YAMLError as exc:
            raise ScenarioError(f"--param {key}: cannot read value {text!r} ({exc})") from None
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ScenarioError(f"--param {key}: {part} is both a value and a mapping")
        node[parts[-1]] = value
    return out


def _cmd_generate(args: argparse.Namespace) -> int:
    try:
        if args.seed < 0:
            raise ScenarioError(f"--seed must be >= 0, got {args.seed}")
        too_many = jobs_over_limit(args.jobs) if args.jobs > 0 else None
        if too_many is not None:
            raise ScenarioError(f"--jobs: {too_many}")
        spec: dict[str, Any] = {"name": args.model, "jobs": args.jobs}
        if args.procs is not None:
            spec["procs"] = args.procs
        if args.load is not None:
            spec["load"] = args.load
        for key, value in parse_params(args.param or []).items():
            if key in ("name", "jobs", "procs", "load") and key in spec:
                raise ScenarioError(f"--param {key}: use --{key} instead")
            spec[key] = value
        rng = np.random.default_rng(args.seed)
        table = generate_from_spec(spec, rng, where="model")
        fields = dict(table.header.fields)
        fields["Seed"] = str(args.seed)
        if args.estimates == "tsafrir05":
            run = table.col("run")
            max_est = args.max_est if args.max_est is not None else default_max_est(run)
            est = tsafrir05_estimates(run, np.random.default_rng([args.seed, 1]), max_est=max_est)
            table.data[:, COL["req_time"]] = est
            fields["Note_estimates"] = (f"requested times (field 9) from the Tsafrir-Etsion-Feitelson 2005 "
                                        f"model, max_est {max_est:g} s")
        out = sys.stdout if args.output == "-" else args.output
        try:
            n = write_swf(out, table.data, header=fields)
        except OSError as exc:
            where = "standard output" if args.output == "-" else args.output
            raise OutputError(f"-o {where}: cannot write ({exc.strerror or exc})") from None
    except (CloudSimError, ValueError, OSError) as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (ScenarioError, OutputError)) else 1
    if args.output != "-":
        load = header_load(table.header)
        print(f"wrote {n} jobs to {args.output} ({table.header.fields.get('Model')}, "
              f"{table.header.machine_size} processors, offered load {load:.3f}, seed {args.seed})")
    return 0


def _fmt_pct(x: float) -> str:
    return f"{100.0 * x:.1f} %"


def _fmt(x: float, spec: str, why: str) -> str:
    """``x`` formatted, or ``n/a (why)`` when it is not a finite number (a trace of one job has
    no inter-arrival time; jobs all submitted at one instant have no span to load)."""
    x = float(x)
    return format(x, spec) if np.isfinite(x) else f"n/a ({why})"


def _cmd_stats(args: argparse.Namespace) -> int:
    try:
        table = read_table(args.file)
    except (TraceError, OSError) as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        return 2
    problems = header_problems(table)
    for msg in problems:
        print(f"{'error' if args.strict else 'warning'}: {msg}", file=sys.stderr)
    if problems and args.strict:
        return 1
    machine = args.procs or table.header.machine_size
    machine_from = "--procs" if args.procs else ("header MaxProcs" if table.header.max_procs else "header MaxNodes")
    if not machine:
        alloc = table.col("alloc_procs")
        machine = int(max(np.max(np.where(alloc == -1, table.col("req_procs"), alloc), initial=1), 1))
        machine_from = "largest job (no MaxProcs/MaxNodes in the header)"
        print(f"warning: {args.file}: header has no MaxProcs or MaxNodes; machine size = largest job",
              file=sys.stderr)
    try:
        prepared = prepare(table, machine, estimate="trace")
    except CloudSimError as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        return 2
    if len(prepared) == 0:
        print(f"cloudsim-py: error: {args.file}: no usable jobs", file=sys.stderr)
        return 2
    submit = prepared.data[:, COL["submit"]]
    procs, run, report = prepared.procs, prepared.runtime, prepared.report
    assert procs is not None and run is not None and report is not None, "prepare() sets all three"
    d = describe(submit, procs, run, machine)
    print(f"file            {args.file}")
    if "Model" in table.header.fields:
        print(f"model           {table.header.fields['Model']}")
    print(f"jobs            {len(prepared)} of {len(table)} records")
    for line in report.lines()[1:]:
        print(f"               {line}")
    print(f"machine         {machine} processors ({machine_from})")
    one_time = "one job" if len(prepared) == 1 else "every job submitted at one time"
    rate = (f"{d['jobs_per_day']:.1f} jobs/day, mean inter-arrival {d['mean_interarrival']:.0f} s"
            if np.isfinite(d["jobs_per_day"]) else one_time)
    print(f"span            {(submit.max() - submit.min()) / 86400:.1f} days, {rate}")
    print(f"offered load    {_fmt(d['offered_load'], '.3f', one_time)}")
    print(f"size            serial {_fmt_pct(d['serial_fraction'])}, power of two (>1) "
          f"{_fmt_pct(d['pow2_parallel_fraction'])}, mean {d['mean_size']:.1f}, median "
          f"{np.median(procs):.0f}, max {d['max_size']}")
    print("size classes    " + ", ".join(f"{c} {100 * v:.1f}%" for c, v in zip(SIZE_CLASSES, d["size_class_fraction"].values())))
    print(f"runtime (s)     mean {d['runtime_mean']:.0f}, median {d['runtime_median']:.0f}, cv "
          f"{d['runtime_cv']:.2f}, p90 {np.percentile(run, 90):.0f}, max {run.max():.0f}")
    same = "size or runtime constant"
    print(f"size-runtime    corr {_fmt(d['corr_size_runtime'], '+.3f', same)} "
          f"(log-log {_fmt(d['corr_log_size_log_runtime'], '+.3f', same)})")
    req = prepared.data[:, COL["req_time"]]
    if np.any(req > 0):
        ratio = run[req > 0] / req[req > 0]
        print(f"requested time  {_fmt_pct(float(np.mean(req > 0)))} of jobs have one; median runtime/request "
              f"{np.median(ratio):.2f}; {int(np.sum((req > 0) & (run > req)))} ran longer than requested")
    print("short jobs by size class (Liu 2015 Table 1 style)")
    for line in short_job_table(procs, run).lines():
        print(f"  {line}")
    return 0


def _cmd_workflow(args: argparse.Namespace) -> int:
    """``workload workflow FILE...``: one block per file; the first unreadable file is an error
    naming it (exit 2), after the blocks of those before it."""
    from ..workload.dag import critical_path, runtime_cost
    from ..workload.workflow_file import read_workflow

    for i, path in enumerate(args.files):
        try:
            w = read_workflow(path)
        except CloudSimError as exc:
            print(f"cloudsim-py: error: {exc}", file=sys.stderr)
            return 2
        g = w.job.graph
        length, route = critical_path(w.job, runtime_cost(w.job))
        data = sum(d for _, _, d in g.edges(data="data_mb", default=0.0))
        kind = w.schema_version if w.schema_version.startswith("DAX") else f"WfFormat {w.schema_version}"
        if i:
            print()
        print(f"file            {path}")
        print(f"workflow        {w.name} ({kind})")
        print(f"tasks           {g.number_of_nodes():,}, {g.number_of_edges():,} edges, "
              f"{data:,.1f} MB of data on the edges")
        print(f"critical path   {length:,.3f} s over {len(route)} tasks (measured runtimes, no transfers)")
        print(f"makespan        {_makespan_text(w.makespan_s, length)}")
        machines = ", ".join(f"{m.name} ({m.cores} cores)" if m.cores else m.name for m in w.machines)
        print(f"machines        {machines or 'not in the file'}")
    return 0


def _makespan_text(makespan: float | None, critical: float) -> str:
    """The file's makespan as ``workload workflow`` prints it. WfCommons' generator writes
    ``makespanInSeconds: 0`` into the instances it makes: a makespan of 0 under a critical path
    longer than 0 is no measurement, and is said so rather than printed as one."""
    if makespan is None:
        return "not in the file"
    if makespan == 0 and critical > 0:
        return "0 in the file: not a measurement (a generated instance?)"
    return f"{makespan:,.3f} s measured"


def add_workload_commands(subparsers: Any) -> None:
    """Add ``workload generate``, ``workload stats`` and ``workload workflow`` to an argparse
    sub-parsers object."""
    workload = subparsers.add_parser("workload", help="synthetic workloads and workload statistics",
                                     description="Generate workloads from published models; describe SWF "
                                     "and workflow files.")
    sub = workload.add_subparsers(dest="workload_command", metavar="{generate,stats,workflow}")
    sub.required = True
    names = workload_models.names()
    gen = sub.add_parser("generate", help="write a synthetic workload as SWF",
                         description="Generate a workload from a model. Models and their parameters: " +
                         "; ".join(f"{n}: {', '.join(model_parameters(workload_models.get(n)))}" for n in names))
    gen.add_argument("--model", required=True, help=f"model name ({', '.join(names)})")
    gen.add_argument("--jobs", type=int, required=True, help="number of jobs")
    gen.add_argument("--procs", type=int, help="machine size in processors (default: the model's)")
    gen.add_argument("--load", type=float, help="target offered load in (0, 1.5] (default: the model's own rate)")
    gen.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    gen.add_argument("-o", "--output", required=True, help="output SWF file ('-' for standard output)")
    gen.add_argument("--param", action="append", metavar="KEY=VALUE",
                     help="model parameter (repeatable; dotted keys nest, e.g. batch.serial_prob=0.3)")
    gen.add_argument("--estimates", choices=("none", "tsafrir05"), default="none",
                     help="fill the requested-time field with Tsafrir 2005 estimates")
    gen.add_argument("--max-est", type=float, help="site maximum estimate in s for --estimates "
                                                   "(default: longest runtime rounded up to an hour)")
    gen.set_defaults(func=_cmd_generate)
    st = sub.add_parser("stats", help="describe an SWF file", description="Job count, machine size, offered "
                        "load, size and runtime summaries and the Liu 2015 Table 1 short-job table.")
    st.add_argument("file", help="SWF file (plain or .gz)")
    st.add_argument("--procs", type=int, help="machine size (default: the header's MaxProcs/MaxNodes)")
    st.add_argument("--strict", action="store_true", help="a header that disagrees with the jobs is an error")
    st.set_defaults(func=_cmd_stats)
    wf = sub.add_parser("workflow", help="describe workflow files (WfFormat, Pegasus DAX)",
                        description="For each file: its format and version, tasks, edges, the data on "
                        "the edges, the critical path of the measured runtimes (no transfers), the "
                        "measured makespan and the machines, as a DAG scenario would read it.")
    wf.add_argument("files", nargs="+", metavar="file", help="WfFormat JSON (1.0-1.6) or DAX XML")
    wf.set_defaults(func=_cmd_workflow)
