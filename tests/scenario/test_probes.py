"""Probes (docs/metrics.md): a measure written in a plugin file, named in a scenario's
``metrics.probes``, lands in ``summary.json`` and in a sweep's results table; the built-in
per-class metrics go through the same protocol; bad names and bad probes fail naming the key."""

import json
import textwrap

import pytest

from cloudsim_py.errors import PolicyError, ScenarioError
from cloudsim_py.experiments.backends import LocalBackend
from cloudsim_py.experiments.runs import run_sweep
from cloudsim_py.experiments.store import read_results
from cloudsim_py.experiments.sweep import load_sweep
from cloudsim_py.probes import ProbeSpec, probe_registry, probe_summary
from cloudsim_py.scenario import load_scenario, run_scenario

#: the longest queue: +1 on submit, -1 on start (no preemption in these runs); writes queue.csv
PLUGIN = '''
import os
from cloudsim_py.probes import ProbeBase


class MaxQueue(ProbeBase):
    def __init__(self, prefix="queue"):
        self.prefix = prefix
        self.length = 0
        self.most = 0
        self.steps = []

    def on_submit(self, job):
        self.length += 1
        self.most = max(self.most, self.length)
        self.steps.append((job.submit_time, self.length))

    def on_start(self, job):
        self.length -= 1

    def columns(self):
        return [self.prefix + "_max"]

    def summary(self):
        return {self.prefix + "_max": self.most}

    def write_files(self, folder):
        with open(os.path.join(folder, "queue.csv"), "w") as fh:
            fh.write("time,length\\n" + "".join(f"{t:g},{n}\\n" for t, n in self.steps))
        return ["queue.csv"]
'''

#: five jobs on four processors (tests/experiments/conftest.py): job 1 holds all four until
#: t=100, so jobs 2-5 all wait and the queue reaches 4 whatever the policy. On eight: FCFS
#: starts job 2 at t=10, queues job 3 (4 procs, 2 idle), then jobs 4 and 5 behind it: 3;
#: EASY backfills job 4 (1 proc, estimate 40: ends by t=70, when job 3 could start at the
#: earliest) so only jobs 3 and 5 wait: 2.
JOBS = """\
  - {submit: 0, procs: 4, runtime: 100, estimate: 100}
  - {submit: 10, procs: 2, runtime: 50, estimate: 60}
  - {submit: 20, procs: 4, runtime: 100, estimate: 100}
  - {submit: 30, procs: 1, runtime: 30, estimate: 40}
  - {submit: 40, procs: 2, runtime: 20, estimate: 30}
"""


@pytest.fixture
def plugin(tmp_path):
    (tmp_path / "queueprobe.py").write_text(PLUGIN)
    yield tmp_path
    import sys
    sys.modules.pop("queueprobe", None)


def scenario(folder, metrics: str, hosts: int = 8, policy: str = "easy", plugins: str = ""):
    path = folder / "s.yaml"
    path.write_text(f"name: s\n{plugins}datacenter: {{hosts: {hosts}}}\nbroker: {policy}\n"
                    f"metrics: {metrics}\nworkload:\n  jobs:\n" + textwrap.indent(JOBS, "  "))
    return str(path)


def test_a_probe_in_a_plugin_file_lands_in_summary_json_with_its_file(plugin):
    out = plugin / "out"
    runs = run_scenario(load_scenario(scenario(plugin, "{probes: ['./queueprobe.py:MaxQueue']}")), str(out))
    assert runs[0][1].summary["queue_max"] == 2
    doc = json.loads((out / "summary.json").read_text())
    assert doc["summary"]["queue_max"] == 2
    assert "queue.csv" in doc["files"]
    # submits at 0, 10, 20, 30, 40: job 1 and 2 start at once, job 4 is backfilled at t=30
    assert (out / "queue.csv").read_text() == "time,length\n0,1\n10,1\n20,1\n30,2\n40,2\n"
    assert doc["rerun"]["options"]["metrics"]["probes"] == [{"name": "./queueprobe.py:MaxQueue", "params": {}}]


def test_a_probe_takes_parameters_from_the_scenario(plugin):
    path = scenario(plugin, "{probes: [{name: './queueprobe.py:MaxQueue', params: {prefix: waiting}}]}",
                    hosts=4)
    summary = run_scenario(load_scenario(path))[0][1].summary
    assert summary["waiting_max"] == 4 and "queue_max" not in summary


