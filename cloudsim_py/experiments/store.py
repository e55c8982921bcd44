"""The results table of a sweep: one row per run and broker (its parameters and summary), in
Parquet (pyarrow) or CSV, rewritten atomically after every batch of finished runs.

Imports nothing from the simulator (``frames`` only makes DataFrames)."""

from __future__ import annotations

import csv
import glob
import io
import json
import math
import os
import re
from typing import Any, Iterable, Literal, Mapping, Sequence, overload

from ..errors import ExperimentError
from ..frames import rows_frame

#: columns that are always text (a run id like ``1e50...`` must not become a number)
STRING_COLUMNS = ("run_id", "status", "policy", "warnings", "error")
#: first and last columns of every table
LEAD = ("run_id", "status")
TAIL = ("run_seconds", "warnings", "error")
#: columns that measure the machine, not the simulation: they differ between two identical runs
TIMING = ("run_seconds", "wall_seconds")

_INT = re.compile(r"^-?\d+$")


def has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def default_format() -> str:
    """``parquet`` when pyarrow is installed, else ``csv``."""
    return "parquet" if has_pyarrow() else "csv"


def table_format(path: str) -> str:
    """The format a results path names by its extension (``.parquet``/``.pq`` or ``.csv``)."""
    ext = os.path.splitext(path)[1].lower()
    if ext in (".parquet", ".pq"):
        if not has_pyarrow():
            raise ExperimentError(f"{path}: Parquet needs pyarrow (pip install pyarrow), or use a .csv path")
        return "parquet"
    if ext == ".csv":
        return "csv"
    raise ExperimentError(f"{path}: a results table ends in .parquet or .csv")


# ------------------------------------------------------------------------------ columns


def columns_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every column, in a stable order: run id and status, the others as first met, then the
    run's time, warnings and error."""
    seen: dict[str, None] = {}
    shapes: set[tuple] = set()
    for row in rows:
        shape = tuple(row)
        if shape not in shapes:          # most rows share their keys: look at each shape once
            shapes.add(shape)
            seen.update(dict.fromkeys(shape))
    middle = [c for c in seen if c not in LEAD and c not in TAIL]
    return [c for c in LEAD if c in seen] + middle + [c for c in TAIL if c in seen]


def _kind(column: str, types: set) -> str:
    """bool, int, float or str: the narrowest type that holds every non-null value."""
    types = types - {type(None)}
    if column in STRING_COLUMNS or not types:
        return "str"
    if types == {bool}:
        return "bool"
    if bool not in types and types <= {int}:
        return "int"
    if bool not in types and types <= {int, float}:
        return "float"
    return "str"


