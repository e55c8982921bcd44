"""Per-job records and the run summary, as the papers report them.

Wait = finish - submit - runtime (Liu 2015 section 4.1: restarts and slow background progress
count as waiting); response = finish - submit; bounded slowdown = max(1, response /
max(tau, runtime)) with tau = 10 s (Feitelson et al. 1997). Imports nothing from brokers."""

from __future__ import annotations

import math
from operator import attrgetter
from typing import Any, Callable, Iterable, Sequence

import attrs
import numpy as np

from .infrastructure.listener import DatacenterListener
from .validate import number
from .workload.cpu import usage_total
from .workload.job import Job, JobState
from .workload.work import processor_seconds

SUMMARY_KEYS = (
    "jobs_submitted", "jobs_finished", "jobs_rejected", "jobs_unfinished",
    "avg_wait", "max_wait", "avg_response", "avg_bsld", "max_bsld",
    "utilization", "cpu_utilization", "kills", "migrations", "preemptions", "context_switches", "swaps",
    "lost_work", "makespan", "events", "wall_seconds",
)


@attrs.define(slots=True, frozen=True)
class MetricsSpec:
    """``tau``: the bounded-slowdown threshold (s); ``warmup``: the share of the earliest
    submitted jobs left out of averages and maxima."""

    tau: float = attrs.field(default=10.0, validator=number(0.0, low_open=True))
    warmup: float = attrs.field(default=0.0, validator=number(0.0, 1.0, high_open=True))


#: what the records keep of a finished job, in :class:`JobLog`'s typed columns:
#: ``(column, dtype, attribute of the Job)``
RAW_FIELDS = (
    ("id", np.int64, "id"), ("submit", np.float64, "submit_time"), ("start", np.float64, "first_start"),
    ("finish", np.float64, "finish_time"), ("procs", np.int64, "procs"),
    ("runtime", np.float64, "work"), ("estimate", np.float64, "runtime_estimate"),
    ("kills", np.int64, "kills"), ("suspensions", np.int64, "suspensions"),
    ("migrations", np.int64, "migrations"), ("swaps", np.int64, "swaps"), ("tier", np.int64, "tier"),
    ("lost_work", np.float64, "lost_work"), ("row", np.int64, "desc.row"),
)


def raw_columns(jobs: Sequence[Job]) -> dict[str, np.ndarray]:
    """The :data:`RAW_FIELDS` columns of finished ``jobs``, in their order. Each attribute is
    read by a list comprehension (a load the interpreter specializes for the class's slots:
    some 170 machine instructions a value, against 350 for an ``attrgetter`` call through
    ``map``) and typed by ``numpy.fromiter``; a test holds it to :data:`RAW_FIELDS`'
    attributes. O(jobs x columns)."""
    n = len(jobs)
    values: tuple[list[Any], ...] = (
        [j.id for j in jobs], [j.submit_time for j in jobs], [j.first_start for j in jobs],
        [j.finish_time for j in jobs], [j.procs for j in jobs], [j.work for j in jobs],
        [j.runtime_estimate for j in jobs], [j.kills for j in jobs], [j.suspensions for j in jobs],
        [j.migrations for j in jobs], [j.swaps for j in jobs], [j.tier for j in jobs],
        [j.lost_work for j in jobs], [j.desc.row for j in jobs])
    return {name: np.fromiter(column, dtype=dtype, count=n)
            for (name, dtype, _), column in zip(RAW_FIELDS, values)}


def arrival_order(raw: dict[str, np.ndarray]) -> np.ndarray | None:
    """The permutation sorting raw columns by (submit, id), or ``None`` if they are sorted."""
    if raw["id"].shape[0] < 2:
        return None
    order = np.lexsort((raw["id"], raw["submit"]))
    if np.all(order[1:] > order[:-1]):
        return None
    return order


def sort_by_arrival(raw: dict[str, np.ndarray],
                    replaced: Callable[[str, np.ndarray], None] | None = None) -> None:
    """Sort raw columns by (submit, id) in place of the dict, one column at a time; each sorted
    column is handed to ``replaced(name, column)`` before the next is sorted (so that an owner
    of the unsorted arrays lets each go in turn: one extra column at a time, not a copy of all)."""
    order = arrival_order(raw)
    if order is None:
        return
    for name in list(raw):
        column = raw[name][order]
        raw[name] = column
        if replaced is not None:
            replaced(name, column)


