"""The table form of a results table, as Liu et al. 2015 Table 2: per metric, one row per
workload (or any parameter), one column per policy with the mean (and standard deviation) over
seeds and the improvement against a baseline policy, Imp = (baseline - value) / baseline in
percent (lower is better for waits and slowdowns). Imports nothing from the simulator."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import attrs

from ..catalogue import metric as catalogue_metric
from ..errors import ExperimentError
from ..tables import format_table
from .stats import Stats, group, ordered

DEFAULT_METRICS = ("avg_wait", "max_wait", "avg_bsld", "max_bsld")


def in_minutes(metric: str) -> bool:
    """Times in seconds that Table 2 prints in minutes (the catalogue's unit)."""
    return catalogue_metric(metric).unit == "min"


@attrs.define(slots=True)
class ReportBlock:
    """One metric: cells[(row, column)] = Stats, improvement[(row, column)] in percent."""

    metric: str
    label: str
    rows: list
    columns: list
    cells: dict
    improvement: dict
    baseline: Any = None


def improvement(baseline: float, value: float) -> float:
    """Liu 2015 Table 2's Imp(%): how much lower than the baseline, in percent."""
    if baseline == 0 or math.isnan(baseline) or math.isnan(value):
        return math.nan
    return 100.0 * (baseline - value) / baseline


def build_report(rows: Sequence[Mapping[str, Any]], metrics: Sequence[str] = DEFAULT_METRICS,
                 rows_by: Sequence[str] = (), cols_by: str = "policy", baseline: Any = "fcfs",
                 over: Sequence[str] = ("seed",), minutes: bool = True) -> list[ReportBlock]:
    """Aggregate ``metrics`` over ``over`` for every (row, column) pair. ``baseline`` is a value
    of ``cols_by`` (``None``: no improvement columns)."""
    by = list(rows_by) + [cols_by]
    hint = f"Add the column to --rows, or select rows with --where COLUMN=VALUE (rows: " \
           f"{', '.join(rows_by) or 'none'}; columns: {cols_by})."
    blocks = []
    for metric in metrics:
        stats = group(rows, by, metric, over, hint=hint)
        scale = 60.0 if minutes and in_minutes(metric) else 1.0
        if scale != 1.0:
            stats = {k: Stats(tuple(v / scale for v in st.values)) for k, st in stats.items()}
        row_keys = _row_order([k[:-1] for k in stats])
        col_keys = ordered(k[-1] for k in stats)
        if baseline is not None:
            if not any(_same(c, baseline) for c in col_keys):
                raise ExperimentError(f"--baseline {baseline}: no such {cols_by}; "
                                      f"found {', '.join(str(c) for c in col_keys)}")
            base = next(c for c in col_keys if _same(c, baseline))
            col_keys = [base] + [c for c in col_keys if c != base]
        else:
            base = None
        cells = {(k[:-1], k[-1]): st for k, st in stats.items()}
        imp = {}
        if base is not None:
            for r in row_keys:
                b = cells.get((r, base))
                for c in col_keys[1:]:
                    if b is not None and (r, c) in cells:
                        imp[(r, c)] = improvement(b.mean, cells[(r, c)].mean)
        label = f"{metric} (min)" if scale == 60.0 else metric
        blocks.append(ReportBlock(metric, label, row_keys, col_keys, cells, imp, base))
    return blocks


def _row_order(keys: list[tuple]) -> list[tuple]:
    """Row keys ordered column by column (numbers sorted, text as first met)."""
    out = list(dict.fromkeys(keys))
    for i in reversed(range(len(out[0]) if out else 0)):
        rank = {v: n for n, v in enumerate(ordered(k[i] for k in out))}
        out.sort(key=lambda k: rank[k[i]])
    return out


def _same(value: Any, wanted: Any) -> bool:
    return value == wanted or str(value) == str(wanted)


def _number(v: float) -> str:
    if math.isnan(v):
        return "nan"
    return f"{v:,.2f}" if abs(v) < 10 else f"{v:,.1f}"


def _cell(st: Stats | None) -> str:
    if st is None or st.n == 0:
        return "-"
    return _number(st.mean) + (f" ± {_number(st.std)}" if st.n > 1 else "")


def _table(block: ReportBlock, rows_by: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    head = ["/".join(rows_by) or ""]
    for c in block.columns:
        head.append(str(c))
        if block.baseline is not None and c != block.baseline:
            head.append("imp %")
    body = []
    for r in block.rows:
        line = [" / ".join(str(v) for v in r) or "all"]
        for c in block.columns:
            line.append(_cell(block.cells.get((r, c))))
            if block.baseline is not None and c != block.baseline:
                v = block.improvement.get((r, c))
                line.append("-" if v is None or math.isnan(v) else f"{v:.1f}")
        body.append(line)
    return head, body


def _runs_note(block: ReportBlock) -> str:
    ns = sorted({st.n for st in block.cells.values()})
    what = f"n = {ns[0]}" if len(ns) == 1 else f"n = {ns[0]}-{ns[-1]}"
    return f"mean ± std over runs ({what} per cell)"


def format_text(blocks: Sequence[ReportBlock], rows_by: Sequence[str] = ()) -> str:
    """Aligned plain-text tables, one per metric."""
    out = []
    for block in blocks:
        head, body = _table(block, rows_by)
        out.append(format_table(head, body, title=f"{block.label}: {_runs_note(block)}"))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def format_markdown(blocks: Sequence[ReportBlock], rows_by: Sequence[str] = ()) -> str:
    """Markdown tables, one per metric (for docs/)."""
    out = []
    for block in blocks:
        head, body = _table(block, rows_by)
        out.append(f"**{block.label}** ({_runs_note(block)})")
        out.append("")
        out.append(format_table(head, body, markdown=True))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
