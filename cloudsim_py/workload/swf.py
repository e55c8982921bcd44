"""Standard Workload Format: streaming reader (plain or .gz), header parsing, writer.

Field numbers follow the Parallel Workloads Archive definition (1-based in the docs, 0-based in
code). Imports nothing from the engine.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import warnings
import zlib
from array import array
from typing import IO, Iterable, Iterator, Mapping, NamedTuple, Sequence

import attrs
import numpy as np

from ..errors import TraceError
from .description import MAX_JOB_ID      # job numbers are kept in float64 columns: exact up to it

FIELDS = (
    "job", "submit", "wait", "run", "alloc_procs", "avg_cpu", "used_mem", "req_procs",
    "req_time", "req_mem", "status", "user", "group", "app", "queue", "partition",
    "preceding", "think",
)
"""The 18 SWF fields in file order."""

#: most processors a machine (header MaxProcs / MaxNodes) or a job (fields 5 and 8) may have;
#: beyond it a trace is corrupt, or the simulation would run out of memory (docs/traces.md)
MAX_PROCS = 10_000_000
_PROC_COLS = (4, 7)                      # alloc_procs, req_procs
#: latest time (s, about 31,700 years) a trace may name: a double still holds it to 0.2 ms,
#: so that waits and run times computed from it stay exact to far below a second
MAX_TIME = 1e12
_TIME_COLS = (3, 8)                      # run, req_time: -1 is unknown, only too large is wrong
#: longest line read, in characters: an SWF job line has about 100, a header comment rarely 200;
#: a longer "line" is not SWF (binary data, or a file without newlines) and is refused before it
#: fills the memory
MAX_LINE = 65_536
#: characters decoded per read
_BLOCK = 65536
#: errors of a corrupt or truncated gzip stream
_GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)


class SWFRecord(NamedTuple):
    """One job line, all 18 fields as floats (``-1`` = unknown)."""

    job: float
    submit: float
    wait: float
    run: float
    alloc_procs: float
    avg_cpu: float
    used_mem: float
    req_procs: float
    req_time: float
    req_mem: float
    status: float
    user: float
    group: float
    app: float
    queue: float
    partition: float
    preceding: float
    think: float


@attrs.define(slots=True)
class SWFHeader:
    """Header comments of an SWF file. ``fields`` maps every ``; Key: value`` line; ``lines``
    the line of each key in ``source`` (for error messages)."""

    fields: dict[str, str] = attrs.field(factory=dict)
    comments: list[str] = attrs.field(factory=list)
    source: str = "<memory>"
    lines: dict[str, int] = attrs.field(factory=dict)

    def _int(self, key: str, high: int | None = None) -> int | None:
        """The leading integer of a field (``64 (batch partition)`` is 64); ``None`` if absent
        or not numeric. A number that is not a whole one (``2e9``, ``1.5``) or above ``high``
        is a :class:`TraceError` naming file, line and key, not a silently wrong size."""
        value = self.fields.get(key)
        if value is None:
            return None
        m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", value)
        if not m:
            return None
        where = f"{self.source}:{self.lines[key]}" if key in self.lines else self.source
        if not re.fullmatch(r"[-+]?\d+", m.group(1)):
            raise TraceError(f"{where}: header {key}: {value!r} is not a whole number")
        n = int(m.group(1))
        if high is not None and n > high:
            raise TraceError(f"{where}: header {key}: {n:,} is more than {high:,}, "
                             "the most processors a machine may have")
        return n

    @property
    def max_procs(self) -> int | None:
        return self._int("MaxProcs", MAX_PROCS)

    @property
    def max_nodes(self) -> int | None:
        return self._int("MaxNodes", MAX_PROCS)

    @property
    def unix_start_time(self) -> int | None:
        return self._int("UnixStartTime")

    @property
    def machine_size(self) -> int | None:
        """Processors of the machine: ``MaxProcs``, else ``MaxNodes``."""
        p = self.max_procs
        return p if p is not None and p > 0 else self.max_nodes


def open_text(path: str | os.PathLike) -> IO[str]:
    """Open a plain or gzip-compressed text file (decided by the magic bytes, not the name); a
    UTF-8 byte-order mark at its start (a file saved by some Windows editors) is not part of
    the first line."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(2)
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TraceError(f"{path}: is a directory, not an SWF file") from None
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", errors="replace")
    return open(path, encoding="utf-8-sig", errors="replace")


