import json

from cloudsim_py.cli import main

QUICK = "scenarios/quickstart.yaml"


def test_run_prints_a_table_and_writes_summary_and_jobs(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(__import__("tests.conftest", fromlist=["REPO"]).REPO)
    code = main(["run", QUICK, "--out", str(tmp_path), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "avg wait (min)" in out and "fcfs" in out and "easy" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert set(summary["runs"]) == {"fcfs", "easy"}
    assert (tmp_path / "easy" / "jobs.csv").read_text().startswith("id,submit,start,finish")


def test_set_overrides_the_scenario_from_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(__import__("tests.conftest", fromlist=["REPO"]).REPO)
    code = main(["run", QUICK, "--quiet", "--set", "broker=conservative", "--out", str(tmp_path)])
    assert code == 0 and "policy conservative" in capsys.readouterr().out
    assert json.loads((tmp_path / "summary.json").read_text())["policy"] == "conservative"


def test_validate_reports_the_workload_without_running(capsys, monkeypatch):
    monkeypatch.chdir(__import__("tests.conftest", fromlist=["REPO"]).REPO)
    assert main(["validate", QUICK]) == 0
    assert "valid scenario 'quickstart'" in capsys.readouterr().out


def test_policies_lists_each_policy_with_a_description(capsys):
    assert main(["policies"]) == 0
    out = capsys.readouterr().out
    for name in ("fcfs", "easy", "conservative"):
        assert any(line.startswith(name + " ") and len(line.split()) > 3 for line in out.splitlines())


def test_an_invalid_scenario_exits_non_zero_with_the_message(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nworkload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}\nbroker: nope\n")
    assert main(["run", str(bad)]) == 2
    assert "bad.yaml:3: broker.policy: unknown policy 'nope'" in capsys.readouterr().err


def test_progress_is_a_listener_showing_jobs_done_and_rate_after_the_delay():
    import io
    from cloudsim_py import Job, simulate
    from cloudsim_py.cli import Progress

    out = io.StringIO()
    progress = Progress(stream=out, delay=0.0, every=0.0, check_every=10)
    jobs = [Job(i, float(i), 1, runtime=1.0) for i in range(1, 50)]
    simulate(jobs, hosts=1, policy="fcfs", listeners=[progress])
    # 49 finishes, a line every 10: the last one after 40 jobs
    assert progress.done == 49 and progress.submitted == 49
    assert "40 jobs done (4" in out.getvalue() and "jobs/s" in out.getvalue()


def test_schedule_swf_has_wait_and_runtime_filled(tmp_path, monkeypatch):
    from cloudsim_py.workload.table import read_table
    monkeypatch.chdir(__import__("tests.conftest", fromlist=["REPO"]).REPO)
    code = main(["run", QUICK, "--quiet", "--set", "broker=easy", "--set", "output.swf=true",
                 "--set", "workload.model.jobs=200", "--out", str(tmp_path)])
    assert code == 0
    table = read_table(tmp_path / "schedule.swf")
    assert len(table) == 200 and table.header.max_procs == 64
    # wait (field 3) = finish - submit - runtime >= 0, runtime (field 4) > 0
    assert (table.col("wait") >= 0).all() and (table.col("run") > 0).all()


def test_a_command_runs_with_the_collector_less_often_and_restores_it(monkeypatch, capsys):
    import gc

    from cloudsim_py import cli

    before = gc.get_threshold()
    seen = []

    def command(argv):
        seen.append(gc.get_threshold()[0])
        return 0

    monkeypatch.setattr(cli, "_command", command)
    try:
        gc.set_threshold(700, *before[1:])
        assert cli.main(["policies"]) == 0
        assert seen == [cli.COMMAND_GC_YOUNG] and gc.get_threshold()[0] == 700
        gc.set_threshold(cli.COMMAND_GC_YOUNG * 2, *before[1:])     # a program's higher one stays
        assert cli.main(["policies"]) == 0
        assert seen[-1] == cli.COMMAND_GC_YOUNG * 2 and gc.get_threshold()[0] == cli.COMMAND_GC_YOUNG * 2
    finally:
        gc.set_threshold(*before)