def test_a_probe_in_a_plugin_file_shows_up_in_a_2x2_sweeps_results_table(plugin, tmp_path):
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("name: q\nbase:\n  metrics: {probes: ['./queueprobe.py:MaxQueue']}\n"
                     "  workload:\n    jobs:\n" + textwrap.indent(JOBS, "    ") +
                     "grid:\n  broker.policy: [fcfs, easy]\n  datacenter.hosts: [4, 8]\n")
    result = run_sweep(load_sweep(str(sweep)), str(tmp_path / "r.csv"), backend=LocalBackend(1))
    assert result.ran == 4 and result.failed == 0
    rows = read_results(result.path)
    assert {(r["policy"], r["datacenter.hosts"]): r["queue_max"] for r in rows} == {
        ("fcfs", 4): 4, ("easy", 4): 4, ("fcfs", 8): 3, ("easy", 8): 2}


def test_a_registered_probe_is_named_by_its_name(tmp_path):
    @probe_registry.register("finished_ids")
    class Finished:
        def __init__(self):
            self.ids = []

        def on_finish(self, job):
            self.ids.append(job.id)

        def columns(self):
            return ("last_finished",)

        def summary(self):
            return {"last_finished": self.ids[-1]}

    try:
        summary = run_scenario(load_scenario(scenario(tmp_path, "{probes: [finished_ids]}", hosts=4,
                                                      policy="fcfs")))[0][1].summary
    finally:
        probe_registry.unregister("finished_ids")
    # FCFS on four processors runs the jobs in arrival order: job 5 (id 4) ends last
    assert summary["last_finished"] == 4


@pytest.mark.parametrize("metrics, where, said", [
    ("{probes: [nosuch]}", "metrics.probes.0.name", "unknown probe 'nosuch'"),
    ("{probes: ['os:path']}", "metrics.probes.0.name", "list its module under plugins"),
    ("{probes: ['./missing.py:X']}", "metrics.probes.0.name", "cannot import './missing.py'"),
    ("{probes: ['./queueprobe.py:Nope']}", "metrics.probes.0.name", "has no attribute 'Nope'"),
    ("{probes: [{name: './queueprobe.py:MaxQueue', params: {size: 3}}]}", "metrics.probes.0.params",
     "unexpected keyword argument 'size'"),
    ("{probes: [{name: './queueprobe.py:MaxQueue', params: {prefix: x}}, "
     "{name: './queueprobe.py:MaxQueue', params: {prefix: x}}]}", "metrics.probes.1", "'x_max' is already"),
    ("{probes: ['./queueprobe.py:os']}", "metrics.probes.0.name", "expected a class"),
    ("{probes: './queueprobe.py:MaxQueue'}", "metrics.probes", "expected a list of probes"),
])
def test_bad_probes_fail_when_the_scenario_is_loaded_naming_the_key(plugin, metrics, where, said):
    with pytest.raises(ScenarioError) as err:
        load_scenario(scenario(plugin, metrics))
    assert f": {where}: " in str(err.value) and said in str(err.value)


def test_a_probe_key_clashing_with_a_built_in_key_is_refused(tmp_path):
    @probe_registry.register("kills_again")
    class Kills(Liar):
        def columns(self):
            return ["kills"]

    try:
        with pytest.raises(ScenarioError, match=r"metrics.probes.0: probe 'kills_again': summary key 'kills' is "
                                                r"already given by a built-in measure"):
            load_scenario(scenario(tmp_path, "{probes: [kills_again]}"))
    finally:
        probe_registry.unregister("kills_again")


def test_an_object_without_columns_and_summary_is_not_a_probe(plugin):
    (plugin / "notprobe.py").write_text("class Listener:\n    def on_finish(self, job): pass\n")
    try:
        with pytest.raises(ScenarioError, match=r"metrics.probes.0: probe .* has no columns and no summary"):
            load_scenario(scenario(plugin, "{probes: ['./notprobe.py:Listener']}"))
    finally:
        import sys
        sys.modules.pop("notprobe", None)


class Liar:
    def columns(self):
        return ["a"]

    def summary(self):
        return {"b": 1}


