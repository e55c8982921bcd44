"""Job ids and times are never changed silently (issue 17): an id a float64 column cannot hold
exactly, a fractional id, a negative or astronomically late submit time is an error naming the
file, line and field (or the YAML key); a repeated id is skipped and counted (SWF) or refused
(inline jobs); an unknown submit time (-1) is skipped and counted."""

import json

import pytest

from cloudsim_py.errors import ScenarioError, TraceError
from cloudsim_py.scenario import load_scenario, run_scenario
from cloudsim_py.workload.swf import iter_records
from cloudsim_py.workload.table import prepare, read_table

REST = "0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1"   # fields 3-18 of a 10 s, 1-processor job


def swf(tmp_path, *lines):
    path = tmp_path / "t.swf"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def read_both(path):
    """The same error from the whole-file reader and the streaming one."""
    messages = set()
    for read in (read_table, lambda p: list(iter_records(p))):
        with pytest.raises(TraceError) as err:
            read(path)
        messages.add(str(err.value))
    (message,) = messages
    return message


# -- SWF: refused, naming file, line and field -------------------------------------------------

@pytest.mark.parametrize("job, why", [
    ("1.5", "1.5 is not a whole number"),
    ("9007199254740993", "9007199254740992 is beyond 9,007,199,254,740,991 (2**53 - 1), above which job "
                         "numbers cannot be kept exactly"),
    ("1e30", "1000000000000000019884624838656 is beyond 9,007,199,254,740,991 (2**53 - 1), above which job "
             "numbers cannot be kept exactly"),
])
def test_a_job_number_that_would_change_is_an_error(tmp_path, job, why):
    path = swf(tmp_path, f"1 0 {REST}", f"{job} 5 {REST}")
    assert read_both(path) == f"{path}:2: field 1 (job): {why}"


def test_a_negative_submit_time_is_an_error(tmp_path):
    path = swf(tmp_path, f"1 -100 {REST}")
    assert read_both(path) == (f"{path}:1: field 2 (submit): -100 is negative (-1 is unknown: such a job is "
                               "skipped and counted)")


def test_a_submit_time_beyond_the_clock_is_an_error(tmp_path):
    path = swf(tmp_path, f"1 0 {REST}", f"2 1e300 {REST}")
    assert read_both(path) == f"{path}:2: field 2 (submit): 1e+300 is beyond 1e+12 s (about 31,700 years)"


def test_a_run_time_beyond_the_clock_is_an_error(tmp_path):
    path = swf(tmp_path, "1 0 0 2e12 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1")
    assert read_both(path) == f"{path}:1: field 4 (run): 2e+12 is beyond 1e+12 s (about 31,700 years)"


# -- SWF: skipped and counted ----------------------------------------------------------------

def test_a_repeated_job_number_is_skipped_and_counted_the_first_kept(tmp_path):
    path = swf(tmp_path, f"1 0 {REST}", f"2 5 {REST}", f"1 9 {REST}")
    t = prepare(read_table(path), 4)
    assert t.data[:, 0].tolist() == [1.0, 2.0]
    assert t.report.skipped["job number of an earlier line (duplicate)"] == 1


def test_a_repeated_job_number_is_an_error_in_strict_mode(tmp_path):
    path = swf(tmp_path, f"1 0 {REST}", f"1 9 {REST}")
    with pytest.raises(TraceError, match=r"t\.swf:2: job number of an earlier line \(duplicate\) \(strict mode\)"):
        prepare(read_table(path), 4, strict=True)


def test_an_unknown_submit_time_is_skipped_and_counted(tmp_path):
    path = swf(tmp_path, f"1 0 {REST}", f"2 -1 {REST}")
    t = prepare(read_table(path), 4)
    assert t.data[:, 0].tolist() == [1.0]
    assert t.report.skipped["submit time unknown (-1)"] == 1


def test_a_trace_without_repeats_lists_no_such_reason(tmp_path):
    t = prepare(read_table(swf(tmp_path, f"1 0 {REST}", f"2 5 {REST}")), 4)
    assert "job number of an earlier line (duplicate)" not in t.report.skipped
    assert "submit time unknown (-1)" not in t.report.skipped


def test_a_repeated_job_has_a_skipped_row_with_the_reason(tmp_path):
    path = swf(tmp_path, f"1 0 {REST}", f"1 9 {REST}")
    sc = load_scenario({"name": "dup", "datacenter": {"hosts": 1}, "workload": {"trace": str(path)}})
    run_scenario(sc, out_dir=str(tmp_path / "out"))
    rows = (tmp_path / "out" / "jobs.csv").read_text().splitlines()[1:]
    assert [(r.split(",")[0], r.split(",")[1], r.split(",")[-2], r.split(",")[-1]) for r in rows] == [
        ("1", "0.0", "finished", ""), ("1", "9.0", "skipped", "job number of an earlier line (duplicate)")]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["workload"]["skipped"]["job number of an earlier line (duplicate)"] == 1


# -- inline YAML jobs ------------------------------------------------------------------------

def inline(*jobs):
    return {"name": "x", "datacenter": {"hosts": 2}, "workload": {"jobs": list(jobs)}}


def test_an_inline_job_id_used_twice_is_refused_naming_both_entries():
    with pytest.raises(ScenarioError, match=r"workload\.jobs\.1\.id: job id 1 is used twice: jobs\.0 and jobs\.1$"):
        load_scenario(inline({"id": 1, "submit": 0, "procs": 1, "runtime": 5},
                             {"id": 1, "submit": 5, "procs": 1, "runtime": 5}))


def test_an_inline_id_repeating_a_position_number_says_so():
    with pytest.raises(ScenarioError, match=r"workload\.jobs\.1\.id: job id 1 is used twice: jobs\.0 and jobs\.1 "
                                            r"\(a job without id is numbered by its position\)"):
        load_scenario(inline({"submit": 0, "procs": 1, "runtime": 5}, {"id": 1, "submit": 5, "procs": 1, "runtime": 5}))


def test_an_inline_submit_time_beyond_the_clock_is_refused():
    with pytest.raises(ScenarioError, match=r"workload\.jobs\.0\.submit: must be <= 1e\+12, got 1e\+300"):
        load_scenario(inline({"id": 1, "submit": 1e300, "procs": 1, "runtime": 5}))


# -- inline DAG jobs -------------------------------------------------------------------------

def test_dag_job_ids_that_print_alike_are_one_id():
    text = {"federation": {"vm_types": {"v0": {"cpus": 1, "memory_mb": 1024, "disk_mb": 0, "bandwidth_mbps": 100}},
                           "clouds": [{"name": "c0", "vm_type": "v0", "vms": 2}]},
            "dags": {"jobs": [{"id": 1, "submit": 0, "tasks": {"a": {"runtime": 10}}},
                              {"id": "1", "submit": 0, "tasks": {"a": {"runtime": 10}}}]},
            "broker": {"policy": "fdls"}}
    with pytest.raises(ScenarioError, match=r"dags\.jobs\.1\.id: job id '1' is used twice: jobs\.0 and jobs\.1"):
        load_scenario(text)
