"""Efficiency models of moldable jobs (Sodan 2009 section 3.2): WC, E1-E3, user curves, Downey."""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.errors import CloudSimError, ScenarioError
from cloudsim_py.workload.efficiency import (E1, E2, E3, WC, DowneyEfficiency, EfficiencyModel,
                                             PiecewiseLinear, SpecError, efficiency_model,
                                             efficiency_models)
from cloudsim_py.workload.models.downey97 import downey_speedup

#: The paper's anchors: efficiency at 1, 0.5x, 1x, 2x the original size (section 3.2).
PAPER = {"E1": (E1, (1.0, 0.8, 0.65, 0.4)), "E2": (E2, (1.0, 0.75, 0.65, 0.5)),
         "E3": (E3, (1.0, 0.7, 0.65, 0.6))}


@pytest.mark.parametrize("name", list(PAPER))
def test_paper_curves_pass_through_their_four_anchors(name):
    model, effs = PAPER[name]
    # original size 128: the anchors are 1, 64, 128 and 256 processors
    got = [model.efficiency(128, n) for n in (1, 64, 128, 256)]
    assert got == pytest.approx(effs, abs=1e-12)


def test_efficiency_is_linear_between_anchors():
    # E1, original 128: 96 is halfway between 64 (0.8) and 128 (0.65) -> 0.725;
    # 192 halfway between 128 (0.65) and 256 (0.4) -> 0.525;
    # 32 lies on the segment from (1, 1.0) to (64, 0.8): 1 - 0.2 * 31/63
    assert E1.efficiency(128, 96) == pytest.approx(0.725)
    assert E1.efficiency(128, 192) == pytest.approx(0.525)
    assert E1.efficiency(128, 32) == pytest.approx(1 - 0.2 * 31 / 63)


@pytest.mark.parametrize("model, factor", [(E1, 2 * 0.65 / 0.8), (E2, 2 * 0.65 / 0.75), (E3, 2 * 0.65 / 0.7)])
def test_halving_the_size_multiplies_the_runtime_by_twice_the_efficiency_ratio(model, factor):
    # section 3.4: "2 * E_{FA=1.0} / E_{FA=0.5} = 2 * 0.65/0.8 = 1.625" for E1
    assert model.runtime(3600.0, 128, 64) == pytest.approx(3600.0 * factor)
    assert E1.runtime(1.0, 128, 64) == pytest.approx(1.625)


@pytest.mark.parametrize("model", [WC, E1, E2, E3, DowneyEfficiency(), DowneyEfficiency(sigma=2.5)])
def test_the_original_size_keeps_the_original_runtime_exactly(model):
    for n0 in (1, 2, 3, 17, 128):
        assert model.runtime(1234.5, n0, n0) == 1234.5
        assert model.runtimes(np.array([1234.5]), np.array([n0]), np.array([n0]))[0] == 1234.5


def test_work_conserving_keeps_processor_seconds():
    # WC: runtime = T0 * n0 / n, so n * runtime = n0 * T0 = 12800 at every size
    for n in (1, 3, 64, 100, 200):
        assert n * WC.runtime(100.0, 128, n) == pytest.approx(12800.0)
    assert WC.efficiency(128, 7) == 1.0


def test_one_processor_anchor_wins_for_a_two_processor_job():
    # n0 = 2: 0.5 x n0 falls on one processor, where efficiency is 1 (not 0.8); so E(2) = 0.65
    # means a speedup of 1.3, and one processor takes 2 * 0.65 / 1 = 1.3 x the runtime.
    assert E1.efficiency(2, 1) == 1.0
    assert E1.efficiency(2, 2) == pytest.approx(0.65)
    assert E1.runtime(10.0, 2, 1) == pytest.approx(13.0)


def test_a_serial_job_has_efficiency_one_and_the_curve_from_there_to_twice_its_size():
    # n0 = 1: the 0.5x and 1x anchors fall on (or below) one processor and are dropped
    assert E1.efficiency(1, 1) == 1.0
    assert E1.efficiency(1, 2) == pytest.approx(0.4)


def test_efficiency_is_held_beyond_the_last_anchor():
    assert E1.efficiency(128, 300) == pytest.approx(0.4)
    assert E3.efficiency(10, 1000) == pytest.approx(0.6)


