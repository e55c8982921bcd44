"""What a notebook needs of the Python API (issue 20, item 3): any block can be rerun, since
``simulate`` and ``build`` never change the caller's jobs; results come as pandas DataFrames
(pandas an optional extra) and show as a table; a broker made by hand with parameters is
labelled with them."""

from __future__ import annotations

import builtins
import sys

import pytest

from cloudsim_py import (BrokerSpec, DatacenterSpec, Job, JobState, RunResult, build, simulate,
                         summary_frame)
from cloudsim_py.brokers.base import Broker, make_broker
from cloudsim_py.errors import MissingExtraError
from cloudsim_py.experiments.store import read_results, write_results
from cloudsim_py.metrics import JobRecords
from cloudsim_py.workload import WorkloadTable, prepare


def jobs() -> list[Job]:
    return [Job(1, submit_time=0.0, procs=2, runtime=10.0),
            Job(2, submit_time=0.0, procs=4, runtime=10.0),
            Job(3, submit_time=1.0, procs=1, runtime=1.0, runtime_estimate=2.0)]


def comparable(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "wall_seconds"}


# ------------------------------------------------------------------ the caller's jobs


def test_simulating_the_same_list_twice_gives_the_same_summary():
    given = jobs()
    first = simulate(given, hosts=4, policy="easy")
    second = simulate(given, hosts=4, policy="easy")
    assert comparable(second.summary) == comparable(first.summary)
    assert second.summary["jobs_finished"] == 3


def test_simulate_leaves_the_callers_jobs_pending_and_without_run_state():
    given = jobs()
    simulate(given, hosts=4, policy="easy")
    for job in given:
        assert job.state is JobState.PENDING
        assert job.first_start is None and job.finish_time is None and job.run is None
        assert job.tier == -1 and job.kills == 0


def test_the_copies_give_the_records_the_jobs_themselves_would_give():
    # the same run from descriptions and from jobs: identical records
    from_jobs = simulate(jobs(), hosts=4, policy="conservative").records
    from_descs = simulate([j.desc for j in jobs()], hosts=4, policy="conservative").records
    for name in JobRecords.FIELDS:
        assert from_jobs[name].tolist() == from_descs[name].tolist()


def test_a_world_built_from_jobs_runs_after_a_simulate_of_the_same_jobs():
    # the docs' "Stepping" block after the block above it
    given = jobs()
    simulate(given, hosts=4, policy="easy")
    world = build(given, datacenter=DatacenterSpec(hosts=4), broker="fcfs")
    world.run(until=5.0)
    world.run()
    summary, _ = world.results()
    assert summary["jobs_finished"] == 3
    assert all(j.state is JobState.PENDING for j in given)


def test_jobs_in_flight_are_the_runs_own_objects():
    given = jobs()
    r = simulate(given, hosts=4, policy="fcfs", until=5.0)
    assert [j.id for j in r.unfinished] == [1, 2, 3]
    assert r.unfinished[0] is not given[0] and r.unfinished[0].desc is given[0].desc
    assert r.unfinished[0].state is JobState.RUNNING


def test_a_fresh_job_is_a_pending_job_of_the_same_description():
    job = jobs()[2]
    job.state = JobState.FINISHED
    copy = job.fresh()
    assert copy is not job and copy.desc is job.desc and copy.state is JobState.PENDING
    assert (copy.id, copy.submit_time, copy.procs, copy.runtime_estimate) == (3, 1.0, 1, 2.0)


# ------------------------------------------------------------------ labels


def test_a_broker_made_by_hand_with_parameters_is_labelled_with_them():
    r = simulate(jobs(), hosts=4, tiers=2, policy=make_broker("ktcbf", {"aggressive": True}))
    assert r.label == "ktcbf(aggressive=True)"


def test_a_broker_made_by_hand_without_parameters_is_labelled_by_its_policy():
    assert simulate(jobs(), hosts=4, policy=make_broker("easy")).label == "easy"


def test_a_brokers_label_is_the_same_text_as_its_specs():
    spec = BrokerSpec("pect", {"interval": 3600.0, "skip_empty": False})
    assert spec.make().label == spec.name == "pect(interval=3600.0, skip_empty=False)"


def test_positional_arguments_are_labelled_by_their_parameters_name():
    class Window(Broker):
        def __init__(self, depth: int, greedy: bool = False) -> None:
            self.depth, self.greedy = depth, greedy

        def schedule(self, now: float) -> None:
            pass

    assert Window(3, greedy=True).label == "Window(depth=3, greedy=True)"


