"""The command line around schedule.csv and timeline.csv: ``run`` writes them (scenario keys or
flags), sweeps' run folders hold them, ``gantt`` draws datacenter and cloud runs, ``timeline``
draws one or several runs, and bad input is ``cloudsim-py: error: ...`` with exit 2."""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from cloudsim_py.cli import main
from tests.experiments.conftest import JOBS
from tests.test_schedule_timeline import LEASES

#: the five jobs of tests/experiments/conftest.py on four processors under FCFS: J1 (4) 0-100,
#: J2 (2) 100-150 while J3 (4) waits for all four, J3 150-250, then J4 (1) 250-280 beside J5 (2)
#: 250-270
DATACENTER = {"name": "five", "datacenter": {"hosts": 4}, "workload": {"jobs": JOBS}, "broker": "fcfs"}


def scenario(tmp_path, doc=None, name="s.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc or DATACENTER))
    return str(path)


def test_the_scenario_keys_write_both_files_and_the_summary_lists_them(tmp_path):
    doc = dict(DATACENTER, output={"schedule": True, "timeline": True})
    assert main(["run", scenario(tmp_path, doc), "--out", str(tmp_path / "out"), "-q"]) == 0
    files = json.loads((tmp_path / "out" / "summary.json").read_text())["files"]
    assert files == ["jobs.csv", "schedule.csv", "timeline.csv"]


def test_the_flags_write_both_files(tmp_path):
    assert main(["run", scenario(tmp_path), "--out", str(tmp_path / "out"), "-q", "--schedule", "--timeline"]) == 0
    lines = (tmp_path / "out" / "timeline.csv").read_text().splitlines()
    # a row at each arrival (the queue grows to 4 by 40), then at each start and finish
    assert lines == ["time,datacenter,running,queued,suspended,busy_0", "0.0,dc,1,0,0,4",
                     "10.0,dc,1,1,0,4", "20.0,dc,1,2,0,4", "30.0,dc,1,3,0,4", "40.0,dc,1,4,0,4",
                     "100.0,dc,1,3,0,2", "150.0,dc,1,2,0,4", "250.0,dc,2,0,0,3", "270.0,dc,1,0,0,1",
                     "280.0,dc,0,0,0,0"]
    assert (tmp_path / "out" / "schedule.csv").read_text().splitlines()[1] == "0.0,start,1,0,0 1 2 3,dc"


def test_a_flag_without_an_output_folder_is_an_error(tmp_path, capsys):
    assert main(["run", scenario(tmp_path), "--timeline", "-q"]) == 2
    assert "cloudsim-py: error: timeline.csv needs an output folder" in capsys.readouterr().err


def test_an_unknown_output_key_is_named(tmp_path, capsys):
    assert main(["run", scenario(tmp_path, dict(DATACENTER, output={"gantt": True})), "-q"]) == 2
    err = capsys.readouterr().err
    assert "output.gantt" in err and "unknown key 'gantt'" in err and "schedule, timeline" in err


def test_a_sweeps_run_folders_hold_the_files(tmp_path):
    sweep = tmp_path / "w.yaml"
    sweep.write_text(yaml.safe_dump({"name": "w", "base": dict(DATACENTER, output={"timeline": True}),
                                     "grid": {"broker.policy": ["fcfs", "easy"]}}))
    assert main(["sweep", str(sweep), "--jobs", "1", "-q", "--results", str(tmp_path / "r.csv"),
                 "--runs-dir", str(tmp_path / "runs")]) == 0
    folders = list((tmp_path / "runs").iterdir())
    assert len(folders) == 2 and all((f / "timeline.csv").is_file() for f in folders)


def lease_run(tmp_path):
    main(["run", scenario(tmp_path, yaml.safe_load(LEASES)), "--out", str(tmp_path / "out"), "-q"])
    return tmp_path / "out"


def test_gantt_draws_a_cloud_run_from_its_intervals_with_the_preemption_marked(tmp_path):
    pytest.importorskip("matplotlib", reason="the gantt chart needs matplotlib (the [plot] extra)")
    from cloudsim_py.experiments.gantt import gantt_from_file

    ax = gantt_from_file(str(lease_run(tmp_path))).axes[0]
    bars = {c.get_label(): len(c.patches) for c in ax.containers}
    # runs: lease 1 twice on VM 0, AR 2 on 4 VMs; overheads: two image transfers (1 + 4 VMs),
    # lease 1's save and reload
    assert bars == {"tier 0": 6, "transfer": 5, "save": 1, "reload": 1}
    (stop,) = [c for c in ax.collections if c.get_label() == "preemption"]
    assert [tuple(p) for p in stop.get_offsets()] == [(1760.0, 0.5)]


def test_the_gantt_command_writes_a_png_of_a_cloud_run(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the gantt chart needs matplotlib (the [plot] extra)")
    out = lease_run(tmp_path)
    assert main(["gantt", str(out), "--from", "1000", "--to", "4000"]) == 0
    assert (out / "gantt.png").stat().st_size > 0


def test_a_window_with_too_many_bars_is_refused_with_what_to_do(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the gantt chart needs matplotlib (the [plot] extra)")
    out = lease_run(tmp_path)
    capsys.readouterr()
    assert main(["gantt", str(out), "--max-bars", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cloudsim-py: error: 13 bars between t=0 and t=5480 s, more than the 3")
    assert "--from/--to" in err and not (out / "gantt.png").exists()


def test_the_timeline_command_draws_several_runs(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the timeline chart needs matplotlib (the [plot] extra)")
    for policy in ("fcfs", "easy"):
        assert main(["run", scenario(tmp_path), "--out", str(tmp_path / policy), "-q", "--timeline",
                     "--set", f"broker.policy={policy}"]) == 0
    assert main(["timeline", str(tmp_path / "fcfs"), str(tmp_path / "easy"), "-o", str(tmp_path / "both")]) == 0
    assert (tmp_path / "both.png").stat().st_size > 0


def test_the_timeline_sums_the_clouds_and_shows_utilization(tmp_path):
    from cloudsim_py.experiments.usage import read_usage, window

    u = read_usage(str(lease_run(tmp_path) / "timeline.csv"))
    assert (u.capacity, u.times, u.busy) == (4, [0.0, 8.0, 900.0, 1760.0, 1800.0, 3600.0, 5480.0],
                                            [[0, 1, 1, 0, 4, 1, 0]])
    # a window starts with the state in force at its start
    w = window(u, 1000.0, 3600.0)
    assert (w.times, w.busy, w.suspended) == ([1000.0, 1760.0, 1800.0, 3600.0], [[1, 0, 4, 1]], [0, 1, 1, 0])


def test_a_run_without_timeline_is_an_error_saying_how_to_write_it(tmp_path, capsys):
    assert main(["run", scenario(tmp_path), "--out", str(tmp_path / "out"), "-q"]) == 0
    assert main(["timeline", str(tmp_path / "out")]) == 2
    assert "no timeline.csv (write it with output.timeline: true in the scenario, or run --timeline)" \
        in capsys.readouterr().err


def test_an_empty_window_is_an_error(tmp_path, capsys):
    assert main(["timeline", str(tmp_path), "--from", "10", "--to", "5"]) == 2
    assert "cloudsim-py: error: --to 5 must be after --from 10" in capsys.readouterr().err


def test_without_matplotlib_the_commands_say_what_to_install(tmp_path, capsys, monkeypatch):
    out = lease_run(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)     # import fails
    assert main(["timeline", str(out)]) == 2
    assert "plots need matplotlib: pip install 'cloudsim_py[plot]'" in capsys.readouterr().err
    assert main(["gantt", str(out)]) == 2
    assert "plots need matplotlib" in capsys.readouterr().err
