"""Lublin & Feitelson 2003 generator against the constants and behaviour of WORKLOAD_MODELS.md 2."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.workload.models import Lublin03
from cloudsim_py.workload.models.lublin03 import BATCH, INTERACTIVE, LublinStream
from cloudsim_py.workload.models.params import ParameterError
from cloudsim_py.workload.models.special import gamma_cdf, gammainc_lower
from cloudsim_py.workload.models.stats import describe
from cloudsim_py.workload.table import read_table

N = 200_000


@pytest.fixture(scope="module")
def typed():
    return Lublin03().generate(N, np.random.default_rng(11))


def _stream(table, kind):
    q = table.col("queue")
    return table.col("alloc_procs")[q == kind].astype(np.int64), table.col("run")[q == kind]


def test_serial_share_of_each_stream_is_its_serial_prob(typed):
    # batch 0.2927, interactive 0.1541 (table 2.2); ~29k batch jobs -> sd 0.0027, 171k
    # interactive -> sd 0.0009; tolerances are ~4 sd
    for kind, stream, tol in ((1, BATCH, 0.011), (0, INTERACTIVE, 0.004)):
        size, _ = _stream(typed, kind)
        assert abs(np.mean(size == 1) - stream.serial_prob) < tol


def _chance_pow2(s: LublinStream, uhi: float, umed: float) -> float:
    """P(round(2^x) is a power of two > 1) for x from the two-stage uniform (the 'other' branch)."""
    x_lo = np.linspace(s.ulow, umed, 400_001)
    x_hi = np.linspace(umed, uhi, 400_001)
    pw = lambda x: np.mean(((np.round(np.exp2(x)).astype(int) & (np.round(np.exp2(x)).astype(int) - 1)) == 0))
    return s.uprob * pw(x_lo) + (1 - s.uprob) * pw(x_hi)


def test_power_of_two_share_is_pow2_prob_plus_chance_hits(typed):
    # Pow2Prob is unconditional (2.3): P(pow2 > 1) = pow2_prob + P(other) * P(round(2^x) is a
    # power of two). Batch on 128: umed 5, uhi 7.
    for kind, s, (umed, uhi), tol in ((1, BATCH, (5.0, 7.0), 0.012), (0, INTERACTIVE, (3.0, 5.5), 0.005)):
        size, _ = _stream(typed, kind)
        other = 1 - s.serial_prob - s.pow2_prob
        expected = s.pow2_prob + other * _chance_pow2(s, uhi, umed)
        measured = np.mean((size > 1) & ((size & (size - 1)) == 0))
        assert abs(measured - expected) < tol


def test_batch_jobs_are_about_fifteen_percent_of_typed_arrivals(typed):
    # The batch rush-hour log-gap gamma(6.0415 x 1.0519, 0.8531) has mean 5.42 vs the interactive
    # 4.25: batch arrivals are ~6 times rarer. The typed shared file lublin_256_new2 has 13.0 %
    # batch jobs over 10,000 jobs; 200k jobs here.
    share = np.mean(typed.col("queue") == 1)
    assert 0.12 < share < 0.17


def _log_runtime_mean(a: float, b: float) -> float:
    """E[log floor(e^y)] for y ~ gamma(a, b) redrawn above 12 (2.3 step 3), by quadrature."""
    y = np.linspace(1e-9, 12.0, 2_000_001)
    log_dens = (a - 1) * np.log(y) - y / b                  # unnormalised gamma density
    dens = np.exp(log_dens - log_dens.max())
    return float(np.sum(dens * np.log(np.floor(np.exp(y)))) / np.sum(dens))


def test_first_runtime_branch_is_taken_with_probability_pa_size_plus_pb():
    # With pa = 0 and pb = 1 every runtime comes from gamma(a1, b1) = gamma(6.57, 0.823); with
    # pb = 0 all come from gamma(a2, b2) = gamma(639.1, 0.0156). Expected mean log-runtime by
    # quadrature (~5.35 and ~9.97: a x b minus the flooring to whole seconds); sd of the mean of
    # 50,000 log-runtimes <= 2.1 / 224 = 0.0094, tolerance 0.04.
    for pb, (a, b) in ((1.0, (6.57, 0.823)), (0.0, (639.1, 0.0156))):
        g = Lublin03(typed=True, batch={"pa": 0.0, "pb": pb},
                     interactive={"pa": 0.0, "pb": pb, "a1": 6.57, "b1": 0.823, "a2": 639.1, "b2": 0.0156})
        t = g.generate(50_000, np.random.default_rng(3))
        assert abs(np.mean(np.log(t.col("run"))) - _log_runtime_mean(a, b)) < 0.04


def test_larger_batch_jobs_take_the_long_runtime_branch_more_often(typed):
    # batch p(n) = clip(-0.003 n + 0.6986): p(1) = 0.6956, p(64) = 0.5066. P(runtime > e^8.5)
    # = p P1 + (1 - p) P2 with P1 = P(gamma(6.57, 0.823) > 8.5 | <= 12), P2 likewise for
    # gamma(639.1, 0.0156) (~1). Serial batch jobs: ~8.6k, size-64 batch jobs: ~5k in 200k jobs.
    tail = lambda a, b: (gamma_cdf(12, a, b) - gamma_cdf(8.5, a, b)) / gamma_cdf(12, a, b)
    p1, p2 = tail(6.57, 0.823), tail(639.1, 0.0156)
    size, run = _stream(typed, 1)
    for n in (1, 64):
        p = min(max(-0.003 * n + 0.6986, 0.0), 1.0)
        expected = p * p1 + (1 - p) * p2
        assert abs(np.mean(np.log(run[size == n]) > 8.5) - expected) < 0.025
    assert describe(typed.col("submit"), typed.col("alloc_procs").astype(int), typed.col("run"),
                    128)["corr_log_size_log_runtime"] > 0.05


def test_runtimes_never_exceed_e_to_the_12():
    t = Lublin03(typed=False).generate(N, np.random.default_rng(5))
    assert t.col("run").max() <= 162_754 and t.col("run").min() >= 1


def test_typeless_run_matches_the_shared_lublin_256_file(shared_trace):
    # lublin_256.swf is a typeless run on 256 nodes: 24.9 % serial, mean size 22.1, median
    # runtime 137 s, mean runtime 4,863 s (PROVENANCE.md, WORKLOAD_MODELS.md 2.4b)
    ref = read_table(shared_trace("lublin_256.swf"))
    r = describe(ref.col("submit"), ref.col("alloc_procs").astype(int), ref.col("run"), 256)
    t = Lublin03(procs=256, typed=False).generate(N, np.random.default_rng(2))
    g = describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), 256)
    assert abs(g["serial_fraction"] - r["serial_fraction"]) < 0.012
    assert abs(g["mean_size"] / r["mean_size"] - 1) < 0.05
    assert abs(g["runtime_median"] / r["runtime_median"] - 1) < 0.10
    assert abs(g["runtime_mean"] / r["runtime_mean"] - 1) < 0.05
    assert abs(g["runtime_cv"] / r["runtime_cv"] - 1) < 0.06


def test_mean_interarrival_is_the_truncated_gamma_mgf():
    # typeless: g ~ gamma(10.2303 x 1.0225 = 10.4605, 0.4871) redrawn above 13; E[e^g | g <= 13]
    # = (1 - 0.4871)^-10.4605 x P(gamma(10.4605, 0.4871/0.5129) <= 13) / P(g <= 13) = 911 s;
    # the daily cycle averages out over whole days; truncation costs 0.5 s per job.
    # (WORKLOAD_MODELS.md 2.4b reports 999 s for one 10,000-job run of a throwaway generator.)
    k, th = 10.2303 * 1.0225, 0.4871
    expected = (1 - th) ** -k * gamma_cdf(13, k, th / (1 - th)) / gamma_cdf(13, k, th) - 0.5
    t = Lublin03(procs=256, typed=False).generate(N, np.random.default_rng(8))
    assert abs(np.diff(t.col("submit")).mean() / expected - 1) < 0.03


def test_daily_cycle_arrivals_per_half_hour_follow_the_bucket_weights():
    # Section 2.4: bucket b receives a share w[b] / 48 of the arrivals (weights average 1). Exact
    # times (truncate=False) so the cycle does not drift; 100k arrivals, ~2000 per bucket.
    g = Lublin03(typed=False, truncate=False)
    t = g.generate(100_000, np.random.default_rng(4))
    bucket = (t.col("submit") % 86400 // 1800).astype(int)
    measured = np.bincount(bucket, minlength=48) / len(bucket)
    expected = g.typeless.daily_weights() / 48
    assert np.max(np.abs(measured - expected)) < 0.003
    # shape: the busiest half hour is in the working day, the quietest at night
    assert 8 <= np.argmax(measured) / 2 < 18
    assert np.argmin(measured) / 2 < 8 or np.argmin(measured) / 2 >= 22


def test_truncated_increments_keep_the_cycle_over_ten_thousand_jobs():
    # As the C code (truncate=True) arrivals drift 0.5 s/job: after 10,000 jobs ~1.4 h; the day
    # (08-18 h) still gets clearly more than its 10/24 share of arrivals.
    t = Lublin03(typed=False).generate(10_000, np.random.default_rng(4))
    hour = t.col("submit") % 86400 / 3600
    assert np.mean((hour >= 8) & (hour < 18)) > 0.55


def test_daily_weights_are_gamma_masses_starting_at_bucket_eleven():
    # w_k = G(k + 0.5) - G(k - 0.5), k = 11..58, stored in bucket (k - 1) mod 48, normalised
    stats = pytest.importorskip("scipy.stats")
    s = BATCH
    cdf = lambda x: stats.gamma.cdf(x, s.anum, scale=s.bnum)
    raw = np.empty(48)
    for k in range(11, 59):
        raw[(k - 1) % 48] = cdf(k + 0.5) - cdf(k - 0.5)
    np.testing.assert_allclose(s.daily_weights(), raw / raw.mean(), rtol=1e-10)


def test_gamma_cdf_closed_forms():
    # P(1, x) = 1 - e^-x; P(2, x) = 1 - e^-x (1 + x); P(3, x) = 1 - e^-x (1 + x + x^2/2); both
    # expansions (series below a + 1, continued fraction above) are exercised
    for x in (0.1, 0.9, 2.5, 7.0, 30.0):
        assert gammainc_lower(1, x) == pytest.approx(1 - np.exp(-x), rel=1e-12, abs=1e-15)
        assert gammainc_lower(2, x) == pytest.approx(1 - np.exp(-x) * (1 + x), rel=1e-12, abs=1e-15)
        assert gammainc_lower(3, x) == pytest.approx(1 - np.exp(-x) * (1 + x + x * x / 2), rel=1e-12, abs=1e-15)
    assert gamma_cdf(4.0, 2.0, 2.0) == pytest.approx(gammainc_lower(2, 2.0))


def test_gamma_cdf_matches_scipy_for_the_papers_shapes():
    stats = pytest.importorskip("scipy.stats")
    for shape, scale in ((6.1271, 5.2740), (8.9186, 3.6680), (639.1, 0.0156), (10.4605, 0.9497)):
        for x in (1.0, 10.0, 13.0, 32.0, 60.0):
            assert gamma_cdf(x, shape, scale) == pytest.approx(stats.gamma.cdf(x, shape, scale=scale), abs=1e-12)


def test_target_load_is_reached_and_recorded():
    g = Lublin03(load=0.7)
    t = g.generate(20_000, np.random.default_rng(1))
    d = describe(t.col("submit"), t.col("alloc_procs").astype(int), t.col("run"), 128)
    assert abs(d["offered_load"] - 0.7) < 0.7e-3
    assert g.achieved_load == pytest.approx(d["offered_load"], rel=1e-6)
    assert float(t.header.fields["OfferedLoad"]) == pytest.approx(d["offered_load"], abs=1e-6)
    assert t.header.fields["TargetLoad"] == "0.7"


def test_same_seed_same_workload_other_seed_other_workload():
    a = Lublin03(load=0.8).generate(5000, np.random.default_rng(7))
    b = Lublin03(load=0.8).generate(5000, np.random.default_rng(7))
    c = Lublin03(load=0.8).generate(5000, np.random.default_rng(8))
    assert np.array_equal(a.data, b.data)
    assert not np.array_equal(a.data, c.data)


def test_other_machine_sizes_move_uhi_and_keep_umed_distance():
    # 2.5: uhi = log2(M); batch umed = uhi - 2, typeless uhi - 2.5; interactive keeps 5.5 / 3
    s = Lublin03(procs=256).streams()
    assert (s["batch"].uhi, s["batch"].umed) == (8.0, 6.0)
    assert (s["interactive"].uhi, s["interactive"].umed) == (5.5, 3.0)
    assert (Lublin03(procs=256, typed=False).streams()["typeless"].umed) == 5.5
    assert (Lublin03().streams()["batch"].uhi, Lublin03().streams()["batch"].umed) == (7.0, 5.0)


def test_sizes_never_exceed_a_machine_that_is_not_a_power_of_two():
    t = Lublin03(procs=100).generate(50_000, np.random.default_rng(1))
    assert t.col("alloc_procs").max() == 100


def test_swf_columns_and_header():
    t = Lublin03(procs=64).generate(100, np.random.default_rng(1))
    assert np.array_equal(t.col("job"), np.arange(1, 101))
    assert np.all(np.diff(t.col("submit")) >= 0)
    assert np.array_equal(t.col("alloc_procs"), t.col("req_procs"))
    assert set(np.unique(t.col("queue"))) <= {0.0, 1.0}
    assert np.all(t.col("req_time") == -1) and np.all(t.col("status") == 1)
    h = t.header
    assert (h.max_procs, h.max_nodes, h.fields["Model"]) == (64, 64, "lublin03")
    assert h.fields["Param_batch_serial_prob"] == "0.2927" and h.fields["Param_batch_uhi"] == "6.0"


@pytest.mark.parametrize("kwargs, name", [
    ({"procs": 0}, "procs"), ({"procs": 12.5}, "procs"), ({"typed": "yes"}, "typed"),
    ({"load": 0}, "load"), ({"load": 2.0}, "load"),
    ({"batch": {"serial_prob": 1.5}}, "batch.serial_prob"),
    ({"interactive": {"a1": -1}}, "interactive.a1"),
    ({"batch": {"nope": 1}}, "batch.nope"),
    ({"typeless": {"serial_prob": 0.6, "pow2_prob": 0.6}}, "typeless.pow2_prob"),
])
def test_bad_parameters_name_themselves(kwargs, name):
    with pytest.raises(ParameterError) as err:
        Lublin03(**kwargs)
    assert err.value.param == name and str(err.value).startswith(name + ":")


@pytest.mark.slow
def test_one_million_jobs_in_seconds():
    import time
    t0 = time.process_time()
    Lublin03(load=0.8).generate(1_000_000, np.random.default_rng(0))
    assert time.process_time() - t0 < 10
