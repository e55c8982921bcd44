"""Per-process CPU usage (what the process really uses on a dedicated processor) and the
estimate a broker gets of it (Liu 2015 sections 4.1 and 4.3; Liu 2013 sections 5.2 and 5.4)."""

from __future__ import annotations

import attrs
import numpy as np


@attrs.define(slots=True)
class CpuUsageModel:
    """True CPU usage per process.

    ``paper`` (Liu 2013/2015): 1.0 for the process of a single-process job, U(low, high) for
    each process of a multi-process job, low = 0.4 and high = 1.0 by default. Setting ``mean``
    keeps ``high`` and moves ``low`` to ``2*mean - high`` (Liu 2015 Figs. 9-10: mean 60 %
    means 20-100 %). ``full``: every process uses 100 % (ACFCFS100).
    """

    kind: str = "paper"
    low: float = 0.4
    high: float = 1.0
    single: float = 1.0

    def __attrs_post_init__(self) -> None:
        if self.kind not in ("paper", "full"):
            raise ValueError(f"unknown cpu usage model {self.kind!r}; known: paper, full")
        for name in ("low", "high", "single"):
            v = getattr(self, name)
            if not 0.0 < v <= 1.0:
                raise ValueError(f"cpu usage {name} = {v} outside (0, 1]")
        if self.low > self.high:
            raise ValueError(f"cpu usage low {self.low} above high {self.high}")

    @classmethod
    def with_mean(cls, mean: float, high: float = 1.0) -> "CpuUsageModel":
        low = 2.0 * mean - high
        if not 0.0 < low <= high:
            raise ValueError(f"cpu usage mean {mean} needs low = 2*mean - {high} in (0, {high}]")
        return cls("paper", low=low, high=high)

    @property
    def mean(self) -> float:
        return (self.low + self.high) / 2.0

    def draw_many(self, procs: list[int], rng: np.random.Generator) -> list[tuple[float, ...]]:
        """Usage tuples for a batch of jobs, one vectorised draw for all their processes."""
        if self.kind == "full":
            return [(1.0,) * p for p in procs]
        single = (self.single,)
        multi = [p for p in procs if p > 1]
        flat = (rng.random(sum(multi)) * (self.high - self.low) + self.low).tolist() if multi else []
        out: list[tuple[float, ...]] = []
        pos = 0
        for p in procs:
            if p == 1:
                out.append(single)
            else:
                out.append(tuple(flat[pos:pos + p]))
                pos += p
        return out


@attrs.define(slots=True)
class CpuEstimateModel:
    """What the broker is told about CPU usage.

    ``exact``: the true values. ``error``: each value times U(1 - r, 1 + r), clipped to
    [0.01, 1] (Liu 2015 section 4.3.1, r = 0.1 and 0.2). ``unknown``: nothing (``None``);
    placement then ignores usage. ``full``: every process is assumed to use 100 %.
    """

    kind: str = "exact"
    error: float = 0.0

    def __attrs_post_init__(self) -> None:
        if self.kind not in ("exact", "error", "unknown", "full"):
            raise ValueError(f"unknown cpu estimate {self.kind!r}; known: exact, error, unknown, full")
        if self.kind == "error" and not 0.0 < self.error < 1.0:
            raise ValueError(f"cpu estimate error {self.error} outside (0, 1)")

    def estimate_many(self, usages: list[tuple[float, ...]], rng: np.random.Generator) -> list:
        """Estimates for a batch of usage tuples (one vectorised draw for ``error``)."""
        if self.kind == "exact":
            return usages
        if self.kind == "unknown":
            return [None] * len(usages)
        if self.kind == "full":
            return [(1.0,) * len(u) for u in usages]
        flat = np.fromiter((v for u in usages for v in u), dtype=np.float64)
        r = self.error
        flat = np.clip(flat * (rng.random(flat.shape[0]) * (2.0 * r) + (1.0 - r)), 0.01, 1.0).tolist()
        out, pos = [], 0
        for u in usages:
            out.append(tuple(flat[pos:pos + len(u)]))
            pos += len(u)
        return out