def test_sizes_below_one_processor_are_rejected():
    with pytest.raises(ValueError, match="size"):
        E1.efficiency(128, 0.5)
    with pytest.raises(ValueError, match="size"):
        E1.runtimes(np.array([1.0]), np.array([0]), np.array([1]))


def test_downey_model_reuses_the_downey97_speedup():
    model = DowneyEfficiency(sigma=0.5, parallelism=0.75)
    # A = 0.75 * 64 = 48
    assert model.efficiency(64, 30) == pytest.approx(downey_speedup(30, 48, 0.5) / 30)
    # runtime ratio = S(n0) / S(n)
    assert model.runtime(100.0, 64, 30) == pytest.approx(100.0 * downey_speedup(64, 48, 0.5)
                                                         / downey_speedup(30, 48, 0.5))


def test_downey_defaults_resemble_the_paper_curves():
    # A = n0 = 128, sigma = 1: E(64) = 128/(128 + 31.5) = 0.8025, E(128) = 128/(128 + 63.5) =
    # 0.6684, E(256) = S/256 with S = A = 128 (n >= 2A - 1) -> 0.5
    d = DowneyEfficiency()
    assert [d.efficiency(128, n) for n in (64, 128, 256)] == pytest.approx([128 / 159.5, 128 / 191.5, 0.5])


def test_downey_rejects_negative_sigma_and_nonpositive_parallelism():
    with pytest.raises(SpecError, match="sigma"):
        DowneyEfficiency(sigma=-1.0)
    with pytest.raises(SpecError, match="parallelism"):
        DowneyEfficiency(parallelism=0.0)


MODELS = [WC, E1, E2, E3, DowneyEfficiency(), DowneyEfficiency(sigma=2.0, parallelism=0.5),
          PiecewiseLinear([(0.25, 1.1), (1.0, 0.7), (4.0, 0.3)], serial_efficiency=None),
          PiecewiseLinear([(0.5, 0.9), (1.0, 0.8)])]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 600), st.integers(1, 1200), st.floats(1.0, 1e6)), min_size=1, max_size=20),
       st.sampled_from(range(len(MODELS))))
def test_vectorised_path_agrees_with_the_scalar_path(jobs, which):
    model = MODELS[which]
    n0, n, t0 = (np.array(c) for c in zip(*jobs))
    scalar_e = [model.efficiency(int(a), int(b)) for a, b in zip(n0, n)]
    scalar_t = [model.runtime(float(t), int(a), int(b)) for t, a, b in zip(t0, n0, n)]
    np.testing.assert_allclose(model.efficiencies(n0, n), scalar_e, rtol=1e-12)
    np.testing.assert_allclose(model.runtimes(t0, n0, n), scalar_t, rtol=1e-12)


def test_registry_knows_the_paper_models_and_the_parametric_ones():
    assert efficiency_models.names() == ["curve", "downey", "e1", "e2", "e3", "wc"]
    assert efficiency_model("E1") is E1
    assert efficiency_model("wc") is WC
    assert efficiency_model({"name": "e3"}) is E3
    assert efficiency_model({"name": "downey", "sigma": 0.5}) == DowneyEfficiency(sigma=0.5)


def test_unknown_model_name_lists_the_known_ones_and_names_the_key():
    with pytest.raises(ScenarioError, match=r"workload\.moldable\.efficiency: .*known: curve, downey, e1, e2, e3, wc"):
        efficiency_model("E4")
    with pytest.raises(SpecError, match=r"x\.name: .*unknown"):
        efficiency_model({"name": "nope"}, where="x")


def test_a_user_curve_from_plain_data_equals_the_builtin_curve_with_the_same_points():
    spec = {"name": "curve", "points": [{"size": 0.5, "efficiency": 0.8}, {"size": 1.0, "efficiency": 0.65},
                                         {"size": 2, "efficiency": 0.4}]}
    model = efficiency_model(spec)
    sizes = np.arange(1, 400)
    np.testing.assert_array_equal(model.efficiencies(128, sizes), E1.efficiencies(128, sizes))
    assert model.points == E1.points and model.serial_efficiency == 1.0


def test_a_user_curve_without_the_serial_anchor_uses_only_its_points():
    model = efficiency_model({"name": "curve", "serial_efficiency": None,
                              "points": [[0.5, 0.9], [1.0, 0.6]]})
    # below 0.5 x n0 the first point's efficiency is held: E(100, 1) = 0.9
    assert model.efficiency(100, 1) == 0.9
    assert model.efficiency(100, 75) == pytest.approx(0.75)


