"""``cloudsim-py``: run and validate scenarios, list policies (and workload / trace tools)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from typing import Any, Sequence, TextIO

from . import __version__
from .errors import CloudSimError, OutputError, PolicyFailure
from .logs import configure


class Progress:
    """Jobs done and jobs/s on stderr for runs longer than ``delay`` seconds, naming the policy
    being run and, when the run's job count is known, the share done and an ETA (the remaining
    jobs at the rate so far): a listener of the datacenter's finishes (and submits), like any
    other. ``run_scenario`` tells it each run's label and job count (:meth:`on_run_start`)."""

    def __init__(self, stream: TextIO = sys.stderr, delay: float = 2.0, every: float = 0.5,
                 check_every: int = 1024, runs: int = 1, clock: Any = time.perf_counter) -> None:
        self.stream = stream
        self.delay = delay
        self.every = every
        self.check_every = check_every      # look at the clock once per this many finishes
        self.runs = runs                    # policies of the scenario, run one after the other
        self.clock = clock
        self.run = 0
        self.policy = ""
        self.jobs: int | None = None
        self.t0 = clock()
        self.last = 0.0
        self.shown = False
        self.done = 0
        self.submitted = 0

    def on_run_start(self, policy: str, jobs: int | None) -> None:
        """A run begins: its policy's label and its job count (``None``: not known)."""
        self.run += 1
        self.policy = policy
        self.jobs = jobs
        self.t0 = self.clock()

    def on_submit(self, job: Any) -> None:
        self.submitted += 1

    def on_finish(self, job: Any) -> None:
        self.done += 1
        if self.done % self.check_every:
            return
        now = self.clock()
        if now - self.t0 < self.delay or now - self.last < self.every:
            return
        self.last = now
        self.stream.write(f"\r  {self.line(now, job.finish_time)}   ")
        self.stream.flush()
        self.shown = True

    def line(self, now: float, simulated: float) -> str:
        """``[1/2 easy] 2,048 of 10,000 jobs (20 %), 1,024 jobs/s, simulated t = 3,600 s, ETA 8s``."""
        from .experiments.progress import duration

        elapsed = max(now - self.t0, 1e-9)
        head = f"[{self.run}/{self.runs} {self.policy}] " if self.policy else ""
        rate = self.done / elapsed
        if self.jobs:
            done = f"{self.done:,} of {self.jobs:,} jobs ({100 * self.done / self.jobs:.0f} %)"
        else:
            done = f"{self.done:,} jobs done ({self.submitted:,} submitted)"
        text = f"{head}{done}, {rate:,.0f} jobs/s, simulated t = {simulated:,.0f} s"
        if self.jobs and rate > 0 and self.done < self.jobs:
            text += f", ETA {duration((self.jobs - self.done) / rate)}"
        return text

    def reset(self, newline: bool = True) -> None:
        if newline and self.shown:
            self.stream.write("\n")
            self.stream.flush()
        self.t0 = self.clock()
        self.last = 0.0
        self.shown = False
        self.done = 0
        self.submitted = 0


def _cmd_run(args: argparse.Namespace) -> int:
    from .scenario import load_scenario
    from .scenario.run import run_scenario

    scenario = load_scenario(args.scenario, args.set or ())
    if args.schedule or args.timeline:
        import attrs

        output = attrs.evolve(scenario.output, schedule=scenario.output.schedule or args.schedule,
                              timeline=scenario.output.timeline or args.timeline)
        scenario = attrs.evolve(scenario, output=output)
    listeners = [Progress(runs=len(scenario.brokers))] if not args.quiet and sys.stderr.isatty() else []
    out = args.out if args.out is not None else scenario.output.dir
    if out is None and (scenario.output.schedule or scenario.output.timeline):
        asked = [f for f in ("schedule", "timeline") if getattr(scenario.output, f)]
        raise OutputError(f"{' and '.join(n + '.csv' for n in asked)} need{'s' if len(asked) == 1 else ''} "
                          "an output folder: give --out DIR or output.dir in the scenario")
    runs = run_scenario(scenario, out, listeners, force=args.force)
    if not args.quiet:
        for line in runs[0][1].loader:
            print(line, file=sys.stderr)
    print(scenario.system.format_runs(scenario.name, scenario.seed, runs))
    if out is not None:
        print(f"results written to {out}", file=sys.stderr)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from .scenario import load_scenario
    from .scenario.run import prepare

    scenario = load_scenario(args.scenario, args.set or ())
    policies = ", ".join(b.policy for b in scenario.brokers)
    prepared = prepare(scenario)
    print(f"{args.scenario}: valid scenario {scenario.name!r}: {prepared.describe()}, policy {policies}, "
          f"seed {scenario.seed}")
    for line in prepared.report_lines():
        print(line)
    return 0


def _cmd_policies(args: argparse.Namespace) -> int:
    from .brokers import broker_registry

    items = list(broker_registry.items())
    width = max(len(n) for n, _ in items)
    for name, cls in items:
        tiers = f"[tiers >= {cls.min_tiers}]" if getattr(cls, "min_tiers", 1) > 1 else ""
        print(f"{name.ljust(width)}  {cls.description} {tiers}".rstrip())
    return 0


