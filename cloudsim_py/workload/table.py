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
from ..registry import Registry
from .swf import FIELDS, SWFHeader, read_array

COL = {name: i for i, name in enumerate(FIELDS)}


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
        if self.extra_fields:
            out.append(f"  {self.extra_fields} lines had more than 18 fields (first 18 used)")
        return out

    def as_dict(self) -> dict:
        return {"source": self.source, "records": self.records, "kept": self.kept,
                "skipped": dict(self.skipped), "estimates_raised": self.estimates_raised,
                "estimates_missing": self.estimates_missing, "extra_fields": self.extra_fields}


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

    def __len__(self) -> int:
        return int(self.data.shape[0])

    def col(self, name: str) -> np.ndarray:
        return self.data[:, COL[name]]

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
                                  extra_fields=stats.extra_fields)
    return table


#: Reasons a job is left out, in the order they are checked (a job counts once, first reason).
SKIP_RUNTIME = "runtime <= 0 (cancelled or unknown)"
SKIP_PROCS = "processors <= 0 or unknown"
SKIP_TOO_BIG = "more processors than the machine"

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


def prepare(table: WorkloadTable, machine_procs: int, estimate: str = "trace",
            strict: bool = False, rng: np.random.Generator | None = None) -> WorkloadTable:
    """Clean a table for a machine of ``machine_procs`` processors and set the simulator columns.

    Conventions (Liu 2015 section 4.1, checked against its Table 2):
    processors = field 5 (allocated), field 8 (requested) where field 5 is -1; jobs with
    runtime <= 0, processors <= 0 or more processors than the machine are skipped and counted
    (``strict=True`` turns the first one into a :class:`TraceError` naming file and line).
    ``estimate`` names a mode of :data:`estimate_modes` (``actual``: the runtime; ``trace``: the
    requested time, raised to the runtime where lower; models add more), drawn with ``rng``.
    Rows are stably sorted by submit time.
    """
    estimate_fn = estimate_modes.get(estimate)
    data = table.data
    report = table.report or CleaningReport(source=table.source, records=len(table))
    run = data[:, COL["run"]]
    alloc = data[:, COL["alloc_procs"]]
    procs = np.where(alloc == -1, data[:, COL["req_procs"]], alloc)
    bad_run = ~(run > 0)
    bad_procs = ~bad_run & ~(procs > 0)
    too_big = ~bad_run & ~bad_procs & (procs > machine_procs)
    for reason, mask in ((SKIP_RUNTIME, bad_run), (SKIP_PROCS, bad_procs),
                         (SKIP_TOO_BIG + f" ({machine_procs})", too_big)):
        n = int(mask.sum())
        report.skipped[reason] = report.skipped.get(reason, 0) + n
        if n and strict:
            i = int(np.flatnonzero(mask)[0])
            where = f"{table.source}:{int(table.line[i])}" if table.line is not None else f"{table.source}: job {int(data[i, 0])}"
            raise TraceError(f"{where}: {reason} (strict mode); runtime={run[i]:g}, processors={procs[i]:g}")
    keep = ~(bad_run | bad_procs | too_big)
    data, procs = data[keep], procs[keep].astype(np.int64)
    lines = table.line[keep] if table.line is not None else None
    order = np.argsort(data[:, COL["submit"]], kind="stable")
    if not np.all(order == np.arange(len(order))):
        data, procs = data[order], procs[order]
        lines = lines[order] if lines is not None else None
    run = data[:, COL["run"]]
    est = np.asarray(estimate_fn(data, run, report, rng if rng is not None else np.random.default_rng(0)),
                     dtype=np.float64)
    if est.shape != run.shape or not np.all(est > 0):
        raise TraceError(f"{table.source}: estimate mode {estimate!r} gave invalid estimates")
    report.kept = len(data)
    return WorkloadTable(data=data, header=table.header, source=table.source, line=lines,
                         procs=procs, runtime=run.copy(), estimate=est, report=report)
