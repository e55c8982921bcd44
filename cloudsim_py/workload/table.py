"""A workload as columns: the 18 SWF fields of every job in one float array, plus where it came
from. Traces and generators both produce a :class:`WorkloadTable`; the feeder turns rows into
:class:`~cloudsim_py.workload.job.Job` objects lazily, so a million-job workload stays compact."""

from __future__ import annotations

import os
from typing import Mapping

from typing import Callable

import attrs
import numpy as np

from ..errors import TraceError
from ..memory import over_limit
from ..registry import Registry
from .swf import FIELDS, SWFHeader, read_array

COL = {name: i for i, name in enumerate(FIELDS)}
#: bytes a job takes in a run, for the memory check of a generated workload's size: its row
#: (144), the generator's working columns, its job and its record once simulated (measured
#: about 350 over 100,000 to 300,000 Lublin jobs; rounded up)
JOB_BYTES = 512


def jobs_over_limit(jobs: int) -> str | None:
    """``None`` if a workload of ``jobs`` jobs fits in memory (:mod:`cloudsim_py.memory`), else
    why not: ``1,000,000,000,000 jobs need about 466 TiB of memory, more than ...``."""
    why = over_limit(jobs * JOB_BYTES)
    return None if why is None else f"{jobs:,} jobs need {why}"


@attrs.define(slots=True, eq=False)
class CleaningReport:
    """What loading kept and what it skipped, by reason. Nothing is dropped silently."""

    source: str
    records: int = 0
    kept: int = 0
    skipped: dict[str, int] = attrs.field(factory=dict)
    estimates_raised: int = 0     #: requested time below the runtime, raised to the runtime
    estimates_missing: int = 0    #: no requested time; the runtime used
    extra_fields: int = 0         #: lines with more than 18 fields (first 18 used)
    blank_lines: int = 0          #: empty or blank-space lines of the file (skipped)
    too_big: int = 0              #: kept jobs larger than the machine (rejected at arrival)
    #: ``(reason, rows)``: the skipped records themselves (18 SWF fields each), for the
    #: ``skipped`` rows of ``jobs.csv``; not part of :meth:`as_dict`
    dropped: list = attrs.field(factory=list)

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def lines(self) -> list[str]:
        out = [f"{self.source}: {self.records} records, {self.kept} jobs kept, "
               f"{self.skipped_total} skipped"]
        for reason, n in self.skipped.items():
            if n:
                out.append(f"  skipped {n}: {reason}")
        if self.estimates_missing:
            out.append(f"  {self.estimates_missing} jobs without requested time: estimate = runtime")
        if self.estimates_raised:
            out.append(f"  {self.estimates_raised} requested times below the runtime raised to it")
        if self.too_big:
            out.append(f"  {self.too_big} jobs need more processors than the machine: rejected at arrival")
        if self.extra_fields:
            out.append(f"  {self.extra_fields} lines had more than 18 fields (first 18 used)")
        if self.blank_lines:
            out.append(f"  {self.blank_lines} blank lines skipped")
        return out

    def as_dict(self) -> dict:
        return {"source": self.source, "records": self.records, "kept": self.kept,
                "skipped": dict(self.skipped), "estimates_raised": self.estimates_raised,
                "estimates_missing": self.estimates_missing, "extra_fields": self.extra_fields, "too_big": self.too_big,
                "blank_lines": self.blank_lines}


