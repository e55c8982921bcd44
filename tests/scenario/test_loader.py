import os
import textwrap

import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

BASE = """\
name: t
seed: 3
datacenter: {hosts: 4}
workload:
  jobs:
    - {submit: 0, procs: 2, runtime: 10}
    - {submit: 1, procs: 4, runtime: 5}
broker: {policy: easy}
"""


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_valid_scenario_loads_into_the_schema(tmp_path):
    sc = load_scenario(write(tmp_path, BASE))
    assert sc.name == "t" and sc.seed == 3 and sc.datacenter.hosts == 4
    assert sc.brokers[0].policy == "easy" and len(sc.workload.jobs) == 2


def test_unknown_key_names_file_line_and_path(tmp_path):
    path = write(tmp_path, BASE.replace("datacenter: {hosts: 4}", "datacenter: {hosts: 4, hots: 2}"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:3: datacenter\.hots: unknown key 'hots'; known keys: hosts"):
        load_scenario(path)


def test_wrong_type_names_the_key(tmp_path):
    path = write(tmp_path, BASE.replace("seed: 3", "seed: three"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:2: seed: expected an integer, got str 'three'"):
        load_scenario(path)


def test_unknown_policy_lists_the_known_ones(tmp_path):
    path = write(tmp_path, BASE.replace("policy: easy", "policy: eazy"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:8: broker\.policy: unknown policy 'eazy'; known: acfcfs, ambf, amcbf, ccfcfs, cmbf, cmcbf, conservative, easy, fcfs, fdls, fdmms, ktcbf, leases"):
        load_scenario(path)


def test_unknown_policy_parameter_names_the_key(tmp_path):
    path = write(tmp_path, BASE.replace("{policy: easy}", "{policy: easy, params: {depth: 2}}"))
    with pytest.raises(ScenarioError, match=r"broker\.params\.depth: unknown parameter of policy 'easy'"):
        load_scenario(path)


def test_missing_trace_file_is_reported_with_its_resolved_path(tmp_path):
    text = "name: t\nworkload: {trace: traces/none.swf}\n"
    with pytest.raises(ScenarioError, match=r"s\.yaml:2: workload\.trace: no such file: .*traces/none\.swf"):
        load_scenario(write(tmp_path, text))


def test_relative_trace_paths_resolve_against_the_scenario_file(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "w.swf").write_text("; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
    (tmp_path / "sc").mkdir()
    path = write(tmp_path / "sc", "name: t\nworkload: {trace: ../data/w.swf}\n")
    monkeypatch.chdir("/")
    sc = load_scenario(path)
    assert sc.workload.trace == str(tmp_path / "data" / "w.swf")
    [(policy, result)] = run_scenario(sc)
    assert result.summary["jobs_finished"] == 1 and len(result.datacenter.hosts) == 4  # from header


def test_environment_variables_expand_with_defaults(tmp_path):
    (tmp_path / "w.swf").write_text("1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
    text = "name: t\ndatacenter: {hosts: 2}\nworkload: {trace: '${MY_TRACES:-.}/w.swf'}\n"
    path = write(tmp_path, text)
    assert load_scenario(path, env={}).workload.trace == str(tmp_path / "w.swf")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "w.swf").write_text("1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
    assert load_scenario(path, env={"MY_TRACES": str(sub)}).workload.trace == str(sub / "w.swf")


def test_an_unset_variable_without_default_is_an_error_naming_the_key(tmp_path):
    path = write(tmp_path, "name: t\nworkload: {trace: '${NOPE_NOT_SET}/w.swf'}\n")
    with pytest.raises(ScenarioError, match=r"workload\.trace: environment variable NOPE_NOT_SET is not set"):
        load_scenario(path, env={})


def test_set_overrides_apply_before_validation_with_yaml_types(tmp_path):
    sc = load_scenario(write(tmp_path, BASE), ["broker.policy=fcfs", "datacenter.hosts=8", "seed=11"])
    assert (sc.brokers[0].policy, sc.datacenter.hosts, sc.seed) == ("fcfs", 8, 11)


def test_a_bad_override_is_reported_against_the_command_line(tmp_path):
    with pytest.raises(ScenarioError, match=r"s\.yaml:0: datacenter\.hosts: must be >= 1, got 0"):
        load_scenario(write(tmp_path, BASE), ["datacenter.hosts=0"])


def test_invalid_yaml_names_the_line(tmp_path):
    with pytest.raises(ScenarioError, match=r"s\.yaml:3: invalid YAML"):
        load_scenario(write(tmp_path, "name: t\nseed: 1\n  bad: [\n"))


def test_a_list_of_brokers_runs_each_on_the_same_workload(tmp_path):
    path = write(tmp_path, BASE.replace("broker: {policy: easy}", "broker: [fcfs, easy]"))
    runs = run_scenario(load_scenario(path), out_dir=str(tmp_path / "out"))
    assert [p for p, _ in runs] == ["fcfs", "easy"]
    assert (tmp_path / "out" / "fcfs" / "jobs.csv").is_file()
    assert (tmp_path / "out" / "summary.json").is_file()


@pytest.mark.parametrize("snippet,message", [
    ("datacenter: {hosts: 4, tiers: 0}", r"datacenter\.tiers: must be >= 1, got 0"),
    ("datacenter: {hosts: 4, threshold: 1.5}", r"datacenter\.threshold: must be <= 1, got 1\.5"),
    ("datacenter: {hosts: 4, interference: liu2099}", r"datacenter\.interference: unknown interference preset 'liu2099'"),
    ("datacenter: {hosts: 4, fidelity: exact}", r"datacenter\.fidelity: unknown value 'exact'"),
])
def test_bad_datacenter_values_name_the_key(tmp_path, snippet, message):
    path = write(tmp_path, BASE.replace("datacenter: {hosts: 4}", snippet))
    with pytest.raises(ScenarioError, match=message):
        load_scenario(path)


def test_bad_cpu_usage_names_the_key(tmp_path):
    text = BASE.replace("workload:\n", "workload:\n  cpu_usage: {model: paper, low: 1.3}\n")
    with pytest.raises(ScenarioError, match=r"workload\.cpu_usage\.low: must be <= 1, got 1\.3"):
        load_scenario(write(tmp_path, text))


def test_impossible_job_size_in_inline_jobs_names_the_job(tmp_path):
    text = BASE.replace("{submit: 1, procs: 4, runtime: 5}", "{submit: 1, procs: 0, runtime: 5}")
    with pytest.raises(ScenarioError, match=r"workload\.jobs\.1\.procs: must be >= 1, got 0"):
        load_scenario(write(tmp_path, text))


def test_a_policy_needing_two_tiers_fails_at_load_time_on_one(tmp_path):
    path = write(tmp_path, BASE.replace("{policy: easy}", "{policy: acfcfs}"))
    with pytest.raises(ScenarioError, match=r"broker\.policy: policy 'acfcfs' needs at least 2 tiers; datacenter\.tiers is 1"):
        load_scenario(path)


def test_a_two_tier_policy_refuses_four_tiers(tmp_path):
    path = write(tmp_path, BASE.replace("{policy: easy}", "{policy: cmcbf}").replace("{hosts: 4}", "{hosts: 4, tiers: 4}"))
    with pytest.raises(ScenarioError, match=r"uses at most 2 tiers; datacenter\.tiers is 4"):
        load_scenario(path)


def test_interference_numbers_can_be_overridden_and_checked(tmp_path):
    ok = BASE.replace("{hosts: 4}", "{hosts: 4, tiers: 2, interference: {preset: liu2013, multi_mean: 0.5}}")
    sc = load_scenario(write(tmp_path, ok))
    model = sc.datacenter.interference
    assert model.name == "liu2013" and model.multi_mean == 0.5 and model.multi_sd == 0.144
    bad = BASE.replace("{hosts: 4}", "{hosts: 4, tiers: 2, interference: {preset: liu2013, idle_floor: 2}}")
    with pytest.raises(ScenarioError, match=r"datacenter\.interference\.idle_floor"):
        load_scenario(write(tmp_path, bad, "b.yaml"))
