"""Every submitted job ends in one reported state: finished, rejected (with the reason),
unfinished (the run stopped, or a policy never ran it: an error) or skipped by the loader; the
same rule for Python and YAML runs, and every state has its rows in ``jobs.csv``."""

import csv
import io
import json

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.base import Broker, register_broker
from cloudsim_py.errors import StuckJobsError
from cloudsim_py.metrics import JobRecords
from cloudsim_py.scenario import load_scenario, run_scenario


@register_broker("test-never", "a broken policy for tests: never starts anything")
class NeverStarts(Broker):
    def schedule(self, now):
        pass


def jobs_csv(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


def test_a_policy_that_never_starts_a_job_raises_naming_the_stuck_jobs():
    jobs = [Job(1, 0.0, 1, runtime=5.0), Job(2, 3.0, 2, runtime=5.0)]
    with pytest.raises(StuckJobsError, match=r"2 jobs unfinished.*job 1 \(queued, 1 procs, submitted 0\)"
                                             r".*job 2 \(queued, 2 procs, submitted 3\)") as info:
        simulate(jobs, hosts=2, policy="test-never")
    # the run's results come with the error: nothing finished, both unfinished
    summary = info.value.result.summary
    assert (summary["jobs_finished"], summary["jobs_unfinished"]) == (0, 2)
    assert [j.id for j in info.value.jobs] == [1, 2]


def test_a_run_stopped_with_until_is_not_stuck():
    jobs = [Job(1, 0.0, 1, runtime=50.0), Job(2, 0.0, 1, runtime=5.0)]
    r = simulate(jobs, hosts=1, policy="fcfs", until=10.0)
    assert r.summary["jobs_unfinished"] == 2 and [j.id for j in r.unfinished] == [1, 2]


def test_a_stuck_scenario_writes_jobs_csv_with_unfinished_rows_but_no_summary(tmp_path):
    sc = load_scenario({"name": "stuck", "datacenter": {"hosts": 2},
                        "workload": {"jobs": [{"submit": 0, "procs": 1, "runtime": 5}]},
                        "broker": "test-never"})
    with pytest.raises(StuckJobsError, match="policy 'test-never'.*job 1"):
        run_scenario(sc, out_dir=str(tmp_path / "out"))
    rows = jobs_csv(tmp_path / "out" / "jobs.csv")
    assert [(r["id"], r["state"], r["reason"]) for r in rows] == [("1", "unfinished", "queued")]
    assert not (tmp_path / "out" / "summary.json").exists()


def test_a_job_larger_than_the_machine_is_rejected_with_the_reason_in_python_and_yaml(tmp_path):
    # one rule: 2 jobs submitted, the 8-processor one rejected at arrival on 4 hosts
    reason = "needs 8 processors, the datacenter has 4"
    r = simulate([Job(1, 0.0, 8, runtime=5.0), Job(2, 0.0, 1, runtime=5.0)], hosts=4)
    assert (r.summary["jobs_submitted"], r.summary["jobs_rejected"]) == (2, 1)
    assert r.world.log.reasons == {1: reason}
    sc = load_scenario({"name": "big", "datacenter": {"hosts": 4},
                        "workload": {"jobs": [{"id": 1, "submit": 0, "procs": 8, "runtime": 5},
                                              {"id": 2, "submit": 0, "procs": 1, "runtime": 5}]}})
    [(_, result)] = run_scenario(sc, out_dir=str(tmp_path / "out"))
    assert (result.summary["jobs_submitted"], result.summary["jobs_rejected"]) == (2, 1)
    rows = {r["id"]: r for r in jobs_csv(tmp_path / "out" / "jobs.csv")}
    assert (rows["1"]["state"], rows["1"]["reason"]) == ("rejected", reason)
    assert (rows["2"]["state"], rows["2"]["reason"]) == ("finished", "")


def test_jobs_csv_keeps_the_old_columns_first_and_adds_state_and_reason(tmp_path):
    sc = load_scenario({"name": "cols", "datacenter": {"hosts": 1},
                        "workload": {"jobs": [{"id": 1, "submit": 0, "procs": 1, "runtime": 5}]}})
    run_scenario(sc, out_dir=str(tmp_path / "out"))
    header, row = (tmp_path / "out" / "jobs.csv").read_text().splitlines()
    assert header == ",".join(JobRecords.FIELDS) + ",state,reason"
    # job 1: start 0, finish 5, wait 0, response 5, bsld max(1, 5 / max(10, 5)) = 1
    assert row == "1,0.0,0.0,5.0,1,5.0,5.0,0.0,5.0,1.0,0,0,0,0,0,0.0,finished,"


def test_jobs_the_loader_skips_are_in_jobs_csv_with_the_reason(tmp_path):
    trace = tmp_path / "t.swf"
    # job 2 has runtime -1 (cancelled): skipped by the cleaning, counted, and listed
    trace.write_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "2 5 0 -1 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "3 9 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n")
    sc = load_scenario({"name": "skip", "datacenter": {"hosts": 1}, "workload": {"trace": str(trace)}})
    run_scenario(sc, out_dir=str(tmp_path / "out"))
    rows = {r["id"]: r for r in jobs_csv(tmp_path / "out" / "jobs.csv")}
    assert [rows[i]["state"] for i in "123"] == ["finished", "skipped", "finished"]
    assert rows["2"]["reason"] == "runtime <= 0 (cancelled or unknown)"
    assert (rows["2"]["submit"], rows["2"]["runtime"], rows["2"]["start"]) == ("5.0", "-1.0", "")


def test_jobs_skipped_after_the_last_kept_job_are_in_jobs_csv_too(tmp_path):
    """Jobs 3 and 4 (cancelled) come after job 2, the last kept: each has its row (issue 17:
    such rows were left out)."""
    trace = tmp_path / "t.swf"
    trace.write_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "2 5 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "3 9 0 -1 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "4 12 0 -1 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n")
    sc = load_scenario({"name": "skip", "datacenter": {"hosts": 1}, "workload": {"trace": str(trace)}})
    run_scenario(sc, out_dir=str(tmp_path / "out"))
    rows = {r["id"]: r for r in jobs_csv(tmp_path / "out" / "jobs.csv")}
    assert {i: rows[i]["state"] for i in rows} == {"1": "finished", "2": "finished", "3": "skipped",
                                                   "4": "skipped"}


