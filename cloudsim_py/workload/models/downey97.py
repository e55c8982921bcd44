"""Downey 1997 speedup model: a building block for moldable jobs.

A. B. Downey, "A model for speedup of parallel programs", UC Berkeley TR CSD-97-933, 1997.
A job with average parallelism ``A`` and variance parameter ``sigma`` runs ``S(n)`` times faster
on ``n`` processors than on one; formulas, branch boundaries and the largest useful allocation
``cmax`` from WORKLOAD_MODELS.md section 6.1 (the middle low-variance denominator is
``sigma (A - 1/2) + n (1 - sigma/2)``, the continuous form). Runtimes are whole seconds, at least
1 (the Cirne simulator's convention, same section).

There is no Downey workload *generator* here: the default ranges of its distributions were not
obtained (section 6.2).
"""

from __future__ import annotations

import numpy as np

ArrayLike = float | int | np.ndarray


def _out(x: np.ndarray) -> float | np.ndarray:
    return float(x) if x.ndim == 0 else x


def downey_speedup(n: ArrayLike, A: ArrayLike, sigma: ArrayLike) -> float | np.ndarray:
    """Speedup ``S(n)`` on ``n`` processors (section 6.1); broadcasts over arrays.

    sigma <= 1: ``A n / (A + sigma/2 (n-1))`` up to ``A``, ``A n / (sigma (A - 1/2) + n (1 - sigma/2))``
    up to ``2A - 1``, then ``A``. sigma >= 1: ``n A (sigma+1) / (sigma (n + A - 1) + A)`` up to
    ``A + A sigma - sigma``, then ``A``. ``S(1) = 1``.
    """
    n, A, sigma = np.broadcast_arrays(np.asarray(n, dtype=np.float64), np.asarray(A, dtype=np.float64),
                                      np.asarray(sigma, dtype=np.float64))
    if np.any(n < 1) or np.any(A < 1) or np.any(sigma < 0):
        raise ValueError("downey_speedup needs n >= 1, A >= 1 and sigma >= 0")
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(n <= A, A * n / (A + sigma / 2.0 * (n - 1.0)),
                       np.where(n <= 2.0 * A - 1.0, A * n / (sigma * (A - 0.5) + n * (1.0 - sigma / 2.0)), A))
        high = np.where(n <= A + A * sigma - sigma, n * A * (sigma + 1.0) / (sigma * (n + A - 1.0) + A), A)
    return _out(np.where(sigma <= 1.0, low, high))


def downey_cmax(A: ArrayLike, sigma: ArrayLike) -> int | np.ndarray:
    """Largest useful allocation: ``ceil(2A - 1)`` if sigma <= 1, else ``ceil(A + A sigma - sigma)``."""
    A, sigma = np.broadcast_arrays(np.asarray(A, dtype=np.float64), np.asarray(sigma, dtype=np.float64))
    c = np.ceil(np.where(sigma <= 1.0, 2.0 * A - 1.0, A + A * sigma - sigma) - 1e-9).astype(np.int64)
    return int(c) if c.ndim == 0 else c


def downey_runtime(work: ArrayLike, n: ArrayLike, A: ArrayLike, sigma: ArrayLike) -> float | np.ndarray:
    """Runtime on ``n`` processors of a job with ``work`` seconds on one: ``max(1, ceil(L / S(n)))``."""
    return _out(np.maximum(1.0, np.ceil(np.asarray(work, dtype=np.float64) / downey_speedup(n, A, sigma))))


def downey_work(runtime: ArrayLike, n: ArrayLike, A: ArrayLike, sigma: ArrayLike) -> float | np.ndarray:
    """One-processor work recovered from a runtime observed on ``n`` processors:
    ``max(1, ceil(S(n) x runtime))`` (section 6.1)."""
    return _out(np.maximum(1.0, np.ceil(downey_speedup(n, A, sigma) * np.asarray(runtime, dtype=np.float64))))
