"""Results on disk: the output folder is checked before anything runs, every file is put in
place by a rename with ``summary.json`` last, ``summary.json`` holds what is needed to rerun,
and disk or pipe failures are one-line errors."""

import hashlib
import json
import os
import subprocess
import sys
import textwrap

import pytest

from cloudsim_py import __version__
from cloudsim_py.cli import main
from cloudsim_py.errors import OutputError
from cloudsim_py.scenario import load_scenario, run_scenario

from ..conftest import REPO

JOBS = {"jobs": [{"id": i, "submit": float(i), "procs": 1 + i % 2, "runtime": 10.0 + i} for i in range(1, 7)]}


def scenario(brokers=("fcfs",), **extra):
    return load_scenario({"name": "out", "datacenter": {"hosts": 2}, "workload": JOBS,
                          "broker": list(brokers), **extra}, **({}))


class Count:
    submitted = 0

    def on_submit(self, job):
        Count.submitted += 1


def test_a_non_empty_output_folder_is_refused_before_anything_runs(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    Count.submitted = 0
    with pytest.raises(OutputError, match=r"output folder .*out: not empty \(notes.txt\); use --force"):
        run_scenario(scenario(), out_dir=str(out), listeners=[Count()])
    assert Count.submitted == 0
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"name": "x", "datacenter": {"hosts": 2}, "workload": JOBS}))
    assert main(["run", str(path), "--quiet", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err


def test_force_replaces_the_previous_run_and_keeps_other_files(tmp_path):
    out = tmp_path / "out"
    run_scenario(scenario(("fcfs", "easy")), out_dir=str(out))
    (out / "notes.txt").write_text("mine")
    run_scenario(scenario(("fcfs",)), out_dir=str(out), force=True)
    # the earlier run's per-label folders are gone (its summary listed them); notes.txt stays
    assert sorted(os.listdir(out)) == ["jobs.csv", "notes.txt", "summary.json"]
    assert json.loads((out / "summary.json").read_text())["label"] == "fcfs"


def _planted_summary(out, files):
    out.mkdir()
    (out / "summary.json").write_text(json.dumps({"files": files}))


def test_force_never_follows_a_linked_sub_folder_out_of_the_output_folder(tmp_path):
    """An old summary naming ``sub/secret.txt`` where ``sub`` links to a folder outside: the
    file outside stays (issue 17: --force deleted it)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("keep me")
    out = tmp_path / "out"
    _planted_summary(out, ["sub/secret.txt", "jobs.csv"])
    os.symlink(outside, out / "sub")
    run_scenario(scenario(), out_dir=str(out), force=True)
    assert (outside / "secret.txt").read_text() == "keep me"
    assert os.path.islink(out / "sub")


def test_force_never_removes_the_target_of_a_linked_file(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    out = tmp_path / "out"
    _planted_summary(out, ["old.csv"])
    os.symlink(outside, out / "old.csv")
    run_scenario(scenario(), out_dir=str(out), force=True)
    assert outside.read_text() == "keep me"


def test_force_ignores_names_that_climb_out_of_the_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    out = tmp_path / "out"
    _planted_summary(out, ["../mine.txt", str(tmp_path / "mine.txt"), "a/../../mine.txt"])
    run_scenario(scenario(), out_dir=str(out), force=True)
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_force_through_the_command_line_keeps_the_file_outside(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("keep me")
    out = tmp_path / "out"
    _planted_summary(out, ["sub/secret.txt"])
    os.symlink(outside, out / "sub")
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"name": "x", "datacenter": {"hosts": 2}, "workload": JOBS}))
    assert main(["run", str(path), "--quiet", "--out", str(out), "--force"]) == 0
    assert (outside / "secret.txt").read_text() == "keep me"


def test_each_file_is_renamed_into_place_and_summary_json_comes_last(tmp_path, monkeypatch):
    import cloudsim_py.outputs as outputs

    placed = []
    real = os.replace

    def replace(src, dst):
        assert os.path.basename(src).startswith(".tmp-") and not os.path.exists(dst)
        placed.append(os.path.relpath(dst, tmp_path / "out"))
        real(src, dst)

    monkeypatch.setattr(outputs.os, "replace", replace)
    run_scenario(scenario(("fcfs", "easy")), out_dir=str(tmp_path / "out"))
    assert placed == ["fcfs/jobs.csv", "fcfs/summary.json", "easy/jobs.csv", "easy/summary.json",
                      "summary.json"]
    left = [f for _, _, files in os.walk(tmp_path / "out") for f in files if f.startswith(".tmp-")]
    assert left == []


def test_a_run_that_fails_midway_leaves_no_result_files(tmp_path):
    class Boom:
        def on_finish(self, job):
            if job.id == 3:
                raise RuntimeError("killed")

    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        run_scenario(scenario(), out_dir=str(out), listeners=[Boom()])
    assert os.listdir(out) == []


def test_summary_json_records_what_is_needed_to_rerun(tmp_path):
    trace = tmp_path / "t.swf"
    trace.write_text("".join(f"{i} {i * 7} 0 {30 + i} {1 + i % 3} -1 -1 {1 + i % 3} {60 + i} -1 1 1 1 1 1 -1 -1 -1\n"
                             for i in range(1, 30)))
    path = tmp_path / "s.yaml"
    path.write_text(f"name: rr\ndatacenter: {{hosts: 4, tiers: 2}}\nworkload: {{trace: {trace}}}\n"
                    "broker: ccfcfs\nmetrics: {tau: 5, warmup: 0.1}\n")
    sc = load_scenario(path, ["seed=3", "workload.runtime_estimate=actual"])
    run_scenario(sc, out_dir=str(tmp_path / "a"))
    rerun = json.loads((tmp_path / "a" / "summary.json").read_text())["rerun"]
    assert rerun["cloudsim_py"] == __version__ and rerun["scenario_file"] == str(path)
    assert rerun["overrides"] == ["seed=3", "workload.runtime_estimate=actual"]
    assert (rerun["seed"], rerun["tau"], rerun["warmup"]) == (3, 5.0, 0.1)
    assert rerun["trace_sha256"] == hashlib.sha256(trace.read_bytes()).hexdigest()
    options = rerun["options"]
    assert options["datacenter"]["interference"]["preset"] == "liu2015"
    assert options["workload"]["cpu_usage"] == {"model": "paper", "low": 0.4, "high": 1.0, "single": 1.0}
    # the recorded options alone give the same schedule
    run_scenario(load_scenario(options), out_dir=str(tmp_path / "b"))
    assert (tmp_path / "a" / "jobs.csv").read_bytes() == (tmp_path / "b" / "jobs.csv").read_bytes()


def test_an_output_folder_that_cannot_be_created_is_a_one_line_error(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"name": "x", "datacenter": {"hosts": 2}, "workload": JOBS}))
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "file" / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot create it" in err and "Traceback" not in err


def test_a_closed_output_pipe_is_a_one_line_error(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "cloudsim_py.cli", "run", "scenarios/quickstart.yaml",
                             "--quiet"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()      # the reader is gone before anything is printed (| head -0)
    err = proc.stderr.read().decode()
    assert proc.wait() == 2
    assert err == "cloudsim-py: error: output pipe closed before the results were printed\n"


def test_a_full_disk_while_jobs_csv_streams_is_a_one_line_error_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    import errno

    import cloudsim_py.outputs as outputs
    from cloudsim_py import metrics

    real_open = open

    class FullAfterHeader:
        """A file whose first write (the header) succeeds and whose next ones find the disk full."""

        def __init__(self, fh):
            self.fh, self.writes = fh, 0

        def write(self, text):
            self.writes += 1
            if self.writes > 1:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.fh.write(text)

        def close(self):
            self.fh.close()

    def fake_open(path, *a, **k):
        fh = real_open(path, *a, **k)
        return FullAfterHeader(fh) if str(path).endswith("jobs.csv") else fh

    monkeypatch.setattr(outputs, "open", fake_open, raising=False)
    # a chunk of 2 jobs: the first chunk of finished jobs is written while the run goes
    monkeypatch.setattr(metrics.JobLog.__init__, "__defaults__", (2, ()))
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({"name": "x", "datacenter": {"hosts": 2}, "workload": JOBS}))
    out = tmp_path / "out"
    assert main(["run", str(path), "--quiet", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("cloudsim-py: error: ") and "jobs.csv: cannot write (No space left on device)" in err
    # no result file, and the temporary file is removed
    assert os.listdir(out) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_output_folder_that_is_not_writable_is_refused_before_anything_runs(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o500)
    try:
        path = tmp_path / "s.yaml"
        path.write_text(json.dumps({"name": "x", "datacenter": {"hosts": 2}, "workload": JOBS}))
        assert main(["run", str(path), "--quiet", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not writable" in err and "Traceback" not in err
    finally:
        out.chmod(0o700)


def dead_pid():
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL and process ids as on POSIX")
def test_a_killed_runs_temporary_files_are_removed_by_the_next_run_into_the_folder(tmp_path):
    out = tmp_path / "out"
    code = textwrap.dedent(f"""\
        import os, signal
        from cloudsim_py.scenario import load_scenario, run_scenario

        class Kill:
            def on_finish(self, job):
                os.kill(os.getpid(), signal.SIGKILL)

        s = load_scenario({{"name": "out", "datacenter": {{"hosts": 2}}, "workload": {JOBS!r},
                           "broker": ["fcfs", "easy"]}})
        run_scenario(s, out_dir={str(out)!r}, listeners=[Kill()])
        """)
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.wait() == -9
    assert os.listdir(out) == ["fcfs"] and os.listdir(out / "fcfs") == [f".tmp-{proc.pid}-jobs.csv"]
    run_scenario(scenario(("fcfs", "easy")), out_dir=str(out))     # no --force needed: nothing was kept
    left = [f for _, _, files in os.walk(out) for f in files if f.startswith(".tmp-")]
    assert left == [] and (out / "summary.json").is_file()


def test_only_stale_files_of_the_temporary_pattern_are_removed(tmp_path):
    from cloudsim_py.outputs import remove_stale_temporaries

    out = tmp_path / "out"
    (out / "easy").mkdir(parents=True)
    dead = dead_pid()
    stale = [out / f".tmp-{dead}-jobs.csv", out / "easy" / f".tmp-{dead}-summary.json"]
    kept = [out / f".tmp-{os.getpid()}-jobs.csv",      # a live process's: maybe still writing
            out / ".tmp-x-jobs.csv", out / f"tmp-{dead}-jobs.csv", out / f".tmp-{dead}-",
            out / "easy" / "jobs.csv"]
    for path in stale + kept:
        path.write_text("")
    assert sorted(remove_stale_temporaries(str(out))) == sorted(map(str, stale))
    assert all(p.exists() for p in kept) and not any(p.exists() for p in stale)


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")
def test_the_cleanup_follows_no_symbolic_link_out_of_the_folder(tmp_path):
    from cloudsim_py.outputs import remove_stale_temporaries

    dead = dead_pid()
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / f".tmp-{dead}-jobs.csv"
    target.write_text("not ours")
    out = tmp_path / "out"
    out.mkdir()
    (out / "label").symlink_to(outside, target_is_directory=True)    # a folder link
    (out / f".tmp-{dead}-summary.json").symlink_to(target)              # a file link
    assert remove_stale_temporaries(str(out)) == []
    assert target.read_text() == "not ours"
    assert (out / "label").is_symlink() and (out / f".tmp-{dead}-summary.json").is_symlink()
