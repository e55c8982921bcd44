"""Workload statistics: the figures the generators are validated on and ``workload stats`` prints.

Size classes and the short-job table follow Liu 2015 Table 1: for the jobs shorter than the
workload's average runtime ("short" - the table's footnote), the percentage falling in each size
class =1, =2, (2,4], (4,8], ..., (64,128], >128. Its published rows are kept in
:data:`LIU2015_TABLE1` to compare against.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

import attrs
import numpy as np

from .load import offered_load

if TYPE_CHECKING:
    from ..table import WorkloadTable

#: Size classes of Liu 2015 Table 1: upper bounds (inclusive) of =1, =2, (2,4], ..., (64,128], >128.
SIZE_CLASS_TOPS = (1, 2, 4, 8, 16, 32, 64, 128)
SIZE_CLASSES = ("=1", "=2", "(2,4]", "(4,8]", "(8,16]", "(16,32]", "(32,64]", "(64,128]", ">128")

#: Liu 2015 Table 1: percentage of the short jobs in each size class, for four real traces.
LIU2015_TABLE1: Mapping[str, tuple[float, ...]] = MappingProxyType({
    "LANL": (0.0, 0.0, 0.0, 0.0, 0.0, 63.6, 14.0, 13.4, 9.0),
    "CTC": (36.7, 7.5, 13.4, 14.6, 13.5, 8.8, 4.2, 0.9, 0.4),
    "KTH": (30.1, 14.5, 19.3, 16.0, 11.9, 4.7, 2.6, 0.9, 0.0),
    "SDSC": (27.6, 15.6, 14.4, 15.4, 13.2, 8.5, 4.7, 0.6, 0.0),
})


def size_class(procs: np.ndarray) -> np.ndarray:
    """Index 0..8 of each size in :data:`SIZE_CLASSES`."""
    return np.searchsorted(np.asarray(SIZE_CLASS_TOPS), np.asarray(procs), side="left")


@attrs.define(slots=True, frozen=True)
class ShortJobTable:
    """Liu 2015 Table 1 for one workload.

    ``share_of_short[i]``: percent of the short jobs that are in class i (the paper's numbers);
    ``short_within[i]``: percent of class i's jobs that are short (how short each class is);
    ``jobs[i]``: jobs in class i; ``threshold``: the average runtime.
    """

    threshold: float
    share_of_short: tuple[float, ...]
    short_within: tuple[float, ...]
    jobs: tuple[int, ...]

    def lines(self) -> list[str]:
        w = max(len(c) for c in SIZE_CLASSES) + 1
        head = "size class".ljust(12) + "".join(c.rjust(w) for c in SIZE_CLASSES)
        return [f"short = runtime < average runtime ({self.threshold:.0f} s)", head,
                "% of short".ljust(12) + "".join(f"{v:{w}.1f}" for v in self.share_of_short),
                "% short in".ljust(12) + "".join(f"{v:{w}.1f}" for v in self.short_within),
                "jobs".ljust(12) + "".join(f"{v:{w}d}" for v in self.jobs)]


def short_job_table(procs: np.ndarray, runtime: np.ndarray) -> ShortJobTable:
    """Liu 2015 Table 1 for jobs of ``procs`` processors running ``runtime`` seconds."""
    procs = np.asarray(procs)
    runtime = np.asarray(runtime, dtype=np.float64)
    threshold = float(runtime.mean()) if runtime.size else 0.0
    short = runtime < threshold
    cls = size_class(procs)
    k = len(SIZE_CLASSES)
    jobs = np.bincount(cls, minlength=k)
    short_n = np.bincount(cls[short], minlength=k)
    total_short = max(1, int(short.sum()))
    share = 100.0 * short_n / total_short
    within = np.where(jobs > 0, 100.0 * short_n / np.maximum(jobs, 1), 0.0)
    return ShortJobTable(threshold, tuple(float(v) for v in share), tuple(float(v) for v in within),
                         tuple(int(v) for v in jobs))


def _is_pow2(n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, dtype=np.int64)
    return (n > 0) & ((n & (n - 1)) == 0)


def describe(submit: np.ndarray, procs: np.ndarray, runtime: np.ndarray, machine_procs: int) -> dict[str, Any]:
    """The validation figures of a workload, as plain numbers (JSON-ready).

    serial and power-of-two shares (power of two = parallel sizes 2, 4, 8, ...), the share of
    jobs in each Liu size class, mean size, runtime mean / median / coefficient of variation,
    Pearson correlation of size and runtime and of their logarithms, arrivals per day, mean
    inter-arrival time and the offered load on ``machine_procs`` processors.
    """
    submit = np.asarray(submit, dtype=np.float64)
    procs = np.asarray(procs, dtype=np.int64)
    runtime = np.asarray(runtime, dtype=np.float64)
    n = len(procs)
    span = float(submit.max() - submit.min()) if n else 0.0

    def corr(a: np.ndarray, b: np.ndarray) -> float:
        if n < 2 or a.std() == 0 or b.std() == 0:
            return math.nan
        return float(np.corrcoef(a, b)[0, 1])

    cls_share = np.bincount(size_class(procs), minlength=len(SIZE_CLASSES)) / max(n, 1)
    return {
        "jobs": n,
        "machine_procs": int(machine_procs),
        "serial_fraction": float(np.mean(procs == 1)) if n else math.nan,
        "pow2_parallel_fraction": float(np.mean(_is_pow2(procs) & (procs > 1))) if n else math.nan,
        "size_class_fraction": {c: float(v) for c, v in zip(SIZE_CLASSES, cls_share)},
        "mean_size": float(procs.mean()) if n else math.nan,
        "max_size": int(procs.max()) if n else 0,
        "runtime_mean": float(runtime.mean()) if n else math.nan,
        "runtime_median": float(np.median(runtime)) if n else math.nan,
        "runtime_cv": float(runtime.std() / runtime.mean()) if n and runtime.mean() > 0 else math.nan,
        "corr_size_runtime": corr(procs.astype(np.float64), runtime),
        "corr_log_size_log_runtime": corr(np.log(np.maximum(procs, 1)), np.log(np.maximum(runtime, 1e-9))),
        "jobs_per_day": n / (span / 86400.0) if span > 0 else math.nan,
        "mean_interarrival": span / (n - 1) if n > 1 else math.nan,
        "offered_load": offered_load(submit, procs, runtime, machine_procs),
    }


def header_problems(table: "WorkloadTable") -> list[str]:
    """Where an SWF file's header disagrees with its jobs, one message per problem naming the
    first offending line: jobs larger than ``MaxProcs``/``MaxNodes``, runtimes above
    ``MaxRuntime``, more job lines than ``MaxRecords``. (Fewer job lines than ``MaxRecords`` is
    normal: the archive's cleaned logs keep the original header.)"""
    from ..table import COL

    out: list[str] = []
    data, header = table.data, table.header

    def where(i: int) -> str:
        return f"{table.source}:{int(table.line[i])}" if table.line is not None else f"{table.source}: row {i + 1}"

    alloc = data[:, COL["alloc_procs"]]
    procs = np.where(alloc == -1, data[:, COL["req_procs"]], alloc)
    machine = header.machine_size
    key = "MaxProcs" if header.max_procs else "MaxNodes"
    if machine:
        over = np.flatnonzero(procs > machine)
        if over.size:
            i = int(over[0])
            out.append(f"{where(i)}: job {int(data[i, COL['job']])} uses {int(procs[i])} processors, more "
                       f"than the header's {key} {machine} ({over.size} such jobs)")
    max_rt = header._int("MaxRuntime")
    if max_rt and max_rt > 0:
        over = np.flatnonzero(data[:, COL["run"]] > max_rt)
        if over.size:
            i = int(over[0])
            out.append(f"{where(i)}: job {int(data[i, COL['job']])} runs {data[i, COL['run']]:g} s, longer "
                       f"than the header's MaxRuntime {max_rt} ({over.size} such jobs)")
    records = len(table)
    declared = header._int("MaxRecords")
    if declared is not None and declared > 0 and records > declared:
        out.append(f"{table.source}: header says MaxRecords {declared} but the file has {records} job lines")
    return out
