import gzip

import numpy as np
import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload.swf import iter_records, read_header, write_swf
from cloudsim_py.workload.table import read_table

HEADER = """; Version: 2.2
; MaxNodes: 64 (batch partition)
; MaxProcs: 128
; UnixStartTime: 843480031
"""
LINE = "1 0 5 100 4 -1 -1 4 200 -1 1 3 3 -1 1 -1 -1 -1\n"


def write(tmp_path, text, name="t.swf", gz=False):
    path = tmp_path / name
    if gz:
        with gzip.open(path, "wt") as fh:
            fh.write(text)
    else:
        path.write_text(text)
    return path


def test_header_fields_are_parsed_with_leading_integers(tmp_path):
    h = read_header(write(tmp_path, HEADER + LINE))
    assert (h.max_procs, h.max_nodes, h.unix_start_time) == (128, 64, 843480031)
    assert h.machine_size == 128


def test_all_18_fields_are_read_from_a_gzip_file(tmp_path):
    path = write(tmp_path, HEADER + LINE, "t.swf.gz", gz=True)
    [(line, rec)] = list(iter_records(path))
    assert line == 5 and rec.job == 1 and rec.run == 100 and rec.req_time == 200 and rec.user == 3
    assert len(rec) == 18


def test_short_line_is_an_error_naming_file_and_line(tmp_path):
    path = write(tmp_path, HEADER + LINE + "2 10 0 50 2\n")
    with pytest.raises(TraceError, match=r"t\.swf:6: expected 18 SWF fields, found 5"):
        list(iter_records(path))


def test_non_numeric_field_is_an_error_naming_line_and_field(tmp_path):
    path = write(tmp_path, LINE + LINE.replace(" 100 ", " abc ", 1))
    with pytest.raises(TraceError, match=r"t\.swf:2: field 4 \(run\) is not a number: 'abc'"):
        read_table(path)


def test_extra_fields_are_cut_to_18_and_counted(tmp_path):
    path = write(tmp_path, LINE.rstrip("\n") + " node7 q1\n")
    table = read_table(path)
    assert table.data.shape == (1, 18) and table.report.extra_fields == 1


def test_missing_file_is_a_trace_error(tmp_path):
    with pytest.raises(TraceError, match="no such file"):
        read_table(tmp_path / "absent.swf")


def test_writer_round_trips_records(tmp_path):
    rows = [np.arange(18, dtype=float), np.full(18, -1.0)]
    rows[0][3] = 12.5
    path = tmp_path / "out.swf"
    n = write_swf(path, rows, {"MaxProcs": 8, "Note": "test"})
    table = read_table(path)
    assert n == 2 and table.header.max_procs == 8
    np.testing.assert_array_equal(table.data, np.vstack(rows))
