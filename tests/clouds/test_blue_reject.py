"""SDSC Blue, 30 days, with an injected AR file, in Haizea's no-preemption mode (issue 16, "done
means"): every advance reservation starts exactly at its requested time or is rejected with a
reason, and ``jobs.csv`` has one row per lease of the input (the leases the loader skipped
included). Checked from the output files, as a user would."""

from __future__ import annotations

import csv

import pytest

from cloudsim_py.scenario import load_scenario, run_scenario
from cloudsim_py.workload.swf_leases import swf_with_injected_ar

INJECTED = "blue-30days/injected/work_20-dur_2h-size_2medium.lwf"


@pytest.fixture
def blue(lease_file, tmp_path):
    swf, injected = lease_file("blue-30days/30days.swf"), lease_file(INJECTED)
    scenario = load_scenario({
        "name": "blue-reject",
        "federation": {"vm_types": {"node": {"cpus": 1, "memory_mb": 1024, "disk_mb": 0, "bandwidth_mbps": 100}},
                       "clouds": [{"name": "blue", "vm_type": "node", "vms": 144, "copy_mbps": 32}]},
        "leases": {"swf": str(swf), "injected": str(injected)},
        "broker": {"policy": "leases", "params": {"preemption": "reject"}},
    })
    run_scenario(scenario, str(tmp_path / "out"))
    with open(tmp_path / "out" / "jobs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return rows, swf_with_injected_ar(swf, injected)


def test_every_lease_of_the_input_has_one_row(blue):
    rows, workload = blue
    # 5,393 leases kept (5,108 of the trace, the file's 285 ARs) and the trace's 437 rows
    # skipped as cancelled while queued: 5,830 rows, each id once
    report = workload.report
    assert len(rows) == len(workload.leases) + report.skipped_total == 5108 + 285 + 437
    assert len({r["id"] for r in rows}) == len(rows)
    assert {r["state"] for r in rows if r["state"] != "finished"} <= {"rejected", "skipped"}
    assert all(r["reason"] for r in rows if r["state"] != "finished")


def test_every_ar_starts_exactly_at_its_time_or_is_rejected_with_a_reason(blue):
    rows, workload = blue
    ars = [r for r in rows if r["mode"] == "ar"]
    assert len(ars) == 285
    started = [r for r in ars if r["state"] == "finished"]
    refused = [r for r in ars if r["state"] == "rejected"]
    assert len(started) + len(refused) == 285 and started and refused   # 284 and 1
    assert all(float(r["start"]) == float(r["requested_start"]) for r in started)
    # refused when its VMs are busy at its start (no preemption), or when, submitted at 0 for a
    # start before 6 s, its 600 MB image cannot reach its VMs in time (100 MB/s)
    assert all(r["reason"].startswith("advance reservation refused: ") for r in refused)
    # without preemption nothing is ever suspended
    assert all(r["suspensions"] == "0" for r in rows if r["state"] == "finished")
