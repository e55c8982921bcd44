"""Jann et al. 1997 model form refitted to CTC SP2 (WORKLOAD_MODELS.md section 5): the
hyper-Erlang three-moment fit, the shipped constants, and generated workloads against the trace
window they were fitted to (26 Jun - 12 Sep 1996, 17,818 jobs after cleaning, 322 processors)."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from cloudsim_py.workload.models import Jann97
from cloudsim_py.workload.models.fitdata import load_fit
from cloudsim_py.workload.models.hypererlang import HyperErlang, fit_hyper_erlang, fit_two_point
from cloudsim_py.workload.models.params import ParameterError
from cloudsim_py.workload.models.stats import SIZE_CLASSES, describe

from .conftest import REPO

N = 300_000


@pytest.fixture(scope="module")
def fit():
    return load_fit("jann97", "CTC-SP2-1996")


@pytest.fixture(scope="module")
def generated():
    g = Jann97()
    t = g.generate(N, np.random.default_rng(21))
    return describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), g.procs)


def test_three_moment_fit_recovers_a_known_hyper_erlang():
    # 5.3's check: n = 3, p = 0.3, rates 0.01 and 0.001 -> orders 1 and 2 infeasible, order 3
    # returns the same distribution (branch 1 = the larger mean: p = 0.7 at rate 0.001)
    h = HyperErlang(order=3, p=0.3, rate1=0.01, rate2=0.001)
    m = [h.moment(k) for k in (1, 2, 3)]
    for n in (1, 2):
        r = (n, n * (n + 1), n * (n + 1) * (n + 2))
        assert fit_two_point(*(mk / rk for mk, rk in zip(m, r))) is None
    f = fit_hyper_erlang(*m)
    assert f.order == 3
    assert (f.p, f.rate1, f.rate2) == pytest.approx((0.7, 0.001, 0.01), rel=1e-9)


def test_hyper_erlang_moments_formula_matches_sampling():
    # E[X] = n (p/l1 + (1-p)/l2) = 2 (0.4/0.5 + 0.6/0.05) = 25.6; E[X^2] = 6 (0.4/0.25 + 0.6/0.0025) = 1449.6
    h = HyperErlang(order=2, p=0.4, rate1=0.5, rate2=0.05)
    assert (h.moment(1), h.moment(2)) == pytest.approx((25.6, 1449.6))
    x = h.sample(400_000, np.random.default_rng(0))
    assert x.mean() == pytest.approx(25.6, rel=0.01)
    assert np.mean(x * x) == pytest.approx(1449.6, rel=0.02)


def test_too_little_variability_for_any_order_is_an_error():
    # a constant has cv^2 = 0 < 1/n for every n
    with pytest.raises(ValueError, match="no hyper-Erlang"):
        fit_hyper_erlang(10.0, 100.0, 1000.0, max_order=50)


def test_shipped_fit_matches_the_sample_moments_of_every_range(fit):
    # each range's two hyper-Erlangs reproduce the three moments the script measured
    assert fit["machine_procs"] == 322 and fit["targets"]["jobs"] == 17_818
    for r in fit["ranges"]:
        for key, sample in (("interarrival", "interarrival_moments"), ("runtime", "runtime_moments")):
            h = HyperErlang(**r[key])
            np.testing.assert_allclose([h.moment(k) for k in (1, 2, 3)], r["sample"][sample], rtol=1e-8)
    # Jann: "most ranges need 1 stage, some up to 7" - here inter-arrivals 1-2, runtimes 1-8
    assert max(r["runtime"]["order"] for r in fit["ranges"]) <= 8


def test_fit_script_reproduces_the_shipped_data(shared_trace, tmp_path, fit):
    trace = shared_trace("CTC-SP2-1996-3.1-cln.swf.gz")
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import fit_jann97
    finally:
        sys.path.pop(0)
    out = tmp_path / "jann.json"
    assert fit_jann97.main(["--traces", str(trace.parent), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["ranges"] == fit["ranges"]


def test_serial_share_matches_ctc_and_liu_2015s_forty_percent(generated, fit):
    # CTC window 41.5 % serial; Liu 2015 reports ~40 % for its Jann workload
    assert abs(generated["serial_fraction"] - fit["targets"]["serial_fraction"]) < 0.005
    assert abs(generated["serial_fraction"] - 0.40) < 0.03


def test_size_classes_match_the_trace_window(generated, fit):
    # the ranges are power-of-two classes, so class shares follow the arrival rates: within 1 point
    for c in SIZE_CLASSES:
        assert abs(generated["size_class_fraction"][c] - fit["targets"]["size_class_fraction"][c]) < 0.01
    assert abs(generated["pow2_parallel_fraction"] - fit["targets"]["pow2_parallel_fraction"]) < 0.01


def test_runtime_mean_and_variability_match_the_trace_window(generated, fit):
    # per range the first two moments are matched exactly: overall mean 10,861 s, cv 1.66
    assert abs(generated["runtime_mean"] / fit["targets"]["runtime_mean"] - 1) < 0.03
    assert abs(generated["runtime_cv"] / fit["targets"]["runtime_cv"] - 1) < 0.05


def test_arrival_rate_and_offered_load_match_the_trace_window(generated, fit):
    # 227.6 jobs/day and offered load 0.856 on 322 processors in the window
    assert abs(generated["jobs_per_day"] / fit["targets"]["jobs_per_day"] - 1) < 0.06
    assert abs(generated["offered_load"] / fit["targets"]["offered_load"] - 1) < 0.06


def test_size_and_runtime_are_uncorrelated_as_in_ctc(generated, fit):
    # CTC has no size-runtime correlation (Pearson -0.025); the model has none by construction
    assert abs(generated["corr_size_runtime"] - fit["targets"]["corr_size_runtime"]) < 0.03


def test_header_names_the_refit_honestly():
    t = Jann97().generate(100, np.random.default_rng(0))
    h = t.header.fields
    assert h["Model"] == "jann97 refitted to CTC-SP2"
    assert "NOT Jann et al.'s published" in h["Param_label"] and "REFITTED" in h["Information"]
    assert h["Param_range_1"].startswith("sizes 1-1; interarrival order=1")
    assert t.header.max_procs == 322


def test_yaml_example_320_processors_clips_sizes_and_reaches_the_load():
    g = Jann97(procs=320, load=0.8)
    t = g.generate(10_000, np.random.default_rng(3))
    assert t.col("alloc_procs").max() <= 320
    assert g.achieved_load == pytest.approx(0.8, abs=1e-3)
    d = describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), 320)
    assert d["offered_load"] == pytest.approx(g.achieved_load, rel=1e-9)


def test_same_seed_same_workload():
    a = Jann97().generate(3000, np.random.default_rng(4))
    b = Jann97().generate(3000, np.random.default_rng(4))
    assert np.array_equal(a.data, b.data)
    assert np.all(np.diff(a.col("submit")) >= 0) and a.col("run").min() >= 1


def test_user_given_ranges_replace_the_fit():
    ranges = [{"lo": 1, "hi": 1, "sizes": [1], "size_probs": [1.0],
               "interarrival": {"order": 1, "p": 1.0, "rate1": 0.01, "rate2": 0.01},
               "runtime": {"order": 2, "p": 0.5, "rate1": 0.01, "rate2": 0.001}},
              {"lo": 2, "hi": 4, "sizes": [2, 4], "size_probs": [1, 3],
               "interarrival": {"order": 1, "p": 1.0, "rate1": 0.01, "rate2": 0.01},
               "runtime": {"order": 1, "p": 1.0, "rate1": 0.001, "rate2": 0.001}}]
    g = Jann97(ranges=ranges)
    t = g.generate(40_000, np.random.default_rng(0))
    size = t.col("alloc_procs")
    # equal rates -> half serial; sizes 2:4 = 1:3 within the second range
    assert g.procs == 4 and abs(np.mean(size == 1) - 0.5) < 0.01
    assert abs(np.mean(size == 4) / np.mean(size > 1) - 0.75) < 0.015


@pytest.mark.parametrize("kwargs, name", [
    ({"fit": "Jann-original"}, "fit"),
    ({"procs": -3}, "procs"),
    ({"load": 1.6}, "load"),
    ({"ranges": []}, "ranges"),
    ({"ranges": [{"lo": 1, "hi": 1, "sizes": [1], "size_probs": [1.0],
                  "interarrival": {"order": 1, "p": 1.5, "rate1": 1, "rate2": 1},
                  "runtime": {"order": 1, "p": 1, "rate1": 1, "rate2": 1}}]}, "ranges[0].interarrival.p"),
    ({"ranges": [{"lo": 2, "hi": 4, "sizes": [8], "size_probs": [1.0],
                  "interarrival": {"order": 1, "p": 1, "rate1": 1, "rate2": 1},
                  "runtime": {"order": 1, "p": 1, "rate1": 1, "rate2": 1}}]}, "ranges[0].sizes"),
])
def test_bad_parameters_name_themselves(kwargs, name):
    with pytest.raises(ParameterError) as err:
        Jann97(**kwargs)
    assert err.value.param == name


@pytest.mark.slow
def test_one_million_jobs_in_seconds():
    import time
    t0 = time.process_time()
    Jann97(load=0.8).generate(1_000_000, np.random.default_rng(0))
    assert time.process_time() - t0 < 10