_HEADER_RE = re.compile(r"^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*$")


def _blocks(path: str, stats: ReadStats) -> Iterator[tuple[int, list[str]]]:
    """``(number of the first line, lines)`` of a plain or gzip file, without their newlines,
    :data:`_BLOCK` characters at a time, so that memory stays bounded whatever the file holds
    (a gzip of millions of blank lines, ``/dev/zero``). A block of blank lines only is counted
    in ``stats.blank`` (at C speed) and not yielded. A line longer than :data:`MAX_LINE`
    characters or a NUL byte (binary data) is a :class:`TraceError` naming the file and the
    line; so is a corrupt or truncated gzip stream (the line where it breaks)."""
    first = 1                # number of the next line to yield
    tail = ""                # the part of a line read so far, before its newline
    with open_text(path) as fh:
        while True:
            try:
                block = fh.read(_BLOCK)
            except _GZIP_ERRORS as exc:
                raise _corrupt(path, first - 1, exc) from None
            if not block:
                break
            nul = block.find("\0")
            if nul >= 0:
                line = first + block.count("\n", 0, nul)
                raise TraceError(f"{path}:{line}: binary data (a NUL byte), not a text file")
            if block.isspace() and (not tail or tail.isspace()):
                n = block.count("\n")
                if n:
                    stats.blank += n
                    first += n
                    tail = block[block.rfind("\n") + 1:]
                else:
                    tail += block
                if len(tail) > MAX_LINE:
                    raise _too_long(path, first)
                continue
            lines = (tail + block).split("\n") if tail else block.split("\n")
            tail = lines.pop()
            # only the first line (tail + block) and the new tail can be longer than a block
            if lines and len(lines[0]) > MAX_LINE:
                raise _too_long(path, first)
            if len(tail) > MAX_LINE:
                raise _too_long(path, first + len(lines))
            if lines:
                yield first, lines
                first += len(lines)
    if tail:
        yield first, [tail]


def _too_long(path: str, line: int) -> TraceError:
    return TraceError(f"{path}:{line}: line {line} is longer than {MAX_LINE:,} characters "
                      "(binary data or no newlines?), not an SWF file")


def _lines(path: str, stats: ReadStats) -> Iterator[tuple[int, str]]:
    """``(line number, line without its newline)`` of a plain or gzip file, as :func:`_blocks`
    reads them (bounded memory and line length; blocks of blank lines only are counted in
    ``stats.blank``, not yielded)."""
    for first, lines in _blocks(path, stats):
        yield from enumerate(lines, first)


def _corrupt(path: str, lines_read: int, exc: BaseException) -> TraceError:
    return TraceError(f"{path}:{lines_read + 1}: corrupt or truncated gzip data after line "
                      f"{lines_read}: {exc or type(exc).__name__}")


def read_header(path: str | os.PathLike) -> SWFHeader:
    """Parse the leading ``;`` comment block (stops at the first job line)."""
    path = os.fspath(path)
    header = SWFHeader(source=path)
    for lineno, line in _lines(path, ReadStats()):
        if not line.startswith(";"):
            if line.strip():
                break
            continue
        _parse_header_line(header, line, lineno)
    return header


def _parse_header_line(header: SWFHeader, line: str, lineno: int = 0) -> None:
    header.comments.append(line.rstrip("\n"))
    m = _HEADER_RE.match(line)
    if m and m.group(1) not in header.fields:
        header.fields[m.group(1)] = m.group(2)
        header.lines[m.group(1)] = lineno


@attrs.define(slots=True)
class ReadStats:
    """What the raw reader saw: record lines, comment lines, lines with more than 18 fields."""

    records: int = 0
    comments: int = 0
    blank: int = 0
    extra_fields: int = 0


