"""Per-runtime-class metrics of a run (S, M, L, all), against the jobs' original runtimes, and
their option class (``metrics.classes`` in a scenario). Imports the workload layer and metrics
helpers (and the listener base) only: no brokers, no scenario.

Sodan 2009 (seed paper 002), section 3.2: jobs are classed by their original runtime (S <= 10
min, M <= 3 h, L otherwise) and "RR ... is calculated vs. the pure runtime of the job (without
time slicing) and always vs. the original runtime without size modification". The numbers come
from :func:`cloudsim_py.workload.reshape.class_metrics`; this module only gathers the columns
of finished jobs (any description: moldable jobs give their original runtime, others their own).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import attrs
import numpy as np

from .infrastructure.listener import DatacenterListener
from .workload.reshape import RuntimeClasses, class_metrics, flatten_class_metrics


@attrs.define(slots=True, frozen=True)
class ClassesSpec:
    """``metrics.classes``: the upper runtime limits (s) of classes ``S`` and ``M`` (``L`` is
    everything longer); ``{}`` or ``true`` gives the paper's 600 and 10,800. Limits must be
    finite numbers > 0 with ``S < M`` (errors name ``S`` or ``M``)."""

    S: float = 600.0
    M: float = 10800.0
    classes: RuntimeClasses = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "classes", RuntimeClasses(short=self.S, medium=self.M))


def _row(j: Any) -> tuple:
    return (j.id, j.submit_time, j.first_start, j.finish_time, j.procs, j.work,
            getattr(j.desc, "original_runtime", j.desc.runtime))


_NAMES = ("id", "submit", "start", "finish", "procs", "runtime", "original_runtime")


def _columns(rows: list[tuple]) -> dict[str, np.ndarray]:
    cols = list(zip(*rows)) if rows else [()] * len(_NAMES)
    return {n: np.asarray(c, dtype=np.int64 if n in ("id", "procs") else np.float64)
            for n, c in zip(_NAMES, cols)}


class ClassRecorder(DatacenterListener):
    """A listener keeping what per-class metrics need of every finished job (the run's own
    records keep no original runtime); subscribed only when ``metrics.classes`` is asked for."""

    def __init__(self) -> None:
        self.rows: list[tuple] = []

    def on_finish(self, job: Any) -> None:
        self.rows.append(_row(job))

    def columns(self) -> dict[str, np.ndarray]:
        return _columns(self.rows)


class ClassMetrics(DatacenterListener):
    """The per-class metrics as a probe (:class:`cloudsim_py.probes.Probe`): it keeps what
    they need of every finished job (as :class:`ClassRecorder`), and gives
    :func:`class_summary` of them under ``spec`` with the run's ``tau`` and ``warmup``. What
    ``metrics.classes`` in a scenario subscribes to each run."""

    def __init__(self, spec: ClassesSpec | None = None, tau: float = 10.0, warmup: float = 0.0) -> None:
        self.spec = spec if spec is not None else ClassesSpec()
        self.tau = tau
        self.warmup = warmup
        self.rows: list[tuple] = []

    def on_finish(self, job: Any) -> None:
        self.rows.append(_row(job))

    def columns(self) -> tuple[str, ...]:
        """The summary keys it adds (:func:`class_columns`)."""
        return class_columns(self.spec)

    def summary(self) -> dict[str, float]:
        return class_summary(_columns(self.rows), self.spec, tau=self.tau, warmup=self.warmup)


def class_columns(spec: ClassesSpec | None = None) -> tuple[str, ...]:
    """The summary keys of the per-class metrics (``count_S``, ..., ``avg_elapsed_all``)."""
    return tuple(class_summary(_columns([]), spec))


def job_columns(jobs: Iterable[Any]) -> dict[str, np.ndarray]:
    """``id, submit, start, finish, procs, runtime, original_runtime`` of finished jobs:
    ``runtime`` is the true runtime at the size the job ran on (``job.work``),
    ``original_runtime`` the description's ``original_runtime`` where it has one (a moldable
    job), else its ``runtime``."""
    return _columns([_row(j) for j in jobs])


def class_summary(jobs: Iterable[Any] | Mapping[str, np.ndarray], classes: RuntimeClasses | ClassesSpec | None = None, *,
                  tau: float = 10.0, warmup: float = 0.0) -> dict[str, float]:
    """Summary keys per class, ``<metric>_<class>`` for class ``S``, ``M``, ``L`` and ``all``
    (``count_M``, ``avg_response_L``, ``avg_bsld_all`` (the paper's RR_A), ``avg_wait_S``,
    ``avg_runtime_M``, ``avg_start_wait_L``, ``avg_elapsed_L``), over the finished ``jobs``
    (or the columns of a :class:`ClassRecorder`); ``warmup`` drops the earliest-submitted share, as
    :func:`cloudsim_py.metrics.summarize`."""
    if isinstance(classes, ClassesSpec):
        classes = classes.classes
    cols = dict(jobs) if isinstance(jobs, Mapping) else job_columns(jobs)
    return flatten_class_metrics(class_metrics(cols, classes=classes, tau=tau, warmup=warmup))