def _text(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def _columns(rows: Sequence[Mapping[str, Any]], cols: Sequence[str]) -> dict[str, tuple[str, list]]:
    """Column -> (kind, values), values converted only where the kind needs it."""
    out = {}
    for c in cols:
        values = [r.get(c) for r in rows]
        types = set(map(type, values))
        kind = _kind(c, types)
        if kind == "float" and int in types:
            values = [None if v is None else float(v) for v in values]
        elif kind == "str" and types - {str, type(None)}:
            values = [_text(v) for v in values]
        out[c] = (kind, values)
    return out


# ------------------------------------------------------------------------------ files


def _atomic_write(path: str, data: bytes) -> None:
    """Write to a temporary file beside ``path``, flush it to disk, then rename it over
    ``path``: a reader (or a killed writer) sees the old table or the new one, never half.
    (The folder itself is not synced: after an operating-system crash the rename may be lost,
    and the runs since the previous write are run again on resume.)"""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    try:
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def write_results(path: str, rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> None:
    """Write a whole table atomically (format from the extension)."""
    fmt = table_format(path)
    cols = list(columns) if columns is not None else columns_of(rows)
    data = _columns(rows, cols)
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {"bool": pa.bool_(), "int": pa.int64(), "float": pa.float64(), "str": pa.string()}
        table = pa.table({c: pa.array(values, type=types[kind]) for c, (kind, values) in data.items()})
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        _atomic_write(path, sink.getvalue().to_pybytes())
        return
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(cols)
    converted = [[_csv_cell(v) for v in values] for _, values in data.values()]
    writer.writerows(zip(*converted))
    _atomic_write(path, buf.getvalue().encode("utf-8"))


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


@overload
def read_results(path: str) -> list[dict]: ...
@overload
def read_results(path: str, as_frame: Literal[False]) -> list[dict]: ...
@overload
def read_results(path: str, as_frame: Literal[True]) -> Any: ...


def read_results(path: str, as_frame: bool = False) -> Any:
    """Every row of a results table as a dict (all columns present, ``None`` where empty); with
    ``as_frame=True`` the table as a pandas DataFrame instead (its columns in the table's order,
    missing values as pandas shows them), which needs pandas, the ``[pandas]`` extra."""
    columns, rows = read_table(path)
    if as_frame:
        return rows_frame(rows, columns, what="read_results(..., as_frame=True)")
    return rows


def read_table(path: str) -> tuple[list[str], list[dict]]:
    """A results table's columns (even when it has no rows) and its rows."""
    fmt = table_format(path)
    if not os.path.isfile(path):
        raise ExperimentError(f"{path}: no such results table")
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several kinds
            raise ExperimentError(f"{path}: cannot read the Parquet table ({exc})") from None
        return list(table.column_names), table.to_pylist()
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = next(reader)
        except StopIteration:
            raise ExperimentError(f"{path}: empty results table (no header line)") from None
        cells = []
        for n, line in enumerate(reader, 2):
            if len(line) != len(header):
                raise ExperimentError(f"{path}:{n}: {len(line)} cells for {len(header)} columns")
            cells.append(line)
    columns = {c: _parse_column(c, [line[i] for line in cells]) for i, c in enumerate(header)}
    return header, [{c: columns[c][i] for c in header} for i in range(len(cells))]


def _parse_column(column: str, texts: list[str]) -> list[Any]:
    present = [t for t in texts if t != ""]
    if column in STRING_COLUMNS or not present:
        return [t if t != "" else None for t in texts]
    if all(_INT.match(t) for t in present):
        return [int(t) if t != "" else None for t in texts]
    if all(t in ("true", "false") for t in present):
        return [t == "true" if t != "" else None for t in texts]
    try:
        return [float(t) if t != "" else None for t in texts]
    except ValueError:
        return [t if t != "" else None for t in texts]


# ------------------------------------------------------------------------------ the store


class ResultsStore:
    """The table of one sweep while it runs: rows grouped by run id, written in the sweep's
    order (runs it does not know last). ``put`` replaces a run's rows; ``flush`` rewrites the
    file atomically. An existing file without the ``run_id`` and ``status`` columns is not a
    sweep's table: it is refused (an :class:`~cloudsim_py.errors.ExperimentError` naming the
    file and the column), not overwritten."""

    def __init__(self, path: str, order: Mapping[str, int] | None = None) -> None:
        self.path = path
        table_format(path)
        self.order = dict(order or {})
        self._runs: dict[str, list[dict]] = {}
        for leftover in glob.glob(glob.escape(path) + ".tmp-*"):
            os.remove(leftover)   # a writer killed before its rename
        if os.path.exists(path):
            columns, rows = read_table(path)
            for column in LEAD:
                if column not in columns:    # another table: resuming would overwrite it
                    shown = ", ".join(columns[:8]) + (", ..." if len(columns) > 8 else "")
                    raise ExperimentError(f"{path}: no {column!r} column, so not a sweep's results "
                                          f"table (its columns: {shown or 'none'}); name another "
                                          "file, or move this one away")
            for row in rows:
                self._runs.setdefault(str(row["run_id"]), []).append(row)

    def run_ids(self) -> set[str]:
        return set(self._runs)

    def finished(self) -> set[str]:
        """Runs whose every row has status ``ok`` (failed runs are run again on resume)."""
        return {rid for rid, rows in self._runs.items() if rows and all(r.get("status") == "ok" for r in rows)}

    def put(self, run_id: str, rows: list[dict]) -> None:
        self._runs.pop(run_id, None)
        self._runs[run_id] = rows

    def drop(self, run_ids: Iterable[str]) -> None:
        for rid in run_ids:
            self._runs.pop(rid, None)

    def rows(self) -> list[dict]:
        position = {rid: i for i, rid in enumerate(self._runs)}
        ids = sorted(self._runs, key=lambda rid: (self.order.get(rid, math.inf), position[rid]))
        return [row for rid in ids for row in self._runs[rid]]

    def flush(self) -> None:
        write_results(self.path, self.rows())
