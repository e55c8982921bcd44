"""Gantt chart of one run's schedule (hosts, or a cloud's VMs, x time): each host a row split
into one band per tier (tier 0, the foreground, on top, solid; lower tiers lighter and hatched
over a grey band), one bar per job and host coloured by job, a cloud's overheads (image
transfer, save, migration, reload, shutdown) shaded grey and runs thrown away by a kill
cross-hatched; kills marked with an x, preemptions (suspensions) with a down triangle at the
end of the run, migrations (resumes elsewhere) with a right triangle on the hosts the job moved
to (black marks with a white edge, legible over any bar). Drawn in the figures' shared style
(``style.paper_style``: font sizes for a paper's column, jobs coloured from the
colour-blind-safe Okabe-Ito palette). A datacenter run is drawn from ``schedule.csv``, a cloud run from ``intervals.csv`` (which
also has the overheads). For small runs or a time window of a large one: above
:data:`MAX_BARS` bars in the window the chart is refused, with what to do instead. Needs
matplotlib (object API, no pyplot state); imports nothing from the simulator."""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import ExperimentError
from ..logs import logger
from .intervals import OVERHEADS, interval_timeline, read_intervals
from .plots import _figure_class
from .schedule import ScheduleEvent, Timeline, read_schedule, timeline
from .style import PALETTE, paper_style

log = logger(__name__)

#: above this many bars (a job on a host for a while) in the time window the chart is
#: unreadable and slow to draw: it is refused (crop with start/end, or raise ``max_bars``)
MAX_BARS = 20_000
#: kept under its old name
MANY_BARS = MAX_BARS
#: the marks drawn: kind -> (marker, colour); black with a white edge stands out over every
#: job colour of the palette
MARKS = {"kill": ("X", "black"), "preemption": ("v", "black"), "migration": (">", "black")}
#: job colours: the palette without black (the job labels and marks are black)
JOB_COLOURS = PALETTE[:-1]


#: the figure's size in inches: a page's width; rows get thinner above ~25 hosts instead of the
#: figure growing past a page's height
FIG_WIDTH, FIG_HEIGHT = 10.0, 9.0
#: at most this many row labels (every n-th host named on larger machines)
MAX_ROW_LABELS = 32


class TooManyBars(ExperimentError):
    """The time window holds more bars than a readable chart (:data:`MAX_BARS`)."""


def tier_label(tier: int, tiers: int) -> str:
    if tiers == 2:
        return "tier 0 (foreground)" if tier == 0 else "tier 1 (background)"
    return f"tier {tier}"


def gantt_chart(tl: Timeline, hosts: int | None = None, tiers: int | None = None,
                start: float | None = None, end: float | None = None, title: str | None = None,
                job_labels: bool = True, max_bars: int = MAX_BARS, rows: str = "host") -> Any:
    """The chart as a matplotlib Figure. ``hosts`` and ``tiers`` default to what the schedule
    uses; ``start``/``end`` crop the time axis; ``rows`` names a row (``host``, ``VM``). One
    BarContainer per tier of runs (label ``tier_label``), then one for lost runs (``lost``) and
    one per overhead kind present; one scatter per kind of mark (labels ``kill``,
    ``preemption``, ``migration``). More than ``max_bars`` bars in the window raise
    :class:`TooManyBars`."""
    hosts = max(hosts or 0, tl.hosts, 1)
    tiers = max(tiers or 0, tl.tiers, 1)
    t0 = tl.start if start is None else start
    t1 = tl.end if end is None else end
    if t1 <= t0:
        t1 = t0 + 1.0
    segs = [s for s in tl.segments if s.end >= t0 and s.start <= t1]
    bars = sum(len(s.hosts) for s in segs)
    if bars > max_bars:
        raise TooManyBars(f"{bars:,} bars between t={t0:g} and t={t1:g} s, more than the {max_bars:,} a "
                          f"readable Gantt chart holds ({tl.end - tl.start:g} s, {hosts} {rows}s in all); "
                          "draw a time window (--from/--to), or raise the limit (--max-bars)")
    with paper_style():
        return _draw(tl, segs, hosts, tiers, t0, t1, title, job_labels, rows)


