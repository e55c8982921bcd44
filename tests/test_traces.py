"""Invariants of whole runs on real traces (skipped when the trace folder is absent)."""

import numpy as np
import pytest

from cloudsim_py import prepare, read_table, simulate
from cloudsim_py.scenario import load_scenario, run_scenario
from tests.conftest import REPO, trace


@pytest.fixture(scope="module")
def kth():
    return prepare(read_table(trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, "trace")


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_every_submitted_job_finishes_or_is_reported_rejected(kth, policy):
    s = simulate(kth, hosts=100, policy=policy).summary
    assert s["jobs_submitted"] == len(kth) == 28467
    assert s["jobs_finished"] + s["jobs_rejected"] == s["jobs_submitted"] and s["jobs_unfinished"] == 0


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_no_slot_ever_holds_two_processes(policy):
    # the datacenter's _check() runs after every timestamp (capacity index, slots, progress)
    table = prepare(read_table(trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, "trace")
    r = simulate(table, hosts=100, policy=policy, check=True, until=float(table.data[2000, 1]))
    assert r.summary["jobs_finished"] > 1500


def test_fcfs_starts_jobs_in_submit_order(kth):
    rec = simulate(kth, hosts=100, policy="fcfs").records
    # records are sorted by (submit, id): first starts must never decrease
    assert np.all(np.diff(rec["start"]) >= 0)


def test_same_seed_gives_byte_identical_jobs_csv(tmp_path):
    path = REPO / "scenarios" / "kth-easy.yaml"
    trace("KTH-SP2-1996-2.1-cln.swf.gz")
    sc = load_scenario(path, ["workload.limit=3000"])
    run_scenario(sc, out_dir=str(tmp_path / "a"))
    run_scenario(sc, out_dir=str(tmp_path / "b"))
    assert (tmp_path / "a" / "jobs.csv").read_bytes() == (tmp_path / "b" / "jobs.csv").read_bytes()
