"""Aggregation of a results table over seeds for plots and reports: select rows, group them,
check that nothing but the seed varies inside a group, and give mean, standard deviation and a
95 % confidence interval. Imports nothing from the simulator."""

from __future__ import annotations

import math
import statistics
from typing import Any, Iterable, Mapping, Sequence

import attrs

from ..errors import ExperimentError

#: top-level scenario keys: a results column whose first segment is one of them is a parameter
SCENARIO_KEYS = ("name", "seed", "datacenter", "workload", "broker", "metrics", "output")

#: Student's t, 97.5 % quantile (two-sided 95 %), by degrees of freedom; between two entries
#: the smaller df is used, which widens the band slightly (conservative).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
        26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980,
        1000: 1.962}


def t975(df: int) -> float:
    """Student's t quantile 0.975 for ``df`` >= 1 degrees of freedom (table, conservative)."""
    if df < 1:
        raise ValueError("t975 needs df >= 1")
    return T975[max(k for k in T975 if k <= df)]


def is_param(column: str) -> bool:
    """A sweep parameter (``seed``, ``broker.policy``, ``tag.trace``, ``base``...) rather than a
    measure."""
    return column == "base" or column.startswith("tag.") or column.split(".")[0] in SCENARIO_KEYS


@attrs.define(slots=True, frozen=True)
class Stats:
    """A metric over the runs of one group (usually one per seed)."""

    values: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else math.nan

    @property
    def std(self) -> float:
        """Sample standard deviation (n - 1); 0 for a single run."""
        return statistics.stdev(self.values) if self.n > 1 else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95 % confidence interval of the mean (Student's t); 0 for one run."""
        return t975(self.n - 1) * self.std / math.sqrt(self.n) if self.n > 1 else 0.0


def ordered(values: Iterable[Any]) -> list[Any]:
    """Distinct values: numbers in numeric order, otherwise in the order first met (the order
    of the sweep file: FCFS, EASY, CCFCFS, ACFCFS as the user wrote them)."""
    seen = list(dict.fromkeys(values))
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in seen):
        return sorted(seen)
    return seen


def matches(value: Any, text: str) -> bool:
    """A cell equals a command-line value (numbers as numbers, booleans as true/false)."""
    if isinstance(value, bool):
        return text.lower() == ("true" if value else "false")
    if isinstance(value, (int, float)):
        try:
            return float(text) == float(value)
        except ValueError:
            return False
    return str(value) == text


def select(rows: Sequence[Mapping[str, Any]], where: Mapping[str, str] | Iterable[str] = ()) -> list[dict]:
    """Rows whose columns equal the given values (``{"tag.trace": "KTH"}`` or
    ``["tag.trace=KTH"]``; numbers compare as numbers)."""
    if not isinstance(where, Mapping):
        pairs = {}
        for item in where:
            key, sep, text = item.partition("=")
            if not sep or not key:
                raise ExperimentError(f"--where {item!r}: expected column=value")
            pairs[key.strip()] = text.strip()
        where = pairs
    columns = set(rows[0]) if rows else set()
    for key in where:
        if rows and key not in columns:
            raise ExperimentError(f"--where {key}: no such column; columns: {', '.join(rows[0])}")
    return [dict(r) for r in rows if all(matches(r.get(k), v) for k, v in where.items())]


def succeeded(rows: Sequence[Mapping[str, Any]]) -> tuple[list[dict], int]:
    """The rows of runs that finished, and how many failed rows were left out."""
    ok = [dict(r) for r in rows if r.get("status", "ok") == "ok"]
    return ok, len(rows) - len(ok)


def group(rows: Sequence[Mapping[str, Any]], by: Sequence[str], metric: str,
          over: Sequence[str] = ("seed",), hint: str = "") -> dict[tuple, Stats]:
    """``metric`` per combination of the ``by`` columns, over the rest (normally the seeds).

    Every other parameter column (and ``policy``) must be constant inside a group: a sweep
    over loads reported without a load column would otherwise be averaged silently."""
    if not rows:
        raise ExperimentError("no rows to aggregate (every run failed, or --where selected none)")
    columns = list(rows[0])
    for col in list(by) + [metric]:
        if col not in columns:
            raise ExperimentError(f"no column {col!r}; columns: {', '.join(columns)}")
    check = [c for c in columns if (is_param(c) or c == "policy") and c not in by and c not in over]
    groups: dict[tuple, list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r.get(c) for c in by), []).append(r)
    varying: dict[str, list] = {}
    for members in groups.values():
        for c in check:
            if len({repr(m.get(c)) for m in members}) > 1:
                varying.setdefault(c, []).extend(m.get(c) for m in members)
    if varying:
        what = "; ".join(f"{c} takes {', '.join(str(v) for v in ordered(vals))}" for c, vals in varying.items())
        raise ExperimentError(f"runs that would be averaged together (over {', '.join(over) or 'nothing'}) "
                              f"differ in {what}. {hint}".strip())
    out = {}
    for key in groups:
        values = tuple(float(m[metric]) for m in groups[key] if m.get(metric) is not None)
        out[key] = Stats(values)
    return out
