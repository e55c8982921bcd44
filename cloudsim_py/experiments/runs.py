"""Running a sweep: one run in a worker (``execute``, through ``load_scenario`` and
``run_scenario`` only), its rows in the results table, and the loop that sends the runs not yet
done to a backend and writes the table as they finish. Must not import the engine, the
datacenter or the brokers."""

from __future__ import annotations

import json
import logging
import os
import time
from typing import Any, Callable, Iterable, Sequence

import attrs

from ..errors import ExperimentError
from ..logs import logger
from ..scenario import load_scenario, run_scenario
from .sweep import RunSpec, Sweep, canonical

log = logger(__name__)


@attrs.define(slots=True)
class RunOutcome:
    """What a worker sends back: one summary per broker, or the error."""

    run_id: str
    rows: list                      #: [{"policy": label, **summary}, ...]
    error: str | None = None
    seconds: float = 0.0
    warnings: list = attrs.field(factory=list)


# ------------------------------------------------------------------------------ one run


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


def _plain(value: Any) -> Any:
    item = getattr(value, "item", None)
    return item() if callable(item) and not isinstance(value, (str, bytes)) else value


def _hosts(result: Any) -> int | None:
    """The machine size the run used (the trace header's when the scenario gives none)."""
    hosts = getattr(getattr(result, "datacenter", None), "hosts", None)
    return len(hosts) if hosts is not None else None


def execute(spec: RunSpec) -> RunOutcome:
    """Run one sweep point (in a worker): load the scenario, run every broker, and return the
    summaries; an exception becomes the outcome's error. Warnings the library logs during the
    run go into the outcome (and the results table) instead of the terminal."""
    logger = logging.getLogger("cloudsim_py")
    capture = _Capture()
    logger.addHandler(capture)
    propagate = logger.propagate
    if logging.getLogger().getEffectiveLevel() > logging.INFO:
        logger.propagate = False
    t0 = time.perf_counter()
    try:
        scenario = load_scenario(spec.scenario)
        # a resumed sweep reruns a failed run into its folder: replace what it left there
        runs = run_scenario(scenario, spec.out_dir, force=True)
        # results follow the label (the policy and its parameters unless the scenario names it)
        rows = [{"policy": result.label or policy, "hosts": _hosts(result),
                 **{k: _plain(v) for k, v in result.summary.items()}} for policy, result in runs]
        if spec.out_dir is not None:
            with open(os.path.join(spec.out_dir, "run.json"), "w", encoding="utf-8") as fh:
                json.dump({"run_id": spec.run_id, "params": spec.params, "scenario": spec.scenario},
                          fh, indent=2, default=str)
                fh.write("\n")
        return RunOutcome(spec.run_id, rows, None, time.perf_counter() - t0, capture.messages)
    except Exception as exc:  # noqa: BLE001 - a failing run is recorded, not fatal
        return RunOutcome(spec.run_id, [], f"{type(exc).__name__}: {exc}", time.perf_counter() - t0,
                          capture.messages)
    finally:
        logger.removeHandler(capture)
        logger.propagate = propagate


# ------------------------------------------------------------------------------ the sweep


def cell(value: Any) -> Any:
    """A parameter as a table cell: scalars as they are, lists and mappings as JSON text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return canonical(value)


def rows_of(spec: RunSpec, outcome: RunOutcome) -> list[dict]:
    """Results rows of one run: one per broker, with the run's parameters."""
    head = {"run_id": spec.run_id, "status": "ok" if outcome.error is None else "failed"}
    head.update({k: cell(v) for k, v in spec.params.items()})
    tail = {"run_seconds": outcome.seconds, "warnings": "; ".join(outcome.warnings) or None,
            "error": outcome.error}
    if outcome.error is None:
        return [{**head, **row, **tail} for row in outcome.rows]
    return [{**head, "policy": policy, **tail} for policy in (spec.policies or (None,))]


@attrs.define(slots=True)
class SweepResult:
    """What a sweep did."""

    path: str
    total: int                      #: runs in the sweep
    skipped: int                    #: already finished in the table (resume)
    ran: int                        #: run now
    failures: list                  #: (run_id, params, error) of the runs that failed now
    stale: int = 0                  #: rows of runs that are not in this sweep (kept or pruned)

    @property
    def failed(self) -> int:
        return len(self.failures)