@pytest.mark.parametrize("points, key, what", [
    ([{"size": 0.5, "efficiency": 0.8}, {"size": 1, "efficiency": 0.6}, {"size": 2, "efficiency": -0.1}],
     "workload.moldable.efficiency.points.2.efficiency", "> 0"),
    ([{"size": 0.5, "efficiency": 0.8}, {"size": 1, "efficiency": 0}], "workload.moldable.efficiency.points.1.efficiency", "> 0"),
    ([{"size": 1, "efficiency": 0.8}, {"size": 0.5, "efficiency": 0.9}], "workload.moldable.efficiency.points.1.size", "increase"),
    ([{"size": 1, "efficiency": 0.8}, {"size": 1, "efficiency": 0.9}], "workload.moldable.efficiency.points.1.size", "increase"),
    ([{"size": 0, "efficiency": 0.8}], "workload.moldable.efficiency.points.0.size", "> 0"),
    ([{"size": 1, "efficiency": True}], "workload.moldable.efficiency.points.0.efficiency", "number"),
    ([{"size": 1, "efficiency": "high"}], "workload.moldable.efficiency.points.0.efficiency", "number"),
    ([{"size": 1, "efficiency": float("nan")}], "workload.moldable.efficiency.points.0.efficiency", "finite"),
    ([{"size": 1}], "workload.moldable.efficiency.points.0.efficiency", "missing"),
    ([{"size": 1, "efficiency": 0.5, "speedup": 2}], "workload.moldable.efficiency.points.0.speedup", "unknown key"),
    ([[1, 0.5, 3]], "workload.moldable.efficiency.points.0", "pair"),
    ([], "workload.moldable.efficiency.points", "non-empty"),
    ("steep", "workload.moldable.efficiency.points", "non-empty list"),
])
def test_bad_user_curves_are_errors_naming_the_key(points, key, what):
    with pytest.raises(SpecError, match=what) as info:
        efficiency_model({"name": "curve", "points": points})
    assert info.value.path == key
    assert str(info.value).startswith(f"{key}: ")
    assert isinstance(info.value, CloudSimError)


def test_bad_serial_efficiency_and_stray_parameters_name_the_key():
    with pytest.raises(SpecError) as info:
        efficiency_model({"name": "curve", "points": [[1, 0.5]], "serial_efficiency": 0})
    assert info.value.path == "workload.moldable.efficiency.serial_efficiency"
    with pytest.raises(SpecError) as info:
        efficiency_model({"name": "E1", "points": [[1, 0.5]]})
    assert info.value.path == "workload.moldable.efficiency.points"
    with pytest.raises(SpecError) as info:
        efficiency_model({"name": "downey", "sigma": -2})
    assert info.value.path == "workload.moldable.efficiency.sigma"
    with pytest.raises(SpecError, match="bad parameters"):
        efficiency_model({"name": "downey", "alpha": 1})
    with pytest.raises(SpecError) as info:
        efficiency_model({"points": []})
    assert info.value.path == "workload.moldable.efficiency.name"


def test_a_users_own_model_is_named_as_module_colon_attr(tmp_path, monkeypatch):
    (tmp_path / "my_curves.py").write_text(textwrap.dedent("""\
        from cloudsim_py.workload.efficiency import PiecewiseLinear
        AMDAHL_LIKE = PiecewiseLinear([(0.5, 0.95), (1.0, 0.9), (2.0, 0.8)], name="mine")
        def not_a_model():
            return 42
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        model = efficiency_model("my_curves:AMDAHL_LIKE")
        assert isinstance(model, EfficiencyModel) and model.name == "mine"
        with pytest.raises(SpecError, match="not an EfficiencyModel"):
            efficiency_model("my_curves:not_a_model")
    finally:
        sys.modules.pop("my_curves", None)


def test_models_are_values_that_compare_and_hash_by_their_parameters():
    same = PiecewiseLinear([(0.5, 0.8), (1.0, 0.65), (2.0, 0.4)], name="E1")
    assert same == E1 and hash(same) == hash(E1)
    assert E1 != E2 and DowneyEfficiency(sigma=0.5) != DowneyEfficiency()
    assert len({E1, same, E2, WC}) == 3
