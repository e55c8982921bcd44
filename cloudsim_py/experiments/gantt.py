"""Gantt chart of one run's schedule (hosts x time): each host a row split into one band per
tier (tier 0, the foreground, on top, solid; lower tiers lighter and hatched over a grey
band), one bar per job and host, kills marked with a red x and migrations (resumes) with a
black triangle on the hosts the job moved to. For small runs. Needs matplotlib (object API,
no pyplot state); imports nothing from the simulator."""

from __future__ import annotations

import logging
import os
from typing import Any

from ..errors import ExperimentError
from .plots import _figure_class
from .schedule import Timeline, read_schedule, timeline

log = logging.getLogger(__name__)

#: above this many bars the chart is unreadable and slow; it is drawn anyway, with a warning
MANY_BARS = 20_000


def tier_label(tier: int, tiers: int) -> str:
    if tiers == 2:
        return "tier 0 (foreground)" if tier == 0 else "tier 1 (background)"
    return f"tier {tier}"


def gantt_chart(tl: Timeline, hosts: int | None = None, tiers: int | None = None,
                start: float | None = None, end: float | None = None, title: str | None = None,
                job_labels: bool = True) -> Any:
    """The chart as a matplotlib Figure. ``hosts`` and ``tiers`` default to what the schedule
    uses; ``start``/``end`` crop the time axis. One BarContainer per tier (label
    ``tier_label``), one scatter per kind of mark (labels ``kill`` and ``migration``)."""
    Figure = _figure_class()
    from matplotlib import colormaps
    from matplotlib.patches import Patch

    hosts = max(hosts or 0, tl.hosts, 1)
    tiers = max(tiers or 0, tl.tiers, 1)
    t0 = tl.start if start is None else start
    t1 = tl.end if end is None else end
    if t1 <= t0:
        t1 = t0 + 1.0
    segs = [s for s in tl.segments if s.end >= t0 and s.start <= t1]
    bars = sum(len(s.hosts) for s in segs)
    if bars > MANY_BARS:
        log.warning("gantt: %d bars; the chart is meant for small runs (crop with start/end)", bars)
    fig = Figure(figsize=(10, min(1.5 + 0.32 * hosts * max(1, tiers * 0.6), 60)), layout="constrained")
    ax = fig.subplots()
    cmap = colormaps["tab20"]
    band = 1.0 / tiers

    def y_of(host: int, tier: int) -> float:
        return host + tier * band   # with the y axis inverted, tier 0 is the top band of a row

    for h in range(hosts):
        for t in range(1, tiers):
            ax.axhspan(y_of(h, t), y_of(h, t) + band, color="0.92", linewidth=0, zorder=0)
    for t in range(tiers):
        ys, lefts, widths, colors = [], [], [], []
        for s in segs:
            if s.tier != t:
                continue
            a, b = max(s.start, t0), min(s.end, t1)
            for h in s.hosts:
                ys.append(y_of(h, t) + band / 2)
                lefts.append(a)
                widths.append(b - a)
                colors.append(cmap(s.job % 20))
        ax.barh(ys, widths, left=lefts, height=band * 0.9, color=colors, edgecolor="0.3", linewidth=0.4,
                alpha=1.0 if t == 0 else 0.55, hatch=None if t == 0 else "//", label=tier_label(t, tiers),
                zorder=2)
    if job_labels:
        span = t1 - t0
        for s in segs:
            a, b = max(s.start, t0), min(s.end, t1)
            if b - a > 0.04 * span:
                ax.text((a + b) / 2, y_of(min(s.hosts), s.tier) + band / 2, str(s.job), ha="center",
                        va="center", fontsize=6, zorder=4)
    for kind, marker, color in (("kill", "x", "red"), ("migration", ">", "black")):
        pts = [(m.time, y_of(h, m.tier) + band / 2) for m in tl.marks if m.kind == kind and t0 <= m.time <= t1
               for h in m.hosts]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, s=28,
                       zorder=5, label=kind)
    for h in range(1, hosts):
        ax.axhline(h, color="0.6", linewidth=0.5, zorder=1)
    ax.set_ylim(hosts, 0)
    ax.set_xlim(t0, t1)
    step = max(1, hosts // 40)
    ax.set_yticks([h + 0.5 for h in range(0, hosts, step)], [str(h) for h in range(0, hosts, step)])
    ax.set_ylabel("host")
    ax.set_xlabel("time (s)")
    # legend swatches in neutral grey: bar colours identify jobs, not tiers
    handles = [Patch(facecolor="0.55", edgecolor="0.3", alpha=1.0 if t == 0 else 0.55,
                     hatch=None if t == 0 else "//", label=tier_label(t, tiers)) for t in range(tiers)]
    handles += [h for h in ax.get_legend_handles_labels()[0] if not isinstance(h, Patch)
                and h.get_label() in ("kill", "migration")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    kills = sum(m.kind == "kill" for m in tl.marks)
    moves = sum(m.kind == "migration" for m in tl.marks)
    note = f"{len(tl.segments)} segments; kills: {kills}; migrations: {moves}; rejected: {tl.rejected}"
    ax.set_title(f"{title}\n{note}" if title else note, fontsize="medium")
    return fig


def schedule_path(target: str) -> str:
    """``target`` itself if it is a file, else ``target/schedule.csv``."""
    if os.path.isdir(target):
        path = os.path.join(target, "schedule.csv")
        if not os.path.isfile(path):
            subs = sorted(d for d in os.listdir(target) if os.path.isfile(os.path.join(target, d, "schedule.csv")))
            hint = f"; one per policy in: {', '.join(subs)}" if subs else \
                " (write it with the scenario's schedule output, or experiments.schedule.write_schedule)"
            raise ExperimentError(f"{target}: no schedule.csv{hint}")
        return path
    if not os.path.isfile(target):
        raise ExperimentError(f"{target}: no such run folder or schedule file")
    return target


def gantt_from_file(target: str, **kw: Any) -> Any:
    """Read a run folder's (or a file's) schedule and draw it; ``hosts``/``tiers`` default to
    the run's ``summary.json`` where there is one."""
    import json

    path = schedule_path(target)
    summary = os.path.join(os.path.dirname(path), "summary.json")
    if os.path.isfile(summary):
        with open(summary, encoding="utf-8") as fh:
            doc = json.load(fh)
        kw.setdefault("hosts", doc.get("hosts") if isinstance(doc.get("hosts"), int) else None)
        kw.setdefault("tiers", doc.get("tiers") if isinstance(doc.get("tiers"), int) else None)
        kw.setdefault("title", f"{doc.get('scenario', '')}: {doc.get('policy', '')}, seed {doc.get('seed', '')}")
    return gantt_chart(timeline(read_schedule(path)), **kw)