def default_results_path(sweep: Sweep) -> str:
    """``results/<sweep name>.parquet`` (``.csv`` without pyarrow), in the working directory."""
    from .store import default_format

    return os.path.join("results", f"{sweep.name}.{default_format()}")


class _Writer:
    """Writes the table after a batch of runs unless the last write was so recent that writing
    again would take more than ``share`` of the time (a large table and runs of milliseconds):
    then the rows wait for the next batch, a backend's idle tick, or the end of the sweep."""

    def __init__(self, store: Any, share: float = 0.1, clock: Callable[[], float] = time.perf_counter) -> None:
        self.store = store
        self.share = share
        self.clock = clock
        self.pending = False
        self.last_end = -float("inf")
        self.last_cost = 0.0

    def put(self, run_id: str, rows: list[dict]) -> None:
        self.store.put(run_id, rows)
        self.pending = True

    def maybe_flush(self) -> None:
        if self.pending and self.clock() - self.last_end >= self.last_cost * (1 - self.share) / self.share:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        t0 = self.clock()
        self.store.flush()
        self.pending = False
        self.last_end = self.clock()
        self.last_cost = self.last_end - t0


def select_runs(specs: Sequence[RunSpec], only: Iterable[str] = ()) -> list[RunSpec]:
    """The runs whose axis values match every ``key=value`` (numbers compare as numbers)."""
    from .stats import matches

    wanted = []
    keys = {k for s in specs for k in s.params}
    for item in only:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ExperimentError(f"--only {item!r}: expected axis=value")
        if key not in keys:
            raise ExperimentError(f"--only {key}: not an axis of the sweep; axes: {', '.join(sorted(keys))}")
        wanted.append((key, text.strip()))
    return [s for s in specs if all(k in s.params and matches(cell(s.params[k]), v) for k, v in wanted)]


def run_sweep(sweep: Sweep, results: str | None = None, *, backend: Any = None, force: bool = False,
              prune: bool = False, runs_dir: str | None = None, only: Iterable[str] = (),
              progress: Callable[[int, int, int], None] | None = None,
              runner: Callable[[RunSpec], RunOutcome] = execute) -> SweepResult:
    """Expand and validate the sweep, skip the runs the table already holds (unless ``force``),
    run the others on ``backend`` (default: local processes on every core) and write each
    batch of finished runs to the table as it completes. ``only`` (``["tag.trace=KTH"]``)
    restricts this call to some runs; their ids are those of the whole sweep.

    ``progress(done, failed, todo)`` is called before the first and after each batch.
    ``runner`` runs one :class:`RunSpec` (default :func:`execute`); tests pass one that
    raises to stop a sweep."""
    from .backends import LocalBackend
    from .store import ResultsStore

    every = sweep.expand(runs_dir)
    specs = select_runs(every, only)
    path = results or sweep.results or default_results_path(sweep)
    store = ResultsStore(path, order={s.run_id: s.index for s in every})
    ids = {s.run_id for s in every}
    stale = store.run_ids() - ids
    if stale:
        if prune:
            store.drop(stale)
            store.flush()
        else:
            log.warning("%s holds %d run(s) that are not part of this sweep (other settings?); plot and "
                        "report use every row: use another results file or --prune", path, len(stale))
    finished = store.finished()
    todo = list(specs) if force else [s for s in specs if s.run_id not in finished]
    result = SweepResult(path, len(specs), len(specs) - len(todo), 0, [], len(stale))
    if not todo:
        return result
    backend = backend if backend is not None else LocalBackend()
    done = failed = 0
    if progress is not None:
        progress(0, 0, len(todo))
    writer = _Writer(store)
    with backend:
        try:
            for batch in backend.run(runner, todo):
                interrupt: BaseException | None = None
                for spec, outcome in batch:
                    if isinstance(outcome, BaseException):
                        if not isinstance(outcome, Exception):
                            interrupt = outcome
                            continue
                        outcome = RunOutcome(spec.run_id, [], f"{type(outcome).__name__}: {outcome}")
                    writer.put(spec.run_id, rows_of(spec, outcome))
                    done += 1
                    result.ran += 1
                    if outcome.error is not None:
                        failed += 1
                        result.failures.append((spec.run_id, spec.params, outcome.error))
                writer.maybe_flush()
                if progress is not None:
                    progress(done, failed, len(todo))
                if interrupt is not None:
                    raise interrupt
        finally:
            writer.flush()
    return result