#: the commands defined here; the others (workload, trace, experiment and prediction tools) are
#: added from their modules, which a ``run`` does not need to import
CORE_COMMANDS = ("run", "validate", "policies")


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it (``$COLUMNS``, else the
    width of standard output's terminal, else 80), without importing :mod:`shutil`: argparse's
    help formatter, made at every ``add_argument``, imports it (and with it the bz2 and lzma
    modules: 4 ms of a run's start) to ask just this."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    out = sys.__stdout__
    if columns <= 0 and out is not None:
        try:
            columns = os.get_terminal_size(out.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter at :func:`terminal_columns`' width (the same text)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; ``full=False``: only :data:`CORE_COMMANDS` (what ``main``
    builds when one of them is asked for, so a run does not import the tools' modules)."""
    parser = argparse.ArgumentParser(prog="cloudsim-py", description=__doc__, formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"cloudsim_py {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the library does")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="run a scenario and print its summary", formatter_class=HelpFormatter)
    p.add_argument("scenario", help="scenario YAML file")
    p.add_argument("--out", help="write summary.json and jobs.csv here (overrides output.dir)")
    p.add_argument("--set", action="append", metavar="KEY.PATH=VALUE",
                   help="override a scenario value, e.g. --set broker.policy=easy (repeatable)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or cleaning report")
    p.add_argument("--force", action="store_true",
                   help="write into a non-empty output folder, replacing a previous run's files")
    p.add_argument("--schedule", action="store_true",
                   help="also write schedule.csv, every action of every datacenter (output.schedule)")
    p.add_argument("--timeline", action="store_true",
                   help="also write timeline.csv: running, queued, suspended jobs and busy processors "
                        "per tier over time (output.timeline)")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("validate", help="check a scenario (and load its workload) without running",
                       formatter_class=HelpFormatter)
    p.add_argument("scenario")
    p.add_argument("--set", action="append", metavar="KEY.PATH=VALUE")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("policies", help="list the scheduling policies", formatter_class=HelpFormatter)
    p.set_defaults(func=_cmd_policies)
    if not full:
        return parser

    from .commands.predict import add_predict_command
    from .commands.traces import add_traces_commands
    from .commands.workload import add_workload_commands
    from .experiments.commands import add_experiment_commands

    add_workload_commands(sub)
    add_traces_commands(sub)
    add_experiment_commands(sub)
    add_predict_command(sub)
    return parser


def one_blas_thread() -> None:
    """Hold OpenBLAS to one thread in this process (and the processes it starts), unless the
    environment sets its own number. The simulator does no linear algebra worth a second
    thread (its sums of products are numpy's own reductions, :mod:`cloudsim_py.workload.work`),
    and OpenBLAS starting a thread per core when numpy is imported is half of that import's CPU
    time (0.11 -> 0.06 CPU s on this project's 2-core machine): a quarter of a short run's whole
    process (docs/performance.md, *Process start*). Read only when numpy is first imported, so
    it is set only before that: a program that imported numpy and then calls :func:`main` keeps
    its BLAS as it is."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


#: the collector's first threshold while a command runs (Python's default: 700). Starting a
#: run makes tens of thousands of objects that live as long as the process (modules, classes,
#: the scenario, the trace's columns): at 700 the collector scanned them 27 times before the
#: simulation began, 5 ms of a 0.27 s run of 10,000 jobs (docs/performance.md, *Process start*,
#: fifth round). The simulation raises it the same way while it runs (``engine.simulation``).
COMMAND_GC_YOUNG = 100_000


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: run the command ``argv`` names (default: ``sys.argv[1:]``); returns
    its exit code. While it runs the collector's first threshold is raised to
    :data:`COMMAND_GC_YOUNG` (only raised: a program's own higher threshold, or a disabled
    collector, stays), and restored after, so a program calling it keeps its own."""
    collector = gc.get_threshold()
    if collector[0] < COMMAND_GC_YOUNG:
        gc.set_threshold(COMMAND_GC_YOUNG, *collector[1:])
    try:
        return _command(argv)
    finally:
        gc.set_threshold(*collector)


def _command(argv: Sequence[str] | None) -> int:
    one_blas_thread()
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(full=command not in CORE_COMMANDS)
    args = parser.parse_args(words)
    configure(args.verbose)           # carried out when a module that logs is imported
    try:
        code = args.func(args)
        sys.stdout.flush()   # a closed pipe shows here, inside the handler, not at exit
        return code
    except PolicyFailure as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        cause = exc.__cause__
        if cause is not None:
            print("traceback into the policy (most recent call last):", file=sys.stderr)
            import traceback                  # only here: 2 ms of every start otherwise

            print("".join(traceback.format_exception(cause)).rstrip(), file=sys.stderr)
        return 2
    except CloudSimError as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`cloudsim-py run ... | head -1`): say so once, and keep the
        # interpreter from complaining again when it flushes stdout at exit
        _silence_stdout()
        print("cloudsim-py: error: output pipe closed before the results were printed", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"cloudsim-py: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("cloudsim-py: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
