"""Sodan 2009 section 6.2: mean response time predicted from utilization - Little's law over an
M/G/1 queue whose service-time variation is fitted on a base run (pure functions over plain
numbers and numpy columns; imports nothing from the simulator).

The machine is approximated as one server ("we approximate the packing of multiple jobs into
the machine as a variation of service time"):

- eq. (8), Pollaczek-Khinchine: jobs in the system ``Q = U + U^2 (1 + C_S^2) / (2 (1 - U))``;
- eq. (7), Little's law: ``Q = lambda R``, so ``R = Q / lambda``.

``C_S^2`` is fitted on the base run (F_A = 1, the original machine) from its utilization ``U``,
arrival rate ``lambda`` and mean response ``R``: ``1 + C_S^2 = 2 (1 - U) (lambda R - U) / U^2``.
Another allocation changes the work (reshaping with a non-work-conserving efficiency) and/or
the machine (F_VM); the arrivals stay, so ``lambda`` stays and the utilization becomes
``U' = U * (work' / work) * (machine / machine')``; the prediction is ``R' = Q(U', C_S^2) /
lambda``. Inputs needed from the base run: its utilization, job count over makespan (arrival
rate), mean response, total work and machine size - all in the run summary
(:meth:`BaseRun.from_summary`) or from the job columns (:meth:`BaseRun.from_records`, which can
restrict the arrival rate and response to one runtime class).
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs
import numpy as np

from ..workload.work import processor_seconds

ArrayLike = float | int | np.ndarray


def _out(x: np.ndarray) -> float | np.ndarray:
    return float(x) if x.ndim == 0 else x


def queue_length(utilization: ArrayLike, cs2: float) -> float | np.ndarray:
    """Eq. (8): mean number of jobs in an M/G/1 system; ``inf`` for ``U >= 1``.

    >>> queue_length(0.5, 1.0)  # M/M/1: U / (1 - U)
    1.0
    """
    u = np.asarray(utilization, dtype=np.float64)
    if np.any(u < 0):
        raise ValueError(f"utilization must be >= 0, got {utilization!r}")
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(u < 1.0, u + u * u * (1.0 + cs2) / (2.0 * (1.0 - u)), np.inf)
    return _out(q)


def response_time(utilization: ArrayLike, cs2: float, arrival_rate: float) -> float | np.ndarray:
    """Eqs. (7)+(8): ``R = Q(U, C_S^2) / lambda`` (same time unit as ``1 / arrival_rate``)."""
    if not arrival_rate > 0:
        raise ValueError(f"arrival rate must be > 0, got {arrival_rate!r}")
    return _out(np.asarray(queue_length(utilization, cs2)) / arrival_rate)


def fit_cs2(utilization: ArrayLike, mean_response: ArrayLike, arrival_rate: ArrayLike) -> float:
    """``C_S^2`` making eq. (8) match measured ``Q = lambda R`` at ``U``: exact for one base
    run, least squares in ``Q`` for several (eq. (8) is linear in ``1 + C_S^2``).

    >>> fit_cs2(0.5, 2.0, 0.5)  # an M/M/1 queue with mean service 1: R = 1 / (1 - U) = 2
    1.0
    """
    u, r, lam = (np.atleast_1d(np.asarray(x, dtype=np.float64))
                 for x in np.broadcast_arrays(utilization, mean_response, arrival_rate))
    if np.any(u <= 0) or np.any(u >= 1):
        raise ValueError(f"base utilization must be in (0, 1) to fit C_S^2, got {utilization!r}")
    if np.any(lam <= 0) or np.any(r <= 0):
        raise ValueError("arrival rate and mean response must be > 0")
    a = u * u / (2.0 * (1.0 - u))
    b = lam * r - u
    k = float(np.dot(a, b) / np.dot(a, a))
    if k <= 0:
        raise ValueError(f"measured jobs in system lambda R = {(lam * r).tolist()} do not exceed U = "
                         f"{u.tolist()}: no C_S^2 > -1 fits (1 + C_S^2 = {k:.3g})")
    return k - 1.0


def implied_utilization(base_utilization: float, base_work: float, work: ArrayLike,
                        base_machine: float, machine: ArrayLike) -> float | np.ndarray:
    """Utilization of the same arrivals with ``work`` processor-seconds on ``machine``
    processors: ``U * (work / base_work) * (base_machine / machine)`` (section 6.1: "utilization
    corresponds to the submitted load (work over time)")."""
    if not base_work > 0 or not base_machine > 0:
        raise ValueError("base work and base machine must be > 0")
    w = np.asarray(work, dtype=np.float64)
    m = np.asarray(machine, dtype=np.float64)
    return _out(base_utilization * (w / base_work) * (base_machine / m))


@attrs.define(slots=True, frozen=True)
class BaseRun:
    """What the predictor needs from the base run (F_A = 1 on the original machine).

    ``utilization``: processor-seconds of work / (machine x makespan); ``arrival_rate``: jobs /
    makespan (the same span, so that ``utilization = arrival_rate x work / (jobs x machine)``);
    ``mean_response``; ``work``: processor-seconds; ``machine``: processors.
    """

    utilization: float
    arrival_rate: float
    mean_response: float
    work: float
    machine: float

    @classmethod
    def from_summary(cls, summary: Mapping[str, Any], hosts: int) -> "BaseRun":
        """From a run summary (:func:`cloudsim_py.metrics.summarize`): ``utilization``,
        ``avg_response``, ``jobs_finished``, ``makespan``. (A warm-up share drops jobs from
        ``avg_response`` but not from the utilization.)"""
        makespan = float(summary["makespan"])
        u = float(summary["utilization"])
        return cls(u, summary["jobs_finished"] / makespan, float(summary["avg_response"]),
                   u * hosts * makespan, float(hosts))

    @classmethod
    def from_records(cls, records: Any, hosts: int, mask: np.ndarray | None = None) -> "BaseRun":
        """From job columns ``submit``, ``finish``, ``procs``, ``runtime`` (a
        :class:`~cloudsim_py.metrics.JobRecords` or a mapping). Utilization and work cover every
        job; with ``mask`` (e.g. one runtime class) the arrival rate and mean response cover the
        selected jobs only - our reading of the paper's per-type prediction."""
        cols = getattr(records, "columns", records)
        submit = np.asarray(cols["submit"], dtype=np.float64)
        finish = np.asarray(cols["finish"], dtype=np.float64)
        work = processor_seconds(cols["procs"], cols["runtime"])
        makespan = float(finish.max() - submit.min())
        sel = np.ones(submit.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
        count = int(np.count_nonzero(sel))
        if count == 0 or makespan <= 0:
            raise ValueError("no jobs selected, or a zero makespan")
        response = float((finish[sel] - submit[sel]).mean())
        return cls(work / (hosts * makespan), count / makespan, response, work, float(hosts))

    @property
    def cs2(self) -> float:
        """``C_S^2`` fitted on this run (:func:`fit_cs2`)."""
        return fit_cs2(self.utilization, self.mean_response, self.arrival_rate)


def predict_response(base: BaseRun, work: ArrayLike, machine: ArrayLike | None = None,
                     cs2: float | None = None) -> float | np.ndarray:
    """Predicted mean response of another allocation: ``work`` processor-seconds (e.g.
    :attr:`cloudsim_py.workload.reshape.Reshaped.work`) on ``machine`` processors (default the
    base machine; e.g. :func:`cloudsim_py.workload.reshape.vm_size`); ``cs2`` defaults to
    :attr:`BaseRun.cs2`. Broadcasts over arrays of work and machine; ``inf`` where ``U' >= 1``.
    At the base allocation it returns the base's own mean response."""
    c = base.cs2 if cs2 is None else cs2
    m = base.machine if machine is None else machine
    u = implied_utilization(base.utilization, base.work, work, base.machine, m)
    return response_time(u, c, base.arrival_rate)


def relative_error(predicted: ArrayLike, measured: ArrayLike) -> float | np.ndarray:
    """``(predicted - measured) / measured`` (the issue asks for |error| < 10 % where U < 0.9)."""
    p = np.asarray(predicted, dtype=np.float64)
    return _out((p - np.asarray(measured, dtype=np.float64)) / np.asarray(measured, dtype=np.float64))


__all__ = ["BaseRun", "fit_cs2", "implied_utilization", "predict_response", "queue_length",
           "relative_error", "response_time"]
