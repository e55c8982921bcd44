"""What an SWF file may not make the reader do: hold memory for lines it skips, read a "line" of
unbounded length, or take binary data for text (issue 17, hangs and memory)."""

import gzip
import io
import os
import tracemalloc

import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload import swf
from cloudsim_py.workload.swf import MAX_LINE, ReadStats, iter_records, read_header
from cloudsim_py.workload.table import read_table
from tests.helpers import cli_subprocess

LINE = "1 0 5 100 4 -1 -1 4 200 -1 1 3 3 -1 1 -1 -1 -1\n"


def blank_gzip(path, lines, between=""):
    """A gzip of ``lines`` newlines, ``between`` written after the first half of them."""
    with gzip.open(path, "wb", compresslevel=1) as fh:
        half, block = lines // 2, b"\n" * (1 << 20)
        for n in (half, lines - half):
            while n:
                k = min(n, len(block))
                fh.write(block[:k])
                n -= k
            if between:
                fh.write(between.encode())
                between = ""
    return path


def test_blank_lines_take_no_memory_and_are_counted(tmp_path):
    # 20 million blank lines (20 MB of text); once, a list of them took 2.6 GB per 300 million
    path = blank_gzip(tmp_path / "t.swf.gz", 20_000_000, between="; MaxProcs: 8\n" + LINE)
    tracemalloc.start()
    try:
        table = read_table(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000
    assert len(table) == 1 and int(table.line[0]) == 10_000_002
    assert table.report.blank_lines == 20_000_000
    assert "  20000000 blank lines skipped" in table.report.lines()


def test_blank_lines_are_counted_by_the_line_by_line_reader_too(tmp_path):
    path = blank_gzip(tmp_path / "t.swf.gz", 1_000_000, between=LINE)
    stats = ReadStats()
    [(line, _)] = list(iter_records(path, stats))
    assert line == 500_001 and stats.blank == 1_000_000 and stats.records == 1


def test_blank_space_lines_count_as_blank(tmp_path):
    path = tmp_path / "t.swf"
    path.write_text("  \n\t\n" + LINE + " \n")
    assert read_table(path).report.blank_lines == 3


def test_a_line_longer_than_the_limit_is_an_error_naming_file_and_line(tmp_path):
    path = tmp_path / "t.swf"
    path.write_text(LINE + "1" * (MAX_LINE + 1) + "\n" + LINE)
    for read in (read_table, lambda p: list(iter_records(p))):
        with pytest.raises(TraceError, match=r"^.*t\.swf:2: line 2 is longer than 65,536 characters "
                                             r"\(binary data or no newlines\?\), not an SWF file$"):
            read(path)


def test_a_header_line_longer_than_the_limit_is_an_error_too(tmp_path):
    path = tmp_path / "t.swf"
    path.write_text("; Note: " + "x" * MAX_LINE + "\n" + LINE)
    with pytest.raises(TraceError, match=r"t\.swf:1: line 1 is longer than 65,536 characters"):
        read_header(path)


def test_a_line_of_the_limit_is_read(tmp_path):
    path = tmp_path / "t.swf"
    path.write_text(";" + "x" * (MAX_LINE - 1) + "\n" + LINE)
    assert len(read_table(path)) == 1


class Endless(io.TextIOBase):
    """A text stream of ``text`` repeated for ever (a "file" with no end); ``served`` counts
    the characters read from it."""

    def __init__(self, text: str = "a") -> None:
        self.text, self.served = text, 0

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            raise MemoryError("read the whole of an endless stream")
        start = self.served % len(self.text)
        self.served += size
        return (self.text * (size // len(self.text) + 2))[start:start + size]


def test_an_endless_line_is_refused_after_a_bounded_read(monkeypatch):
    for read in (read_table, lambda p: list(iter_records(p)), read_header):
        stream = Endless()
        monkeypatch.setattr(swf, "open_text", lambda path: stream)
        with pytest.raises(TraceError, match=r"endless:1: line 1 is longer than 65,536 characters"):
            read("endless")
        assert stream.served <= MAX_LINE + 2 * swf._BLOCK


def test_blank_lines_then_an_endless_line_are_refused_naming_its_line(monkeypatch):
    monkeypatch.setattr(swf, "open_text", lambda path: Endless("\n" * 1000 + "a" * 99_000))
    with pytest.raises(TraceError, match=r"endless:1001: line 1001 is longer than 65,536 characters"):
        read_table("endless")


def test_a_nul_byte_is_binary_data_naming_the_line(tmp_path):
    path = tmp_path / "t.swf.gz"
    path.write_bytes(gzip.compress((LINE + LINE + "1 0\0\0\0").encode()))
    for read in (read_table, lambda p: list(iter_records(p))):
        with pytest.raises(TraceError, match=r"^.*t\.swf\.gz:3: binary data \(a NUL byte\), not a text file$"):
            read(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_workload_stats_of_dev_zero_ends_at_once_with_the_reason():
    done = cli_subprocess("workload", "stats", "/dev/zero", timeout=60)
    assert done.returncode == 2
    assert done.stderr == "cloudsim-py: error: /dev/zero:1: binary data (a NUL byte), not a text file\n"
