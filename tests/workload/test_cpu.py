import numpy as np
import pytest

from cloudsim_py.workload.cpu import CpuEstimateModel, CpuUsageModel


def test_paper_usage_is_one_for_single_process_jobs_and_uniform_otherwise():
    # Liu 2013/2015: 1.0 for one process, U(0.4, 1.0) for each process of a larger job
    rng = np.random.default_rng(1)
    usages = CpuUsageModel().draw_many([1] + [8] * 2000, rng)
    assert usages[0] == (1.0,)
    flat = np.concatenate([np.array(u) for u in usages[1:]])
    assert flat.min() >= 0.4 and flat.max() <= 1.0 and abs(flat.mean() - 0.7) < 0.01


def test_mean_moves_the_lower_bound():
    # Liu 2015 Fig. 9: mean 60 % means U(20 %, 100 %)
    m = CpuUsageModel.with_mean(0.6)
    assert (m.low, m.high) == pytest.approx((0.2, 1.0))
    with pytest.raises(ValueError, match="needs low"):
        CpuUsageModel.with_mean(0.4)


def test_estimates_with_error_stay_within_the_factor():
    usage = [tuple(np.linspace(0.3, 0.9, 8))] * 500
    est = CpuEstimateModel("error", 0.2).estimate_many(usage, np.random.default_rng(2))
    ratio = np.array(est) / np.array(usage)
    assert ratio.min() >= 0.8 - 1e-12 and ratio.max() <= 1.2 + 1e-12 and ratio.std() > 0.05


def test_unknown_and_full_estimates():
    usage = [(0.5, 0.6)]
    assert CpuEstimateModel("unknown").estimate_many(usage, np.random.default_rng(0)) == [None]
    assert CpuEstimateModel("full").estimate_many(usage, np.random.default_rng(0)) == [(1.0, 1.0)]


@pytest.mark.parametrize("kw,msg", [(dict(low=0.0), "low: must be > 0, got 0"),
                                    (dict(high=1.2), "high: must be <= 1, got 1.2"),
                                    (dict(single=-1.0), "single: must be > 0, got -1")])
def test_usage_outside_zero_one_is_refused_naming_the_field(kw, msg):
    with pytest.raises(ValueError, match=msg):
        CpuUsageModel(**kw)
