"""The ``learned`` broker: a saved numpy policy run from a YAML scenario by the command line,
with the usual outputs; clear errors for a bad policy."""

import json

import numpy as np
import pytest

from cloudsim_py import simulate
from cloudsim_py.brokers.learned import LinearPolicy
from cloudsim_py.errors import PolicyFailure, ScenarioError
from cloudsim_py.scenario import load_scenario
from tests.helpers import cli_subprocess

SCENARIO = """\
name: learned-lublin
seed: 3
datacenter: {{hosts: 32}}
workload:
  model: {{name: lublin03, jobs: 300, procs: 32, load: 0.8}}
  runtime_estimate: tsafrir05
broker:
  - fcfs
  - {{policy: learned, label: learned, params: {{policy: {policy}, k: 16, backfill: true}}}}
"""


def linear(tmp_path, weights=(0.0, 0.0, -1.0, 0.0), **extra):
    path = tmp_path / "policy.npz"
    np.savez(path, weights=np.array(weights), **extra)
    return path


def test_learned_broker_from_a_yaml_scenario_with_an_npz_policy_runs_via_the_cli(tmp_path):
    policy = linear(tmp_path)                      # the shortest estimate first, with backfill
    scenario = tmp_path / "learned.yaml"
    scenario.write_text(SCENARIO.format(policy=json.dumps(str(policy))))
    out = tmp_path / "out"
    done = cli_subprocess("run", str(scenario), "--out", str(out), "--quiet", timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["runs"]) == {"fcfs", "learned"}
    run = summary["runs"]["learned"]
    assert run["jobs_finished"] == 300 and run["avg_bsld"] < summary["runs"]["fcfs"]["avg_bsld"]
    assert set(run) == set(summary["runs"]["fcfs"])                       # the same metrics
    assert (out / "learned" / "jobs.csv").read_text().startswith("id,submit,start,finish")
    assert (out / "learned" / "summary.json").is_file()


def test_a_linear_policy_saved_and_loaded_picks_the_same_actions(tmp_path):
    policy = LinearPolicy([1.0, -2.0, 0.5, 3.0], bias=0.1, stop=0.25)
    policy.save(str(tmp_path / "p.npz"))
    again = LinearPolicy.load(str(tmp_path / "p.npz"))
    rng = np.random.default_rng(0)
    for _ in range(50):
        obs = rng.random(8 * 4 + 2).astype(np.float32)
        mask = rng.random(9) < 0.5
        mask[8] = True
        assert policy(obs, mask) == again(obs, mask)


@pytest.mark.parametrize("params, message", [
    ({"policy": "/no/such/policy.npz"}, "broker.params.policy: no such file"),
    ({"policy": "nope"}, "broker.params.policy: 'nope' is neither a rule"),
    ({"policy": "oldest", "k": 0}, "broker.params.k: must be a positive integer"),
])
def test_a_bad_learned_policy_is_an_error_naming_the_key(params, message):
    with pytest.raises(ScenarioError, match=message.replace(".", r"\.")):
        load_scenario({"datacenter": {"hosts": 4}, "workload": {"jobs": [
            {"id": 1, "submit": 0, "procs": 1, "runtime": 5}]},
            "broker": {"policy": "learned", "params": params}})


def test_an_npz_policy_of_the_wrong_shape_is_an_error_naming_the_key(tmp_path):
    path = linear(tmp_path, weights=(1.0, 2.0))
    with pytest.raises(ScenarioError, match=r"broker\.params\.policy: .*expected 4 weights"):
        load_scenario({"datacenter": {"hosts": 4}, "workload": {"jobs": [
            {"id": 1, "submit": 0, "procs": 1, "runtime": 5}]},
            "broker": {"policy": "learned", "params": {"policy": str(path)}}})


@pytest.mark.parametrize("action, message", [(lambda obs, mask: 7, "out of range 0..2"),
                                             (lambda obs, mask: 2, "is masked")])
def test_an_action_out_of_range_or_masked_fails_the_run_naming_the_key(action, message):
    from cloudsim_py import Job

    jobs = [Job(1, 0.0, 1, runtime=5.0), Job(2, 0.0, 1, runtime=5.0)]
    with pytest.raises(PolicyFailure) as failure:
        simulate(jobs, hosts=2, policy="learned", params={"policy": action, "k": 2})
    assert "params.policy" in str(failure.value.__cause__) and message in str(failure.value.__cause__)


def test_learned_broker_runs_in_a_sweep_beside_fcfs_and_easy_with_the_same_columns(tmp_path):
    from cloudsim_py.experiments.backends import LocalBackend
    from cloudsim_py.experiments.runs import run_sweep
    from cloudsim_py.experiments.store import read_results
    from cloudsim_py.experiments.sweep import load_sweep

    path = tmp_path / "policy.npz"
    LinearPolicy([0.0, 0.0, -1.0, 0.0]).save(str(path))      # shortest estimate first
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(f"""
name: learned-sweep
base:
  datacenter: {{hosts: 32}}
  workload: {{model: {{name: lublin03, jobs: 300, procs: 32, load: 0.8}}, runtime_estimate: tsafrir05}}
grid:
  broker:
    - fcfs
    - easy
    - {{policy: learned, params: {{policy: oldest, backfill: true}}}}
    - {{policy: learned, params: {{policy: {path}, backfill: true, k: 32}}}}
  seed: [1, 2]
""")
    result = run_sweep(load_sweep(str(sweep)), str(tmp_path / "r.csv"), backend=LocalBackend(1))
    assert result.ran == 8 and result.failed == 0
    rows = read_results(result.path)
    by = {(r["policy"], r["seed"]): r for r in rows}        # the policy column is the label
    labels = sorted({r["policy"] for r in rows})
    assert len(labels) == 4
    learned_oldest = next(lab for lab in labels if "oldest" in lab)
    for seed in (1, 2):
        # the oldest rule with backfill is EASY, job for job: the same averages
        assert by[(learned_oldest, seed)]["avg_bsld"] == by[("easy", seed)]["avg_bsld"]
        assert all(by[(lab, seed)]["jobs_finished"] == 300 for lab in labels)
