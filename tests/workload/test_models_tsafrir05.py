"""Tsafrir, Etsion & Feitelson 2005 runtime estimates (WORKLOAD_MODELS.md section 4)."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload.models import Tsafrir05, tsafrir05_estimates
from cloudsim_py.workload.models.params import ParameterError
from cloudsim_py.workload.table import estimate_modes, prepare, read_table

H, MIN = 3600.0, 60.0


def _runtimes(n: int, seed: int = 0, cap: float = 18 * H) -> np.ndarray:
    return np.clip(np.exp(np.random.default_rng(seed).normal(6.0, 2.0, n)), 1, cap).round()


def test_head_values_for_an_18_hour_maximum():
    # max first; the 14 common values below 18 h; then fill: 10 h, 5 h series add 15 h; the 2 h
    # series adds 16 h and 14 h; the 1 h series 17 h and 13 h -> 20 values, rest ascending
    values = Tsafrir05(max_est=18 * H).head_values()
    expected = [18 * H] + [m * MIN for m in (5, 10, 15, 20, 30)] + [h * H for h in (1, 2, 3, 4, 5, 6, 8, 10, 12, 13, 14, 15, 16, 17)]
    assert values == expected


def test_most_popular_value_gets_89_percent_minus_the_other_nineteen():
    # sum_{r=2..20} 14.0491 e^(-0.177531 r) + 0.462513 = 58.48 + 8.79 = 67.27 -> rank 1: 21.73 %
    m = Tsafrir05(max_est=18 * H)
    assert m.head_share(1) == pytest.approx(21.733, abs=0.01)
    assert sum(m.head_share(r) for r in range(1, 21)) == pytest.approx(89.0)


def test_twenty_most_popular_estimates_hold_89_percent_of_jobs():
    # the smallest head share (rank 20: 0.87 %) exceeds the largest tail share (~0.65 % after
    # rescaling the tail to 11 %), so the top 20 values are the head: 89 % up to rounding
    for n in (10_000, 100_000):
        est = tsafrir05_estimates(_runtimes(n), np.random.default_rng(1), max_est=18 * H)
        _, counts = np.unique(est, return_counts=True)
        top20 = np.sort(counts)[::-1][:20].sum() / n
        assert abs(top20 - 0.89) < 0.002
        assert abs(np.mean(est == 18 * H) - 0.2173) < 0.002


def test_number_of_distinct_estimates_follows_the_bins_model():
    # linear model through (1000, 35), (10000, 90), (70000, 340), capped at 565 above 250,000
    m = Tsafrir05(max_est=18 * H)
    assert [m.n_bins(n) for n in (20, 200, 1000, 10_000, 70_000, 400_000)] == [10, 20, 35, 90, 340, 565]
    est = tsafrir05_estimates(_runtimes(10_000), np.random.default_rng(2), max_est=18 * H)
    assert len(np.unique(est)) == 90
    assert Tsafrir05(max_est=18 * H, bins_model="power").n_bins(10_000) == round(0.653566 * 10_000 ** 0.547761)


def test_every_estimate_covers_its_runtime():
    run = _runtimes(50_000, seed=3)
    est = tsafrir05_estimates(run, np.random.default_rng(3), max_est=18 * H)
    assert np.all(est >= run) and np.all(est > 0)


def test_runtimes_above_the_maximum_get_the_maximum():
    run = np.array([100.0, 5 * H, 30 * H])
    est = tsafrir05_estimates(np.concatenate([run, _runtimes(1000)]), np.random.default_rng(0), max_est=18 * H)
    assert est[2] == 18 * H


def test_popularity_mapping_is_a_permutation_with_the_maximum_first():
    pops = Tsafrir05(max_est=18 * H).popularity(np.random.default_rng(5))
    assert pops[0] == 1 and sorted(pops) == list(range(1, 21))


def test_tail_values_are_new_round_minutes_below_the_maximum():
    m = Tsafrir05(max_est=18 * H)
    head = set(m.head_values())
    tail = m.tail_values(90, head)
    assert len(tail) == 70 and len(set(tail)) == 70
    assert not head & set(tail)
    assert all(0 < v < 18 * H and v % 10 == 0 for v in tail)


def test_too_many_long_jobs_is_an_error_suggesting_a_larger_maximum():
    run = np.full(1000, 17.5 * H)
    with pytest.raises(TraceError, match="larger max_est"):
        tsafrir05_estimates(run, np.random.default_rng(0), max_est=18 * H)


def test_same_seed_same_estimates():
    run = _runtimes(5000)
    a = tsafrir05_estimates(run, np.random.default_rng(9), max_est=18 * H)
    b = tsafrir05_estimates(run, np.random.default_rng(9), max_est=18 * H)
    assert np.array_equal(a, b)


def test_bad_constants_name_themselves():
    with pytest.raises(ParameterError, match="^max_est:"):
        Tsafrir05(max_est=600)
    with pytest.raises(ParameterError, match="^runtime:"):
        tsafrir05_estimates([10.0, 0.0], np.random.default_rng(0))


def test_registered_as_an_estimate_mode_for_traces(shared_trace):
    # KTH requested times go up to the site maximum; every estimate >= runtime up to that max
    assert "tsafrir05" in estimate_modes
    t = prepare(read_table(shared_trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, estimate="tsafrir05",
                rng=np.random.default_rng(0))
    max_est = t.data[:, 8].max()
    assert np.all(t.estimate >= np.minimum(t.runtime, max_est))
    _, counts = np.unique(t.estimate, return_counts=True)
    assert abs(np.sort(counts)[::-1][:20].sum() / len(t) - 0.89) < 0.002


def test_estimate_mode_works_on_a_generated_workload():
    from cloudsim_py.workload.models import Lublin03
    t = prepare(Lublin03().generate(20_000, np.random.default_rng(0)), 128, estimate="tsafrir05",
                rng=np.random.default_rng(1))
    # no requested times: max_est = longest runtime rounded up to an hour
    assert t.estimate.max() == np.ceil(t.runtime.max() / H) * H
    assert np.all(t.estimate >= t.runtime)