def derived(cols: dict[str, np.ndarray], tau: float) -> dict[str, np.ndarray]:
    """Add ``response``, ``wait`` and ``bsld`` to raw columns (elementwise, so a chunk gives the
    same numbers as the whole run; ``bsld`` is computed in its own array, without temporaries)."""
    cols["response"] = cols["finish"] - cols["submit"]
    cols["wait"] = cols["response"] - cols["runtime"]
    bsld = np.maximum(cols["runtime"], tau)
    np.divide(cols["response"], bsld, out=bsld)
    np.maximum(bsld, 1.0, out=bsld)
    cols["bsld"] = bsld
    return cols


class JobRecords:
    """What happened to every finished job, as numpy columns sorted by (submit, id).

    Columns: ``id submit start finish procs runtime estimate wait response bsld kills
    suspensions migrations swaps tier lost_work`` (seconds; ``start`` is the first start,
    ``runtime`` the true runtime on dedicated processors, ``tier`` the tier of the last run).
    ``source_rows``: each job's row in its workload table (-1 if none), in the same order.
    """

    FIELDS = ("id", "submit", "start", "finish", "procs", "runtime", "estimate", "wait",
              "response", "bsld", "kills", "suspensions", "migrations", "swaps", "tier",
              "lost_work")

    __slots__ = ("columns", "tau", "source_rows")

    def __init__(self, columns: dict[str, np.ndarray], tau: float = 10.0,
                 source_rows: np.ndarray | None = None) -> None:
        self.columns = columns
        self.tau = tau
        self.source_rows = source_rows

    @classmethod
    def from_jobs(cls, jobs: Iterable[Job], tau: float = 10.0) -> "JobRecords":
        """Records of finished :class:`Job` objects."""
        return cls.from_raw(raw_columns(list(jobs)), tau)

    @classmethod
    def from_raw(cls, raw: dict[str, np.ndarray], tau: float = 10.0) -> "JobRecords":
        """Records from raw columns (:data:`RAW_FIELDS`, in any order of rows). The columns are
        sorted one at a time, and ``raw`` is updated with the sorted arrays (so that a caller
        keeping it holds one copy, not two)."""
        sort_by_arrival(raw)
        return cls.from_sorted(raw, tau)

    @classmethod
    def from_sorted(cls, raw: dict[str, np.ndarray], tau: float = 10.0) -> "JobRecords":
        """Records from raw columns already sorted by (submit, id) (not checked)."""
        cols = dict(raw)
        rows = cols.pop("row", None)
        derived(cols, tau)
        return cls({n: cols[n] for n in cls.FIELDS}, tau, rows)

    def __len__(self) -> int:
        return int(self.columns["id"].shape[0])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def row(self, i: int) -> dict:
        return {n: c[i].item() for n, c in self.columns.items()}

    def by_id(self) -> dict[int, dict]:
        """Rows keyed by job id (convenient in tests)."""
        return {int(self.columns["id"][i]): self.row(i) for i in range(len(self))}

    def to_csv(self) -> str:
        """The finished jobs' rows of ``jobs.csv`` (sorted by submit and id) as one text, with
        the ``state`` and ``reason`` columns; floats in ``repr`` form so equal runs give
        byte-identical files. Runs write ``jobs.csv`` as they go
        (:class:`~cloudsim_py.outputs.JobsCsv`); this is for small runs and tests."""
        return csv_header() + "".join(finished_lines(self.columns))


#: a text column of ``jobs.csv`` (a cloud system's cloud, mode, DAG job, task):
#: ``(name, column)``, ``column(jobs)`` the column's words of a chunk of finished jobs
TextColumn = tuple[str, Callable[[Sequence[Job]], Sequence[str]]]

#: the columns ``jobs.csv`` adds after :attr:`JobRecords.FIELDS`
STATE_FIELDS = ("state", "reason")


