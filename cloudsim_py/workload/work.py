"""Processor-seconds of a set of jobs, the same float on every machine. Imports numpy only.

A workload's work, ``sum(procs x runtime)``, feeds its offered load (the scale that a workload
model's generator solves for its arrivals, :mod:`.models.load`), the work of a reshaped moldable
workload and a run's utilization (:func:`cloudsim_py.metrics.summarize`). ``np.dot`` would
compute it with the BLAS library's ``ddot``, which OpenBLAS splits between its threads for
vectors of more than 10,000 elements: the partial sums then add up in an order that depends on
how many threads it runs, and so on the machine's cores (and its kernel on the CPU model). With
integer runtimes, as every SWF trace has, the sum is exact in any order; with fractional ones
(reshaped moldable jobs, model runtimes, lease and task durations) 10,001 random products
already gave different last bits on one and two threads. The same seed must give the same
outputs on any machine, so the sum is numpy's own reduction of the products (pairwise, in a
fixed order, on one thread, whatever the BLAS).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import numpy.typing as npt                # for the annotations only: 0.7 ms to import


def processor_seconds(procs: npt.ArrayLike, runtime: npt.ArrayLike) -> float:
    """``sum(procs[i] * runtime[i])`` as float64, summed by numpy's pairwise reduction (not
    BLAS: see the module docstring). O(n), one temporary array of n floats.

    >>> processor_seconds([1, 4, 2], [10.0, 2.5, 0.5])
    21.0
    """
    p = np.asarray(procs, dtype=np.float64)
    r = np.asarray(runtime, dtype=np.float64)
    if p.shape != r.shape:
        raise ValueError(f"processor_seconds: processor counts of shape {p.shape} against runtimes of "
                         f"shape {r.shape}")
    return float(np.multiply(p, r).sum())
