"""A workload's processor-seconds: the same float whatever the machine's BLAS threads."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from cloudsim_py.workload.work import processor_seconds

#: 50,000 fractional products, summed in a child process; printed as hex (every bit)
CHILD = """
import numpy as np
from cloudsim_py.workload.work import processor_seconds
rng = np.random.default_rng(7)
procs = rng.integers(1, 129, 50_000)
runtime = rng.random(50_000) * 1e4
print(processor_seconds(procs, runtime).hex())
"""


def test_processor_seconds_is_the_sum_of_processes_times_runtimes():
    # 1 x 10 + 4 x 2.5 + 2 x 0.5 = 10 + 10 + 1
    assert processor_seconds([1, 4, 2], [10.0, 2.5, 0.5]) == 21.0
    assert processor_seconds(np.array([], dtype=np.int64), np.array([])) == 0.0


def test_processor_seconds_sums_fractional_runtimes_as_numpy_does():
    rng = np.random.default_rng(3)
    procs, runtime = rng.integers(1, 65, 20_000), rng.random(20_000) * 3600
    got = processor_seconds(procs, runtime)
    assert got == float((procs.astype(np.float64) * runtime).sum())
    assert got == pytest.approx(float(np.dot(procs, runtime)), rel=1e-12)


def test_processor_seconds_refuses_columns_of_different_lengths():
    with pytest.raises(ValueError, match="shape"):
        processor_seconds([1, 2], [1.0])


def test_processor_seconds_does_not_depend_on_the_blas_threads():
    """np.dot's ddot splits vectors over 10,000 elements between OpenBLAS's threads, so its
    last bits followed the thread count; the pairwise sum does not."""
    out = []
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
        out.append(done.stdout.strip())
    assert out[0] == out[1]
