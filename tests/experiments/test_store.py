"""The results table: types survive a round trip in both formats, writes are atomic, and
only runs that succeeded count as finished."""

import math
import re
import os

import pytest

from cloudsim_py.errors import ExperimentError
from cloudsim_py.experiments import store as store_mod
from cloudsim_py.experiments.store import ResultsStore, read_results, write_results

ROWS = [
    {"run_id": "1e5000000000", "status": "ok", "seed": 1, "workload.model.load": 0.5,
     "tag.variant": "un", "datacenter.check": True, "policy": "easy", "avg_wait": 12.5,
     "kills": 3, "run_seconds": 0.1, "warnings": None, "error": None},
    {"run_id": "000000000042", "status": "failed", "seed": 2, "workload.model.load": 1,
     "tag.variant": "full", "datacenter.check": False, "policy": "easy", "avg_wait": None,
     "kills": None, "run_seconds": 0.2, "warnings": "x: y", "error": "TraceError: bad line"},
]


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_rows_read_back_with_their_types(tmp_path, ext):
    path = str(tmp_path / f"r.{ext}")
    write_results(path, ROWS)
    back = read_results(path)
    # run ids stay text even when they look like numbers; an int/float column becomes float
    assert back[0]["run_id"] == "1e5000000000" and back[1]["run_id"] == "000000000042"
    assert back[1]["workload.model.load"] == 1.0 and isinstance(back[1]["workload.model.load"], float)
    assert back[0]["seed"] == 1 and isinstance(back[0]["seed"], int)
    assert back[0]["datacenter.check"] is True and back[1]["datacenter.check"] is False
    assert back[1]["avg_wait"] is None and back[1]["error"] == "TraceError: bad line"
    assert back[0]["warnings"] is None
    assert list(back[0]) == list(ROWS[0])


def test_nan_survives_both_formats(tmp_path):
    for ext in ("parquet", "csv"):
        path = str(tmp_path / f"n.{ext}")
        write_results(path, [{"run_id": "a", "status": "ok", "avg_bsld": math.nan}])
        assert math.isnan(read_results(path)[0]["avg_bsld"])


def test_an_interrupted_write_leaves_the_previous_table(tmp_path, monkeypatch):
    path = str(tmp_path / "r.parquet")
    write_results(path, ROWS[:1])

    def killed(src, dst):
        raise KeyboardInterrupt   # the process dies between writing the new file and renaming it

    monkeypatch.setattr(store_mod.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        write_results(path, ROWS)
    monkeypatch.undo()
    assert [r["run_id"] for r in read_results(path)] == ["1e5000000000"]
    assert os.listdir(tmp_path) == ["r.parquet"]


def test_a_store_removes_what_a_killed_writer_left(tmp_path):
    path = tmp_path / "r.csv"
    (tmp_path / "r.csv.tmp-12345").write_text("run_id,sta")
    ResultsStore(str(path))
    assert not (tmp_path / "r.csv.tmp-12345").exists()


def test_failed_runs_are_not_finished(tmp_path):
    store = ResultsStore(str(tmp_path / "r.parquet"))
    store.put("a", [ROWS[0]])
    store.put("b", [ROWS[1]])
    assert store.finished() == {"a"} and store.run_ids() == {"a", "b"}


def test_rows_are_written_in_sweep_order_unknown_runs_last(tmp_path):
    store = ResultsStore(str(tmp_path / "r.csv"), order={"b": 0, "a": 1})
    for rid in ("x", "a", "b"):
        store.put(rid, [{"run_id": rid, "status": "ok"}])
    store.flush()
    assert [r["run_id"] for r in read_results(str(tmp_path / "r.csv"))] == ["b", "a", "x"]


def test_a_table_needs_a_known_extension(tmp_path):
    with pytest.raises(ExperimentError, match="ends in .parquet or .csv"):
        ResultsStore(str(tmp_path / "r.xlsx"))


def test_writes_are_spaced_so_that_writing_takes_at_most_a_tenth_of_the_time():
    from cloudsim_py.experiments.runs import _Writer

    class Table:
        flushes = 0

        def put(self, run_id, rows):
            pass

        def flush(self):
            Table.flushes += 1
            clock.now += 1.0               # every write takes 1 s

    class Clock:
        now = 0.0

        def __call__(self):
            return self.now

    clock = Clock()
    writer = _Writer(Table(), share=0.1, clock=clock)
    writer.put("a", [])
    writer.maybe_flush()                   # first write at once: the table ends at t = 1
    assert Table.flushes == 1
    clock.now = 9.5
    writer.put("b", [])
    writer.maybe_flush()                   # 8.5 s after a 1 s write: writing now would be > 10 %
    assert Table.flushes == 1 and writer.pending
    clock.now = 10.0
    writer.maybe_flush()                   # 9 s after: 1 s of writing in 10 s
    assert Table.flushes == 2 and not writer.pending
    writer.flush()                         # nothing pending: no write
    assert Table.flushes == 2


def test_a_table_without_a_run_id_column_is_refused_naming_the_file_and_the_column(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("policy,avg_wait\neasy,1.5\n")
    with pytest.raises(ExperimentError, match=rf"^{re.escape(str(path))}: no 'run_id' column, so not a "
                                              r"sweep's results table \(its columns: policy, avg_wait\); "
                                              r"name another file, or move this one away$"):
        ResultsStore(str(path))
    assert path.read_text() == "policy,avg_wait\neasy,1.5\n"     # left as it was


def test_a_table_with_only_a_header_and_no_run_id_is_refused_too(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("a,b\n")
    with pytest.raises(ExperimentError, match=r"r.csv: no 'run_id' column, so not a sweep's results table "
                                              r"\(its columns: a, b\)"):
        ResultsStore(str(path))


def test_a_table_without_a_status_column_is_refused_naming_it(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("run_id,avg_wait\nabc,1.5\n")
    with pytest.raises(ExperimentError, match=r"r.csv: no 'status' column"):
        ResultsStore(str(path))


def test_sweep_results_into_a_table_without_run_id_is_a_one_line_error(tmp_path, small_sweep, capsys):
    from cloudsim_py.cli import main

    path = tmp_path / "r.csv"
    path.write_text("policy,avg_wait\neasy,1.5\n")
    assert main(["sweep", str(small_sweep), "--results", str(path), "-q", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (f"cloudsim-py: error: {path}: no 'run_id' column, so not a sweep's results table "
                   "(its columns: policy, avg_wait); name another file, or move this one away\n")
