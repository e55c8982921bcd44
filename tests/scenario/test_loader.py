import os
import re
import textwrap

import pytest

from cloudsim_py.errors import CloudSimError, ScenarioError
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
    assert sc.name == "t" and sc.seed == 3 and sc.system.datacenter.hosts == 4
    assert sc.brokers[0].policy == "easy" and len(sc.system.workload.jobs) == 2


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
    with pytest.raises(ScenarioError, match=r"s\.yaml:8: broker\.policy: unknown policy 'eazy'; known: acfcfs, ambf, amcbf, ccfcfs, cmbf, cmcbf, conservative, easy, fcfs, fdls, fdmms, ktcbf, learned, leases"):
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
    assert sc.system.workload.trace == str(tmp_path / "data" / "w.swf")
    [(policy, result)] = run_scenario(sc)
    assert result.summary["jobs_finished"] == 1 and len(result.datacenter.hosts) == 4  # from header


def test_environment_variables_expand_with_defaults(tmp_path):
    (tmp_path / "w.swf").write_text("1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
    text = "name: t\ndatacenter: {hosts: 2}\nworkload: {trace: '${MY_TRACES:-.}/w.swf'}\n"
    path = write(tmp_path, text)
    assert load_scenario(path, env={}).system.workload.trace == str(tmp_path / "w.swf")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "w.swf").write_text("1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
    assert load_scenario(path, env={"MY_TRACES": str(sub)}).system.workload.trace == str(sub / "w.swf")


def test_an_unset_variable_without_default_is_an_error_naming_the_key(tmp_path):
    path = write(tmp_path, "name: t\nworkload: {trace: '${NOPE_NOT_SET}/w.swf'}\n")
    with pytest.raises(ScenarioError, match=r"workload\.trace: environment variable NOPE_NOT_SET is not set"):
        load_scenario(path, env={})


def test_set_overrides_apply_before_validation_with_yaml_types(tmp_path):
    sc = load_scenario(write(tmp_path, BASE), ["broker.policy=fcfs", "datacenter.hosts=8", "seed=11"])
    assert (sc.brokers[0].policy, sc.system.datacenter.hosts, sc.seed) == ("fcfs", 8, 11)


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
    ("datacenter: {hosts: 5, groups: [{count: 4}]}", r"datacenter\.hosts: 5 hosts but the groups hold 4"),
    ("datacenter: {speed: 2, groups: [{count: 4}]}", r"datacenter\.speed: give the speed per group"),
    ("datacenter: {groups: [{count: 4, speed: 0}]}", r"datacenter\.groups\.0\.speed: must be >= 1e-06, got 0"),
    # a subnormal speed made every duration infinite and the run stick, naming no key
    ("datacenter: {hosts: 4, speed: 1.0e-320}", r"datacenter\.speed: must be >= 1e-06, got 9\.99989e-321"),
    ("datacenter: {hosts: 4, speed: 1.0e-7}", r"datacenter\.speed: must be >= 1e-06, got 1e-07"),
    ("datacenter: {groups: [{count: 4, sped: 2}]}", r"datacenter\.groups\.0\.sped: unknown key 'sped'"),
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
    model = sc.system.datacenter.interference
    assert model.name == "liu2013" and model.multi_mean == 0.5 and model.multi_sd == 0.144
    bad = BASE.replace("{hosts: 4}", "{hosts: 4, tiers: 2, interference: {preset: liu2013, idle_floor: 2}}")
    with pytest.raises(ScenarioError, match=r"datacenter\.interference\.idle_floor"):
        load_scenario(write(tmp_path, bad, "b.yaml"))


def test_host_groups_run_at_their_speed(tmp_path):
    # 4 hosts of speed 2: job 1 (2 procs, 10 s of work) ends at 10 / 2 = 5; job 2 (4 procs,
    # submitted at 1, 5 s of work) waits for it and ends at 5 + 5 / 2 = 7.5
    text = BASE.replace("datacenter: {hosts: 4}",
                        "datacenter: {name: fast, groups: [{count: 4, speed: 2.0, type: big}]}")
    sc = load_scenario(write(tmp_path, text))
    assert sc.system.datacenter.name == "fast" and sc.system.datacenter.host_count == 4
    (_, result), = run_scenario(sc, out_dir=None)
    rows = result.records.by_id()
    assert rows[1]["finish"] == 5.0 and rows[2]["start"] == 5.0 and rows[2]["finish"] == 7.5


# ------------------------------------------------------------------ hostile or broken files


def test_a_yaml_merge_key_is_an_error_naming_line_and_key(tmp_path):
    text = BASE.replace("datacenter: {hosts: 4}", "common: &c {hosts: 4}\ndatacenter:\n  <<: *c")
    with pytest.raises(ScenarioError, match=r"s\.yaml:5: datacenter\.<<: YAML merge keys \(<<\) are not supported"):
        load_scenario(write(tmp_path, text))


@pytest.mark.parametrize("value, tag", [
    ("!!python/object/apply:os.getcwd []", "!!python/object/apply:os.getcwd"),
    ("!custom t", "!custom"), ("!!binary dA==", "!!binary"), ("!!set {a: null}", "!!set"),
    ("2024-01-01", "!!timestamp")])
def test_a_yaml_tag_other_than_plain_values_is_an_error_naming_line_and_key(tmp_path, value, tag):
    path = write(tmp_path, BASE.replace("name: t", f"name: {value}"))
    with pytest.raises(ScenarioError, match=rf"s\.yaml:1: name: YAML tag {re.escape(tag)}.* is not allowed"):
        load_scenario(path)


def test_invalid_utf8_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_bytes(BASE.replace("name: t", "name: caf\xe9").encode("latin-1"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:1: not valid UTF-8: byte 0xe9 at column 10, after 'name: caf'"):
        load_scenario(path)


def test_nesting_deeper_than_32_levels_is_an_error_before_anything_is_built(tmp_path):
    # 20,000 nested lists overflow the recursive YAML composer (RecursionError) if not bounded
    path = write(tmp_path, BASE + "extra: " + "[" * 20_000 + "]" * 20_000 + "\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:9: extra(\.0){31}: nested more than 32 levels deep"):
        load_scenario(path)


def test_an_alias_bomb_is_refused_before_it_is_expanded(tmp_path):
    # 7 levels of 9 aliases to the level below: 9**7 = 4,782,969 strings from 272 bytes
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdef", "bcdefg"):
        levels.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    path = write(tmp_path, "\n".join(levels) + "\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:7: g\.\d: more than 2,000,000 values once aliases are expanded"):
        load_scenario(path)


def test_aliases_that_stay_small_are_still_allowed(tmp_path):
    # one parameter mapping shared by two brokers (with their own labels) through an alias
    text = BASE.replace("broker: {policy: easy}",
                        "broker:\n  - {policy: ktcbf, params: &p {aggressive: true}, label: a}\n"
                        "  - {policy: ktcbf, params: *p, label: b}")
    text = text.replace("datacenter: {hosts: 4}", "datacenter: {hosts: 4, tiers: 2}")
    sc = load_scenario(write(tmp_path, text))
    assert [(b.policy, b.name) for b in sc.brokers] == [("ktcbf", "a"), ("ktcbf", "b")]
    assert sc.brokers[0].params == sc.brokers[1].params == {"aggressive": True}


@pytest.mark.parametrize("key, line, value", [
    ("metrics: {tau: X}", "tau", ".nan"), ("metrics: {tau: X}", "tau", ".inf"),
    ("metrics: {warmup: X}", "warmup", ".nan"),
    ("datacenter: {hosts: 4, tiers: 2, threshold: X}", "threshold", ".nan"),
    ("datacenter: {hosts: 4, migration_cost: X}", "migration_cost", ".inf"),
    ("datacenter: {hosts: 4, tiers: 2, fidelity: slice, slice_s: X}", "slice_s", ".inf"),
    ("datacenter: {hosts: 4, tiers: 2, interference: {preset: liu2015, loss_high: X}}", "loss_high", ".nan")])
def test_nan_and_infinity_are_refused_wherever_a_number_is_read(tmp_path, key, line, value):
    text = BASE.replace("datacenter: {hosts: 4}", "datacenter: {hosts: 4}" if key.startswith("metrics")
                        else key.replace("X", value))
    if key.startswith("metrics"):
        text += key.replace("X", value) + "\n"
    with pytest.raises(ScenarioError, match=rf"s\.yaml:\d+: [\w.]*{line}: must be a finite number"):
        load_scenario(write(tmp_path, text))


@pytest.mark.parametrize("field", ["submit", "runtime", "estimate"])
def test_nan_and_infinity_are_refused_in_inline_jobs(tmp_path, field):
    job = {"submit": "0", "procs": "2", "runtime": "10", "estimate": "20"}
    job[field] = ".nan" if field != "runtime" else ".inf"
    row = "{" + ", ".join(f"{k}: {v}" for k, v in job.items()) + "}"
    text = BASE.replace("- {submit: 0, procs: 2, runtime: 10}", "- " + row)
    with pytest.raises(ScenarioError, match=rf"s\.yaml:6: workload\.jobs\.0\.{field}: must be a finite number"):
        load_scenario(write(tmp_path, text))


@pytest.mark.parametrize("text, message", [
    ("datacenter: {hosts: 100000000000}", r"s\.yaml:3: datacenter\.hosts: must be <= 10,000,000"),
    ("datacenter: {hosts: 4, tiers: 1000}", r"s\.yaml:3: datacenter\.tiers: must be <= 16")])
def test_sizes_have_upper_bounds(tmp_path, text, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(write(tmp_path, BASE.replace("datacenter: {hosts: 4}", text)))


def test_an_inline_job_larger_than_any_machine_is_an_error(tmp_path):
    text = BASE.replace("{submit: 1, procs: 4, runtime: 5}", "{submit: 1, procs: 20000000, runtime: 5}")
    with pytest.raises(ScenarioError, match=r"s\.yaml:7: workload\.jobs\.1\.procs: must be <= 10,000,000"):
        load_scenario(write(tmp_path, text))


def test_a_trace_with_a_nan_field_fails_before_any_simulation(tmp_path):
    (tmp_path / "t.swf").write_text("1 0 5 100 4 -1 -1 4 200 -1 1 3 3 -1 1 -1 -1 -1\n"
                                    "2 0 5 nan 4 -1 -1 4 200 -1 1 3 3 -1 1 -1 -1 -1\n")
    path = write(tmp_path, "name: t\ndatacenter: {hosts: 4}\nworkload: {trace: t.swf}\n")
    with pytest.raises(CloudSimError, match=r"t\.swf:2: field 4 \(run\) is not a finite number"):
        run_scenario(load_scenario(path))


@pytest.mark.parametrize("policy", ["fdls", "fdmms", "leases"])
def test_a_cloud_system_policy_on_a_datacenter_workload_names_the_key(tmp_path, policy):
    path = write(tmp_path, BASE.replace("broker: {policy: easy}", f"broker: {{policy: {policy}}}"))
    with pytest.raises(ScenarioError, match=rf"broker\.policy: policy '{policy}' runs a cloud system"):
        load_scenario(path)
