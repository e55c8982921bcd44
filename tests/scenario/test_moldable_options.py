"""``workload.moldable`` and ``metrics.classes`` in scenario files: parsed into their option
classes, applied to the run, and bad values reported at the key."""

import json
import textwrap

import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

BASE = """\
name: m
datacenter: {hosts: 8}
workload:
  jobs:
    - {submit: 0, procs: 8, runtime: 100}
    - {submit: 0, procs: 1, runtime: 1000}
    - {submit: 0, procs: 4, runtime: 20000}
  moldable: {efficiency: E1, factor: 0.5}
broker: fcfs
metrics: {classes: {S: 600, M: 10800}}
"""


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_moldable_options_reshape_the_jobs_of_a_run(tmp_path):
    # F_A = 0.5, E1: 8 -> 4 processors, 100 s x 2 x 0.65 / 0.8 = 162.5 s; the serial job stays;
    # 4 -> 2 (0.5 x 4, efficiency 0.8): 20000 x 1.625 = 32500 s. FCFS on 8 hosts: all three
    # fit together (4 + 1 + 2) and start at 0.
    (_, r), = run_scenario(load_scenario(write(tmp_path, BASE)))
    rec = r.records.by_id()
    assert [rec[i]["procs"] for i in (1, 2, 3)] == [4, 1, 2]
    assert rec[1]["finish"] == pytest.approx(162.5) and rec[3]["finish"] == pytest.approx(32500.0)


def test_a_user_curve_in_yaml_through_e1s_points_runs_as_e1(tmp_path):
    # E1's anchors as a user curve (sizes as multiples of the original size; the serial anchor
    # is the curve's own default): the same reshaped runs, to the second.
    curve = ("{name: curve, points: [{size: 0.5, efficiency: 0.8}, {size: 1, efficiency: 0.65}, "
             "{size: 2, efficiency: 0.4}]}")
    (_, a), = run_scenario(load_scenario(write(tmp_path, BASE)))
    (_, b), = run_scenario(load_scenario(write(tmp_path, BASE.replace("efficiency: E1", f"efficiency: {curve}"),
                                               "c.yaml")))
    assert a.records["finish"].tolist() == pytest.approx(b.records["finish"].tolist())
    assert b.records.by_id()[1]["finish"] == pytest.approx(162.5)


def test_downeys_speedup_model_from_yaml(tmp_path):
    # Downey 1997 with A = the original size, sigma = 1: S(n) = A n / (A + (n - 1) / 2) for
    # n <= A. Job 1: 8 -> 4 processors, A = 8: runtime 100 x S(8) / S(4) = 100 x (64 / 11.5) /
    # (32 / 9.5) = 165.217 s. Job 3: 4 -> 2, A = 4: 20000 x (16 / 5.5) / (8 / 4.5) = 32727.27 s.
    text = BASE.replace("efficiency: E1", "efficiency: {name: downey, sigma: 1}")
    (_, r), = run_scenario(load_scenario(write(tmp_path, text)))
    rec = r.records.by_id()
    assert [rec[i]["procs"] for i in (1, 2, 3)] == [4, 1, 2]
    assert rec[1]["finish"] == pytest.approx(100 * 19 / 11.5)
    assert rec[2]["finish"] == 1000.0
    assert rec[3]["finish"] == pytest.approx(20000 * 9 / 5.5)


def test_class_metrics_use_the_original_runtime(tmp_path):
    # One job per class (100 s: S, 1000 s: M, 20000 s: L), all start at 0. RR is against the
    # original runtime: job 1: 162.5 / 100 = 1.625; job 3: 32500 / 20000 = 1.625; job 2: 1.
    (_, r), = run_scenario(load_scenario(write(tmp_path, BASE)))
    s = r.summary
    assert (s["count_S"], s["count_M"], s["count_L"], s["count_all"]) == (1, 1, 1, 3)
    assert s["avg_bsld_S"] == pytest.approx(1.625) and s["avg_bsld_M"] == 1.0
    assert s["avg_bsld_L"] == pytest.approx(1.625)
    assert s["avg_bsld_all"] == pytest.approx((1.625 + 1 + 1.625) / 3)
    assert s["avg_response_L"] == pytest.approx(32500.0)


def test_class_metrics_reach_summary_json(tmp_path):
    out = tmp_path / "out"
    run_scenario(load_scenario(write(tmp_path, BASE)), str(out))
    doc = json.loads((out / "summary.json").read_text())
    assert doc["summary"]["count_L"] == 1 and "avg_bsld_all" in doc["summary"]


def test_runs_that_do_not_ask_have_no_class_metrics(tmp_path):
    (_, r), = run_scenario(load_scenario(write(tmp_path, BASE.replace("metrics: {classes: {S: 600, M: 10800}}\n", ""))))
    assert "count_S" not in r.summary


def test_vm_factor_resizes_the_machine_and_caps_the_jobs(tmp_path):
    # 8 hosts x 0.75 = 6; F_A = 1: the 8-processor job shrinks to the 6-node VM.
    text = BASE.replace("factor: 0.5}", "factor: 1.0, vm_factor: 0.75}")
    (_, r), = run_scenario(load_scenario(write(tmp_path, text)))
    assert len(r.datacenter.hosts) == 6
    assert r.records.by_id()[1]["procs"] == 6


