"""Generators from their YAML form: ``workload: {model: {name: ..., jobs: ..., ...}}``."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.workload.models import Feitelson96, Jann97, Lublin03, generate_from_spec, workload_models


def gen(**spec):
    return generate_from_spec(spec, np.random.default_rng(0))


def test_registry_knows_the_three_generators():
    assert workload_models.names() == ["feitelson96", "jann97", "lublin03"]
    assert workload_models.get("Lublin03") is Lublin03
    assert (workload_models.get("jann97"), workload_models.get("feitelson96")) == (Jann97, Feitelson96)


def test_issue_example_jann97_on_320_processors_at_load_0_8():
    t = gen(name="jann97", jobs=10_000, procs=320, load=0.8)
    assert len(t) == 10_000 and t.header.max_procs == 320
    assert float(t.header.fields["OfferedLoad"]) == pytest.approx(0.8, abs=1e-3)


def test_nested_stream_parameters_reach_the_generator():
    t = gen(name="lublin03", jobs=20_000, typed=False, typeless={"serial_prob": 0.5, "pow2_prob": 0.4})
    assert np.mean(t.col("alloc_procs") == 1) == pytest.approx(0.5, abs=0.015)


def test_same_spec_and_seed_same_table():
    spec = {"name": "feitelson96", "jobs": 2000, "load": 0.6}
    a = generate_from_spec(spec, np.random.default_rng(5))
    b = generate_from_spec(spec, np.random.default_rng(5))
    assert np.array_equal(a.data, b.data)


@pytest.mark.parametrize("spec, path", [
    ({"name": "downey99", "jobs": 10}, "workload.model.name: unknown workload model 'downey99'"),
    ({"jobs": 10}, "workload.model.name: missing"),
    ({"name": "lublin03"}, "workload.model.jobs: missing"),
    ({"name": "lublin03", "jobs": 0}, "workload.model.jobs: must be a positive integer"),
    ({"name": "lublin03", "jobs": 10.5}, "workload.model.jobs: must be a positive integer"),
    ({"name": "lublin03", "jobs": 10, "load": 0}, "workload.model.load: must be in (0, 1.5]"),
    ({"name": "lublin03", "jobs": 10, "load": 1.6}, "workload.model.load: must be in (0, 1.5]"),
    ({"name": "lublin03", "jobs": 10, "load": "high"}, "workload.model.load: must be a number"),
    ({"name": "lublin03", "jobs": 10, "speed": 2}, "workload.model.speed: unknown parameter of workload model 'lublin03'"),
    ({"name": "lublin03", "jobs": 10, "procs": "many"}, "workload.model.procs: must be an integer"),
    ({"name": "lublin03", "jobs": 10, "batch": {"uprob": 2}}, "workload.model.batch.uprob: must be <= 1"),
    ({"name": "lublin03", "jobs": 10, "batch": {"colour": 2}}, "workload.model.batch.colour: unknown parameter"),
    ({"name": "jann97", "jobs": 10, "fit": "Jann"}, "workload.model.fit: no fitted constants 'Jann'"),
    ({"name": "feitelson96", "jobs": 10, "repeat_exponent": -1}, "workload.model.repeat_exponent: must be >= 0"),
])
def test_bad_specs_name_the_key_path(spec, path):
    with pytest.raises(ScenarioError) as err:
        gen(**spec)
    assert str(err.value).startswith(path)


def test_other_key_path_prefix():
    with pytest.raises(ScenarioError, match=r"^scenarios\[2\]\.workload\.model\.load:"):
        generate_from_spec({"name": "jann97", "jobs": 5, "load": 3}, np.random.default_rng(0),
                           where="scenarios[2].workload.model")


def test_a_spec_that_is_not_a_mapping_is_rejected():
    with pytest.raises(ScenarioError, match="^workload.model: must be a mapping"):
        generate_from_spec(["jann97"], np.random.default_rng(0))
