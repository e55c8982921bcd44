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
from typing import IO, Iterable, Iterator, Mapping, NamedTuple, Sequence

import attrs
import numpy as np

from ..errors import TraceError

FIELDS = (
    "job", "submit", "wait", "run", "alloc_procs", "avg_cpu", "used_mem", "req_procs",
    "req_time", "req_mem", "status", "user", "group", "app", "queue", "partition",
    "preceding", "think",
)
"""The 18 SWF fields in file order."""


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
    """Header comments of an SWF file. ``fields`` maps every ``; Key: value`` line."""

    fields: dict[str, str] = attrs.field(factory=dict)
    comments: list[str] = attrs.field(factory=list)

    def _int(self, key: str) -> int | None:
        value = self.fields.get(key)
        if value is None:
            return None
        m = re.match(r"\s*(-?\d+)", value)
        return int(m.group(1)) if m else None

    @property
    def max_procs(self) -> int | None:
        return self._int("MaxProcs")

    @property
    def max_nodes(self) -> int | None:
        return self._int("MaxNodes")

    @property
    def unix_start_time(self) -> int | None:
        return self._int("UnixStartTime")

    @property
    def machine_size(self) -> int | None:
        """Processors of the machine: ``MaxProcs``, else ``MaxNodes``."""
        p = self.max_procs
        return p if p is not None and p > 0 else self.max_nodes


def open_text(path: str | os.PathLike) -> IO[str]:
    """Open a plain or gzip-compressed text file (decided by the magic bytes, not the name)."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(2)
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TraceError(f"{path}: is a directory, not an SWF file") from None
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


_HEADER_RE = re.compile(r"^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*$")


def read_header(path: str | os.PathLike) -> SWFHeader:
    """Parse the leading ``;`` comment block (stops at the first job line)."""
    header = SWFHeader()
    with open_text(path) as fh:
        for line in fh:
            if not line.startswith(";"):
                if line.strip():
                    break
                continue
            _parse_header_line(header, line)
    return header


def _parse_header_line(header: SWFHeader, line: str) -> None:
    header.comments.append(line.rstrip("\n"))
    m = _HEADER_RE.match(line)
    if m and m.group(1) not in header.fields:
        header.fields[m.group(1)] = m.group(2)


@attrs.define(slots=True)
class ReadStats:
    """What the raw reader saw: record lines, comment lines, lines with more than 18 fields."""

    records: int = 0
    comments: int = 0
    blank: int = 0
    extra_fields: int = 0


def _iter_fields(path: str, stats: ReadStats, header: SWFHeader | None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, 18 field strings)`` for every job line; checks the field count."""
    with open_text(path) as fh:
        for lineno, line in enumerate(fh, 1):
            if line.startswith(";"):
                stats.comments += 1
                if header is not None and stats.records == 0:
                    _parse_header_line(header, line)
                continue
            parts = line.split()
            n = len(parts)
            if n != 18:
                if n == 0:
                    stats.blank += 1
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

    Lines with fewer than 18 fields or a non-numeric field raise :class:`TraceError` naming the
    file and line. Lines with more than 18 fields (extended SWF) keep the first 18 and are
    counted in ``stats.extra_fields``. Header comments are parsed into ``header`` if given.
    """
    path = os.fspath(path)
    stats = stats if stats is not None else ReadStats()
    for lineno, parts in _iter_fields(path, stats, header):
        try:
            rec = SWFRecord._make(map(float, parts))
        except ValueError:
            raise _bad_number(path, lineno, parts) from None
        yield lineno, rec


def _bad_number(path: str, lineno: int, parts: Sequence[str]) -> TraceError:
    col = next(i for i, p in enumerate(parts) if not _is_number(p))
    return TraceError(f"{path}:{lineno}: field {col + 1} ({FIELDS[col]}) is not a number: {parts[col]!r}")


def read_array(path: str | os.PathLike, chunk: int = 65536) -> tuple[np.ndarray, np.ndarray, SWFHeader, ReadStats]:
    """Read a whole SWF file into an ``(n, 18)`` float array.

    Returns ``(data, line_numbers, header, stats)``. Fast path: numpy's C ``loadtxt`` on the
    whole text; if it refuses anything (a short line, a non-number, extra fields) the file is
    read again line by line, which reports the exact file and line (see :func:`iter_records`).
    """
    path = os.fspath(path)
    with open_text(path) as fh:
        text = fh.read()
    lines = text.splitlines()
    del text
    header = SWFHeader()
    stats = ReadStats()
    is_data = np.fromiter((bool(line.strip()) and not line.lstrip().startswith(";") for line in lines),
                          dtype=bool, count=len(lines))
    numbers = np.flatnonzero(is_data) + 1
    first = int(numbers[0]) - 1 if numbers.size else len(lines)
    for line in lines[:first]:
        if line.startswith(";"):
            _parse_header_line(header, line)
    stats.comments = sum(1 for line in lines if line.startswith(";"))
    stats.blank = len(lines) - int(numbers.size) - stats.comments
    if numbers.size:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                data = np.loadtxt(lines, comments=";", dtype=np.float64, ndmin=2)
            if data.shape != (numbers.size, 18):
                raise ValueError("shape")
        except ValueError:
            return _read_array_slowly(path, chunk)
    else:
        data = np.empty((0, 18))
    stats.records = int(numbers.size)
    return data, numbers.astype(np.int64), header, stats


def _read_array_slowly(path: str, chunk: int) -> tuple[np.ndarray, np.ndarray, SWFHeader, ReadStats]:
    """Line by line, with exact errors; keeps the first 18 fields of longer lines."""
    stats, header = ReadStats(), SWFHeader()
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
    return data, np.asarray(lines, dtype=np.int64), header, stats


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
    (written as ``; Key: value``) or ready comment lines. Returns the number of records."""
    own = isinstance(path, (str, os.PathLike))
    fh: IO[str] = open(os.fspath(path), "w", encoding="utf-8") if isinstance(path, (str, os.PathLike)) \
        else path
    try:
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
    finally:
        if own:
            fh.close()
