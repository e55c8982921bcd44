"""Sizes beyond what the machine can hold are refused before anything is allocated, naming the
key or header and the estimate (issue 17, hangs and memory). The limit is set small here
(``$CLOUDSIM_PY_MEMORY_LIMIT``) so that no test really needs gigabytes."""

import textwrap

import pytest

from cloudsim_py import memory
from cloudsim_py.errors import CloudSimError, ScenarioError
from cloudsim_py.infrastructure.spec import DatacenterSpec, hosts_memory
from cloudsim_py.scenario import load_scenario
from cloudsim_py.scenario.run import prepare
from tests.helpers import cli_subprocess

LINE = "1 0 5 100 4 -1 -1 4 200 -1 1 3 3 -1 1 -1 -1 -1\n"
LIMIT = "64M"          # what the tests allow: 64 MiB


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setenv(memory.ENV, LIMIT)


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_limit_is_half_the_physical_memory_by_default(monkeypatch):
    monkeypatch.delenv(memory.ENV, raising=False)
    monkeypatch.setattr(memory, "physical_memory", lambda: 16 << 30)
    assert memory.memory_limit() == (8 << 30, "half the physical memory; $CLOUDSIM_PY_MEMORY_LIMIT sets it")


def test_the_limit_is_8_gib_where_the_physical_memory_is_unknown(monkeypatch):
    monkeypatch.delenv(memory.ENV, raising=False)
    monkeypatch.setattr(memory, "physical_memory", lambda: None)
    assert memory.memory_limit()[0] == 8 << 30


@pytest.mark.parametrize("text, size", [("1000", 1000), ("64M", 64 << 20), ("2GiB", 2 << 30), ("1.5k", 1536)])
def test_the_environment_sets_the_limit(monkeypatch, text, size):
    monkeypatch.setenv(memory.ENV, text)
    assert memory.memory_limit() == (size, "$CLOUDSIM_PY_MEMORY_LIMIT")


def test_a_limit_that_is_not_a_size_is_an_error_naming_the_variable(monkeypatch):
    monkeypatch.setenv(memory.ENV, "lots")
    with pytest.raises(CloudSimError, match=r"^\$CLOUDSIM_PY_MEMORY_LIMIT: 'lots' is not a size"):
        memory.memory_limit()


def test_datacenter_hosts_beyond_the_memory_limit_are_refused_naming_the_key(tmp_path, small_limit):
    path = write(tmp_path, """\
        datacenter: {hosts: 1000000, tiers: 2}
        workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}
        broker: fcfs
        """)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert str(err.value) == (f"{path}:1: datacenter.hosts: 1,000,000 hosts of 2 tiers need about 725 MiB "
                              "of memory, more than the limit of 64 MiB ($CLOUDSIM_PY_MEMORY_LIMIT)")


def test_host_groups_beyond_the_memory_limit_are_refused_naming_groups(small_limit):
    with pytest.raises(ScenarioError, match=r"^groups: 400,000 hosts of 1 tier need about 175 MiB of memory"):
        DatacenterSpec(groups=[{"count": 200_000}, {"count": 200_000, "speed": 2.0}])


def test_hosts_within_the_limit_are_built():
    assert hosts_memory(100, 2) < 100_000 and DatacenterSpec(hosts=100, tiers=2).host_count == 100


def test_a_trace_header_maxprocs_beyond_the_limit_is_refused_before_any_host_is_built(tmp_path):
    # once a MemoryError after minutes: 10 million hosts built from the header
    (tmp_path / "t.swf").write_text("; Version: 2.2\n; MaxProcs: 10000000\n" + LINE)
    path = write(tmp_path, """\
        datacenter: {tiers: 2}
        workload: {trace: t.swf}
        broker: fcfs
        """)
    done = cli_subprocess("validate", str(path), env={memory.ENV: LIMIT}, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        f"cloudsim-py: error: {path}: datacenter.hosts: not given, and the trace header's MaxProcs "
        f"({tmp_path / 't.swf'}:2) is 10,000,000: 10,000,000 hosts of 2 tiers need about 7.08 GiB of "
        "memory, more than the limit of 64 MiB ($CLOUDSIM_PY_MEMORY_LIMIT); give datacenter.hosts\n")