def test_a_broker_given_its_own_label_keeps_it():
    broker = make_broker("ktcbf", {"aggressive": True})
    broker.label = "eager"
    assert simulate(jobs(), hosts=4, tiers=2, policy=broker).label == "eager"


# ------------------------------------------------------------------ DataFrames and display


def test_to_pandas_gives_one_row_per_finished_job_with_the_records_columns():
    pd = pytest.importorskip("pandas")
    r = simulate(jobs(), hosts=4, policy="easy")
    frame = r.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(JobRecords.FIELDS)
    assert frame["id"].tolist() == [1, 2, 3] and frame.loc[2, "start"] == 1.0


def test_summary_frame_has_a_row_per_run_indexed_by_label():
    pytest.importorskip("pandas")
    runs = [simulate(jobs(), hosts=4, policy=p) for p in ("fcfs", "easy")]
    frame = summary_frame(runs)
    assert frame.index.tolist() == ["fcfs", "easy"]
    assert frame.loc["easy", "avg_wait"] == runs[1].summary["avg_wait"]


def test_summary_frame_refuses_two_runs_with_one_label():
    pytest.importorskip("pandas")
    runs = [simulate(jobs(), hosts=4, policy="easy"), simulate(jobs(), hosts=4, policy="easy", seed=2)]
    with pytest.raises(ValueError, match="two results are labelled 'easy'"):
        summary_frame(runs)


def test_read_results_as_frame_keeps_the_tables_columns_and_values(tmp_path):
    pytest.importorskip("pandas")
    path = str(tmp_path / "r.csv")
    rows = [{"run_id": "a", "status": "ok", "policy": "easy", "avg_wait": 1.5},
            {"run_id": "b", "status": "ok", "policy": "fcfs", "avg_wait": 2.5}]
    write_results(path, rows)
    frame = read_results(path, as_frame=True)
    assert list(frame.columns) == list(read_results(path)[0])
    assert frame["avg_wait"].tolist() == [1.5, 2.5] and frame["policy"].tolist() == ["easy", "fcfs"]


def test_without_pandas_a_frame_is_refused_naming_the_extra(monkeypatch):
    r = simulate(jobs(), hosts=4, policy="easy")
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pandas", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(MissingExtraError, match=r"pip install 'cloudsim_py\[pandas\]'"):
        r.to_pandas()
    with pytest.raises(ImportError):          # an ImportError too, for code that expects one
        summary_frame([r])


def test_a_result_shows_its_summary_as_an_html_table():
    r = simulate(jobs(), hosts=4, policy="easy")
    html = r._repr_html_()
    assert html.startswith("<table><caption>easy</caption>")
    assert "<th style=\"text-align:left\">avg_wait</th><td>3.333</td>" in html


def test_a_results_text_form_is_one_line_with_its_label_and_main_measures():
    r = simulate(jobs(), hosts=4, policy="easy")
    assert repr(r) == ("<RunResult 'easy': jobs_finished=3, jobs_rejected=0, avg_wait=3.333, "
                       "avg_bsld=1.333, utilization=0.7625>")
    assert isinstance(r, RunResult)


# ------------------------------------------------------------------ a small piece of a trace


def test_head_keeps_the_first_rows_and_counts_the_others_in_a_copy_of_the_report():
    table = prepare(WorkloadTable.from_columns({"submit": [0.0, 1.0, 2.0], "run": [5.0, 5.0, 5.0],
                                                "alloc_procs": [1, 1, 1]}), 4, estimate="actual")
    small = table.head(2)
    assert len(small) == 2 and small.runtime is not None and small.runtime.tolist() == [5.0, 5.0]
    assert small.report is not None and small.report.skipped["beyond the first 2"] == 1
    assert small.report.kept == 2
    assert table.report is not None and "beyond the first 2" not in table.report.skipped
    assert simulate(small, hosts=4).summary["jobs_finished"] == 2


# ------------------------------------------------------------------ a Gantt chart of a run in hand


def test_gantt_of_draws_a_recorded_run_titled_by_its_label():
    pytest.importorskip("matplotlib")
    from cloudsim_py.experiments.gantt import gantt_of

    fig = gantt_of(simulate(jobs(), hosts=4, policy="easy", record=True))
    assert fig.axes[0].get_title().startswith("easy\n")


def test_gantt_of_a_run_without_its_schedule_says_to_record_it():
    from cloudsim_py.errors import ExperimentError
    from cloudsim_py.experiments.gantt import gantt_of

    with pytest.raises(ExperimentError, match=r"record=True"):
        gantt_of(simulate(jobs(), hosts=4, policy="easy"))
