"""Sweep files: expansion of grids, zipped axes and blocks; run ids; errors naming file, line
and key; validation of every run before anything runs."""

import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.experiments.sweep import load_sweep, run_id
from tests.experiments.conftest import JOBS, write

INLINE = {"datacenter": {"hosts": 4}, "workload": {"jobs": JOBS}}


def test_a_grid_is_the_cross_product_first_axis_slowest(small_sweep):
    specs = load_sweep(small_sweep).expand()
    # 3 policies x 3 seeds
    assert [(s.params["broker.policy"], s.params["seed"]) for s in specs] == [
        ("fcfs", 1), ("fcfs", 2), ("fcfs", 3), ("easy", 1), ("easy", 2), ("easy", 3),
        ("acfcfs", 1), ("acfcfs", 2), ("acfcfs", 3)]
    assert [s.index for s in specs] == list(range(9))
    assert specs[4].scenario["broker"] == {"policy": "easy"} and specs[4].scenario["seed"] == 2
    assert specs[4].policies == ("easy",)


def test_zipped_axes_vary_together_and_cross_the_grid():
    sweep = load_sweep({"base": INLINE, "grid": {"seed": [1, 2, 3]},
                        "zip": {"tag.variant": ["un", "full"],
                                "workload.cpu_estimate": ["unknown", "full"]}})
    specs = sweep.expand()
    # 3 seeds x 2 zipped pairs; the pairs never mix
    assert len(specs) == 6
    assert {(s.params["tag.variant"], s.params["workload.cpu_estimate"]) for s in specs} == {
        ("un", "unknown"), ("full", "full")}
    assert all("tag" not in s.scenario for s in specs)   # tags label rows, they are not applied


def test_blocks_are_a_union_each_crossed_with_the_top_level_axes():
    sweep = load_sweep({"base": INLINE, "grid": {"tag.trace": ["a", "b"]},
                        "blocks": [{"grid": {"broker": ["fcfs", "easy"], "seed": [1]}},
                                   {"grid": {"broker": ["ccfcfs"], "seed": [1, 2, 3]},
                                    "zip": {"datacenter.tiers": [2]}}]})
    # 2 traces x (2 x 1  +  1 x 3 x 1) = 10
    specs = sweep.expand()
    assert len(specs) == 10
    assert sum(s.params["broker"] == "ccfcfs" for s in specs) == 6


def test_integer_and_float_ranges():
    sweep = load_sweep({"base": INLINE, "grid": {"seed": "1..4",
                                                 "metrics.warmup": {"start": 0.0, "stop": 0.3, "step": 0.1}}})
    points = sweep.points()
    assert sorted({p["seed"] for p in points}) == [1, 2, 3, 4]
    assert sorted({p["metrics.warmup"] for p in points}) == [0.0, 0.1, 0.2, 0.3]


def test_run_id_is_the_same_for_the_same_parameters_in_any_key_order():
    a = {"seed": 1, "broker": {"policy": "easy"}, "datacenter": {"hosts": 4, "tiers": 1}}
    b = {"datacenter": {"tiers": 1, "hosts": 4}, "broker": {"policy": "easy"}, "seed": 1}
    assert run_id(a) == run_id(b)
    assert len(run_id(a)) == 12 and int(run_id(a), 16) >= 0
    assert run_id(a) != run_id({**a, "seed": 2})
    assert run_id(a, {"tag.v": "x"}) != run_id(a, {"tag.v": "y"})
    assert run_id(a) == run_id({**a, "output": {"dir": "elsewhere"}})   # output changes no result


def test_run_ids_survive_reloading_and_extending_the_sweep(tmp_path, small_sweep):
    first = [s.run_id for s in load_sweep(small_sweep).expand()]
    assert first == [s.run_id for s in load_sweep(small_sweep).expand()]
    longer = write(tmp_path, "longer.yaml", small_sweep.read_text().replace("seed: 1..3", "seed: 1..4"))
    extended = [s.run_id for s in load_sweep(longer).expand()]
    # the 9 old runs keep their ids (a resumed sweep only runs the 3 new seeds)
    assert set(first) < set(extended) and len(extended) == 12


def test_equal_runs_are_merged():
    sweep = load_sweep({"base": {**INLINE, "seed": 1}, "grid": {"seed": [1, 1, 2]}})
    assert len(sweep.points()) == 3 and len(sweep.expand()) == 2


def test_unknown_sweep_key_names_file_line_and_key(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        base: {workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}, datacenter: {hosts: 1}}
        gird: {seed: [1, 2]}
        """)
    with pytest.raises(ScenarioError, match=r"bad\.yaml:2: gird: unknown key 'gird'; known keys: name"):
        load_sweep(path)


def test_an_axis_that_is_not_a_scenario_key_is_reported_at_its_line(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        base: {workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}, datacenter: {hosts: 1}}
        grid:
          seed: [1, 2]
          datacenter.hots: [4, 8]
        """)
    with pytest.raises(ScenarioError, match=r"bad\.yaml:4: datacenter\.hots: unknown key 'hots'"):
        load_sweep(path).expand()


