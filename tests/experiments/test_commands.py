"""The sweep, report and plot commands end to end on a small sweep."""

import pytest

from cloudsim_py.cli import main


def test_dry_run_validates_and_lists_without_running(small_sweep, tmp_path, capsys):
    results = tmp_path / "r.csv"
    assert main(["sweep", str(small_sweep), "--results", str(results), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "9 valid runs, 9 to run, 0 already in" in out and "broker.policy=easy, seed=2" in out
    assert not results.exists()


def test_sweep_then_report_then_plot(small_sweep, tmp_path, capsys):
    results = str(tmp_path / "r.parquet")
    assert main(["sweep", str(small_sweep), "--results", results, "--jobs", "2"]) == 0
    captured = capsys.readouterr()
    assert "9 run now (0 failed), 0 already done" in captured.out
    assert "sweep: 9/9 runs" in captured.err           # the progress line's last state
    assert main(["sweep", str(small_sweep), "--results", results, "-q"]) == 0
    assert "0 run now (0 failed), 9 already done" in capsys.readouterr().out

    assert main(["report", results, "--metric", "avg_bsld", "--baseline", "fcfs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "avg_bsld: mean ± std over runs (n = 3 per cell)"
    assert lines[1].split() == ["fcfs", "easy", "imp", "%", "acfcfs", "imp", "%"]

    pytest.importorskip("matplotlib")
    prefix = str(tmp_path / "fig")
    assert main(["plot", results, "--x", "broker.policy", "--y", "avg_bsld", "-o", prefix]) == 0
    assert (tmp_path / "fig.png").exists() and (tmp_path / "fig.pdf").exists()


def test_report_refuses_to_average_over_policies(small_sweep, tmp_path, capsys):
    results = str(tmp_path / "r.csv")
    main(["sweep", str(small_sweep), "--results", results, "--jobs", "1", "-q"])
    capsys.readouterr()
    # columns = seed: the three policies of one seed would be averaged together
    assert main(["report", results, "--cols", "seed", "--baseline", "1", "--over", ""]) == 2
    assert "(over nothing) differ in broker.policy takes fcfs, easy, acfcfs" in capsys.readouterr().err