def _draw(tl: Timeline, segs: list, hosts: int, tiers: int, t0: float, t1: float, title: str | None,
          job_labels: bool, rows: str) -> Any:
    Figure = _figure_class()
    from matplotlib.patches import Patch

    fig = Figure(figsize=(FIG_WIDTH, min(1.5 + 0.32 * hosts * max(1, tiers * 0.6), FIG_HEIGHT)),
                 layout="constrained")
    ax = fig.subplots()
    band = 1.0 / tiers

    def y_of(host: int, tier: int) -> float:
        return host + tier * band   # with the y axis inverted, tier 0 is the top band of a row

    def draw(chosen: list, tier: int, label: str, style: dict[str, Any], colour: Any = None) -> None:
        ys, lefts, widths, colors = [], [], [], []
        for s in chosen:
            a, b = max(s.start, t0), min(s.end, t1)
            for h in s.hosts:
                ys.append(y_of(h, tier) + band / 2)
                lefts.append(a)
                widths.append(b - a)
                colors.append(colour if colour is not None else JOB_COLOURS[s.job % len(JOB_COLOURS)])
        ax.barh(ys, widths, left=lefts, color=colors, edgecolor="0.3", linewidth=0.4, label=label,
                zorder=2, **style)

    for h in range(hosts):
        for t in range(1, tiers):
            ax.axhspan(y_of(h, t), y_of(h, t) + band, color="0.92", linewidth=0, zorder=0)
    for t in range(tiers):
        draw([s for s in segs if s.tier == t and s.kind == "run"], t, tier_label(t, tiers),
             {"height": band * 0.9, "alpha": 1.0 if t == 0 else 0.55, "hatch": None if t == 0 else "//"})
    lost = [s for s in segs if s.kind == "lost"]
    if lost:
        draw(lost, 0, "lost", {"height": band * 0.9, "alpha": 0.45, "hatch": "xx"})
    shades = {}
    for n, kind in enumerate(OVERHEADS):
        chosen = [s for s in segs if s.kind == kind]
        if chosen:
            shades[kind] = str(0.35 + 0.1 * n)
            draw(chosen, 0, kind, {"height": band * 0.5}, shades[kind])
    if job_labels:
        span = t1 - t0
        for s in segs:
            a, b = max(s.start, t0), min(s.end, t1)
            if s.kind in ("run", "lost") and b - a > 0.04 * span:
                ax.text((a + b) / 2, y_of(min(s.hosts), s.tier) + band / 2, str(s.job), ha="center",
                        va="center", fontsize=6, zorder=4)
    points: dict[str, list[tuple[float, float]]] = {kind: [] for kind in MARKS}
    for m in tl.marks:
        if t0 <= m.time <= t1 and m.kind in points:
            points[m.kind] += [(m.time, y_of(h, m.tier) + band / 2) for h in m.hosts]
    for s in segs:
        if s.ended_by == "suspend" and t0 <= s.end <= t1:
            points["preemption"] += [(s.end, y_of(h, s.tier) + band / 2) for h in s.hosts]
    for kind, pts in points.items():
        if pts:
            marker, color = MARKS[kind]
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, s=30,
                       edgecolors="white", linewidths=0.6, zorder=5, label=kind)
    for h in range(1, hosts):
        ax.axhline(h, color="0.6", linewidth=0.5, zorder=1)
    for _, first, _ in tl.groups[1:]:
        ax.axhline(first, color="0.1", linewidth=1.2, zorder=1)
    ax.grid(False, axis="y")   # the rows have their own lines
    ax.set_ylim(hosts, 0)
    ax.set_xlim(t0, t1)
    step = max(1, -(-hosts // MAX_ROW_LABELS))
    names = _row_names(tl, hosts)
    ax.set_yticks([h + 0.5 for h in range(0, hosts, step)], [names[h] for h in range(0, hosts, step)])
    ax.set_ylabel(rows if not tl.groups else f"cloud:{rows}")
    ax.set_xlabel("time (s)")
    # legend swatches in neutral grey: bar colours identify jobs, not tiers
    handles = [Patch(facecolor="0.55", edgecolor="0.3", alpha=1.0 if t == 0 else 0.55,
                     hatch=None if t == 0 else "//", label=tier_label(t, tiers)) for t in range(tiers)]
    if lost:
        handles.append(Patch(facecolor="0.55", edgecolor="0.3", alpha=0.45, hatch="xx", label="lost (killed)"))
    handles += [Patch(facecolor=shade, edgecolor="0.3", label=kind) for kind, shade in shades.items()]
    handles += [h for h in ax.get_legend_handles_labels()[0] if not isinstance(h, Patch)
                and h.get_label() in MARKS]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    kills = sum(m.kind == "kill" for m in tl.marks)
    moves = sum(m.kind == "migration" for m in tl.marks)
    stops = sum(s.ended_by == "suspend" for s in tl.segments)
    note = (f"{len(tl.segments)} segments; kills: {kills}; preemptions: {stops}; migrations: {moves}; "
            f"rejected: {tl.rejected}")
    ax.set_title(f"{title}\n{note}" if title else note)
    return fig


def _row_names(tl: Timeline, hosts: int) -> list[str]:
    """Each row's tick label: the host id, or ``cloud:vm`` with several datacenters."""
    names = [str(h) for h in range(hosts)]
    for name, first, n in tl.groups:
        for k in range(n):
            if first + k < hosts:
                names[first + k] = f"{name}:{k}"
    return names


def schedule_path(target: str) -> str:
    """``target`` itself if it is a file, else the run folder's ``intervals.csv`` (a cloud run)
    or ``schedule.csv``."""
    if os.path.isdir(target):
        for name in ("intervals.csv", "schedule.csv"):
            path = os.path.join(target, name)
            if os.path.isfile(path):
                return path
        subs = sorted(d for d in os.listdir(target) if os.path.isfile(os.path.join(target, d, "schedule.csv"))
                      or os.path.isfile(os.path.join(target, d, "intervals.csv")))
        hint = f"; one per policy in: {', '.join(subs)}" if subs else \
            " (write it with output.schedule: true in the scenario, or run --schedule)"
        raise ExperimentError(f"{target}: no schedule.csv or intervals.csv{hint}")
    if not os.path.isfile(target):
        raise ExperimentError(f"{target}: no such run folder or schedule file")
    return target


def read_timeline(path: str) -> Timeline:
    """The segments and marks of a ``schedule.csv`` or an ``intervals.csv`` (told by its
    header)."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    if first.startswith("cloud,"):
        return interval_timeline(read_intervals(path))
    return timeline(read_schedule(path))


def gantt_from_file(target: str, **kw: Any) -> Any:
    """Read a run folder's (or a file's) schedule and draw it; ``hosts``/``tiers`` default to
    the run's ``summary.json`` where there is one."""
    path = schedule_path(target)
    summary = os.path.join(os.path.dirname(path), "summary.json")
    if os.path.isfile(summary):
        with open(summary, encoding="utf-8") as fh:
            doc = json.load(fh)
        kw.setdefault("hosts", doc.get("hosts") if isinstance(doc.get("hosts"), int) else None)
        kw.setdefault("tiers", doc.get("tiers") if isinstance(doc.get("tiers"), int) else None)
        kw.setdefault("title", f"{doc.get('scenario', '')}: {doc.get('label', doc.get('policy', ''))}, "
                               f"seed {doc.get('seed', '')}")
    if os.path.basename(path) == "intervals.csv" or "rows" not in kw and _is_intervals(path):
        kw.setdefault("rows", "VM")
    return gantt_chart(read_timeline(path), **kw)


def gantt_of(result: Any, **kw: Any) -> Any:
    """The Gantt chart of a run in hand, a :class:`~cloudsim_py.runner.RunResult` of
    ``simulate(..., record=True)`` (its datacenter's action log; no file written): hosts,
    tiers and the title (the run's label) come from the result. The keywords are
    :func:`gantt_chart`'s (``start``/``end`` crop the time axis). A run made without
    ``record=True`` has no log: the error says so."""
    dc = result.datacenter
    entries = dc.log
    if entries is None:
        raise ExperimentError("the run kept no schedule: simulate(..., record=True) keeps the "
                              "datacenter's actions for a Gantt chart")
    events = [ScheduleEvent(float(t), action, int(job), int(tier), tuple(hosts))
              for t, action, job, tier, hosts in entries]
    kw.setdefault("hosts", len(dc.hosts))
    kw.setdefault("tiers", dc.tiers)
    kw.setdefault("title", result.name)
    return gantt_chart(timeline(events), **kw)


def _is_intervals(path: str) -> bool:
    with open(path, encoding="utf-8") as fh:
        return fh.readline().startswith("cloud,")
