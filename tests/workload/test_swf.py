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


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_a_byte_order_mark_before_the_header_is_not_part_of_it(tmp_path, gz):
    path = write(tmp_path, "\ufeff" + HEADER + LINE, "t.swf.gz" if gz else "t.swf", gz=gz)
    assert read_header(path).max_procs == 128
    table = read_table(path)
    assert len(table) == 1 and table.header.machine_size == 128


def test_a_byte_order_mark_before_the_first_record_is_not_part_of_it(tmp_path):
    [(line, rec)] = list(iter_records(write(tmp_path, "\ufeff" + LINE)))
    assert line == 1 and rec.job == 1 and rec.run == 100


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


def test_a_write_that_fails_part_way_leaves_the_old_file_and_no_partial_one(tmp_path):
    path = tmp_path / "out.swf"
    path.write_text("old\n")
    rows = [np.arange(18, dtype=float), np.arange(17, dtype=float)]     # the second is bad
    with pytest.raises(TraceError, match="record 2 has 17 fields"):
        write_swf(path, rows, {"MaxProcs": 8})
    assert path.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.swf"]


def test_a_device_is_written_directly(tmp_path):
    with pytest.raises(OSError, match="No space left"):
        write_swf("/dev/full", [np.arange(18, dtype=float)] * 2000, {"MaxProcs": 8})


def test_a_truncated_gzip_is_an_error_naming_the_line_where_it_breaks(tmp_path):
    # 5,000 lines of random-looking numbers, gzip cut in half: the lines before the cut are
    # read, then the stream ends without its end marker.
    rng = np.random.default_rng(0)
    text = "".join(f"{i} {i} 0 {int(r)} 1 -1 -1 1 {int(r)} -1 1 1 1 -1 1 -1 -1 -1\n"
                   for i, r in enumerate(rng.integers(1, 10**9, 5000), 1))
    data = gzip.compress(text.encode())
    path = tmp_path / "t.swf.gz"
    path.write_bytes(data[: len(data) // 2])
    for read in (read_table, lambda p: list(iter_records(p))):
        with pytest.raises(TraceError, match=r"t\.swf\.gz:(\d+): corrupt or truncated gzip data after line") as err:
            read(path)
        line = int(str(err.value).split(":")[1])
        assert line > 1 and line < 5000     # a line inside the file, past the header


def test_a_gzip_without_any_data_is_an_error_at_line_1(tmp_path):
    path = tmp_path / "t.swf.gz"
    path.write_bytes(gzip.compress(LINE.encode())[:10])    # the 10-byte gzip header only
    with pytest.raises(TraceError, match=r"t\.swf\.gz:1: corrupt or truncated gzip data after line 0"):
        read_table(path)


@pytest.mark.parametrize("field, value", [(5, "4.5"), (8, "0.5")])
def test_a_fractional_processor_count_is_an_error_naming_line_and_field(tmp_path, field, value):
    parts = LINE.split()
    parts[field - 1] = value
    path = write(tmp_path, HEADER + LINE + " ".join(parts) + "\n")
    name = {5: "alloc_procs", 8: "req_procs"}[field]
    msg = rf"t\.swf:6: field {field} \({name}\): {value} is not a whole number of processors"
    with pytest.raises(TraceError, match=msg):
        read_table(path)
    with pytest.raises(TraceError, match=msg):
        list(iter_records(path))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_nan_and_infinite_fields_are_errors_naming_line_and_field(tmp_path, value):
    path = write(tmp_path, LINE + LINE.replace(" 100 ", f" {value} ", 1))
    with pytest.raises(TraceError, match=r"t\.swf:2: field 4 \(run\) is not a finite number"):
        read_table(path)
    with pytest.raises(TraceError, match=r"t\.swf:2: field 4 \(run\) is not a finite number"):
        list(iter_records(path))


def test_a_job_asking_more_than_ten_million_processors_is_an_error(tmp_path):
    path = write(tmp_path, LINE + LINE.replace(" 4 -1 -1 4 ", " 2000000000 -1 -1 4 ", 1))
    with pytest.raises(TraceError, match=r"t\.swf:2: field 5 \(alloc_procs\): 2e\+09 processors, "
                                         r"more than 10,000,000"):
        read_table(path)


def test_a_machine_size_in_exponent_notation_is_an_error_not_its_first_digit(tmp_path):
    # "MaxProcs: 2e9" used to read as 2 (the leading digits)
    path = write(tmp_path, HEADER.replace("MaxProcs: 128", "MaxProcs: 2e9") + LINE)
    header = read_table(path).header
    with pytest.raises(TraceError, match=r"t\.swf:3: header MaxProcs: '2e9' is not a whole number"):
        header.machine_size


def test_a_machine_size_above_ten_million_is_an_error_naming_line_and_key(tmp_path):
    path = write(tmp_path, HEADER.replace("MaxProcs: 128", "MaxProcs: 2000000000") + LINE)
    with pytest.raises(TraceError, match=r"t\.swf:3: header MaxProcs: 2,000,000,000 is more than 10,000,000"):
        read_header(path).machine_size