def csv_header(text: Sequence[str] = ()) -> str:
    """The header of ``jobs.csv``: the records' columns, a system's text columns (``text``: the
    cloud, the mode, the DAG job and task of a cloud system's leases and tasks), state and
    reason."""
    return ",".join(JobRecords.FIELDS + tuple(text) + STATE_FIELDS) + "\n"


def finished_lines(columns: dict[str, Any], text: Sequence[str] = ()) -> list[str]:
    """``jobs.csv`` lines of finished jobs (columns with the derived ones); ``text`` names the
    system's text columns (lists of strings in ``columns``), written after the numbers.

    Every number is written as its ``repr`` (the shortest text that reads back as the same
    float). A line is one ``%`` of a format made for the chunk (:func:`_number_format`), whose
    integer columns and float columns of whole numbers are written by ``%d`` (``repr`` of such a
    float is its integer and ``.0``): the same bytes as joining the ``repr`` of every value, in
    about three quarters of the time (a float's shortest ``repr`` costs three integers'). The
    text cells are ``%s`` fields of the same format, each column quoted once
    (:func:`csv_column`). O(rows x columns), all of it in C loops."""
    fmt, cols = _number_format([columns[n] for n in JobRecords.FIELDS])
    for name in text:
        fmt += ",%s"
        cols.append(csv_column(columns[name]))
    return list(map((fmt + ",finished,\n").__mod__, zip(*cols)))


#: below this a whole float's ``repr`` is its integer and ``.0`` (from 1e16 on, ``1e+16``)
_WHOLE_BELOW = 1e16


def _number_format(arrays: Sequence[np.ndarray]) -> tuple[str, list[Sequence[Any]]]:
    """A ``%`` format of one line of ``arrays`` (columns of one length), comma-separated, and
    the columns as lists to fill it: ``%d`` for an integer column, ``%d.0`` for a float column
    of whole numbers below 1e16 (given as integers: ``repr`` of such a float is exactly that;
    not when a zero is negative, ``-0.0``), ``%r`` for any other. O(rows) per column in numpy."""
    parts: list[str] = []
    lists: list[Sequence[Any]] = []
    for a in arrays:
        if a.dtype.kind in "iu":
            parts.append("%d")
            lists.append(a.tolist())
        elif (a.dtype.kind == "f" and a.size and bool(np.all(np.abs(a) < _WHOLE_BELOW))
              and bool(np.all(np.floor(a) == a)) and not bool(np.any(np.signbit(a) & (a == 0)))):
            parts.append("%d.0")
            lists.append(a.astype(np.int64).tolist())
        else:
            parts.append("%r")
            lists.append(a.tolist())
    return ",".join(parts), lists


#: the characters that make a text cell quoted
_SPECIAL = ',"\n\r'


