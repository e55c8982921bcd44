"""Offered load, and reaching a target load by scaling inter-arrival times.

The offered load of a workload on a machine of ``M`` processors is
``sum(procs x runtime) / (M x (last submit - first submit))`` - the definition used by the
papers when they sweep load (e.g. Lublin & Feitelson 2003 section 2.5 of WORKLOAD_MODELS.md: load
~ mean runtime x mean size / (M x mean inter-arrival)). A generator reaches a target by
multiplying every inter-arrival time by a factor ``c``; where the arrival process is not a pure
renewal process (daily cycles, repeated runs) the load is not exactly proportional to ``1/c`` and
:func:`solve_scale` iterates.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ...logs import logger
from ..work import processor_seconds

log = logger(__name__)


def offered_load(submit: np.ndarray, procs: np.ndarray, runtime: np.ndarray, machine_procs: int) -> float:
    """``sum(procs*runtime) / (machine_procs * span of submits)``; ``inf`` if the span is 0."""
    if len(submit) == 0:
        return 0.0
    span = float(np.max(submit) - np.min(submit))
    work = processor_seconds(procs, runtime)
    if span <= 0:
        return math.inf if work > 0 else 0.0
    return work / (machine_procs * span)


def solve_scale(load_at: Callable[[float], float], target: float, c0: float = 1.0,
                rtol: float = 2e-4, max_iter: int = 60) -> tuple[float, float]:
    """Find the inter-arrival scale ``c`` whose load ``load_at(c)`` is ``target``.

    The load falls as ``c`` grows, roughly as ``1/c``: the multiplicative fixed point
    ``c <- c * load(c) / target`` converges in a few steps for every generator here (each step
    is exact when the load is exactly proportional to ``1/c``). Stops at relative error
    ``rtol`` and returns ``(c, achieved load)`` of the best step seen.
    """
    c = c0
    lo, hi = 0.0, math.inf          # bracket: load(lo) > target > load(hi)
    best = (math.inf, c0, math.nan)
    for _ in range(max_iter):
        load = load_at(c)
        err = abs(load / target - 1.0) if math.isfinite(load) else math.inf
        if err < best[0]:
            best = (err, c, load)
        if err <= rtol:
            break
        if load > target:           # too much load (or a zero span): spread arrivals more
            lo = c
        else:
            hi = c
        step = c * load / target if math.isfinite(load) and load > 0 else math.nan
        if lo < step < hi:
            c = step
        elif math.isfinite(hi) and lo > 0:
            c = math.sqrt(lo * hi)
        else:
            c = c * 4.0 if not math.isfinite(hi) else c / 4.0
        if math.isfinite(hi) and hi / max(lo, 1e-300) < 1 + 1e-12:
            break
    if best[0] > rtol:
        log.warning("target load %.4g reached only to %.4g (relative error %.2g)", target, best[2], best[0])
    return best[1], best[2]
