"""A sweep may not expand to more than ``MAX_RUNS`` runs: a grid of ``seed: 1..100000000`` is
refused before any run is made, naming the axis or block and the count (issue 17)."""

import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.experiments.sweep import MAX_RUNS, load_sweep
from tests.experiments.conftest import JOBS, write
from tests.helpers import cli_subprocess

INLINE = {"datacenter": {"hosts": 4}, "workload": {"jobs": JOBS}}


def test_a_range_axis_of_more_values_than_runs_allowed_is_refused_naming_it(tmp_path):
    path = write(tmp_path, "sweep.yaml", """\
        base: {datacenter: {hosts: 4}, workload: {model: {name: lublin03, jobs: 10, procs: 4}}}
        grid:
          seed: 1..100000000
        """)
    with pytest.raises(ScenarioError) as err:
        load_sweep(path)
    assert str(err.value) == f"{path}:3: grid.seed: 100,000,000 values; a sweep runs at most 100,000 (MAX_RUNS)"


def test_a_start_stop_step_axis_of_too_many_values_is_refused():
    with pytest.raises(ScenarioError, match=r"^<mapping>: grid\.workload\.cpu_usage\.mean: 1,000,000,001 values; "
                                            r"a sweep runs at most 100,000"):
        load_sweep({"base": INLINE, "grid": {"workload.cpu_usage.mean": {"start": 0, "stop": 1, "step": 1e-9}}})


def test_a_grid_whose_product_is_too_large_is_refused_before_expanding():
    axis = list(range(1000))
    with pytest.raises(ScenarioError, match=r"^<mapping>: grid: 1,000,000 runs \(1,000 x 1,000\); "
                                            r"a sweep runs at most 100,000 \(MAX_RUNS\)$"):
        load_sweep({"base": INLINE, "grid": {"seed": axis, "tag.x": axis}})


def test_blocks_count_together():
    half = list(range(MAX_RUNS // 2 + 1))
    with pytest.raises(ScenarioError, match=r"^<mapping>: blocks\.1: 50,001 runs \(50,001\), 100,002 with the "
                                            r"blocks before it; a sweep runs at most 100,000"):
        load_sweep({"base": INLINE, "blocks": [{"grid": {"seed": half}}, {"grid": {"tag.x": half}}]})


def test_a_sweep_of_exactly_max_runs_loads():
    assert load_sweep({"base": INLINE, "grid": {"seed": f"1..{MAX_RUNS}"}}).blocks[0][0][-1] == {"seed": MAX_RUNS}


def test_sweep_dry_run_of_a_huge_grid_ends_at_once_with_the_reason(tmp_path):
    path = write(tmp_path, "sweep.yaml", """\
        base: {datacenter: {hosts: 4}, workload: {model: {name: lublin03, jobs: 10, procs: 4}}}
        grid: {seed: 1..100000000}
        """)
    done = cli_subprocess("sweep", str(path), "--dry-run", timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"cloudsim-py: error: {path}:2: grid.seed: 100,000,000 values; "
                           "a sweep runs at most 100,000 (MAX_RUNS)\n")
