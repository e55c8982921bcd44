"""Results are named by the broker's label (default: the policy and its parameters), so one
policy with two sets of parameters keeps two sets of results; a label used twice is an error."""

import json

import pytest

from cloudsim_py.cli import main
from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

JOBS = {"jobs": [{"submit": 0, "procs": 2, "runtime": 50, "cpu": 0.5},
                 {"submit": 1, "procs": 1, "runtime": 20, "cpu": 0.5}]}


def scenario(brokers, tiers=2):
    return {"name": "lab", "datacenter": {"hosts": 2, "tiers": tiers}, "workload": JOBS, "broker": brokers}


def test_one_policy_with_two_parameter_sets_writes_two_folders_and_two_summaries(tmp_path, capsys):
    sc = load_scenario(scenario(["ktcbf", {"policy": "ktcbf", "params": {"aggressive": True}}]))
    assert sc.labels == ("ktcbf", "ktcbf(aggressive=True)")
    out = tmp_path / "out"
    runs = run_scenario(sc, out_dir=str(out))
    assert [r.label for _, r in runs] == ["ktcbf", "ktcbf(aggressive=True)"]
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["runs"]) == ["ktcbf", "ktcbf(aggressive=True)"]
    assert summary["folders"] == {"ktcbf": "ktcbf", "ktcbf(aggressive=True)": "ktcbf_aggressive_True_"}
    inner = json.loads((out / "ktcbf_aggressive_True_" / "summary.json").read_text())
    assert (inner["label"], inner["policy"], inner["params"]) == ("ktcbf(aggressive=True)", "ktcbf",
                                                                  {"aggressive": True})
    assert (out / "ktcbf" / "jobs.csv").is_file()


def test_the_cli_comparison_table_has_a_column_per_label(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(scenario([{"policy": "ktcbf", "label": "plain"},
                                         {"policy": "ktcbf", "params": {"aggressive": True}}])))
    assert main(["run", str(path), "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[1].split()
    assert head == ["metric", "plain", "ktcbf(aggressive=True)"]


def test_a_label_used_twice_is_an_error_naming_the_key(tmp_path):
    with pytest.raises(ScenarioError, match=r"broker\.1: label 'easy': broker\.0 has the same label"):
        load_scenario(scenario(["easy", "easy"], tiers=1))
    path = tmp_path / "s.yaml"
    path.write_text("name: x\ndatacenter: {hosts: 1}\nworkload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}\n"
                    "broker:\n  - {policy: easy, label: a}\n  - {policy: fcfs, label: a}\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:6: broker\.1\.label: label 'a': broker\.0 has the same label"):
        load_scenario(path)


def test_labels_that_would_share_a_folder_are_an_error():
    with pytest.raises(ScenarioError, match=r"broker\.1\.label: label 'a_b': broker\.0 has label 'a b', "
                                            r"the same folder name"):
        load_scenario(scenario([{"policy": "easy", "label": "a b"}, {"policy": "fcfs", "label": "a_b"}], tiers=1))
