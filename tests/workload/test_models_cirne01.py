"""Cirne & Berman 2001 moldability model: the consequences listed in WORKLOAD_MODELS.md 7.2."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.workload.models import MoldabilityModel, downey_speedup, uniform_log
from cloudsim_py.workload.models.cirne01 import CMIN_UL, joint_a_params
from cloudsim_py.workload.models.params import ParameterError

N = 20_000


@pytest.fixture(scope="module")
def molded():
    rng = np.random.default_rng(0)
    procs = rng.choice([1, 2, 3, 4, 8, 12, 16, 32, 64], size=N)
    runtime = rng.integers(10, 20_000, size=N).astype(float)
    requested = runtime * 2
    m = MoldabilityModel().apply(procs, runtime, 128, np.random.default_rng(1), requested=requested)
    return procs, runtime, requested, m


def test_uniform_log_has_cdf_a_log2_x_plus_b():
    # UL(0.0692, 0.6279): P(x <= 1) = b = 0.6279; P(x <= 8) = 0.0692 x 3 + 0.6279 = 0.8355
    x = uniform_log(*CMIN_UL, 200_000, np.random.default_rng(0))
    assert np.mean(x <= 1) == pytest.approx(0.6279, abs=0.004)
    assert np.mean(x <= 8) == pytest.approx(0.8355, abs=0.004)


def test_cmin_is_one_for_63_percent_and_at_most_42_before_capping(molded):
    # P(cmin = 1) = F(1) = 0.6279; max ceil(2^((1 - 0.6279)/0.0692)) = ceil(41.6) = 42; cmin is
    # then lowered to cmax where that is smaller, which can only add ones
    cmin = molded[3].cmin
    assert 0.6279 - 0.01 < np.mean(cmin == 1) < 0.6279 + 0.05
    assert cmin.max() <= 42


def test_sigma_is_a_normal_clipped_at_zero(molded):
    # P(N(1.209, 1.132) < 0) = Phi(-1.068) = 0.143; E[max(0, N)] = 1.209 Phi(1.068) + 1.132 phi(1.068) = 1.292
    sigma = molded[3].sigma
    assert np.mean(sigma == 0) == pytest.approx(0.143, abs=0.01)
    assert sigma.mean() == pytest.approx(1.292, abs=0.03)


def test_average_parallelism_range_and_median_given_cmin_one():
    # cmin = 1: a' = 0.07468, b' = -0.009198 -> A from 2^(0.009198/0.07468) = 1.089 to
    # 2^(1.009198/0.07468) = 11,695, median 2^(0.509198/0.07468) = 113
    a, b = joint_a_params(np.array([1]))
    x = np.exp2((np.random.default_rng(0).random(200_000) - b[0]) / a[0])
    assert x.min() >= 1.089 and x.max() <= 11_696
    assert np.median(x) == pytest.approx(113, rel=0.03)
    a8, b8 = joint_a_params(np.array([8]))
    assert np.exp2((0.5 - b8[0]) / a8[0]) == pytest.approx(44, rel=0.02)       # median for cmin = 8


def test_offered_sizes_start_with_the_original_and_stay_usable(molded):
    procs, _, _, m = molded
    for i in range(0, N, 97):
        s = m.sizes[i]
        assert s[0] == procs[i] and 1 <= len(s) <= 19
        assert np.all((s[1:] >= m.cmin[i]) & (s[1:] <= m.cmax[i]))
        if m.constraint[i] == "pow2":
            assert np.all((s & (s - 1)) == 0)


def test_power_of_two_jobs_stay_power_of_two_under_p2bias(molded):
    procs, _, _, m = molded
    pow2 = (procs & (procs - 1)) == 0
    assert np.all(m.constraint[pow2] == "pow2") and np.all(m.constraint[~pow2] == "none")


def test_work_and_runtimes_follow_the_downey_speedup(molded):
    # L = max(1, ceil(S(n_orig) t)); runtime on n = max(1, ceil(L / S(n)))
    procs, runtime, requested, m = molded
    np.testing.assert_array_equal(m.work, np.maximum(1, np.ceil(downey_speedup(procs, m.A, m.sigma) * runtime)))
    i = 5
    np.testing.assert_array_equal(m.runtimes[i], np.maximum(1, np.ceil(m.work[i] / downey_speedup(m.sizes[i], m.A[i], m.sigma[i]))))
    # as-original accuracy = runtime / requested = 0.5 here: requests are twice the runtimes
    np.testing.assert_array_equal(m.requested[i], np.ceil(m.runtimes[i] / 0.5))


def test_job_nature_mode_mixes_the_constraints():
    m = MoldabilityModel(constraint="nature").apply(np.full(N, 16), np.full(N, 100.0), 256,
                                                    np.random.default_rng(2))
    assert np.mean(m.constraint == "none") == pytest.approx(0.70, abs=0.015)
    assert np.all(np.array([len(s) for s, c in zip(m.sizes, m.constraint) if c == "rigid"]) == 1)


def test_bad_settings_name_themselves():
    with pytest.raises(ParameterError, match="^constraint:"):
        MoldabilityModel(constraint="fluid")
    with pytest.raises(ParameterError, match="^accuracy:"):
        MoldabilityModel(accuracy=0)
