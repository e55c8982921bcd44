"""Plain-text tables of runs for the command line: the datacenter measures side by side (as Liu
2015 Table 2), and a cloud system's (leases, DAG jobs). No simulation; imports only the shared table printer."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..tables import format_table

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import RunResult


def _table(title: str, head: list[str], body: list[list[str]]) -> str:
    return format_table(head, body, title=title)


def _or_dash(fmt: Callable[[Any], str]) -> Callable[[Any], str]:
    def out(v: Any) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "-"
        return fmt(v)
    return out


DATACENTER_ROWS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("jobs finished", "jobs_finished", lambda v: f"{v:,}"),
    ("jobs rejected", "jobs_rejected", lambda v: f"{v:,}"),
    ("avg wait (min)", "avg_wait", lambda v: f"{v / 60:,.1f}"),
    ("max wait (min)", "max_wait", lambda v: f"{v / 60:,.1f}"),
    ("avg response (min)", "avg_response", lambda v: f"{v / 60:,.1f}"),
    ("avg bounded slowdown", "avg_bsld", lambda v: f"{v:,.2f}"),
    ("max bounded slowdown", "max_bsld", lambda v: f"{v:,.1f}"),
    ("utilization", "utilization", lambda v: f"{v:.3f}"),
    ("kills", "kills", lambda v: f"{v:,}"),
    ("migrations", "migrations", lambda v: f"{v:,}"),
    ("preemptions", "preemptions", lambda v: f"{v:,}"),
    ("wall seconds", "wall_seconds", lambda v: f"{v:.2f}"),
)


def probe_keys(runs: Sequence[tuple[str, "RunResult"]]) -> list[str]:
    """The summary keys the runs' probes add (``metrics.classes``, ``metrics.probes``), in the
    order of the probes and their columns, each once: the rows a printed table shows after the
    built-in measures."""
    keys: dict[str, None] = {}
    for _, result in runs:
        for _, probe in result.probes:
            keys.update(dict.fromkeys(probe.columns()))
    return list(keys)


def comparison_table(name: str, hosts: int, runs: Sequence[tuple[str, dict]],
                     extra: Sequence[str] = ()) -> str:
    """Policies side by side (times in minutes, as Liu 2015 Table 2), then the ``extra`` summary
    keys (the probes')."""
    head = ["metric"] + [p for p, _ in runs]
    body = [[label] + [_or_dash(fmt)(s[key]) for _, s in runs] for label, key, fmt in DATACENTER_ROWS]
    body += _extra_rows(extra, runs)
    return _table(f"{name}: {hosts} hosts", head, body)


def _extra_rows(extra: Sequence[str], runs: Sequence[tuple[str, dict]]) -> list[list[str]]:
    return [[key] + [_or_dash(_fmt)(s.get(key)) for _, s in runs] for key in extra]


def _fmt(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:,.2f}" if abs(v) < 100 else f"{v:,.1f}"
    return f"{v:,}"


def cloud_table(title: str, rows: Sequence[tuple[str, str]], runs: Sequence[tuple[str, dict]],
                extra: Sequence[str] = ()) -> str:
    """``rows`` (label, summary key) of each run side by side, then the ``extra`` summary keys
    (the probes')."""
    head = ["metric"] + [p for p, _ in runs]
    body = [[label] + [_fmt(s.get(key, math.nan)) for _, s in runs] for label, key in rows]
    body += _extra_rows(extra, runs)
    return _table(title, head, body)
