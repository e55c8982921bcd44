"""Running sweeps: the same table from every backend, resume after a kill without repeating a
run, failing runs recorded without stopping the sweep."""

import json

import pytest

from cloudsim_py.cli import main
from cloudsim_py.experiments.backends import DaskBackend, LocalBackend
from cloudsim_py.experiments.store import TIMING, read_results
from cloudsim_py.experiments.runs import execute, run_sweep
from cloudsim_py.experiments.sweep import load_sweep
from tests.experiments.conftest import write

#: the run at this position stops the sweep as a kill would (KeyboardInterrupt is not a failure)
STOP_AT = 4


def stop_at_fifth_run(spec):
    if spec.index == STOP_AT:
        raise KeyboardInterrupt("killed")
    return execute(spec)


def comparable(rows):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in rows]


def test_local_processes_and_a_dask_local_cluster_give_identical_tables(tmp_path, small_sweep):
    pytest.importorskip("distributed")
    sweep = load_sweep(small_sweep)
    local = run_sweep(sweep, str(tmp_path / "local.parquet"), backend=LocalBackend(2))
    dask = run_sweep(sweep, str(tmp_path / "dask.parquet"), backend=DaskBackend("local", 2))
    assert local.ran == dask.ran == 9 and local.failed == dask.failed == 0
    a, b = read_results(local.path), read_results(dask.path)
    # every column but the wall-clock times: same rows, same order, same values to the bit
    assert comparable(a) == comparable(b)
    assert len({r["avg_bsld"] for r in a if r["policy"] == "acfcfs"}) == 3   # the seeds differ


