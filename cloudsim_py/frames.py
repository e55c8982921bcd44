"""pandas DataFrames of results, for notebooks and analysis. pandas is an optional extra
(``pip install 'cloudsim_py[pandas]'``), imported only when a frame is asked for, so the
simulator itself never needs it. Imports nothing but errors."""

from __future__ import annotations

from importlib import import_module
from typing import Any, Mapping, Sequence

from .errors import MissingExtraError

#: how to install the extra, named in the error when pandas is missing
PANDAS_EXTRA = "pip install 'cloudsim_py[pandas]'"


def pandas_module(what: str = "a DataFrame") -> Any:
    """The ``pandas`` module, or a :class:`~cloudsim_py.errors.MissingExtraError` (an
    ``ImportError``) saying that ``what`` needs it and how to install it."""
    try:
        pandas = import_module("pandas")      # untyped for mypy without pandas-stubs
    except ImportError:
        raise MissingExtraError(f"{what} needs pandas, an optional extra: {PANDAS_EXTRA}") from None
    return pandas


def columns_frame(columns: Mapping[str, Any], what: str = "a DataFrame") -> Any:
    """A DataFrame of named columns (numpy arrays or lists of one length), in their order."""
    return pandas_module(what).DataFrame(dict(columns))


def rows_frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None,
               index: str | None = None, what: str = "a DataFrame") -> Any:
    """A DataFrame of dict rows, with ``columns`` in that order (default: as first met; a row
    without a column gets a missing value); ``index``: the column that becomes the index."""
    pd = pandas_module(what)
    if columns is None:
        seen: dict[str, None] = {}
        for row in rows:
            seen.update(dict.fromkeys(row))
        columns = list(seen)
    frame = pd.DataFrame([{c: row.get(c) for c in columns} for row in rows], columns=list(columns))
    return frame.set_index(index) if index is not None else frame


def html_table(rows: Sequence[tuple[str, Any]], caption: str = "") -> str:
    """A two-column HTML table of ``(name, value)`` rows (for a notebook's rich display; floats
    shown with 4 significant digits), with no pandas needed."""
    from html import escape

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.4g}"
        return escape(str(value))

    head = f"<caption>{escape(caption)}</caption>" if caption else ""
    body = "".join(f"<tr><th style=\"text-align:left\">{escape(name)}</th><td>{cell(value)}</td></tr>"
                   for name, value in rows)
    return f"<table>{head}{body}</table>"
