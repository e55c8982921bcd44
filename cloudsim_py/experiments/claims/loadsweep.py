"""Reading the recorded load sweeps of Liu 2013 and Liu 2015 (``docs/data/liu2013.csv``,
``docs/data/liu2015-figs.csv``, written by ``scripts/liu_sweeps.py record``): one row per
(workload, [study,] variant, load), the mean over the seeds of each metric, as strings.

The checks of :mod:`.liu2013` and :mod:`.liu2015` are built from these few functions; each
returns None when the rows it needs are missing, so that the claim is "not attempted"."""

from __future__ import annotations

import statistics
from typing import Iterable, Mapping

from .core import Evidence

LIU2015 = "liu2015-figs"
LIU2013 = "liu2013"


def series(ev: Evidence, table: str, metric: str, **where: str) -> dict[float, float]:
    """``metric`` against the load for the rows of ``table`` matching every ``where`` column."""
    out = {}
    for r in ev.table(table):
        if all(r.get(k) == v for k, v in where.items()) and r.get(metric) not in (None, ""):
            out[round(float(r["load"]), 4)] = float(r[metric])
    return out


def paired(a: Mapping[float, float], b: Mapping[float, float]) -> list[tuple[float, float, float]]:
    """(load, a, b) at the loads both series have, in load order."""
    return [(x, a[x], b[x]) for x in sorted(a) if x in b]


def mean_of(values: Iterable[float]) -> float | None:
    v = list(values)
    return statistics.fmean(v) if v else None


def improvement(ours: float, base: float) -> float:
    """How much ``ours`` improves on ``base``, in percent (Liu 2015's Imp(%))."""
    return 100.0 * (1.0 - ours / base) if base else 0.0


def fmt(x: float) -> str:
    """A metric value, short: 12,345 / 123 / 1.23."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def loads_text(loads: Iterable[float]) -> str:
    return ", ".join(f"{x:g}" for x in loads) or "none"