@attrs.define(slots=True, eq=False)
class WorkloadTable:
    """Rows of 18 SWF fields, sorted by submit time.

    ``procs``, ``runtime`` and ``estimate`` are the columns the simulator uses (set by
    :func:`prepare`); ``line`` keeps each row's source line for error messages.
    """

    data: np.ndarray
    header: SWFHeader = attrs.field(factory=SWFHeader)
    source: str = "<memory>"
    line: np.ndarray | None = None
    procs: np.ndarray | None = None
    runtime: np.ndarray | None = None
    estimate: np.ndarray | None = None
    report: CleaningReport | None = None
    #: the machine size :func:`prepare` cleaned for, when it kept larger jobs (``too_big="keep"``)
    machine_procs: int | None = None

    def __len__(self) -> int:
        return int(self.data.shape[0])

    def col(self, name: str) -> np.ndarray:
        return self.data[:, COL[name]]

    def head(self, n: int) -> "WorkloadTable":
        """The first ``n`` rows (all of them when there are fewer), as a new table: a small
        run of a large trace, e.g. in a notebook. The cleaning report is copied, the rows left
        out counted under the reason ``beyond the first n``."""
        if n >= len(self):
            return self
        n = max(int(n), 0)
        report = self.report
        if report is not None:
            report = attrs.evolve(report, skipped={**report.skipped, f"beyond the first {n}": len(self) - n},
                                  dropped=list(report.dropped))
            report.kept = min(report.kept, n)

        def cut(column: np.ndarray | None) -> np.ndarray | None:
            return column[:n] if column is not None else None

        return attrs.evolve(self, data=self.data[:n], line=cut(self.line), procs=cut(self.procs),
                            runtime=cut(self.runtime), estimate=cut(self.estimate), report=report)

    @classmethod
    def from_columns(cls, columns: Mapping[str, np.ndarray], source: str = "<memory>",
                     header: SWFHeader | None = None) -> "WorkloadTable":
        """Build a table from named columns (missing fields are -1; ``job`` defaults to 1..n)."""
        n = len(next(iter(columns.values())))
        data = np.full((n, 18), -1.0)
        data[:, COL["job"]] = np.arange(1, n + 1)
        for name, values in columns.items():
            if name not in COL:
                raise TraceError(f"{source}: unknown SWF column {name!r}; known: {', '.join(FIELDS)}")
            data[:, COL[name]] = values
        return cls(data=data, header=header or SWFHeader(), source=source)


def read_table(path: str | os.PathLike) -> WorkloadTable:
    """Read an SWF file (plain or .gz) into a table; no cleaning yet."""
    data, lines, header, stats = read_array(path)
    table = WorkloadTable(data=data, header=header, source=os.fspath(path), line=lines)
    table.report = CleaningReport(source=os.fspath(path), records=len(table),
                                  extra_fields=stats.extra_fields, blank_lines=stats.blank)
    return table


#: Reasons a job is left out, in the order they are checked (a job counts once, first reason).
SKIP_RUNTIME = "runtime <= 0 (cancelled or unknown)"
SKIP_PROCS = "processors <= 0 or unknown"
SKIP_TOO_BIG = "more processors than the machine"
SKIP_DUPLICATE = "job number of an earlier line (duplicate)"
SKIP_NO_SUBMIT = "submit time unknown (-1)"

#: Runtime estimate modes: ``f(data, runtime, report, rng) -> estimates`` (one per kept row).
#: ``data`` holds the kept rows (18 SWF columns), ``runtime`` their runtimes.
EstimateMode = Callable[[np.ndarray, np.ndarray, "CleaningReport", np.random.Generator], np.ndarray]
estimate_modes: Registry[EstimateMode] = Registry("runtime estimate mode", entry_point_group=None,
                                                  error=TraceError)


@estimate_modes.register("actual")
def _estimate_actual(data, runtime, report, rng):
    """The exact runtime (a perfect user)."""
    return runtime.copy()


@estimate_modes.register("trace")
def _estimate_trace(data, runtime, report, rng):
    """The requested time (SWF field 9), raised to the runtime where lower (Liu 2015 section
    4.1), the runtime where missing; both cases counted in the report."""
    req = data[:, COL["req_time"]]
    missing = ~(req > 0)
    raised = ~missing & (req < runtime)
    report.estimates_missing += int(missing.sum())
    report.estimates_raised += int(raised.sum())
    return np.where(missing | raised, runtime, req)


@estimate_modes.register("tsafrir05")
def _estimate_tsafrir05(data, runtime, report, rng):
    """Tsafrir, Etsion and Feitelson 2005 user estimates (``workload.models.tsafrir05``,
    imported on first use so that loading a trace does not load the models)."""
    from .models.tsafrir05 import estimate_tsafrir05

    return estimate_tsafrir05(data, runtime, report, rng)


def _repeated_ids(ids: np.ndarray) -> np.ndarray:
    """True where a job number already appeared on an earlier row (the first one is kept).
    O(n log n); O(n) when the numbers only grow, as in a trace."""
    if ids.size < 2 or bool(np.all(ids[1:] > ids[:-1])):
        return np.zeros(ids.shape, dtype=bool)
    _, first = np.unique(ids, return_index=True)
    out = np.ones(ids.shape, dtype=bool)
    out[first] = False
    return out


