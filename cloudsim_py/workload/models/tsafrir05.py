"""Tsafrir, Etsion & Feitelson 2005 model of user runtime estimates.

D. Tsafrir, Y. Etsion and D. G. Feitelson, "Modeling user runtime estimates", JSSPP 2005, LNCS
3834. Constants and steps from WORKLOAD_MODELS.md section 4 (Tsafrir's reference implementation
``est_model.hh/.cc``): estimates are modal - a histogram of K "bins" (estimate value -> share of
jobs) with 20 popular "head" values holding 89 % of the jobs (the site maximum first) and a
power-law tail; then every job gets an estimate at least its runtime.

Usable on any runtime array (:func:`tsafrir05_estimates`) and as the ``tsafrir05`` estimate mode
of :func:`cloudsim_py.workload.table.prepare` (works on traces and generated workloads alike).

Vectorised assignment: the reference walks jobs from the longest and gives each a uniformly
chosen remaining estimate among those >= its runtime (section 4.3 step 3). Jobs whose runtimes
fall between the same two consecutive bin values share the same eligible bins, so each such
group is one multivariate hypergeometric draw plus a random order - the same distribution, a
different random stream, and ~K numpy calls instead of one Python step per job.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import attrs
import numpy as np

from ...errors import TraceError
from ..table import COL, CleaningReport
from .params import ParameterError, choice, integer, real

MIN = 60.0
HOUR = 3600.0

#: Values common to the four studied logs (section 4.2), in seconds: 5, 10, 15, 20, 30 min,
#: 1, 2, 3, 4, 5, 6, 8, 10, 12, 18 h.
COMMON_VALUES = tuple(m * MIN for m in (5, 10, 15, 20, 30)) + tuple(
    h * HOUR for h in (1, 2, 3, 4, 5, 6, 8, 10, 12, 18))
#: Fill-in "round" series (step sizes in seconds), walked in this order (section 4.2).
ROUND_SERIES = tuple(h * HOUR for h in (200, 100, 50, 10, 5, 2, 1)) + tuple(m * MIN for m in (20, 10, 5))

#: Popularity rank of each head time rank 0..19 in the four logs (section 4.2, columns
#: SDSC, CTC, KTH, BLUE).
POPULARITY_TABLE = (
    (3, 1, 1, 1), (1, 3, 4, 6), (4, 4, 10, 5), (17, 2, 14, 3), (13, 12, 20, 7),
    (7, 9, 2, 2), (8, 8, 3, 18), (18, 18, 7, 19), (2, 6, 12, 4), (6, 7, 6, 11),
    (16, 11, 19, 20), (10, 20, 5, 9), (5, 16, 18, 10), (15, 5, 16, 14), (14, 14, 9, 13),
    (19, 13, 17, 16), (11, 10, 15, 15), (12, 15, 13, 17), (9, 17, 8, 8), (20, 19, 11, 12),
)

#: Number-of-bins model: piecewise linear in the number of jobs through these points, capped.
BINS_LINEAR = ((0, 0), (20, 10), (200, 20), (1000, 35), (10000, 90), (70000, 340), (250000, 565))
#: Offsets tried (in this order) when a rounded tail value is already taken (section 4.2).
TAIL_OFFSETS = (0, 30, -30, 20, -20, 10, -10)


@attrs.define(slots=True)
class Tsafrir05:
    """The estimate model's constants (section 4.2); ``max_est`` is the site's maximum estimate."""

    max_est: float = attrs.field(validator=real(HOUR))
    top: int = attrs.field(default=20, validator=integer(1, 20))
    head_total: float = attrs.field(default=89.0, validator=real(0.0, 100.0, lo_open=True))
    head_a: float = attrs.field(default=14.0491, validator=real(0.0))
    head_b: float = attrs.field(default=0.177531, validator=real())
    head_c: float = attrs.field(default=0.462513, validator=real(0.0))
    tail_a: float = attrs.field(default=795.6, validator=real(0.0, lo_open=True))
    tail_b: float = attrs.field(default=2.267, validator=real(0.0, lo_open=True))
    tail_time_a: float = attrs.field(default=12.1039, validator=real(0.0, lo_open=True))
    tail_time_b: float = attrs.field(default=0.6026, validator=real(0.0, lo_open=True))
    bins_model: str = attrs.field(default="linear", validator=choice("linear", "power"))

    # -- histogram ------------------------------------------------------------------------
    def n_bins(self, njobs: int) -> int:
        """K, the number of distinct estimate values for ``njobs`` jobs (section 4.2)."""
        if self.bins_model == "power":
            return int(round(0.653566 * njobs ** 0.547761))
        xs, ys = zip(*BINS_LINEAR)
        return int(round(float(np.interp(njobs, xs, ys))))

    def head_values(self) -> list[float]:
        """The ``top`` head values: ``max_est`` first, then the rest ascending (time ranks)."""
        m = float(self.max_est)
        values = [m]
        for v in COMMON_VALUES:
            if v < m and v not in values:
                values.append(v)
        for step in ROUND_SERIES:
            k = math.floor(m / step)
            while k >= 1 and len(values) < self.top:
                v = k * step
                if v not in values:
                    values.append(v)
                k -= 1
            if len(values) >= self.top:
                break
        values = values[:self.top]
        return values[:1] + sorted(values[1:])

    def head_share(self, rank: int) -> float:
        """Percent of jobs of popularity rank ``rank`` (1 = most popular) of the head."""
        if rank == 1:
            return self.head_total - sum(self.head_share(r) for r in range(2, self.top + 1))
        return self.head_a * math.exp(-self.head_b * rank) + self.head_c

    def popularity(self, rng: np.random.Generator) -> list[int]:
        """Popularity rank of each head time rank 0..top-1 (section 4.2 mapping procedure)."""
        table = POPULARITY_TABLE
        top = self.top
        latest = {p: max(t for t, row in enumerate(table) for q in row if q == p) for p in range(1, 21)}
        used: set[int] = set()
        pool: list[int] = []
        out: list[int] = []
        for t in range(top):
            pool.extend(p for p in table[t] if p <= top and p not in used)
            if t == 0:
                chosen = 1
            else:
                due = sorted(p for p in range(1, top + 1) if p not in used and latest[p] <= t)
                if due:
                    chosen = due[0]
                elif pool:
                    chosen = min(pool[int(rng.integers(len(pool)))], pool[int(rng.integers(len(pool)))])
                else:
                    chosen = min(p for p in range(1, top + 1) if p not in used)
            used.add(chosen)
            pool = [p for p in pool if p != chosen]
            out.append(chosen)
        return out

    def tail_values(self, k: int, taken: set[float]) -> list[float]:
        """Values of the ``k - top`` tail bins, ascending (tail time model, rounded to minutes)."""
        n_tail = k - self.top
        if n_tail <= 0:
            return []
        a = 1.0 + self.tail_time_a * k ** -self.tail_time_b
        m = float(self.max_est)
        out: list[float] = []
        taken = set(taken)
        for rank in range(1, n_tail + 1):
            x = rank / n_tail
            t = m * (a - 1.0) * x / (a - x)
            base = round(t / MIN) * MIN
            for off in TAIL_OFFSETS:
                v = base + off
                if 0 < v < m and v not in taken:
                    taken.add(v)
                    out.append(v)
                    break
            # a value whose every offset is taken is dropped (the job count is fixed later)
        return out

    def histogram(self, njobs: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(values, counts)``: the K estimate values and how many of ``njobs`` jobs get each."""
        values = self.head_values()
        pops = self.popularity(rng)
        shares = [self.head_share(p) for p in pops[:len(values)]]
        tail = self.tail_values(self.n_bins(njobs), set(values))
        if tail:
            ranks = np.arange(self.top + 1, self.top + 1 + len(tail), dtype=float)
            tail_shares = self.tail_a * ranks ** -self.tail_b
            tail_shares *= (100.0 - self.head_total) / tail_shares.sum()
            values += tail
            shares += list(rng.permutation(tail_shares))
        counts = np.rint(np.asarray(shares) / 100.0 * njobs).astype(np.int64)
        _fix_total(counts, njobs)
        return np.asarray(values), counts

    # -- assignment -----------------------------------------------------------------------
    def assign(self, runtime: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """An estimate for every runtime: at least the runtime (runtimes above ``max_est`` are
        first truncated to it), otherwise uniformly random among the histogram's estimates."""
        runtime = np.asarray(runtime, dtype=np.float64)
        n = runtime.shape[0]
        if n == 0:
            return np.empty(0)
        values, counts = self.histogram(n, rng)
        order_v = np.argsort(-values, kind="stable")
        values, counts = values[order_v], counts[order_v].copy()
        r = np.minimum(runtime, self.max_est)
        # eligible bins of a job: the first h+1 bins (values >= r), h = #(values >= r) - 1
        h = np.searchsorted(-values, -r, side="right") - 1
        out = np.empty(n)
        job_order = np.argsort(h, kind="stable")
        h_sorted = h[job_order]
        bounds = np.searchsorted(h_sorted, np.arange(values.shape[0] + 1))
        for b in range(values.shape[0]):
            lo, hi = bounds[b], bounds[b + 1]
            m = hi - lo
            if m == 0:
                continue
            pool = counts[:b + 1]
            if pool.sum() < m:
                raise TraceError(
                    f"tsafrir05: {m} jobs run longer than {values[b + 1] if b + 1 < len(values) else 0:g} s "
                    f"but only {int(pool.sum())} estimates >= {values[b]:g} s are left; "
                    f"use a larger max_est (now {self.max_est:g} s)")
            drawn = rng.multivariate_hypergeometric(pool, m)
            counts[:b + 1] -= drawn
            labels = np.repeat(values[:b + 1], drawn)
            rng.shuffle(labels)
            out[job_order[lo:hi]] = labels
        return out


def _fix_total(counts: np.ndarray, njobs: int) -> None:
    """Make ``counts`` sum to ``njobs`` by adjusting the largest bins (section 4.3 step 1)."""
    diff = njobs - int(counts.sum())
    while diff:
        i = int(np.argmax(counts))
        if diff > 0:
            counts[i] += diff
            return
        take = min(-diff, int(counts[i]))
        counts[i] -= take
        diff += take


def default_max_est(runtime: np.ndarray, requested: np.ndarray | None = None) -> float:
    """The site's maximum estimate when none is given: the largest requested time if the
    workload has any, else the longest runtime rounded up to a whole hour (at least 1 h)."""
    if requested is not None:
        req = np.asarray(requested, dtype=np.float64)
        req = req[req > 0]
        if req.size:
            return max(HOUR, float(req.max()))
    longest = float(np.max(runtime)) if len(runtime) else HOUR
    return max(HOUR, math.ceil(longest / HOUR) * HOUR)


def tsafrir05_estimates(runtime: Sequence[float] | np.ndarray, rng: np.random.Generator,
                        max_est: float | None = None, **constants: Any) -> np.ndarray:
    """Tsafrir-Etsion-Feitelson estimates for ``runtime`` (any array of runtimes, seconds).

    ``max_est`` defaults to the longest runtime rounded up to a whole hour; ``constants``
    override the model's (see :class:`Tsafrir05`). Raises :class:`ParameterError` for bad
    constants and :class:`~cloudsim_py.errors.TraceError` when too many jobs are longer than the
    available estimates (remedy: a larger ``max_est``).
    """
    runtime = np.asarray(runtime, dtype=np.float64)
    if runtime.size and not np.all(runtime > 0):
        raise ParameterError("runtime", "every runtime must be > 0")
    model = Tsafrir05(max_est=float(max_est) if max_est is not None else default_max_est(runtime),
                      **constants)
    return model.assign(runtime, rng)


def estimate_tsafrir05(data: np.ndarray, runtime: np.ndarray, report: CleaningReport,
                       rng: np.random.Generator) -> np.ndarray:
    """Estimate mode for ``prepare``: Tsafrir 2005 estimates; ``max_est`` = the workload's
    largest requested time, or its longest runtime rounded up to an hour when it has none."""
    max_est = default_max_est(runtime, data[:, COL["req_time"]])
    return Tsafrir05(max_est=max_est).assign(runtime, rng)
