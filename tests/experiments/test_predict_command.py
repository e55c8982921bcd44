"""``cloudsim-py predict``: R for other F_A / F_VM from a base run (Sodan 2009 section 6.2)."""

import json
import textwrap

import numpy as np
import pytest

from cloudsim_py.cli import main
from cloudsim_py.commands.predict import (compare, predict_table, read_run_folder, run_bases,
                                          simulated_table)
from cloudsim_py.errors import ExperimentError
from cloudsim_py.experiments.store import write_results
from cloudsim_py.scenario import load_scenario, run_scenario
from cloudsim_py.workload.efficiency import E1, WC

SCENARIO = """\
name: base
seed: 1
datacenter: {hosts: 32}
workload:
  model: {name: lublin03, jobs: 300, procs: 32, load: 0.7}
  runtime_estimate: actual
  moldable: {efficiency: E1, factor: 1.0}
metrics: {classes: true}
broker: pect
"""


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "base.yaml"
    path.write_text(textwrap.dedent(SCENARIO))
    return path


def test_at_the_base_allocation_the_prediction_is_the_base_response(scenario, tmp_path):
    # C_S^2 is fitted so that eq. (7)+(8) give the base run's own mean response at its own
    # utilization: F_A = 1, F_VM = 1 predicts exactly what was measured.
    out = tmp_path / "run"
    (_, result), = run_scenario(load_scenario(scenario), str(out))
    base = read_run_folder(str(out))
    (row,) = predict_table([base], E1, [1.0], [1.0])
    assert row["response"] == pytest.approx(result.summary["avg_response"], rel=1e-9)
    assert row["utilization"] == pytest.approx(result.summary["utilization"], rel=1e-9)


def test_work_conserving_reshaping_predicts_no_change(scenario):
    # WC keeps the work, so the utilization and the prediction stay (no job is capped: F_A <= 1).
    bases, model = run_bases(str(scenario), [], [1])
    assert model is E1
    rows = predict_table(bases, WC, [0.3, 0.5, 1.0], [1.0])
    assert len({round(r["response"], 6) for r in rows}) == 1


def test_e1_shrinking_lowers_the_predicted_utilization_and_response(scenario):
    bases, _ = run_bases(str(scenario), [], [1])
    small, base = predict_table(bases, E1, [0.5, 1.0], [1.0])
    assert small["utilization"] < base["utilization"] and small["response"] < base["response"]


def test_a_smaller_vm_raises_the_utilization_by_the_machine_ratio(scenario):
    bases, _ = run_bases(str(scenario), [], [1])
    (vm,), (base,) = predict_table(bases, E1, [1.0], [0.75]), predict_table(bases, E1, [1.0], [1.0])
    # 32 x 0.75 = 24 nodes; jobs larger than 24 shrink (and run more efficiently), so the work
    # drops a little: U' is at most 32/24 of the base's
    assert vm["machine"] == 24 and vm["utilization"] <= base["utilization"] * 32 / 24 + 1e-12
    assert vm["utilization"] > base["utilization"]


def test_simulated_points_are_averaged_per_factor_and_compared():
    rows = [{"workload.moldable.factor": 0.5, "utilization": 0.6, "avg_response": 100.0},
            {"workload.moldable.factor": 0.5, "utilization": 0.8, "avg_response": 300.0}]
    sim = simulated_table(rows)
    assert sim == {(0.5, 1.0): {"utilization": 0.7, "response": 200.0, "runs": 2}}
    (row,) = compare([{"factor": 0.5, "vm_factor": 1.0, "machine": 8, "cs2": 1.0,
                       "utilization": 0.7, "response": 220.0}], sim)
    assert row["error"] == pytest.approx(0.1)


def test_the_command_prints_the_table_and_writes_the_plot(scenario, tmp_path, capsys):
    table = tmp_path / "r.csv"
    write_results(str(table), [{"status": "ok", "workload.moldable.factor": 1.0, "utilization": 0.5,
                                "avg_response": 7200.0, "avg_response_M": 3600.0}])
    prefix = tmp_path / "fig"
    code = main(["predict", str(scenario), "--seeds", "1..2", "--factor", "0.5", "1",
                 "--results", str(table), "-o", str(prefix)])
    assert code == 0
    out = capsys.readouterr().out
    assert "base: 2 run(s), efficiency E1" in out and "R pred (h)" in out
    assert out.strip().splitlines()[-1].split()[:2] == ["1", "1"]  # F_A 1 has a simulated point
    assert (tmp_path / "fig.png").is_file()


def test_a_run_folder_needs_an_efficiency(scenario, tmp_path, capsys):
    out = tmp_path / "run"
    run_scenario(load_scenario(scenario), str(out))
    assert main(["predict", str(out)]) == 2
    assert "give --efficiency" in capsys.readouterr().err
    assert main(["predict", str(out), "--efficiency", "E2", "--factor", "1"]) == 0


def test_a_folder_without_a_run_is_refused(tmp_path):
    with pytest.raises(ExperimentError, match="not a run folder"):
        read_run_folder(str(tmp_path))


MARKER_PLUGIN = """\
import pathlib
pathlib.Path({marker!r}).write_text("imported")
from cloudsim_py.workload.efficiency import E3 as MODEL
"""


@pytest.fixture
def run_folder(scenario, tmp_path):
    out = tmp_path / "run"
    run_scenario(load_scenario(scenario), str(out))
    return out


def test_an_efficiency_naming_a_module_is_refused_without_importing_it(run_folder, tmp_path, monkeypatch, capsys):
    """``--efficiency module:attr`` names user code on the command line: refused, the module not
    imported, unless it is given with ``--plugin`` (issue 17)."""
    marker = tmp_path / "imported.txt"
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "marked_model.py").write_text(MARKER_PLUGIN.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    assert main(["predict", str(run_folder), "--efficiency", "marked_model:MODEL", "--factor", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "cloudsim-py: error: --efficiency 'marked_model:MODEL' names user code: import its module with --plugin "
        "marked_model (or register the model in a plugin and give its name)")
    assert not marker.exists()


def test_an_efficiency_from_a_plugin_given_on_the_command_line_is_used(run_folder, tmp_path, capsys):
    marker = tmp_path / "imported.txt"
    plugin = tmp_path / "model_plugin.py"
    plugin.write_text(MARKER_PLUGIN.format(marker=str(marker)))
    assert main(["predict", str(run_folder), "--plugin", str(plugin), "--efficiency", "model_plugin:MODEL",
                 "--factor", "1"]) == 0
    assert marker.read_text() == "imported" and "efficiency E3" in capsys.readouterr().out


def test_a_plugin_that_exits_on_import_is_an_error_naming_it(run_folder, tmp_path, capsys):
    plugin = tmp_path / "exits.py"
    plugin.write_text("import sys\nsys.exit(0)\n")
    assert main(["predict", str(run_folder), "--plugin", str(plugin), "--efficiency", "E1"]) == 2
    assert f"--plugin '{plugin}': importing it raised SystemExit" in capsys.readouterr().err
