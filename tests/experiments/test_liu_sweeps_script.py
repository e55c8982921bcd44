"""scripts/liu_sweeps.py: how a sweep's result rows become the recorded tables the claims read
(one row per cell, the mean over the seeds, migrations per job, Liu 2013's variant names)."""

import importlib.util
import os

import pytest

from ..conftest import REPO


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("liu_sweeps", os.path.join(REPO, "scripts", "liu_sweeps.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(seed, **fields):
    base = {"status": "ok", "seed": seed, "jobs_finished": 100, "avg_wait": 0.0, "avg_response": 0.0,
            "avg_bsld": 1.0, "max_wait": 0.0, "max_bsld": 1.0, "utilization": 0.5, "kills": 0, "migrations": 0}
    return {**base, **fields}


@pytest.mark.parametrize("fields, name", [
    ({"tag.study": "figs", "policy": "cmcbf"}, "CMCBF"),
    ({"tag.study": "cpu-estimate", "policy": "amcbf", "workload.cpu_estimate": '{"error": 0.2}'}, "AMCBF-E20"),
    ({"tag.study": "cpu-estimate", "policy": "amcbf", "workload.cpu_estimate": "unknown"}, "AMCBF-UN"),
    ({"tag.study": "migration-cost", "policy": "amcbf", "datacenter.migration_cost": 600}, "AMCBF-M600"),
    ({"tag.study": "cpu-mean", "policy": "amcbf", "workload.cpu_usage": '{"mean": 0.95}'}, "AMCBF-C95"),
    ({"tag.study": "cpu-mean", "policy": "amcbf", "workload.cpu_usage": "full"}, "AMCBF-C100"),
])
def test_liu2013_runs_are_named_by_their_study_value(script, fields, name):
    assert script.liu2013_variant(fields) == name


def test_a_cell_is_the_mean_over_its_seeds_and_migrations_are_per_job(script):
    # two seeds: waits 100 and 300 -> 200; 30 and 50 migrations over 100 jobs -> 0.4 per job;
    # a failed run is left out
    rows = [run(1, avg_wait=100.0, migrations=30, k="a"), run(2, avg_wait=300.0, migrations=50, k="a"),
            run(3, avg_wait=9e9, k="a", status="failed")]
    (cell,) = script.aggregate(rows, ("k",), lambda r: (r["k"],))
    assert (cell["k"], cell["seeds"], cell["avg_wait"], cell["migrations"]) == ("a", 2, "200", "0.4")
