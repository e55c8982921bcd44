"""Static job reshaping (F_A), machine/VM resizing (F_VM), runtime classes and per-class metrics
(imports no kernel module: no engine, infrastructure, brokers or workload.job).

Sodan 2009 (seed paper 002), section 3.2: every job's size is multiplied by ``F_A`` (the paper
sweeps 1.5 ... 0.3) and rounded up; serial jobs never change; jobs never grow beyond the
machine; the runtime follows the efficiency model (:mod:`.efficiency`). For virtual machines
"the original machine size is modified by a factor F_VM, while still using the job sizes and
runtimes generated for the original machine size, adjusted by the F_A factor": F_VM changes the
machine only, not the workload (arrivals, sizes, runtimes), so it changes the load. Jobs are
classed by their *original* runtime (S <= 10 min, M <= 3 h, L otherwise; "the original
classification is kept if resizing the jobs"), and bounded slowdown is "always vs. the original
runtime without size modification" (section 3.2).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs
import numpy as np

from ..errors import SpecError
from .efficiency import ArrayLike, EfficiencyModel, check_positive
from .work import processor_seconds

#: Sizes are rounded up after multiplying by F_A; products within this of an integer count as
#: that integer (``10 * 0.3`` is ``3.0000000000000004`` in floating point and must give 3).
ROUND_TOLERANCE = 1e-9

#: Runtime class names, shortest first; :meth:`RuntimeClasses.classify` returns indexes into it.
CLASS_NAMES = ("S", "M", "L")


def reshape_factor(value: Any, key: str = "workload.moldable.factor") -> float:
    """A reshaping (F_A) or machine (F_VM) factor: a finite number > 0, else
    :class:`~cloudsim_py.errors.SpecError` naming ``key``."""
    return check_positive(value, key)


def vm_size(machine: int, factor: float) -> int:
    """The machine resized by ``F_VM``: ``machine * factor`` rounded to the nearest processor
    (halves up), at least 1. Section 5: 128 nodes x 0.75, 0.875, 1.125, 1.25 = 96, 112, 144, 160.

    >>> [vm_size(128, f) for f in (0.75, 0.875, 1.125, 1.25)]
    [96, 112, 144, 160]
    """
    reshape_factor(factor, "factor")
    if isinstance(machine, bool) or not isinstance(machine, (int, np.integer)) or machine < 1:
        raise SpecError("machine", f"must be a positive integer, got {machine!r}")
    return max(1, int(math.floor(machine * factor + 0.5)))


def reshape_size(size: int, factor: float, machine: int) -> int:
    """One job's size under ``F_A``: ``ceil(size * factor)``, serial jobs unchanged, at most
    ``machine`` (pass the - possibly resized - machine the job will run on).

    >>> reshape_size(10, 0.3, 128), reshape_size(1, 0.3, 128), reshape_size(100, 1.5, 128)
    (3, 1, 128)
    """
    if not factor > 0 or not math.isfinite(factor):
        raise SpecError("factor", f"must be a finite number > 0, got {factor!r}")
    if size < 1:
        raise ValueError(f"size must be >= 1 processor, got {size!r}")
    if size == 1:
        return 1
    return min(machine, max(1, math.ceil(size * factor - ROUND_TOLERANCE)))


def reshape_sizes(sizes: ArrayLike, factor: float, machine: int) -> np.ndarray:
    """Vectorised :func:`reshape_size` (int64 array)."""
    if not factor > 0 or not math.isfinite(factor):
        raise SpecError("factor", f"must be a finite number > 0, got {factor!r}")
    n = np.asarray(sizes)
    if n.size and np.min(n) < 1:
        raise ValueError(f"sizes must be >= 1 processor, smallest {np.min(n)!r}")
    new = np.ceil(n.astype(np.float64) * factor - ROUND_TOLERANCE)
    new = np.minimum(machine, np.maximum(1.0, new))
    return np.where(n == 1, 1, new).astype(np.int64)


@attrs.define(slots=True, frozen=True)
class Reshaped:
    """A workload after static reshaping: new ``procs``/``runtime`` (and ``estimate``), with the
    originals kept for classes and slowdowns. Arrays are aligned with the input."""

    procs: np.ndarray
    runtime: np.ndarray
    estimate: np.ndarray | None
    original_procs: np.ndarray
    original_runtime: np.ndarray

    @property
    def work(self) -> float:
        """Processor-seconds after reshaping (the load the reshaped workload offers)."""
        return processor_seconds(self.procs, self.runtime)

    @property
    def original_work(self) -> float:
        return processor_seconds(self.original_procs, self.original_runtime)


def reshape_jobs(procs: ArrayLike, runtime: ArrayLike, factor: float, machine: int,
                 model: EfficiencyModel, estimate: ArrayLike | None = None) -> Reshaped:
    """Reshape every job by ``F_A`` (:func:`reshape_sizes`) and let ``model`` give the runtimes;
    estimates scale by the same ratio as runtimes (the paper takes runtimes as exact estimates).

    >>> from .efficiency import E1
    >>> r = reshape_jobs([1, 128, 10], [100.0, 100.0, 100.0], 0.5, 128, E1)
    >>> r.procs.tolist(), [round(t, 3) for t in r.runtime.tolist()]  # 128 -> 64: x 1.625
    ([1, 64, 5], [100.0, 162.5, 162.5])
    """
    n0 = np.asarray(procs)
    t0 = np.asarray(runtime, dtype=np.float64)
    n = reshape_sizes(n0, factor, machine)
    est = None if estimate is None else model.runtimes(estimate, n0, n)
    return Reshaped(n, model.runtimes(t0, n0, n), est, n0.astype(np.int64), t0)


@attrs.define(slots=True, frozen=True)
class RuntimeClasses:
    """Runtime classes by upper limits in seconds: ``S`` if runtime <= ``short``, ``M`` if <=
    ``medium``, ``L`` otherwise (section 3.2: 10 min and 3 h). Limits must be positive and in
    order; errors name the key (``S``, ``M``).

    >>> RuntimeClasses().classify([600, 601, 10800, 10801]).tolist()
    [0, 1, 1, 2]
    """

    short: float = 600.0
    medium: float = 10800.0

    def __attrs_post_init__(self) -> None:
        check_positive(self.short, "S")
        check_positive(self.medium, "M")
        if self.medium <= self.short:
            raise SpecError("M", f"must be above the S limit {self.short!r}, got {self.medium!r}")

    def classify(self, runtime: ArrayLike) -> np.ndarray:
        """Class index (0 = S, 1 = M, 2 = L) of each runtime; O(n)."""
        return np.searchsorted(np.array([self.short, self.medium]), np.asarray(runtime, dtype=np.float64),
                               side="left").astype(np.int8)

    def class_of(self, runtime: float) -> str:
        """``"S"``, ``"M"`` or ``"L"`` for one (original) runtime."""
        return "S" if runtime <= self.short else "M" if runtime <= self.medium else "L"


def runtime_classes(spec: Mapping[str, Any] | None, where: str = "metrics.classes") -> RuntimeClasses:
    """Classes from their scenario form ``{S: 600, M: 10800}`` (either key may be left out;
    ``None`` gives the paper's). Errors name the key: ``metrics.classes.M: must be above ...``."""
    if spec is None:
        return RuntimeClasses()
    if not isinstance(spec, Mapping):
        raise SpecError(where, f"expected a mapping like {{S: 600, M: 10800}}, got {spec!r}")
    for key in spec:
        if key not in ("S", "M"):
            raise SpecError(f"{where}.{key}", "unknown key; known keys: S, M (L is everything longer)")
    try:
        return RuntimeClasses(short=spec.get("S", 600.0), medium=spec.get("M", 10800.0))
    except SpecError as exc:
        raise SpecError(f"{where}.{exc.path}", exc.message) from None


#: Per-class metric names (see :func:`class_metrics`).
CLASS_METRICS = ("count", "avg_wait", "avg_response", "avg_bsld", "avg_runtime", "avg_start_wait", "avg_elapsed")


def class_metrics(records: Any, *, original_runtime: ArrayLike | None = None,
                  classes: RuntimeClasses | None = None, tau: float = 10.0,
                  warmup: float = 0.0) -> dict[str, dict[str, float]]:
    """Metrics per runtime class ``S``, ``M``, ``L`` and over ``all`` jobs.

    ``records``: a :class:`~cloudsim_py.metrics.JobRecords` or any mapping of equal-length
    numpy columns with ``submit``, ``finish``, ``runtime`` (the dedicated runtime at the size
    the job ran on) and optionally ``start``, ``id`` and ``original_runtime``. The original
    runtime (keyword, else the column, else ``runtime``: no reshaping) classes the job and is
    the slowdown's denominator, as in the paper. Per class: ``count``; ``avg_response`` (finish
    - submit); ``avg_wait`` (response - runtime, :mod:`cloudsim_py.metrics`' definition);
    ``avg_bsld`` (``max(1, response / max(tau, original_runtime))``); ``avg_runtime``; with a
    ``start`` column also ``avg_start_wait`` (start - submit) and ``avg_elapsed`` (finish -
    start, the paper's runtime under time slicing). An empty class has count 0 and NaNs.
    ``warmup`` drops that share of the earliest-submitted jobs, as :func:`~cloudsim_py.metrics.summarize`.
    """
    if not 0.0 <= warmup < 1.0:
        raise ValueError(f"warmup share {warmup} outside [0, 1)")
    cols: Mapping[str, Any] = getattr(records, "columns", records)
    submit = np.asarray(cols["submit"], dtype=np.float64)
    finish = np.asarray(cols["finish"], dtype=np.float64)
    runtime = np.asarray(cols["runtime"], dtype=np.float64)
    if original_runtime is not None:
        t0 = np.asarray(original_runtime, dtype=np.float64)
    elif "original_runtime" in cols:
        t0 = np.asarray(cols["original_runtime"], dtype=np.float64)
    else:
        t0 = runtime
    if t0.shape != submit.shape:
        raise ValueError(f"original_runtime has {t0.shape[0] if t0.ndim else 0} values for {submit.shape[0]} jobs")
    start = np.asarray(cols["start"], dtype=np.float64) if "start" in cols else None
    ids = np.asarray(cols["id"]) if "id" in cols else np.arange(submit.shape[0])
    order = np.lexsort((ids, submit))[int(submit.shape[0] * warmup):]
    response = finish[order] - submit[order]
    per_job = {
        "avg_wait": response - runtime[order],
        "avg_response": response,
        "avg_bsld": np.maximum(1.0, response / np.maximum(tau, t0[order])),
        "avg_runtime": runtime[order],
    }
    if start is not None:
        per_job["avg_start_wait"] = start[order] - submit[order]
        per_job["avg_elapsed"] = finish[order] - start[order]
    codes = (classes or RuntimeClasses()).classify(t0[order])
    out: dict[str, dict[str, float]] = {}
    for label, mask in [(name, codes == i) for i, name in enumerate(CLASS_NAMES)] + [("all", None)]:
        count = int(codes.shape[0] if mask is None else np.count_nonzero(mask))
        row: dict[str, float] = {"count": count}
        for key, values in per_job.items():
            chosen = values if mask is None else values[mask]
            row[key] = float(chosen.mean()) if count else math.nan
        out[label] = row
    return out


def flatten_class_metrics(metrics: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """``{"S": {"avg_bsld": x}}`` -> ``{"avg_bsld_S": x}``: flat keys for a run summary."""
    return {f"{key}_{label}": value for label, row in metrics.items() for key, value in row.items()}


def relative_improvement(base: float, value: float, factor: float) -> float:
    """The paper's "balanced" change of a lower-is-better metric (RR, R) after reshaping by
    ``factor`` against ``base`` at F_A = 1 (section 3.2): improvement ``base / value - 1`` for
    ``factor <= 1``, worsening ``value / base - 1`` for ``factor > 1``, returned negated so that
    positive always means better (our reading of how Figs. 1-4 plot both ends).

    >>> relative_improvement(2.0, 1.0, 0.5), relative_improvement(2.0, 3.0, 1.5)
    (1.0, -0.5)
    """
    if factor <= 1.0:
        return base / value - 1.0
    return -(value / base - 1.0)
