"""Every kind of system gets the same guarantees (issue 16, item 4): a datacenter, a cloud running
leases and a cloud system running DAG jobs go through the one runner, and each check below runs
on all three.

- every job, lease or task of the input has exactly one ``jobs.csv`` row with its state and, when
  it did not finish, a reason (refused reservations, leases the loader skipped, tasks of refused
  DAG jobs included);
- ``jobs.csv`` is streamed while the run goes (its rows are on disk before the run ends);
- a run that ends with work neither finished nor rejected is an error naming it, and leaves its
  ``jobs.csv`` (with that work as unfinished) but no ``summary.json``;
- ``summary.json`` comes last, is strict JSON and holds the rerun record, whose options load
  again and give the same run.
"""

from __future__ import annotations

import csv
import json
import math
import os

import pytest

from cloudsim_py.brokers.dags import FdlsScheduler
from cloudsim_py.brokers.fcfs import FcfsBroker
from cloudsim_py.brokers.leases import LeaseScheduler
from cloudsim_py.errors import StuckJobsError
from cloudsim_py.scenario import load_scenario, run_scenario
from cloudsim_py.workload.lease import LeaseMode

DATACENTER = {
    "name": "dc", "datacenter": {"hosts": 2},
    # job 4 asks 3 processors of 2: rejected on arrival; the others run
    "workload": {"jobs": [{"id": 1, "submit": 0, "procs": 1, "runtime": 10},
                          {"id": 2, "submit": 1, "procs": 2, "runtime": 5},
                          {"id": 3, "submit": 2, "procs": 1, "runtime": 7},
                          {"id": 4, "submit": 3, "procs": 3, "runtime": 1}]},
    "broker": "fcfs",
}
CLOUD = {"vm_types": {"v": {"cpus": 1, "memory_mb": 1024, "disk_mb": 0, "bandwidth_mbps": 100}},
         "clouds": [{"name": "c0", "vm_type": "v", "vms": 2, "copy_mbps": 32}]}
LEASES = {
    "name": "leases", "federation": CLOUD,
    # lease 3 is an AR on both VMs while lease 1, not preemptible, holds one: refused
    "leases": {"requests": [
        {"id": 1, "submit": 0, "mode": "best-effort", "duration": 100, "nodes": 1, "preemptible": False},
        {"id": 2, "submit": 5, "mode": "best-effort", "duration": 50, "nodes": 1},
        {"id": 3, "submit": 10, "mode": "ar", "start": 20, "duration": 30, "nodes": 2}]},
    "broker": "leases",
}
DAGS = {
    "name": "dags",
    "federation": {**CLOUD, "clouds": [{"name": "c0", "vm_type": "v", "vms": 2},
                                       {"name": "c1", "vm_type": "v", "vms": 1}], "latency": 0.5},
    "dags": {"jobs": [{"id": "chain", "cloud": 0, "tasks": {"a": {"runtime": 10}, "b": {"runtime": 5}},
                       "edges": [["a", "b"]]},
                      {"id": "fork", "submit": 2, "cloud": 1,
                       "tasks": {"r": {"runtime": 3}, "s": {"runtime": 4}, "t": {"runtime": 4}},
                       "edges": [["r", "s"], ["r", "t"]]}]},
    "broker": "fdls",
}
#: each system, and what its jobs.csv must hold: (key of a row) -> state
EXPECTED = {
    "dc": {"1": "finished", "2": "finished", "3": "finished", "4": "rejected"},
    "leases": {"1": "finished", "2": "finished", "3": "rejected"},
    "dags": {("chain", "a"): "finished", ("chain", "b"): "finished", ("fork", "r"): "finished",
             ("fork", "s"): "finished", ("fork", "t"): "finished"},
}
SYSTEMS = {"dc": DATACENTER, "leases": LEASES, "dags": DAGS}


def rows(folder):
    with open(os.path.join(folder, "jobs.csv"), newline="") as fh:
        return list(csv.DictReader(fh))


def key(name, row):
    return (row["dag"], row["task"]) if name == "dags" else row["id"]


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_job_lease_and_task_has_one_row_with_its_state_and_reason(tmp_path, name):
    run_scenario(load_scenario(SYSTEMS[name]), str(tmp_path))
    got = rows(tmp_path)
    assert {key(name, r): r["state"] for r in got} == EXPECTED[name]
    assert len(got) == len(EXPECTED[name])
    for r in got:
        assert (r["state"] == "finished") == (r["reason"] == ""), r


def test_a_refused_reservation_has_its_reason_in_jobs_csv(tmp_path):
    run_scenario(load_scenario(LEASES), str(tmp_path))
    (ar,) = [r for r in rows(tmp_path) if r["id"] == "3"]
    assert ar["mode"] == "ar" and ar["requested_start"] == "20.0" and ar["cloud"] == "c0"
    assert ar["reason"].startswith("advance reservation refused: needs 2 VMs over [20, 50)")