def test_a_summary_with_other_keys_than_its_columns_is_an_error_naming_them():
    with pytest.raises(PolicyError, match="probe 'liar': .*missing a; not in its columns\\(\\): b"):
        probe_summary(Liar(), "liar", {})


def test_probe_values_are_plain_python_and_must_be_table_cells():
    import numpy as np

    class P(Liar):
        def summary(self):
            return {"a": np.int64(3)}

    out: dict = {}
    probe_summary(P(), "p", out)
    assert out == {"a": 3} and type(out["a"]) is int

    class Q(Liar):
        def summary(self):
            return {"a": [1, 2]}

    with pytest.raises(PolicyError, match="'a': expected a number, a string or None, got list"):
        probe_summary(Q(), "q", {})


def test_a_probe_spec_makes_a_fresh_probe_each_time():
    spec = ProbeSpec("liar", Liar)
    assert spec.make() is not spec.make()


def test_per_class_metrics_are_a_probe_and_keep_their_keys_and_values(tmp_path):
    from cloudsim_py.class_metrics import ClassMetrics, class_columns, class_summary, job_columns

    runs = run_scenario(load_scenario(scenario(tmp_path, "{classes: {S: 50, M: 90}}", hosts=4, policy="fcfs")))
    result = runs[0][1]
    assert [name for name, _ in result.probes] == ["classes"]
    probe = result.probes[0][1]
    assert isinstance(probe, ClassMetrics) and tuple(probe.columns()) == class_columns(probe.spec)
    # the jobs are rigid: their original runtime is their runtime
    cols = dict(result.records.columns)
    expected = class_summary({**cols, "original_runtime": cols["runtime"]}, probe.spec)
    for key in class_columns(probe.spec):
        assert result.summary[key] == pytest.approx(expected[key], nan_ok=True)
    # runtimes 100, 50, 100, 30, 20: S (<= 50) holds three jobs, M (<= 90) none, L two
    assert (result.summary["count_S"], result.summary["count_M"], result.summary["count_L"]) == (3, 0, 2)
    assert job_columns([]).keys() >= {"original_runtime"}


@pytest.mark.parametrize("system", ["leases", "dags"])
def test_cloud_measures_are_probes_and_a_users_probe_hears_every_cloud(plugin, system):
    from cloudsim_py.systems.clouds import DagMeasures, LeaseMeasures
    from tests.scenario.test_cloud_scenarios import CHAIN, LEASES

    text, measures = (LEASES, LeaseMeasures) if system == "leases" else (CHAIN, DagMeasures)
    path = plugin / "c.yaml"
    path.write_text(text + "metrics: {probes: ['./queueprobe.py:MaxQueue']}\n")
    for _, result in run_scenario(load_scenario(str(path))):
        keys = list(result.summary)
        first = keys.index(measures.COLUMNS[0])
        # the system's keys, in their order, then the user's probe
        assert keys[first:first + len(measures.COLUMNS)] == list(measures.COLUMNS)
        assert keys[-1] == "queue_max"
        # lease 1 starts at once, before lease 2 arrives; the chain's tasks arrive one at a time,
        # each when the one before it is done, on clouds with idle VMs: never two waiting
        assert result.summary["queue_max"] == 1


def test_a_probe_base_subclass_without_columns_and_summary_cannot_be_made():
    from cloudsim_py.probes import ProbeBase

    class Half(ProbeBase):
        def columns(self):
            return ["x"]

    with pytest.raises(TypeError, match="summary"):
        Half()


@pytest.mark.parametrize("policies, values", [("easy", ["2"]), ("[fcfs, easy]", ["3", "2"])])
def test_runs_printed_table_shows_the_probes_keys_after_the_built_in_ones(plugin, capsys, policies, values):
    from cloudsim_py.cli import main

    path = scenario(plugin, "{probes: ['./queueprobe.py:MaxQueue']}", policy=policies)
    assert main(["run", path, "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    probe = next(i for i, line in enumerate(lines) if line.startswith("queue_max"))
    # after the built-in measures; FCFS on eight processors reaches 3, EASY 2 (see JOBS)
    assert any("wall" in line for line in lines[:probe])
    assert lines[probe].split()[1:] == values