def prepare(table: WorkloadTable, machine_procs: int, estimate: str = "trace",
            strict: bool = False, rng: np.random.Generator | None = None,
            too_big: str = "skip") -> WorkloadTable:
    """Clean a table for a machine of ``machine_procs`` processors and set the simulator columns.

    Conventions (Liu 2015 section 4.1, checked against its Table 2):
    processors = field 5 (allocated), field 8 (requested) where field 5 is -1; jobs with
    runtime <= 0 or processors <= 0 are skipped and counted, and so are jobs with more
    processors than the machine unless ``too_big="keep"``: then they stay in the table (the
    datacenter rejects them at arrival, with the reason, as any job that cannot fit; scenario
    runs keep them), draw no estimate and no CPU usage, and take their runtime as estimate.
    ``strict=True`` turns the first job that would be skipped, or is too big, into a
    :class:`TraceError` naming file and line. The skipped records are kept in the report's
    ``dropped`` list. ``estimate`` names a mode of :data:`estimate_modes` (``actual``: the
    runtime; ``trace``: the requested time, raised to the runtime where lower; models add
    more), drawn with ``rng``. Rows are stably sorted by submit time.
    """
    if too_big not in ("skip", "keep"):
        raise ValueError(f"too_big must be 'skip' or 'keep', got {too_big!r}")
    estimate_fn = estimate_modes.get(estimate)
    data = table.data
    report = table.report or CleaningReport(source=table.source, records=len(table))
    run = data[:, COL["run"]]
    alloc = data[:, COL["alloc_procs"]]
    procs = np.where(alloc == -1, data[:, COL["req_procs"]], alloc)
    bad_run = ~(run > 0)
    bad_procs = ~bad_run & ~(procs > 0)
    big = ~bad_run & ~bad_procs & (procs > machine_procs)
    no_submit = ~bad_run & ~bad_procs & (data[:, COL["submit"]] < 0)
    dup = _repeated_ids(data[:, COL["job"]]) & ~bad_run & ~bad_procs & ~no_submit
    checks = [(SKIP_RUNTIME, bad_run, True), (SKIP_PROCS, bad_procs, True), (SKIP_NO_SUBMIT, no_submit, True),
              (SKIP_DUPLICATE, dup, True),
              (SKIP_TOO_BIG + f" ({machine_procs})", big & ~dup & ~no_submit, too_big == "skip")]
    for reason, mask, skipped in checks:
        n = int(mask.sum())
        if skipped:
            if n or reason not in (SKIP_DUPLICATE, SKIP_NO_SUBMIT):   # listed only when a trace has one
                report.skipped[reason] = report.skipped.get(reason, 0) + n
            if n:
                report.dropped.append((reason, data[mask]))
        else:
            report.too_big += n
        if n and strict:
            i = int(np.flatnonzero(mask)[0])
            where = f"{table.source}:{int(table.line[i])}" if table.line is not None else f"{table.source}: job {int(data[i, 0])}"
            raise TraceError(f"{where}: {reason} (strict mode); runtime={run[i]:g}, processors={procs[i]:g}")
    gone = bad_run | bad_procs | no_submit | dup
    keep = ~(gone | big) if too_big == "skip" else ~gone
    data, procs = data[keep], procs[keep].astype(np.int64)
    lines = table.line[keep] if table.line is not None else None
    order = np.argsort(data[:, COL["submit"]], kind="stable")
    if not np.all(order == np.arange(len(order))):
        data, procs = data[order], procs[order]
        lines = lines[order] if lines is not None else None
    run = data[:, COL["run"]]
    fits = procs <= machine_procs
    all_fit = bool(fits.all())
    # jobs that cannot fit draw no estimate, so the draws of the others are those of a skip
    est_fit = np.asarray(estimate_fn(data if all_fit else data[fits], run if all_fit else run[fits], report,
                                     rng if rng is not None else np.random.default_rng(0)), dtype=np.float64)
    if est_fit.shape != (int(fits.sum()),) or not np.all(est_fit > 0):
        raise TraceError(f"{table.source}: estimate mode {estimate!r} gave invalid estimates")
    if all_fit:
        est = est_fit
    else:
        est = run.copy()
        est[fits] = est_fit
    report.kept = len(data)
    return WorkloadTable(data=data, header=table.header, source=table.source, line=lines,
                         procs=procs, runtime=run.copy(), estimate=est, report=report,
                         machine_procs=None if all_fit else int(machine_procs))
