"""Feitelson 1996 model structure with constants fitted to PWA logs (WORKLOAD_MODELS.md 3):
sizes, runtimes, repeated runs and arrivals against the logs they were fitted to."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from cloudsim_py.workload.models import Feitelson96
from cloudsim_py.workload.models.fitdata import available_fits, load_fit
from cloudsim_py.workload.models.params import ParameterError
from cloudsim_py.workload.models.stats import SIZE_CLASSES, describe

from .conftest import REPO

N = 300_000


@pytest.fixture(scope="module")
def sdsc():
    g = Feitelson96()
    t = g.generate(N, np.random.default_rng(31))
    return g, t, describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), g.procs)


def test_unit_weights_give_the_harmonic_distribution_of_order_one_and_a_half():
    # P(n) ~ n^-1.5: P(2)/P(1) = 2^-1.5 = 0.35355, P(4)/P(1) = 0.125
    g = Feitelson96(procs=64, serial_weight=1.0, pow2_weights={}, other_weight=1.0)
    p = g.size_probabilities()
    assert p[1] / p[0] == pytest.approx(2 ** -1.5) and p[3] / p[0] == pytest.approx(0.125)
    assert p.sum() == pytest.approx(1.0)


def test_fitted_weights_reproduce_the_logs_size_classes_exactly():
    # maximum likelihood per class = the class's observed share; on SDSC-Par 8.34 % serial,
    # 20.06 % of jobs of size 8
    fit = load_fit("feitelson96", "SDSC-Par-1996")
    p = Feitelson96().size_probabilities()
    assert p[0] == pytest.approx(fit["targets"]["serial_fraction"], rel=1e-9)
    pow2 = [k - 1 for k in (2, 4, 8, 16, 32, 64, 128, 256)]
    assert p[pow2].sum() == pytest.approx(fit["targets"]["pow2_parallel_fraction"], rel=1e-9)


def test_generated_sizes_match_sdsc_paragon(sdsc):
    g, t, d = sdsc
    fit = load_fit("feitelson96", "SDSC-Par-1996")["targets"]
    assert abs(d["serial_fraction"] - fit["serial_fraction"]) < 0.01
    assert abs(d["pow2_parallel_fraction"] - fit["pow2_parallel_fraction"]) < 0.015
    for c in SIZE_CLASSES:
        assert abs(d["size_class_fraction"][c] - fit["size_class_fraction"][c]) < 0.015


def test_serial_share_is_below_liu_2015s_eighteen_percent(sdsc):
    # Liu 2015: its Feitelson workload has under 18 % single-process jobs (ours: 8.3 %)
    assert sdsc[2]["serial_fraction"] < 0.18


def test_runtimes_are_more_variable_than_exponential_and_grow_with_size(sdsc):
    g, t, d = sdsc
    fit = load_fit("feitelson96", "SDSC-Par-1996")
    model = fit["runtime_fit"]["model"]        # what the ML fit implies: cv 1.76, corr +0.198
    assert d["runtime_cv"] > 1.0
    assert abs(d["runtime_cv"] / model["cv"] - 1) < 0.1
    assert d["corr_size_runtime"] > 0.1 and d["corr_log_size_log_runtime"] > 0.1


def test_runtime_mean_and_median_are_near_the_log(sdsc):
    # SDSC-Par: mean 8,755 s, median 209 s; the ML fit implies 8,609 s and 137 s. Repeated runs
    # copy runtimes, so the effective sample is ~N/60: tolerance 10 % on the mean.
    g, t, d = sdsc
    fit = load_fit("feitelson96", "SDSC-Par-1996")
    assert abs(d["runtime_mean"] / fit["targets"]["runtime_mean"] - 1) < 0.10
    assert abs(d["runtime_median"] / fit["runtime_fit"]["model"]["median"] - 1) < 0.15
    assert 0.5 < d["runtime_median"] / fit["targets"]["runtime_median"] < 1.0


def test_repetitions_follow_their_previous_run(sdsc):
    # field 17 = preceding run; it has the same size and runtime and this run is submitted
    # exactly when it ends (think time 0)
    _, t, _ = sdsc
    prec = t.col("preceding").astype(int)
    rep = np.flatnonzero(prec > 0)
    before = prec[rep] - 1                      # job numbers are 1..n in row order
    assert rep.size > 0.5 * len(t)
    assert np.array_equal(t.col("alloc_procs")[rep], t.col("alloc_procs")[before])
    assert np.array_equal(t.col("run")[rep], t.col("run")[before])
    assert np.array_equal(t.col("submit")[rep], t.col("submit")[before] + t.col("run")[before])
    assert np.all(t.col("think")[rep] == 0)


def test_number_of_runs_follows_the_fitted_zipf_law(sdsc):
    # P(K = 1) = 1 / sum_k k^-s with s = 2.149, k <= 735: the share of jobs that start a run is
    # 1 / E[K]; each start is one run, so #starts / #jobs = 1 / E[K]
    g, t, _ = sdsc
    p = g.repeat_probabilities()
    mean_k = float(np.dot(np.arange(1, len(p) + 1), p))
    starts = np.mean(t.col("preceding") == -1)
    assert abs(starts * mean_k - 1) < 0.05


def test_nasa_fit_has_only_power_of_two_sizes():
    # the iPSC/860 hypercube allocates powers of two only: other_weight = 0; 27.2 % serial
    g = Feitelson96(fit="NASA-iPSC-1993")
    t = g.generate(100_000, np.random.default_rng(2))
    size = t.col("alloc_procs").astype(int)
    assert g.procs == 128 and np.all((size & (size - 1)) == 0)
    assert abs(np.mean(size == 1) - 0.272) < 0.01


def test_fits_are_listed():
    assert available_fits("feitelson96") == ["NASA-iPSC-1993", "SDSC-Par-1996"]


def test_target_load_is_reached():
    g = Feitelson96(load=0.9)
    t = g.generate(20_000, np.random.default_rng(6))
    d = describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), g.procs)
    assert abs(d["offered_load"] - 0.9) < 0.9e-3 and g.achieved_load == pytest.approx(d["offered_load"])


def test_header_says_the_constants_are_ours():
    t = Feitelson96().generate(50, np.random.default_rng(0))
    h = t.header.fields
    assert h["Model"] == "feitelson96 fitted to SDSC-Par-1996"
    assert "NOT the paper's published constants" in h["Param_label"]
    assert h["Param_harmonic_order"] == "1.5"


def test_same_seed_same_workload():
    a = Feitelson96().generate(3000, np.random.default_rng(4))
    b = Feitelson96().generate(3000, np.random.default_rng(4))
    assert np.array_equal(a.data, b.data)


def test_fit_script_reproduces_the_shipped_data(shared_trace, tmp_path):
    pytest.importorskip("scipy")                  # the fitting script's optimiser
    shared_trace("SDSC-Par-1996-3.1-cln.swf.gz")
    folder = shared_trace("NASA-iPSC-1993-3.1-cln.swf.gz").parent
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import fit_feitelson96
    finally:
        sys.path.pop(0)
    assert fit_feitelson96.main(["--traces", str(folder), "--out-dir", str(tmp_path)]) == 0
    for name in ("SDSC-Par-1996", "NASA-iPSC-1993"):
        new = json.loads((tmp_path / f"feitelson96_{name.lower()}.json").read_text())["constants"]
        old = load_fit("feitelson96", name)["constants"]
        assert new.keys() == old.keys()
        for key in old:
            assert new[key] == pytest.approx(old[key], rel=1e-6), key


@pytest.mark.parametrize("kwargs, name", [
    ({"fit": "paper"}, "fit"), ({"pow2_weights": {3: 1.0}}, "pow2_weights"),
    ({"pow2_weights": {4: -1.0}}, "pow2_weights.4"), ({"short_mean": 0}, "short_mean"),
    ({"max_repeats": 0}, "max_repeats"), ({"harmonic_order": "1.5"}, "harmonic_order"),
    ({"runtime_scale": 0}, "runtime_scale"), ({"max_size": 0}, "max_size"),
])
def test_bad_parameters_name_themselves(kwargs, name):
    with pytest.raises(ParameterError) as err:
        Feitelson96(**kwargs)
    assert err.value.param == name


@pytest.mark.slow
def test_one_million_jobs_in_seconds():
    import time
    t0 = time.process_time()
    Feitelson96(load=0.8).generate(1_000_000, np.random.default_rng(0))
    assert time.process_time() - t0 < 10


def test_a_long_repetition_chain_caps_the_load_and_says_so(caplog):
    # seed 0, 20,000 jobs: one run of 308 repetitions of an 82,542 s job spans 2.5e7 s by
    # itself, more than 20,000 jobs at load 0.8 need; fewer repetitions reach the target
    g = Feitelson96(load=0.8)
    g.generate(20_000, np.random.default_rng(0))
    assert g.achieved_load < 0.6
    assert "lower max_repeats" in caplog.text
    g = Feitelson96(load=0.8, max_repeats=100)
    g.generate(20_000, np.random.default_rng(0))
    assert g.achieved_load == pytest.approx(0.8, rel=2e-4)


# -- the calibration to Liu's FWload (docs/workload-models.md, "Calibrated to Liu's FWload") --

def test_max_size_removes_larger_sizes_and_keeps_the_others_proportions():
    # Liu 2013 section 5.1: 1-256 processes. Sizes 257-320 get 0; P(2)/P(1) is unchanged.
    full = Feitelson96(procs=320).size_probabilities()
    capped = Feitelson96(procs=320, max_size=256).size_probabilities()
    assert capped[256:].sum() == 0.0 and capped.sum() == pytest.approx(1.0)
    assert capped[1] / capped[0] == pytest.approx(full[1] / full[0])
    assert capped[0] == pytest.approx(full[0] / full[:256].sum())


def test_runtime_scale_multiplies_every_runtime_and_nothing_else():
    # same seed, same draws: each runtime is ceil(scale x the unscaled draw), sizes and the
    # number of jobs per repetition run unchanged
    a = Feitelson96(procs=320).generate(2000, np.random.default_rng(5))
    b = Feitelson96(procs=320, runtime_scale=0.5).generate(2000, np.random.default_rng(5))
    assert np.array_equal(np.sort(a.col("alloc_procs")), np.sort(b.col("alloc_procs")))
    assert b.col("run").sum() == pytest.approx(0.5 * a.col("run").sum(), rel=0.01)


def test_calibrated_fwload_has_liu_2013s_mean_runtime_of_2500_s():
    # Liu 2013 section 5.4: 600 s is 24 % of the average execution time -> 2,500 s; the sweeps'
    # FWload is the SDSC-Par fit with max_size 256 and runtime_scale 0.288 (expected mean 2,500 s)
    t = Feitelson96(procs=320, max_size=256, runtime_scale=0.288).generate(200_000, np.random.default_rng(7))
    assert t.col("run").mean() == pytest.approx(2500, rel=0.1)
    assert t.col("alloc_procs").max() <= 256
    assert (t.col("alloc_procs") == 1).mean() < 0.18          # Liu 2015: under 18 % serial
