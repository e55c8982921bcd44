"""``jobs.csv`` lines: every number written as its ``repr``, however the line is put together
(:func:`cloudsim_py.metrics.finished_lines` formats whole-number float columns as integers)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.metrics import JobRecords, csv_cell, csv_column, finished_lines

FIELDS = JobRecords.FIELDS
INTS = {"id", "procs", "kills", "suspensions", "migrations", "swaps", "tier"}


def reference(columns: dict, text: tuple[str, ...] = ()) -> list[str]:
    """The plain way: the ``repr`` of every value, joined by commas."""
    cols = [columns[n].tolist() for n in FIELDS]
    words = [columns[n] for n in text]
    out = []
    for i, values in enumerate(zip(*cols)):
        line = ",".join(map(repr, values))
        if text:
            line += "," + ",".join(csv_cell(w[i]) for w in words)
        out.append(line + ",finished,\n")
    return out


#: floats that print differently as integers, or must not be taken for them
EDGES = [0.0, -0.0, 1.0, -3.0, 0.5, 1e15, 9999999999999998.0, 1e16, -1e16, 1e300, 2.5e-7,
         float("inf"), float("-inf"), float("nan"), 123456789.0, 1e-320]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 30), st.data())
def test_every_number_is_written_as_its_repr(rows, data):
    columns = {}
    for name in FIELDS:
        if name in INTS:
            columns[name] = np.array(data.draw(st.lists(st.integers(-2**62, 2**62), min_size=rows, max_size=rows)),
                                     dtype=np.int64)
        else:
            whole = data.draw(st.booleans())          # a column of whole numbers, or anything
            values = st.integers(-2**60, 2**60).map(float) if whole else (
                st.sampled_from(EDGES) | st.floats(allow_nan=True, allow_infinity=True))
            columns[name] = np.array(data.draw(st.lists(values, min_size=rows, max_size=rows)), dtype=np.float64)
    assert finished_lines(columns) == reference(columns)
    columns["cloud"] = data.draw(st.lists(st.sampled_from(["c0", "a,b", 'say "x"']), min_size=rows, max_size=rows))
    assert finished_lines(columns, ("cloud",)) == reference(columns, ("cloud",))


def test_whole_floats_read_back_as_they_were_written():
    # 76.0 as "76.0" (as repr has it), -0.0 and 1e16 as repr writes them, not as integers
    columns = {n: np.array([7, 8]) if n in INTS else np.array([76.0, 2.0]) for n in FIELDS}
    columns["bsld"] = np.array([-0.0, 1.5])
    columns["lost_work"] = np.array([1e16, 0.0])
    line = finished_lines(columns)[0]
    assert line.startswith("7,76.0,76.0,76.0,7,76.0,76.0,76.0,76.0,-0.0,")
    assert line.endswith(",1e+16,finished,\n")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.data())
def test_text_columns_are_quoted_as_cell_by_cell(rows, data):
    # several text columns, each of plain words or of words a comma, a quote or a line break
    # makes quoted: one format for the whole line writes what csv_cell writes cell by cell
    columns = {n: np.arange(rows, dtype=np.int64) if n in INTS else np.arange(rows) + 0.5 for n in FIELDS}
    names = ("cloud", "mode", "requested_start", "dag", "task")
    words = st.text(alphabet="ab,\"\n\r% 1", max_size=6) | st.sampled_from(["", "c0", "best-effort", "%s", "%d"])
    for name in names:
        columns[name] = data.draw(st.lists(words, min_size=rows, max_size=rows))
    assert finished_lines(columns, names) == reference(columns, names)
    for name in names:
        assert list(csv_column(columns[name])) == [csv_cell(w) for w in columns[name]]