def test_a_refused_dag_job_gives_each_of_its_tasks_a_row_with_the_reason(tmp_path):
    # A scenario refuses such a job when it is loaded; from Python it is refused when it
    # arrives: job "wide" has a task of 3 CPUs, more than any cloud has
    from cloudsim_py.clouds.cloud import CloudSpec
    from cloudsim_py.clouds.vmtypes import VMType
    from cloudsim_py.outputs import JobsCsv
    from cloudsim_py.runner import run_system
    from cloudsim_py.systems.clouds import TEXT, build_dag_system
    from cloudsim_py.workload.dag import build_dag_job

    wide = build_dag_job("wide", {"x": {"runtime": 1.0, "cpus": 3}, "y": {"runtime": 1.0}}, [("x", "y")], cloud=0)
    system = build_dag_system([wide], [CloudSpec("c0", VMType("v", 1, 1024, 0, 100), 2)], policy="fdmms")
    result = run_system(system)
    writer = JobsCsv(str(tmp_path / "jobs.csv"), text=TEXT)
    writer.close(result.world.log, list(system.rows()))
    refused = rows(tmp_path)
    assert [(r["dag"], r["task"], r["state"]) for r in refused] == [("wide", "x", "rejected"), ("wide", "y", "rejected")]
    assert {r["reason"] for r in refused} == {"task 'x' needs 3 CPUs, more than any cloud has"}


def test_dag_jobs_csv_has_a_row_per_dag_job_finished_rejected_or_unfinished(tmp_path):
    # On one cloud of two 1-CPU VMs, run until t = 50: "quick" (one 5 s task) finishes at 5;
    # "wide" (a 3-CPU task) is refused when it arrives at 1; "long" (a 10 s task, then a 100 s
    # one, submitted at 2) has its first task done at 12 and its second running at 50.
    from cloudsim_py.clouds.cloud import CloudSpec
    from cloudsim_py.clouds.vmtypes import VMType
    from cloudsim_py.runner import run_system
    from cloudsim_py.systems.clouds import build_dag_system
    from cloudsim_py.workload.dag import build_dag_job

    jobs = [build_dag_job("quick", {"q": {"runtime": 5.0}}, [], cloud=0),
            build_dag_job("wide", {"x": {"runtime": 1.0, "cpus": 3}}, [], cloud=0, submit_time=1.0),
            build_dag_job("long", {"a": {"runtime": 10.0}, "b": {"runtime": 100.0}}, [("a", "b")], cloud=0,
                          submit_time=2.0)]
    system = build_dag_system(jobs, [CloudSpec("c0", VMType("v", 1, 1024, 0, 100), 2)], policy="fdls")
    run_system(system, until=50.0)
    system.write_files(str(tmp_path))
    assert (tmp_path / "dag_jobs.csv").read_text().splitlines() == [
        "job,owner,submit,start,finish,tasks,ar,state,reason",
        "quick,0,0.0,0.0,5.0,1,False,finished,",
        "wide,0,1.0,1.0,,1,False,rejected,\"task 'x' needs 3 CPUs, more than any cloud has\"",
        "long,0,2.0,2.0,,2,False,unfinished,1 of 2 tasks finished",
    ]


def test_a_dag_job_submitted_to_a_missing_cloud_has_a_rejected_row_naming_that_cloud(tmp_path):
    from cloudsim_py.clouds.cloud import CloudSpec
    from cloudsim_py.clouds.vmtypes import VMType
    from cloudsim_py.runner import run_system
    from cloudsim_py.systems.clouds import build_dag_system
    from cloudsim_py.workload.dag import build_dag_job

    lost = build_dag_job("lost", {"t": {"runtime": 1.0}}, [], cloud=3, mode=LeaseMode.AR, start=7.0)
    system = build_dag_system([lost], [CloudSpec("c0", VMType("v", 1, 1024, 0, 100), 1)], policy="fdmms")
    run_system(system)
    system.write_files(str(tmp_path))
    (row,) = csv.DictReader((tmp_path / "dag_jobs.csv").read_text().splitlines())
    assert row == {"job": "lost", "owner": "3", "submit": "0.0", "start": "7.0", "finish": "", "tasks": "1",
                   "ar": "True", "state": "rejected", "reason": "submitted to cloud 3, the system has 1"}