def csv_cell(text: str) -> str:
    """A text cell of ``jobs.csv``: quoted (CSV's way) only when it holds a comma, a quote or a
    line break."""
    if any(c in text for c in _SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_column(words: Sequence[str]) -> Sequence[str]:
    """:func:`csv_cell` of every word of a column: the column itself when no word holds a
    character to quote (looked for once in the column's words joined, in C: the cloud, mode,
    DAG job and task names of a cloud system seldom do), else the words one by one. O(total
    length)."""
    joined = "".join(words)
    if any(c in joined for c in _SPECIAL):
        return list(map(csv_cell, words))
    return words


class JobLog(DatacenterListener):
    """The records' listener, from any number of datacenters it is subscribed to.

    A finished job's outcome goes into typed columns (:data:`RAW_FIELDS`, a chunk of
    ``chunk`` jobs at a time, in arrays grown by doubling) and the job object is let go, so a
    run keeps about 112 bytes per finished job; each chunk is also handed to the ``sinks`` (``sink(columns)``: the streamed
    ``jobs.csv``). Rejected jobs are kept with their reasons (``rejected``, ``reasons``); the
    jobs in flight (submitted, neither finished nor rejected) in ``inflight``.

    ``text``: a system's text columns of ``jobs.csv`` (:data:`TextColumn`), each made by one
    call a chunk, not one a job, and only for the sinks, their one reader.
    """

    def __init__(self, chunk: int = 4096, text: Sequence[TextColumn] = ()) -> None:
        self.chunk = chunk
        #: a system's text columns, ``(name, column)``: handed to the sinks with each chunk
        self.text = tuple(text)
        self.rejected: list[Job] = []
        self.reasons: dict[int, str] = {}
        #: submitted and accepted, not yet rejected nor flushed as finished (read unfinished())
        self.inflight: set[Job] = set()
        self.sinks: list[Callable[[dict[str, np.ndarray]], None]] = []
        self.finished_count = 0
        self._buffer: list[Job] = []
        # one array per column, ``finished_count`` rows used, its capacity doubled when full
        # (by a copy, a column at a time: arrays handed out stay valid; capacity not yet
        # written is not resident)
        self._cols: dict[str, np.ndarray] = {name: np.empty(chunk, dtype) for name, dtype, _ in RAW_FIELDS}
        self._cpu_work = 0.0
        # the submit hook is the set's own add (C): no Python call per arrival
        setattr(self, "on_submit", self.inflight.add)

    def on_finish(self, job: Job) -> None:
        # hot path: one append; the job leaves ``inflight`` when its chunk is flushed
        buf = self._buffer
        buf.append(job)
        if len(buf) >= self.chunk:
            self.flush()

    def on_reject(self, job: Job, reason: str) -> None:
        self.inflight.discard(job)
        self.rejected.append(job)
        self.reasons[job.id] = reason

    def flush(self) -> None:
        """Move the buffered finished jobs into the columns (and to the sinks)."""
        buf = self._buffer
        if not buf:
            return
        n = len(buf)
        cols: dict[str, Any] = raw_columns(buf)
        work = 0.0
        for j in buf:
            usage = j.desc.usage(j.procs)
            work += j.work * usage_total(usage) if usage is not None else j.work * j.procs
        self._cpu_work += work
        if self.sinks:       # the text columns go to the sinks only: none, none made
            for name, make in self.text:
                cols[name] = make(buf)
        self.inflight.difference_update(buf)
        buf.clear()
        lo = self.finished_count
        hi = lo + n
        store = self._cols
        if hi > store["id"].shape[0]:
            self._grow(max(hi, 2 * store["id"].shape[0]))
        for name, column in store.items():
            column[lo:hi] = cols[name]       # the text columns go to the sinks only
        self.finished_count = hi
        for sink in self.sinks:
            sink(cols)

    def _grow(self, capacity: int) -> None:
        """Room for ``capacity`` finished jobs in every column, one column at a time. (Keeping
        a list of chunks and merging them at the end, as before, doubled the memory at the
        peak: the chunks of the 14 columns lie interleaved in the C heap, so the memory of
        those already merged could not be given back while the others were merged.)"""
        n = self.finished_count
        cols = self._cols
        for name in list(cols):
            bigger = np.empty(capacity, cols[name].dtype)
            bigger[:n] = cols[name][:n]
            cols[name] = bigger      # the old column goes now, before the next is copied

    def columns(self) -> dict[str, np.ndarray]:
        """The finished jobs' raw columns so far (one array per column, shared with the log:
        do not write into them). Rows are in finish order until :meth:`records` sorts them by
        arrival; jobs finished later follow."""
        self.flush()
        n = self.finished_count
        return {name: column[:n] for name, column in self._cols.items()}

    def records(self, tau: float = 10.0) -> JobRecords:
        """The finished jobs' :class:`JobRecords`. The log keeps the sorted columns instead of
        its own, column by column as they are sorted (the records share them: one copy of each
        column, not two, and one extra column at a time while sorting)."""
        raw = self.columns()

        def replaced(name: str, column: np.ndarray) -> None:
            self._cols[name] = column

        sort_by_arrival(raw, replaced)
        return JobRecords.from_sorted(raw, tau)

    def unfinished(self) -> list[Job]:
        """The jobs in flight, in arrival order (a job a broker rejected while it was being
        submitted, before this log heard of the submission, is not one)."""
        self.flush()
        return sorted((j for j in self.inflight if j.state is not JobState.REJECTED), key=attrgetter("order"))

    def cpu_work(self) -> float:
        """CPU-seconds of the finished work: each job's work times the CPU usage of each of its
        processes (100 % where usage is not modelled)."""
        self.flush()
        return self._cpu_work


class RetainingJobLog(JobLog):
    """A :class:`JobLog` that also keeps every finished :class:`Job` (``finished``, in finish
    order): for small runs whose summaries read the jobs themselves (leases and their modes,
    DAG tasks) and for tests. A long run wants the plain log, which lets the jobs go."""

    def __init__(self, chunk: int = 4096, text: Sequence[TextColumn] = ()) -> None:
        super().__init__(chunk, text)
        self.finished: list[Job] = []

    def on_finish(self, job: Job) -> None:
        self.finished.append(job)
        JobLog.on_finish(self, job)


def summarize(records: JobRecords, *, hosts: int, submitted: int, rejected: int,
              unfinished: int = 0, cpu_work: float | None = None, events: int = 0,
              wall_seconds: float = 0.0, warmup: float = 0.0, kills: int | None = None,
              migrations: int | None = None, preemptions: int | None = None,
              swaps: int | None = None, context_switches: int = 0) -> dict:
    """The summary dictionary (keys in :data:`SUMMARY_KEYS`).

    All finished jobs count unless ``warmup`` (a share in [0, 1)) drops the earliest-submitted
    jobs from the averages and maxima; counts and utilization always cover the whole run.
    ``utilization`` is processor-seconds of finished work over hosts x makespan (under
    consolidation two tiers share a host, so it can exceed 1); ``cpu_utilization`` weighs the
    work by each process's CPU usage (Liu 2013's "busy CPU cycles").
    """
    if not 0.0 <= warmup < 1.0:
        raise ValueError(f"warmup share {warmup} outside [0, 1)")
    c = records.columns
    n_all = len(records)
    skip = int(n_all * warmup)
    wait, resp, bsld = c["wait"][skip:], c["response"][skip:], c["bsld"][skip:]
    n = wait.shape[0]
    makespan = float(c["finish"].max() - c["submit"].min()) if n_all else 0.0
    capacity = hosts * makespan
    work = processor_seconds(c["procs"], c["runtime"]) if n_all else 0.0

    def total(name: str, given: int | None) -> int:
        return int(given) if given is not None else int(c[name].sum())

    return {
        "jobs_submitted": submitted,
        "jobs_finished": n_all,
        "jobs_rejected": rejected,
        "jobs_unfinished": unfinished,
        "avg_wait": float(wait.mean()) if n else math.nan,
        "max_wait": float(wait.max()) if n else math.nan,
        "avg_response": float(resp.mean()) if n else math.nan,
        "avg_bsld": float(bsld.mean()) if n else math.nan,
        "max_bsld": float(bsld.max()) if n else math.nan,
        "utilization": work / capacity if capacity > 0 else math.nan,
        "cpu_utilization": cpu_work / capacity if cpu_work is not None and capacity > 0 else math.nan,
        "kills": total("kills", kills),
        "migrations": total("migrations", migrations),
        "preemptions": total("suspensions", preemptions),
        "context_switches": context_switches,
        "swaps": total("swaps", swaps),
        "lost_work": float(c["lost_work"].sum()) if n_all else 0.0,
        "makespan": makespan,
        "events": events,
        "wall_seconds": wall_seconds,
    }


def format_summary(summary: dict, title: str | None = None, extra: Sequence[str] = ()) -> str:
    """A plain-text table of a summary (times also in minutes, as Liu 2015 Table 2): the
    built-in keys, then ``extra`` (the keys a run's probes added, e.g. per-class measures)."""
    lines = [title] if title else []
    keys = [k for k in SUMMARY_KEYS if k in summary] + [k for k in extra if k in summary]
    width = max(len(k) for k in keys)
    for key in keys:
        v = summary[key]
        if v is None or isinstance(v, str):
            text = "-" if v is None else v
        elif isinstance(v, float):
            text = f"{v:,.4f}" if abs(v) < 100 else f"{v:,.1f}"
            if key in ("avg_wait", "max_wait", "avg_response", "makespan") and not math.isnan(v):
                text += f"  ({v / 60:,.1f} min)"
        else:
            text = f"{v:,}"
        lines.append(f"{key.ljust(width)}  {text}")
    return "\n".join(lines)
