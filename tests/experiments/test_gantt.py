"""schedule.csv from a recorded run, its segments, and the Gantt chart drawn from it."""

import pytest

from cloudsim_py.cli import main
from cloudsim_py.errors import ExperimentError
from cloudsim_py.experiments.schedule import Segment, read_schedule, timeline, write_schedule
from tests.brokers.test_liu2013_examples import fig1
from tests.brokers.test_liu2015_fig3 import run as fig3


def recorded(tmp_path, result):
    path = tmp_path / "run" / "schedule.csv"
    write_schedule(str(path), result.datacenter.log)
    return path


def test_the_file_holds_the_log_row_for_row(tmp_path):
    result = fig3("ccfcfs")
    path = recorded(tmp_path, result)
    lines = path.read_text().splitlines()
    assert lines[0] == "time,action,job,tier,hosts"
    assert lines[1] == "0.0,start,1,0,0 1"          # J1 in the foreground on hosts 0 and 1
    events = read_schedule(str(path))
    assert [(e.time, e.action, e.job, e.tier, e.hosts) for e in events] == result.datacenter.log


def test_segments_of_liu2013_fig1_cmbf():
    # the schedule of tests/brokers/test_liu2013_examples.py::test_cmbf_fig1a: J5 is suspended
    # on hosts 3-4 at 5 and resumed on 5 and 1 at 10 (10 of its 15 s left: ends at 20)
    tl = timeline(_events(fig1("cmbf").datacenter.log))
    assert sorted(tl.segments, key=lambda s: (s.job, s.start)) == [
        Segment(1, 0, (0,), 0.0, 20.0, "finish"),
        Segment(2, 0, (1, 2), 0.0, 5.0, "finish"),
        Segment(3, 0, (2, 3, 4, 0, 5, 1), 20.0, 25.0, "finish"),
        Segment(4, 0, (1, 2, 3, 4), 5.0, 10.0, "finish"),
        Segment(5, 0, (3, 4), 0.0, 5.0, "suspend"),
        Segment(5, 0, (5, 1), 10.0, 20.0, "finish"),
        Segment(6, 0, (5,), 0.0, 10.0, "finish"),
    ]
    (move,) = tl.marks
    assert (move.kind, move.time, move.job, move.hosts, move.source) == ("migration", 10.0, 5, (5, 1), (3, 4))
    assert (tl.hosts, tl.tiers, tl.end) == (6, 1, 25.0)


def test_a_swap_closes_a_segment_and_opens_one_in_the_other_tier():
    tl = timeline(_events(fig3("ccfcfs").datacenter.log))
    j3 = [s for s in tl.segments if s.job == 3]
    # J3 runs in the background from 0, is switched up at 10 on the same hosts, ends at 15
    assert j3 == [Segment(3, 1, (3, 4), 0.0, 10.0, "swap"), Segment(3, 0, (3, 4), 10.0, 15.0, "finish")]
    (kill,) = tl.marks
    assert (kill.kind, kill.time, kill.job, kill.tier, kill.hosts) == ("kill", 15.0, 7, 1, (0, 1))


def test_the_chart_draws_a_bar_per_job_and_host_in_each_tier_and_marks_the_kill(tmp_path):
    pytest.importorskip("matplotlib")
    from cloudsim_py.experiments.gantt import gantt_from_file

    recorded(tmp_path, fig3("ccfcfs"))
    ax = gantt_from_file(str(tmp_path / "run")).axes[0]
    bars = {c.get_label(): len(c.patches) for c in ax.containers}
    # foreground: J1 2 + J2 4 + J3 (after the swap) 2 + J6 3 + J7 (restarted) 2 = 13;
    # background: J4 1 + J3 2 + J5 2 + J7 (killed) 2 = 7
    assert bars == {"tier 0 (foreground)": 13, "tier 1 (background)": 7}
    kills = [c for c in ax.collections if c.get_label() == "kill"]
    assert len(kills) == 1 and sorted(map(tuple, kills[0].get_offsets())) == [(15.0, 0.75), (15.0, 1.75)]


def test_migrations_are_marked_on_the_hosts_the_job_moved_to(tmp_path):
    pytest.importorskip("matplotlib")
    from cloudsim_py.experiments.gantt import gantt_from_file

    recorded(tmp_path, fig1("cmbf"))
    ax = gantt_from_file(str(tmp_path / "run")).axes[0]
    assert [len(c.patches) for c in ax.containers] == [18]    # 1 + 2 + 6 + 4 + 2 + 2 + 1 host-bars
    (moves,) = [c for c in ax.collections if c.get_label() == "migration"]
    # one tier: host h's band is [h, h + 1), its middle h + 0.5
    assert sorted(map(tuple, moves.get_offsets())) == [(10.0, 1.5), (10.0, 5.5)]


def test_gantt_command_writes_png_and_pdf_into_the_run_folder(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    recorded(tmp_path, fig3("acfcfs"))
    assert main(["gantt", str(tmp_path / "run")]) == 0
    assert (tmp_path / "run" / "gantt.png").stat().st_size > 0
    assert (tmp_path / "run" / "gantt.pdf").stat().st_size > 0


def test_a_folder_without_schedule_is_an_error(tmp_path):
    from cloudsim_py.experiments.gantt import schedule_path

    with pytest.raises(ExperimentError, match="no schedule.csv"):
        schedule_path(str(tmp_path))


def test_a_job_that_finishes_without_starting_is_an_error(tmp_path):
    path = tmp_path / "schedule.csv"
    path.write_text("time,action,job,tier,hosts\n5.0,finish,3,0,0 1\n")
    with pytest.raises(ExperimentError, match=r"event 1 \(t=5, finish job 3\): the job is not running"):
        timeline(read_schedule(str(path)))


def _events(log):
    from cloudsim_py.experiments.schedule import ScheduleEvent

    return [ScheduleEvent(*e) for e in log]