def test_a_bad_axis_value_is_reported_before_anything_runs(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        base: {workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}, datacenter: {hosts: 1}}
        grid:
          broker.policy: [fcfs, eazy]
        """)
    with pytest.raises(ScenarioError, match=r"bad\.yaml:3: broker\.policy: .*eazy.*\(run broker\.policy=eazy\)"):
        load_sweep(path).expand()


def test_an_error_in_the_base_file_names_the_base_file_and_line(tmp_path):
    write(tmp_path, "base.yaml", """\
        workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}
        datacenter:
          hosts: 1
          tiers: 0
        """)
    path = write(tmp_path, "s.yaml", "base: base.yaml\ngrid: {seed: [1]}\n")
    with pytest.raises(ScenarioError, match=r"base\.yaml:4: datacenter\.tiers: must be >= 1"):
        load_sweep(path).expand()


def test_zipped_axes_of_different_lengths_are_an_error(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        base: {workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}, datacenter: {hosts: 1}}
        zip:
          seed: [1, 2, 3]
          tag.x: [a, b]
        """)
    with pytest.raises(ScenarioError, match=r"bad\.yaml:3: zip: zipped axes need equal lengths \(seed: 3, tag\.x: 2\)"):
        load_sweep(path)


def test_overlapping_axes_are_an_error():
    with pytest.raises(ScenarioError, match="broker.policy: overlaps the axis 'broker'"):
        load_sweep({"base": INLINE, "grid": {"broker": ["fcfs"], "broker.policy": ["easy"]}})


def test_relative_traces_resolve_against_the_file_that_names_them(tmp_path):
    swf = "; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    (tmp_path / "scen").mkdir()
    (tmp_path / "scen" / "a.swf").write_text(swf)
    (tmp_path / "b.swf").write_text(swf)
    write(tmp_path, "scen/base.yaml", "workload: {trace: a.swf}\n")
    path = write(tmp_path, "s.yaml", """\
        base: scen/base.yaml
        grid:
          workload.trace: [b.swf]
        """)
    base_only = write(tmp_path, "s2.yaml", "base: scen/base.yaml\ngrid: {seed: [1]}\n")
    # the base's trace is relative to scen/, an axis's trace to the sweep file's folder
    assert load_sweep(base_only).expand()[0].scenario["workload"]["trace"] == str(tmp_path / "scen" / "a.swf")
    assert load_sweep(path).expand()[0].scenario["workload"]["trace"] == str(tmp_path / "b.swf")


def test_the_base_output_dir_is_never_used_by_runs():
    sweep = load_sweep({"base": {**INLINE, "output": {"dir": "results/x", "swf": True}},
                        "grid": {"seed": [1]}})
    assert sweep.expand()[0].scenario["output"] == {"swf": True}


def test_an_axis_of_base_files_runs_each_scenario_file(tmp_path):
    write(tmp_path, "a.yaml", "name: a\ndatacenter: {hosts: 4}\nworkload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}\n")
    write(tmp_path, "b.yaml", "name: b\ndatacenter: {hosts: 8}\nworkload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}\n")
    path = write(tmp_path, "s.yaml", """\
        grid:
          base: [a.yaml, b.yaml]
          seed: [1, 2]
        """)
    specs = load_sweep(path).expand()
    assert [(s.params["base"], s.scenario["name"], s.scenario["datacenter"]["hosts"]) for s in specs] == [
        ("a.yaml", "a", 4), ("a.yaml", "a", 4), ("b.yaml", "b", 8), ("b.yaml", "b", 8)]
    assert "base" not in specs[0].scenario


def test_a_missing_base_file_of_the_axis_is_reported_at_its_line(tmp_path):
    path = write(tmp_path, "s.yaml", "grid:\n  seed: [1]\n  base: [nowhere.yaml]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:3: base: no such scenario file: .*nowhere\.yaml"):
        load_sweep(path)


def test_a_sweep_without_any_base_is_an_error(tmp_path):
    path = write(tmp_path, "s.yaml", "grid: {seed: [1]}\n")
    with pytest.raises(ScenarioError, match="a sweep needs a base scenario"):
        load_sweep(path)


def test_every_input_file_of_a_run_is_made_absolute_against_its_folder(tmp_path, monkeypatch):
    """A base scenario's lease and workflow files (with ``${VAR:-default}`` defaults) are found
    from the folder given (the base's; the sweep's for axis values), wherever the sweep is run
    from: only ``workload.trace`` was, so SDSC-Blue's lease sweep looked for ../../shared from
    the working folder."""
    from cloudsim_py.experiments.sweep import _resolve_trace

    monkeypatch.delenv("NO_SUCH_LEASES_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    folder = str(tmp_path / "scen")
    run = {"leases": {"swf": "${NO_SUCH_LEASES_DIR:-../data}/t.swf", "injected": "/abs/a.lwf"},
           "dags": {"workflows": ["w.json", {"path": "../wf/x.json", "copies": 2}]},
           "workload": {"trace": "k.swf"}}
    _resolve_trace(run, folder, "s.yaml: workload.trace")
    assert run["leases"] == {"swf": str(tmp_path / "data" / "t.swf"), "injected": "/abs/a.lwf"}
    assert run["dags"]["workflows"] == [str(tmp_path / "scen" / "w.json"),
                                         {"path": str(tmp_path / "wf" / "x.json"), "copies": 2}]
    assert run["workload"]["trace"] == str(tmp_path / "scen" / "k.swf")