def test_with_a_limit_the_workload_ends_at_the_last_kept_job(tmp_path):
    """``limit: 1`` keeps job 1; job 2 (cancelled, submitted before job 3) is beyond the
    workload's end with the rest: no row, counted as beyond the limit."""
    trace = tmp_path / "t.swf"
    trace.write_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "2 5 0 -1 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "3 9 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n")
    sc = load_scenario({"name": "skip", "datacenter": {"hosts": 1},
                        "workload": {"trace": str(trace), "limit": 1}})
    run_scenario(sc, out_dir=str(tmp_path / "out"))
    rows = {r["id"]: r["state"] for r in jobs_csv(tmp_path / "out" / "jobs.csv")}
    assert rows == {"1": "finished"}
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    skipped = {k: n for k, n in summary["workload"]["skipped"].items() if n}
    assert skipped == {"runtime <= 0 (cancelled or unknown)": 1, "beyond workload.limit (1)": 1}


def test_a_trace_job_larger_than_the_machine_is_submitted_rejected_and_listed(tmp_path):
    # 3 records on 2 hosts: job 2 asks for 4 processors (field 5). It is not dropped by the
    # loader: submitted (3), rejected at arrival (1) with the reason, and in jobs.csv
    trace = tmp_path / "t.swf"
    trace.write_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "2 5 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 -1 -1 -1\n"
                     "3 9 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n")
    sc = load_scenario({"name": "big-trace", "datacenter": {"hosts": 2}, "workload": {"trace": str(trace)}})
    [(_, result)] = run_scenario(sc, out_dir=str(tmp_path / "out"))
    s = result.summary
    assert (s["jobs_submitted"], s["jobs_finished"], s["jobs_rejected"]) == (3, 2, 1)
    rows = {r["id"]: r for r in jobs_csv(tmp_path / "out" / "jobs.csv")}
    assert (rows["2"]["state"], rows["2"]["reason"]) == ("rejected", "needs 4 processors, the datacenter has 2")
    assert (rows["2"]["procs"], rows["2"]["start"], rows["2"]["finish"]) == ("4", "", "")
