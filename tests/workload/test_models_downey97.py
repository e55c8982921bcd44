"""Downey 1997 speedup: the test vectors and continuity checks of WORKLOAD_MODELS.md 6.1."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.workload.models import downey_cmax, downey_runtime, downey_speedup, downey_work

NS = (2, 4, 8, 12, 15, 16, 32, 64)
#: (A, sigma): S(2), S(4), S(8), S(12), S(15), S(16), S(32), S(64), cmax - section 6.1's table
VECTORS = {
    (8, 0.0): ((2, 4, 8, 8, 8, 8, 8, 8), 15),
    (8, 0.5): ((1.9394, 3.6571, 6.5641, 7.5294, 8, 8, 8, 8), 15),
    (8, 1.0): ((1.8824, 3.3684, 5.5652, 7.1111, 8, 8, 8, 8), 15),
    (8, 2.0): ((1.8462, 3.2, 5.0526, 6.2609, 6.9231, 7.1111, 8, 8), 22),
    (32, 1.5): ((1.9632, 3.787, 7.0718, 9.9482, 11.8812, 12.4878, 20.2372, 29.341), 79),
}


@pytest.mark.parametrize("A, sigma", list(VECTORS))
def test_speedup_matches_the_published_test_vectors(A, sigma):
    expected, cmax = VECTORS[(A, sigma)]
    got = downey_speedup(np.array(NS), A, sigma)
    np.testing.assert_allclose(got, expected, atol=5e-5)
    assert downey_cmax(A, sigma) == cmax


def test_one_processor_has_speedup_one():
    for A, sigma in VECTORS:
        assert downey_speedup(1, A, sigma) == pytest.approx(1.0)


@pytest.mark.parametrize("A, sigma", [(8, 0.3), (8, 1.0), (20, 0.9), (8, 1.7), (50, 2.0)])
def test_branches_meet_at_their_boundaries(A, sigma):
    # low variance: n = A and n = 2A - 1; high variance: n = A + A sigma - sigma
    edges = (A, 2 * A - 1) if sigma <= 1 else (A + A * sigma - sigma,)
    for n in edges:
        left, right = downey_speedup(n - 1e-7, A, sigma), downey_speedup(n + 1e-7, A, sigma)
        assert left == pytest.approx(right, rel=1e-5)


def test_both_families_agree_at_sigma_one():
    n = np.linspace(1, 40, 400)
    low = downey_speedup(n, 10, 1.0)
    high = 10 * n * 2 / (n + 10 - 1 + 10)                       # high-variance formula at sigma = 1
    np.testing.assert_allclose(low[n <= 19], high[n <= 19], rtol=1e-12)


def test_runtime_and_work_round_up_to_whole_seconds():
    # A = 8, sigma = 0: S(4) = 4; 1000 s of work -> 250 s; 3 s on 4 processors -> 12 s of work
    assert downey_runtime(1000, 4, 8, 0.0) == 250
    assert downey_runtime(1001, 4, 8, 0.0) == 251
    assert downey_runtime(0.5, 4, 8, 0.0) == 1
    assert downey_work(3, 4, 8, 0.0) == 12


def test_out_of_domain_inputs_are_rejected():
    with pytest.raises(ValueError):
        downey_speedup(0, 8, 1)
    with pytest.raises(ValueError):
        downey_speedup(2, 0.5, 1)