def test_classes_true_gives_the_paper_limits(tmp_path):
    sc = load_scenario(write(tmp_path, BASE.replace("{classes: {S: 600, M: 10800}}", "{classes: true}")))
    assert (sc.classes.S, sc.classes.M) == (600.0, 10800.0)


@pytest.mark.parametrize("old, new, message", [
    ("factor: 0.5", "factor: 0", r"s\.yaml:8: workload\.moldable\.factor: must be a finite number > 0, got 0"),
    ("factor: 0.5", "factor: 0.5, vm_factor: -1", r"workload\.moldable\.vm_factor: must be a finite number > 0"),
    ("efficiency: E1", "efficiency: {name: curve, points: [[0.5, 0.9], [1.0, 0]]}",
     r"workload\.moldable\.efficiency\.points\.1\.efficiency: must be a finite number > 0, got 0"),
    ("efficiency: E1", "efficiency: E9", r"workload\.moldable\.efficiency: unknown efficiency model 'E9'"),
    ("efficiency: E1", "efficiency: os:getcwd",
     r"workload\.moldable\.efficiency: 'os:getcwd' names user code; register the model from a plugin"),
    ("efficiency: E1", "efficiency: {name: 'os:getcwd'}", r"workload\.moldable\.efficiency\.name: 'os:getcwd' names user code"),
    ("factor: 0.5", "factr: 0.5", r"workload\.moldable\.factr: unknown key 'factr'; known keys: efficiency, factor, vm_factor"),
    ("{classes: {S: 600, M: 10800}}", "{classes: {S: 600, M: 300}}",
     r"s\.yaml:10: metrics\.classes\.M: must be above the S limit 600"),
    ("{classes: {S: 600, M: 10800}}", "{classes: {S: -5}}", r"metrics\.classes\.S: must be a finite number > 0, got -5"),
    ("{classes: {S: 600, M: 10800}}", "{classes: {L: 5}}", r"metrics\.classes\.L: unknown key 'L'; known keys: S, M"),
])
def test_bad_moldable_and_class_options_name_the_key(tmp_path, old, new, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, BASE.replace(old, new)))


def test_a_sweep_axis_can_set_the_reshaping_factor(tmp_path):
    sc = load_scenario(write(tmp_path, BASE), ["workload.moldable.factor=0.75"])
    assert sc.system.moldable.factor == 0.75


@pytest.mark.parametrize("broker, message", [
    ("{policy: pect, params: {shares: {M: 0.4, L: 0.7}}}",
     r"s\.yaml:9: broker\.params\.shares: the shares sum to 110 %, above 100 %"),
    ("{policy: pect, params: {classes: {S: 600, M: 60}}}", r"broker\.params\.classes\.M: must be above the S limit"),
    ("{policy: prio, params: {reshape: {preset: LoadA, min: 0.7, max: 0.6}}}", r"broker\.params\.reshape\.max: must be >= min"),
    ("{policy: prio, params: {reshape: {preset: AllA, factor: -1}}}", r"broker\.params\.reshape\.factor: must be a finite number > 0"),
    ("{policy: prio, params: {agin: 5}}", r"broker\.params\.agin: unknown key 'agin'; known keys: aging, priorities"),
    ("[fcfs, {policy: pect, params: {overhead: -1}}]", r"broker\.1\.params\.overhead: must be >= 0"),
])
def test_bad_policy_parameters_name_the_key(tmp_path, broker, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, BASE.replace("broker: fcfs", f"broker: {broker}")))


def test_the_paper_policies_run_from_a_scenario(tmp_path):
    text = BASE.replace("broker: fcfs", "broker: [prio, pect, {policy: pect, params: {reshape: LoadA_noB}}]")
    runs = run_scenario(load_scenario(write(tmp_path, text)))
    assert [p for p, _ in runs] == ["prio", "pect", "pect"]
    assert all(r.summary["jobs_finished"] == 3 for _, r in runs)


@pytest.mark.parametrize("efficiency", ["E1", "{name: curve, points: [[0.5, 0.9], [1.0, 0.7]]}",
                                        "{name: downey, sigma: 0.5}"])
def test_the_rerun_record_of_a_moldable_run_gives_the_same_run(tmp_path, efficiency):
    # summary.json's rerun options hold the moldable options and the classes, so that loading
    # them alone gives the same jobs.csv
    text = BASE.replace("efficiency: E1", f"efficiency: {efficiency}")
    run_scenario(load_scenario(write(tmp_path, text)), out_dir=str(tmp_path / "a"))
    options = json.loads((tmp_path / "a" / "summary.json").read_text())["rerun"]["options"]
    assert options["metrics"]["classes"] == {"S": 600.0, "M": 10800.0}
    assert options["workload"]["moldable"]["factor"] == 0.5
    run_scenario(load_scenario(options), out_dir=str(tmp_path / "b"))
    assert (tmp_path / "a" / "jobs.csv").read_bytes() == (tmp_path / "b" / "jobs.csv").read_bytes()
