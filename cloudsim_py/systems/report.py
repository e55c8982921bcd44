"""Plain-text tables of runs for the command line: the datacenter measures side by side (as Liu
2015 Table 2), and a cloud system's (leases, DAG jobs). No simulation; imports only the shared table printer."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..tables import format_table


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


def comparison_table(name: str, hosts: int, runs: Sequence[tuple[str, dict]]) -> str:
    """Policies side by side (times in minutes, as Liu 2015 Table 2)."""
    head = ["metric"] + [p for p, _ in runs]
    body = [[label] + [_or_dash(fmt)(s[key]) for _, s in runs] for label, key, fmt in DATACENTER_ROWS]
    return _table(f"{name}: {hosts} hosts", head, body)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:,.2f}" if abs(v) < 100 else f"{v:,.1f}"
    return f"{v:,}"


def cloud_table(title: str, rows: Sequence[tuple[str, str]], runs: Sequence[tuple[str, dict]]) -> str:
    """``rows`` (label, summary key) of each run side by side."""
    head = ["metric"] + [p for p, _ in runs]
    body = [[label] + [_fmt(s.get(key, math.nan)) for _, s in runs] for label, key in rows]
    return _table(title, head, body)
