"""Sodan 2009 Theorems 1 and 2: average response of equal jobs scheduled off-line, serially or
reshaped in groups (pure functions; imports nothing from the simulator).

Setting (section 3.3): ``N`` jobs, all of runtime ``T`` and of the machine's size, submitted
at time 0. *Serial*: one after another. *Adaptive*: each job reshaped to ``1/N_J`` of the
machine so that ``N_J`` run together, ``N_G = N / N_J`` groups one after another; a reshaped
job runs ``N_J * T * E_{FA=1.0} / E_{FA=X}`` (Theorem 2; work-conserving, Theorem 1, is an
efficiency ratio of 1).

- eq. (1): ``R_serial = T (N + 1) / 2``;
- eq. (3): the same, split as ``T (N_J + 1) / 2 + N_J T (N_G - 1) / 2``;
- eq. (2)/(4): ``R_adaptive = N_J T r (N_G + 1) / 2`` with ``r = E_{FA=1.0} / E_{FA=X}``;
- eq. (5): the same, split as runtime ``N_J T r`` plus wait ``N_J T r (N_G - 1) / 2``.

The sums of the paper (``sum_{i=1..N} i / N`` etc.) are written in closed form here.
"""

from __future__ import annotations


def _groups(n_jobs: int, group: int) -> int:
    if n_jobs < 1 or group < 1:
        raise ValueError(f"need n_jobs >= 1 and group >= 1, got n_jobs={n_jobs}, group={group}")
    if n_jobs % group:
        raise ValueError(f"n_jobs={n_jobs} is not a multiple of the group size N_J={group} "
                         "(the theorems assume N_G = N / N_J groups)")
    return n_jobs // group


def serial_response(n_jobs: int, runtime: float = 1.0) -> float:
    """Eq. (1): ``T (N + 1) / 2``, job i (from 1) finishing at ``i T``.

    >>> serial_response(100)
    50.5
    """
    if n_jobs < 1:
        raise ValueError(f"need n_jobs >= 1, got {n_jobs}")
    return runtime * (n_jobs + 1) / 2.0


def serial_response_split(n_jobs: int, group: int, runtime: float = 1.0) -> tuple[float, float]:
    """Eq. (3)'s two terms: the first group's average ``T (N_J + 1) / 2`` and the wait for
    earlier groups ``N_J T (N_G - 1) / 2``; they add up to eq. (1)."""
    n_groups = _groups(n_jobs, group)
    return runtime * (group + 1) / 2.0, group * runtime * (n_groups - 1) / 2.0


def adaptive_response(n_jobs: int, group: int, runtime: float = 1.0, efficiency_ratio: float = 1.0) -> float:
    """Eq. (2) (``efficiency_ratio`` 1, work-conserving) and eq. (4):
    ``N_J T r (N_G + 1) / 2`` with ``r = E_{FA=1.0} / E_{FA=X}``.

    >>> adaptive_response(100, 2, efficiency_ratio=0.65 / 0.8)  # 1.625 * 25.5
    41.4375
    """
    n_groups = _groups(n_jobs, group)
    return group * runtime * efficiency_ratio * (n_groups + 1) / 2.0


def adaptive_response_split(n_jobs: int, group: int, runtime: float = 1.0,
                            efficiency_ratio: float = 1.0) -> tuple[float, float]:
    """Eq. (5)'s two terms: average runtime ``N_J T r`` and average wait ``N_J T r (N_G - 1) / 2``."""
    n_groups = _groups(n_jobs, group)
    run = group * runtime * efficiency_ratio
    return run, run * (n_groups - 1) / 2.0