def test_leases_the_loader_skipped_have_rows_with_the_reason_and_the_line(tmp_path):
    # an AR that starts before it is submitted is an invalid lease: skipped and counted
    path = tmp_path / "w.lwf"
    path.write_text("# submit start duration real nodes cpu mem disk image size\n"
                    "0 -1 100 100 1 1 1024 0 img 0\n"
                    "50 10 100 100 1 1 1024 0 img 0\n")
    scenario = {**LEASES, "leases": {"lwf": str(path)}}
    run_scenario(load_scenario(scenario), str(tmp_path / "out"))
    got = {r["id"]: r for r in rows(tmp_path / "out")}
    assert got["1"]["state"] == "finished"
    assert got["2"]["state"] == "skipped" and got["2"]["submit"] == "50.0"
    assert got["2"]["reason"] == f"advance reservation starts before its submission ({path}:3)"
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["workload"]["skipped"] == {"advance reservation starts before its submission": 1}


class ReadsJobsCsvMidRun:
    """Looks at the output folder after the first finish: the streamed file is there."""

    def __init__(self, folder):
        self.folder = folder
        self.seen = None

    def on_finish(self, job):
        if self.seen is None:
            self.seen = [f for f in os.listdir(self.folder) if f.endswith("jobs.csv")]


@pytest.mark.parametrize("name", SYSTEMS)
def test_jobs_csv_is_streamed_during_the_run(tmp_path, name, monkeypatch):
    import cloudsim_py.metrics as metrics

    monkeypatch.setattr(metrics.JobLog.__init__, "__defaults__", (1, ()))     # a chunk per job
    probe = ReadsJobsCsvMidRun(tmp_path)
    run_scenario(load_scenario(SYSTEMS[name]), str(tmp_path), listeners=[probe])
    (tmp,) = probe.seen
    assert tmp.startswith(".tmp-")       # being written, not yet renamed into place


@pytest.mark.parametrize("name", SYSTEMS)
def test_summary_json_is_strict_json_with_the_rerun_record_and_comes_last(tmp_path, name):
    run_scenario(load_scenario(SYSTEMS[name]), str(tmp_path))
    text = (tmp_path / "summary.json").read_text()

    def refuse(constant):
        raise AssertionError(f"{constant} in summary.json")

    doc = json.loads(text, parse_constant=refuse)
    assert doc["files"][0] == "jobs.csv" and all((tmp_path / f).exists() for f in doc["files"])
    assert doc["system"] == ("datacenter" if name == "dc" else "clouds")
    assert doc["rerun"]["options"]["name"] == name
    mtimes = {f: os.stat(tmp_path / f).st_mtime_ns for f in doc["files"] + ["summary.json"]}
    assert max(mtimes, key=mtimes.__getitem__) == "summary.json"


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_rerun_record_loads_again_and_gives_the_same_results(tmp_path, name):
    run_scenario(load_scenario(SYSTEMS[name]), str(tmp_path / "a"))
    options = json.loads((tmp_path / "a" / "summary.json").read_text())["rerun"]["options"]
    options["output"]["dir"] = None
    run_scenario(load_scenario(options), str(tmp_path / "b"))
    assert (tmp_path / "a" / "jobs.csv").read_text() == (tmp_path / "b" / "jobs.csv").read_text()


class Idle(FcfsBroker):
    name = "idle-fcfs"

    def schedule(self, now):
        pass


class IdleLeases(LeaseScheduler):
    name = "idle-leases"

    def schedule(self, now):
        pass


class IdleDags(FdlsScheduler):
    name = "idle-fdls"

    def _candidates(self):
        return []


@pytest.mark.parametrize("name, broker, stuck", [
    ("dc", Idle, "job 1 (queued, 1 procs, submitted 0)"),
    ("leases", IdleLeases, "job 1 (queued, 1 procs, submitted 0)"),
    ("dags", IdleDags, "job chain task 'a' (ready, not yet sent)"),
])
def test_a_stuck_run_is_an_error_naming_the_work_and_keeps_jobs_csv(tmp_path, name, broker, stuck):
    from cloudsim_py.brokers.base import broker_registry

    broker_registry.register(broker.name)(broker)
    try:
        scenario = load_scenario({**SYSTEMS[name], "broker": broker.name})
        with pytest.raises(StuckJobsError, match="ran out of events") as err:
            run_scenario(scenario, str(tmp_path))
    finally:
        broker_registry.unregister(broker.name)
    assert stuck in str(err.value)
    assert "unfinished" in {r["state"] for r in rows(tmp_path)}
    assert not (tmp_path / "summary.json").exists()


def test_non_finite_numbers_are_written_as_null(tmp_path):
    # no best-effort lease: be_done and the other best-effort averages are NaN in Python
    scenario = {**LEASES, "leases": {"requests": [{"id": 1, "submit": 0, "mode": "ar", "start": 5,
                                                   "duration": 10, "nodes": 1}]}}
    runs = run_scenario(load_scenario(scenario), str(tmp_path))
    assert math.isnan(runs[0][1].summary["be_done"])
    assert json.loads((tmp_path / "summary.json").read_text())["summary"]["be_done"] is None