def _iter_fields(path: str, stats: ReadStats, header: SWFHeader | None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, 18 field strings)`` for every job line; checks the field count."""
    for lineno, line in _lines(path, stats):
        if line.startswith(";"):
            stats.comments += 1
            if header is not None and stats.records == 0:
                _parse_header_line(header, line, lineno)
            continue
        parts = line.split()
        n = len(parts)
        if n != 18:
            if n == 0:
                stats.blank += 1
                continue
            if parts[0][0] == ";":          # an indented comment
                stats.comments += 1
                continue
            if n < 18:
                raise TraceError(f"{path}:{lineno}: expected 18 SWF fields, found {n}: "
                                 f"{line.strip()[:80]!r}")
            stats.extra_fields += 1
            parts = parts[:18]
        stats.records += 1
        yield lineno, parts


def iter_records(path: str | os.PathLike, stats: ReadStats | None = None,
                 header: SWFHeader | None = None) -> Iterator[tuple[int, SWFRecord]]:
    """Yield ``(line_number, record)`` for every job line, streaming.

    Lines with fewer than 18 fields, a non-numeric, infinite or NaN field, or a processor
    count (fields 5 and 8) that is fractional or above :data:`MAX_PROCS` raise
    :class:`TraceError` naming the file, line and field. Lines with more than 18 fields
    (extended SWF) keep the first 18 and are counted in ``stats.extra_fields``. Header
    comments are parsed into ``header`` if given.
    """
    path = os.fspath(path)
    stats = stats if stats is not None else ReadStats()
    if header is not None:
        header.source = path
    for lineno, parts in _iter_fields(path, stats, header):
        try:
            rec = SWFRecord._make(map(float, parts))
        except ValueError:
            raise _bad_number(path, lineno, parts) from None
        _check_values(path, np.array([rec]), np.array([lineno]))
        yield lineno, rec


def _check_values(path: str, data: np.ndarray, lines: np.ndarray) -> None:
    """Every field finite; processor counts (fields 5 and 8) whole and at most
    :data:`MAX_PROCS` (``-1``, unknown, is whole). Vectorised: O(rows) in C."""
    bad = ~np.isfinite(data)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise TraceError(f"{path}:{int(lines[row])}: field {col + 1} ({FIELDS[col]}) is not a finite "
                         f"number: {data[row, col]}")
    _check_ids_and_times(path, data, lines)
    procs = data[:, _PROC_COLS]
    bad = (procs != np.floor(procs)) | (procs > MAX_PROCS)
    if bad.any():
        row, k = np.argwhere(bad)[0]
        col = _PROC_COLS[k]
        v = data[row, col]
        why = (f"{v:g} processors, more than {MAX_PROCS:,}" if v > MAX_PROCS
               else f"{v:g} is not a whole number of processors")
        raise TraceError(f"{path}:{int(lines[row])}: field {col + 1} ({FIELDS[col]}): {why}")


def _check_ids_and_times(path: str, data: np.ndarray, lines: np.ndarray) -> None:
    """Job numbers (field 1) whole and at most :data:`MAX_JOB_ID` in size (a larger one would be
    changed silently: 9007199254740993 is stored as ...992); submit times (field 2) from 0 to
    :data:`MAX_TIME`, or -1 (unknown: the cleaning skips it; another negative one would be
    charged as waiting, a huge one loses the run time to rounding); run and requested times
    (fields 4 and 9) at most :data:`MAX_TIME`. O(rows), vectorised."""
    ids = data[:, 0]
    bad = (ids != np.floor(ids)) | (np.abs(ids) > MAX_JOB_ID)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        v = float(ids[row])
        why = (f"{v!r} is not a whole number" if v != np.floor(v)
               else f"{v:.0f} is beyond {MAX_JOB_ID:,} (2**53 - 1), above which job numbers cannot be kept exactly")
        raise TraceError(f"{path}:{int(lines[row])}: field 1 (job): {why}")
    submit = data[:, 1]
    bad = ((submit < 0) & (submit != -1)) | (submit > MAX_TIME)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        v = submit[row]
        why = ("is negative (-1 is unknown: such a job is skipped and counted)" if v < 0
               else f"is beyond {MAX_TIME:g} s (about 31,700 years)")
        raise TraceError(f"{path}:{int(lines[row])}: field 2 (submit): {v:g} {why}")
    times = data[:, _TIME_COLS]
    bad = times > MAX_TIME
    if bad.any():
        row, k = np.argwhere(bad)[0]
        col = _TIME_COLS[k]
        raise TraceError(f"{path}:{int(lines[row])}: field {col + 1} ({FIELDS[col]}): {data[row, col]:g} "
                         f"is beyond {MAX_TIME:g} s (about 31,700 years)")


def _bad_number(path: str, lineno: int, parts: Sequence[str]) -> TraceError:
    col = next(i for i, p in enumerate(parts) if not _is_number(p))
    return TraceError(f"{path}:{lineno}: field {col + 1} ({FIELDS[col]}) is not a number: {parts[col]!r}")


def read_array(path: str | os.PathLike, chunk: int = 65536) -> tuple[np.ndarray, np.ndarray, SWFHeader, ReadStats]:
    """Read a whole SWF file into an ``(n, 18)`` float array, checked as by
    :func:`iter_records` (finite fields, whole processor counts up to :data:`MAX_PROCS`).

    Returns ``(data, line_numbers, header, stats)``. Streams the file (:func:`_blocks`): blank
    and comment lines are counted, never kept, so memory is the array's plus ``chunk`` job lines
    whatever else the file holds. Fast path: numpy's C ``loadtxt`` on every ``chunk`` job lines;
    if it refuses anything (a short line, a non-number, extra fields) the file is read again
    line by line, which reports the exact file and line (see :func:`iter_records`).
    """
    path = os.fspath(path)
    header = SWFHeader(source=path)
    stats = ReadStats()
    blocks: list[np.ndarray] = []
    numbers = array("q")     # the line of every job line, 8 bytes each
    rows: list[str] = []
    for first, lines in _blocks(path, stats):
        for lineno, line in enumerate(lines, first):
            text = line.lstrip()
            if not text:
                stats.blank += 1
            elif text[0] == ";":
                stats.comments += 1
                if not numbers:
                    _parse_header_line(header, line, lineno)
            else:
                rows.append(line)
                numbers.append(lineno)
        if len(rows) >= chunk:
            block = _loadtxt(rows)
            if block is None:
                return _read_array_slowly(path, chunk)
            blocks.append(block)
            rows.clear()
    if rows:
        block = _loadtxt(rows)
        if block is None:
            return _read_array_slowly(path, chunk)
        blocks.append(block)
    data = np.concatenate(blocks) if blocks else np.empty((0, 18))
    stats.records = len(numbers)
    lines_of = np.array(numbers, dtype=np.int64)
    _check_values(path, data, lines_of)
    return data, lines_of, header, stats


#: the fields that traces write with decimals (average CPU time, used and requested memory:
#: CTC-SP2's, HPC2N's and SDSC's ``142.00``); the others hold whole numbers
_DECIMAL_FIELDS = (5, 6, 9)
#: a job line read as whole numbers but for :data:`_DECIMAL_FIELDS`
_MIXED = np.dtype([(name, np.float64 if i in _DECIMAL_FIELDS else np.int64) for i, name in enumerate(FIELDS)])
#: whole numbers up to this size are the same float read either way (beyond it, a float read
#: rounds the text, a whole-number read the integer: the same in theory, not checked)
_EXACT_WHOLE = 2 ** 53


def _loadtxt(rows: list[str]) -> np.ndarray | None:
    """``rows`` (job lines) as an ``(n, 18)`` array; ``None`` if numpy refuses any of them.

    numpy's C reader converts whole numbers about seven times faster than numbers in general
    (0.004 s against 0.026 s for the 10,000 lines of a Lublin trace), and an SWF line is whole
    numbers but for a few fields. So ``rows`` are read as whole numbers (every field, else
    every field but :data:`_DECIMAL_FIELDS`), and as floats only when numpy refuses those.
    The result is the float read's, bit for bit: a whole-number read accepts only text that
    the float read accepts, with the same value, but for a negative zero (``-0`` is 0 as a
    whole number, -0.0 as a float) and integers beyond 2**53; rows with ``-0`` in them, or
    such integers, are read as floats (``tests/workload/test_swf_fast_read.py``)."""
    if "-0" not in "\n".join(rows):
        data = _whole(rows)
        if data is not None:
            return data
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            data = np.loadtxt(rows, comments=";", dtype=np.float64, ndmin=2)
    except ValueError:
        return None
    return data if data.shape == (len(rows), 18) else None


def _whole(rows: list[str]) -> np.ndarray | None:
    """``rows`` read as whole numbers (all fields, else all but :data:`_DECIMAL_FIELDS`), as
    an ``(n, 18)`` float array; ``None`` if numpy refuses both reads or a number is beyond
    2**53 (the caller reads them as floats)."""
    n = len(rows)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            whole = np.loadtxt(rows, comments=";", dtype=np.int64, ndmin=2)
        if whole.shape != (n, 18):
            return None
        if int(np.abs(whole).max()) > _EXACT_WHOLE:
            return None
        return whole.astype(np.float64)
    except (ValueError, OverflowError, Warning):     # whatever it is, the float read says
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            mixed = np.loadtxt(rows, comments=";", dtype=_MIXED, ndmin=1)
    except (ValueError, OverflowError, Warning):     # whatever it is, the float read says
        return None
    if mixed.shape != (n,):
        return None
    data = np.empty((n, 18))
    for i, name in enumerate(FIELDS):
        column = mixed[name]
        if i not in _DECIMAL_FIELDS and int(np.abs(column).max()) > _EXACT_WHOLE:
            return None
        data[:, i] = column
    return data


def _read_array_slowly(path: str, chunk: int) -> tuple[np.ndarray, np.ndarray, SWFHeader, ReadStats]:
    """Line by line, with exact errors; keeps the first 18 fields of longer lines."""
    stats, header = ReadStats(), SWFHeader(source=path)
    blocks: list[np.ndarray] = []
    lines: list[int] = []
    rows: list[list[str]] = []
    start = 0

    def flush() -> None:
        try:
            blocks.append(np.array(rows, dtype=np.float64).reshape(len(rows), 18))
        except ValueError:
            for k, parts in enumerate(rows):
                if not all(map(_is_number, parts)):
                    raise _bad_number(path, lines[start + k], parts) from None
            raise
        rows.clear()

    for lineno, parts in _iter_fields(path, stats, header):
        rows.append(parts)
        lines.append(lineno)
        if len(rows) >= chunk:
            flush()
            start = len(lines)
    if rows:
        flush()
    data = np.concatenate(blocks) if blocks else np.empty((0, 18))
    numbers = np.asarray(lines, dtype=np.int64)
    _check_values(path, data, numbers)
    return data, numbers, header, stats


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _fmt(value: float) -> str:
    """SWF numbers: integers without a decimal point, others with up to 2 decimals."""
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}"


def format_record(rec: Sequence[float]) -> str:
    """One SWF line (fixed-width-ish, space separated)."""
    return " ".join(_fmt(v) for v in rec)


def write_swf(path: str | os.PathLike | IO[str], records: Iterable[Sequence[float]],
              header: Mapping[str, object] | Sequence[str] = ()) -> int:
    """Write records (18 numbers each) with a header. ``header`` is either a mapping
    (written as ``; Key: value``) or ready comment lines. Returns the number of records.

    A file is written under a temporary name beside it (``.tmp-<pid>-<name>``) and renamed into
    place when complete: a failure part-way (a full disk, a bad record) leaves no partial file
    and the old one, if any, as it was. A path that exists and is not a regular file (a device,
    a pipe) is written directly."""
    if isinstance(path, (str, os.PathLike)):
        target = os.fspath(path)
        if os.path.exists(target) and not os.path.isfile(target):
            with open(target, "w", encoding="utf-8") as direct:
                return write_swf(direct, records, header)
        folder, name = os.path.split(target)
        tmp = os.path.join(folder, f".tmp-{os.getpid()}-{name}")
        try:
            with open(tmp, "w", encoding="utf-8") as part:
                n = write_swf(part, records, header)
            os.replace(tmp, target)
        except BaseException:
            try:
                os.remove(tmp)
            except OSError:
                pass
            raise
        return n
    fh: IO[str] = path
    if isinstance(header, Mapping):
        for key, value in header.items():
            fh.write(f"; {key}: {value}\n")
    else:
        for line in header:
            fh.write(line if line.startswith(";") else f"; {line}")
            fh.write("\n")
    n = 0
    for rec in records:
        if len(rec) != 18:
            raise TraceError(f"record {n + 1} has {len(rec)} fields, SWF needs 18")
        fh.write(format_record(rec))
        fh.write("\n")
        n += 1
    return n
