"""``predict`` checks its inputs before it simulates: a wrong base path, a missing results
table or column fails at once; a table mixing reshaping rows with others uses the former."""

import textwrap
import time

import pytest

from cloudsim_py.cli import main
from cloudsim_py.commands.predict import reshaping_rows, simulated_table
from cloudsim_py.errors import ExperimentError
from cloudsim_py.experiments.store import write_results

# a base that would take long to simulate: the errors below must come before it runs
SCENARIO = """\
name: base
seed: 1
datacenter: {hosts: 64}
workload:
  model: {name: lublin03, jobs: 200000, procs: 64, load: 0.7}
  moldable: {efficiency: E1, factor: 1.0}
broker: fcfs
"""


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "base.yaml"
    path.write_text(textwrap.dedent(SCENARIO))
    return path


def fails_fast(argv, capsys, message):
    # CPU time of this process, not the wall clock (a busy machine stretches that); the
    # simulation these checks now precede took about 29 s
    t0 = time.process_time()
    assert main(argv) == 2
    assert time.process_time() - t0 < 2.0
    err = capsys.readouterr().err
    assert err.startswith("cloudsim-py: error: ") and message in err


def test_a_base_that_does_not_exist_is_refused_at_once(tmp_path, capsys):
    fails_fast(["predict", str(tmp_path / "nope.yaml")], capsys, "nope.yaml: no such run folder or scenario file")


def test_a_missing_results_table_is_refused_before_simulating(scenario, tmp_path, capsys):
    fails_fast(["predict", str(scenario), "--results", str(tmp_path / "r.csv")], capsys, "r.csv: no such file")


def test_a_table_without_the_factor_column_is_refused_before_simulating(scenario, tmp_path, capsys):
    table = tmp_path / "r.csv"
    write_results(str(table), [{"status": "ok", "utilization": 0.5, "avg_response": 60.0}])
    fails_fast(["predict", str(scenario), "--results", str(table)], capsys,
               "has no workload.moldable.factor column")


def test_a_table_without_the_class_metric_is_refused_before_simulating(scenario, tmp_path, capsys):
    table = tmp_path / "r.csv"
    write_results(str(table), [{"status": "ok", "workload.moldable.factor": 1.0, "utilization": 0.5,
                                "avg_response": 60.0}])
    fails_fast(["predict", str(scenario), "--results", str(table), "--class", "L"], capsys,
               "has no avg_response_L and utilization")


def test_a_mixed_table_uses_its_reshaping_rows():
    rows = [{"workload.moldable.factor": 0.5, "utilization": 0.6, "avg_response": 100.0},
            {"workload.moldable.factor": None, "utilization": 0.9, "avg_response": 900.0},
            {"workload.moldable.factor": 0.5, "utilization": 0.8, "avg_response": 300.0}]
    kept, other = reshaping_rows(rows)
    assert other == 1 and len(kept) == 2
    assert simulated_table(rows) == {(0.5, 1.0): {"utilization": 0.7, "response": 200.0, "runs": 2}}


def test_a_table_whose_rows_all_lack_a_factor_is_an_error():
    with pytest.raises(ExperimentError, match="no row has a workload.moldable.factor value"):
        simulated_table([{"workload.moldable.factor": None, "utilization": 0.9, "avg_response": 9.0}])