def test_a_model_procs_beyond_the_limit_is_refused_when_it_sizes_the_machine(tmp_path, small_limit):
    path = write(tmp_path, """\
        workload: {model: {name: lublin03, jobs: 10, procs: 1000000}}
        broker: fcfs
        """)
    with pytest.raises(ScenarioError, match=r": workload\.model\.procs: the machine size without datacenter\.hosts: "
                                            r"1,000,000 hosts of 1 tier need about 439 MiB of memory"):
        prepare(load_scenario(path))


def test_model_jobs_beyond_the_memory_limit_are_refused_naming_the_key(tmp_path, small_limit):
    path = write(tmp_path, """\
        datacenter: {hosts: 10}
        workload: {model: {name: lublin03, jobs: 1000000000000, procs: 10}}
        broker: fcfs
        """)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert str(err.value) == (f"{path}:2: workload.model.jobs: 1,000,000,000,000 jobs need about 466 TiB of "
                              "memory, more than the limit of 64 MiB ($CLOUDSIM_PY_MEMORY_LIMIT)")


SLICED = """\
    datacenter: {hosts: 4, tiers: 2, fidelity: slice, slice_s: 1.0e-300}
    workload: {jobs: [{submit: 0, procs: 2, runtime: 100}, {submit: 5, procs: 4, runtime: 50}]}
    broker: fcfs
    """


def test_slice_s_of_1e_300_is_refused_at_once_naming_the_key(tmp_path):
    # once a run that never ended
    path = write(tmp_path, SLICED)
    done = cli_subprocess("run", str(path), "--out", str(tmp_path / "out"), timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"cloudsim-py: error: {path}:1: datacenter.slice_s: must be >= 0.001, got 1e-300\n"


def test_a_slice_s_cutting_the_run_into_more_than_max_slices_is_refused_before_it_runs(tmp_path):
    path = write(tmp_path, SLICED.replace("1.0e-300", "0.001").replace("runtime: 100}", "runtime: 100000000}"))
    done = cli_subprocess("run", str(path), "--out", str(tmp_path / "out"), timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        f"cloudsim-py: error: {path}: datacenter.slice_s: 0.001 s cuts the run (its jobs run at least "
        "100,000,000 s) into at least 100,000,000,000 slices, more than 5,000,000 (MAX_SLICES); "
        "give slice_s >= 20\n")


def test_the_slice_count_counts_all_the_work_on_every_slot(tmp_path):
    # 64 jobs of 4 processors x 10,000 s on 4 hosts of 2 tiers: at least 320,000 s of running
    jobs = ", ".join(f"{{submit: 0, procs: 4, runtime: 10000}}" for _ in range(64))
    path = write(tmp_path, SLICED.replace("1.0e-300", "0.01").replace(
        "[{submit: 0, procs: 2, runtime: 100}, {submit: 5, procs: 4, runtime: 50}]", f"[{jobs}]"))
    with pytest.raises(ScenarioError, match=r"datacenter\.slice_s: 0\.01 s cuts the run \(its jobs run at least "
                                            r"320,000 s\) into at least 32,000,000 slices"):
        prepare(load_scenario(path))


def test_eff_draw_slice_is_held_to_the_same_slice_count(tmp_path):
    # interference.eff_draw: slice schedules slice ends as fidelity: slice does (issue 18)
    jobs = ", ".join(f"{{submit: 0, procs: 4, runtime: 10000}}" for _ in range(64))
    path = write(tmp_path, SLICED.replace("fidelity: slice, slice_s: 1.0e-300",
                                          "interference: {eff_draw: slice}, slice_s: 0.01").replace(
        "[{submit: 0, procs: 2, runtime: 100}, {submit: 5, procs: 4, runtime: 50}]", f"[{jobs}]"))
    with pytest.raises(ScenarioError, match=r"datacenter\.slice_s: 0\.01 s cuts the run \(its jobs run at least "
                                            r"320,000 s\) into at least 32,000,000 slices"):
        prepare(load_scenario(path))
    # the preset's own reading (mean) schedules no slices: the same scenario is accepted
    path.write_text(path.read_text().replace("eff_draw: slice", "eff_draw: mean"))
    assert prepare(load_scenario(path)) is not None