def test_in_process_and_process_pool_give_identical_tables(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    one = run_sweep(sweep, str(tmp_path / "one.csv"), backend=LocalBackend(1))
    two = run_sweep(sweep, str(tmp_path / "two.csv"), backend=LocalBackend(2))
    assert comparable(read_results(one.path)) == comparable(read_results(two.path))


def test_a_killed_sweep_keeps_exactly_the_finished_runs_and_resumes_the_rest(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    ids = [s.run_id for s in sweep.expand()]
    path = str(tmp_path / "r.parquet")
    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep, path, backend=LocalBackend(1), runner=stop_at_fifth_run)
    # one run at a time: runs 0-3 finished and were written, run 4 was killed
    assert [r["run_id"] for r in read_results(path)] == ids[:STOP_AT]
    executed = []

    def recording(spec):
        executed.append(spec.run_id)
        return execute(spec)

    result = run_sweep(sweep, path, backend=LocalBackend(1), runner=recording)
    assert executed == ids[STOP_AT:] and result.skipped == STOP_AT and result.ran == 5
    assert [r["run_id"] for r in read_results(path)] == ids


def test_a_sweep_killed_in_a_worker_process_resumes_without_repeating(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    ids = [s.run_id for s in sweep.expand()]
    path = str(tmp_path / "r.csv")
    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep, path, backend=LocalBackend(2), runner=stop_at_fifth_run)
    kept = read_results(path)
    # which runs the other worker finished first varies; every row written is a whole run
    assert ids[STOP_AT] not in {r["run_id"] for r in kept}
    assert all(r["status"] == "ok" and r["avg_wait"] is not None for r in kept)
    executed = []
    run_sweep(sweep, path, backend=LocalBackend(1), runner=lambda s: executed.append(s.run_id) or execute(s))
    assert sorted(executed) == sorted(set(ids) - {r["run_id"] for r in kept})
    assert sorted(r["run_id"] for r in read_results(path)) == sorted(ids)


def test_a_failing_run_is_recorded_and_the_others_complete(tmp_path):
    good = "; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    (tmp_path / "good.swf").write_text(good)
    (tmp_path / "bad.swf").write_text("; MaxProcs: 4\n1 0 -1 10 2\n")   # 5 fields of 18
    path = write(tmp_path, "s.yaml", """\
        base: {workload: {trace: good.swf}}
        grid:
          workload.trace: [good.swf, bad.swf]
          broker: [fcfs, easy]
        results: r.csv
        """)
    result = run_sweep(load_sweep(path), str(tmp_path / "r.csv"), backend=LocalBackend(1))
    assert result.ran == 4 and result.failed == 2
    rows = read_results(str(tmp_path / "r.csv"))
    bad = [r for r in rows if r["workload.trace"] == "bad.swf"]
    assert {r["status"] for r in bad} == {"failed"} and {r["policy"] for r in bad} == {"fcfs", "easy"}
    assert all("expected 18 SWF fields, found 5" in r["error"] for r in bad)
    assert all(r["status"] == "ok" and r["avg_wait"] == 0.0 for r in rows if r["workload.trace"] == "good.swf")
    # a rerun tries the failed runs again, and only them
    again = run_sweep(load_sweep(path), str(tmp_path / "r.csv"), backend=LocalBackend(1))
    assert again.skipped == 2 and again.ran == 2 and again.failed == 2


def test_the_sweep_command_exits_non_zero_when_a_run_failed(tmp_path, capsys):
    (tmp_path / "bad.swf").write_text("; MaxProcs: 4\n1 0 -1 10 2\n")
    path = write(tmp_path, "s.yaml", "base: {workload: {trace: bad.swf}}\ngrid: {seed: [1]}\n")
    assert main(["sweep", str(path), "--results", str(tmp_path / "r.csv"), "--jobs", "1", "-q"]) == 1
    captured = capsys.readouterr()
    assert "1 run now (1 failed)" in captured.out and "TraceError" in captured.err


def test_force_runs_everything_again(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    path = str(tmp_path / "r.csv")
    run_sweep(sweep, path, backend=LocalBackend(1))
    assert run_sweep(sweep, path, backend=LocalBackend(1)).ran == 0
    again = run_sweep(sweep, path, backend=LocalBackend(1), force=True)
    assert again.ran == 9 and len(read_results(path)) == 9


def test_runs_dir_gives_every_run_its_folder(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    run_sweep(sweep, str(tmp_path / "r.csv"), backend=LocalBackend(1), runs_dir=str(tmp_path / "runs"))
    spec = sweep.expand()[4]
    summary = json.loads((tmp_path / "runs" / spec.run_id / "summary.json").read_text())
    assert summary["policy"] == "easy" and summary["seed"] == 2
    run = json.loads((tmp_path / "runs" / spec.run_id / "run.json").read_text())
    assert run["params"] == {"broker.policy": "easy", "seed": 2}


def test_rows_of_other_sweeps_are_kept_unless_pruned(tmp_path, small_sweep):
    path = str(tmp_path / "r.csv")
    run_sweep(load_sweep(small_sweep), path, backend=LocalBackend(1))
    fewer = write(tmp_path, "fewer.yaml", small_sweep.read_text().replace("seed: 1..3", "seed: 1..2"))
    kept = run_sweep(load_sweep(fewer), path, backend=LocalBackend(1))
    assert kept.stale == 3 and len(read_results(path)) == 9
    run_sweep(load_sweep(fewer), path, backend=LocalBackend(1), prune=True)
    assert len(read_results(path)) == 6


def test_only_runs_a_subset_with_the_ids_of_the_whole_sweep(tmp_path, small_sweep):
    sweep = load_sweep(small_sweep)
    path = str(tmp_path / "r.csv")
    part = run_sweep(sweep, path, backend=LocalBackend(1), only=["broker.policy=easy", "seed=2"])
    assert part.ran == 1 and part.stale == 0
    (row,) = read_results(path)
    assert row["run_id"] == sweep.expand()[4].run_id
    assert run_sweep(sweep, path, backend=LocalBackend(1)).skipped == 1


def test_a_sweep_runs_a_cloud_system_scenario_with_one_row_per_policy(tmp_path):
    # The 3-task chain of tests/federation/test_federation.py (A on c0 to 12, B on c1 to 36, C
    # on c0 to 50) as the base, FDLS and FDMMS in every run, alpha 0 and 1 for both: 2 runs, 4
    # rows, every one 50 s (one job alone: every estimate comes true, the feedback gap stays 0).
    base = write(tmp_path, "chain.yaml", """\
        federation:
          vm_types:
            v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 32}
            v1: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 32}
          clouds: [{name: c0, vm_type: v0, vms: 2}, {name: c1, vm_type: v1, vms: 2}]
          inter_cloud_mbps: 8
          matrix: {times: {a: {v0: 10, v1: 40}, b: {v0: 50, v1: 20}, c: {v0: 10, v1: 30}}}
        dags:
          jobs:
            - id: chain
              cloud: 0
              tasks: {A: {type: a, image_mb: 64}, B: {type: b, image_mb: 64}, C: {type: c, image_mb: 64}}
              edges: [[A, B, 16], [B, C, 16]]
        broker: [fdls, fdmms]
        """)
    sweep = write(tmp_path, "s.yaml", """\
        base: chain.yaml
        zip:
          broker.0.params.alpha: [0.0, 1.0]
          broker.1.params.alpha: [0.0, 1.0]
        """)
    assert base.exists()
    result = run_sweep(load_sweep(sweep), str(tmp_path / "r.csv"), backend=LocalBackend(1))
    assert result.ran == 2 and result.failed == 0
    rows = read_results(result.path)
    # rows are named by each broker's label (the policy and its parameters), as for datacenters
    assert [(r["policy"], r["broker.0.params.alpha"]) for r in rows] == [
        ("fdls(alpha=0.0)", 0.0), ("fdmms(alpha=0.0)", 0.0), ("fdls(alpha=1.0)", 1.0), ("fdmms(alpha=1.0)", 1.0)]
    assert {r["avg_job_time"] for r in rows} == {50.0} and {r["dag_jobs_finished"] for r in rows} == {1}
