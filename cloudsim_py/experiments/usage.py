"""Utilization and queue length over time of one or several runs, from their ``timeline.csv``
(``cloudsim_py.outputs.timeline``: step changes per datacenter): read back, summed over the
datacenters (or clouds) of a run, cropped to a time window, and drawn as step lines, one per
run (and tier). For a window of a large run: above :data:`MAX_STEPS` rows in the window the
chart is refused, with what to do instead. Needs matplotlib (object API); imports nothing from
the simulator."""

from __future__ import annotations

import csv
import json
import os
from typing import Any, Sequence

import attrs

from ..catalogue import metric as catalogue_metric
from ..errors import ExperimentError
from .plots import _figure_class
from .style import colour, paper_style

FIRST = ("time", "datacenter", "running", "queued", "suspended")
#: above this many steps in the window (of all runs together) the lines are unreadable and slow
MAX_STEPS = 500_000


@attrs.define(slots=True)
class Usage:
    """One run's totals over its datacenters at each time it changed: ``busy[t][i]`` the busy
    processors of tier ``t`` after the changes at ``times[i]``; ``capacity`` the processors of
    a tier (hosts, or VMs of every cloud), ``None`` when the run's summary does not say."""

    label: str
    times: list[float]
    busy: list[list[int]]
    running: list[int]
    queued: list[int]
    suspended: list[int]
    capacity: int | None = None


def timeline_path(target: str) -> str:
    """``target`` itself if it is a file, else ``target/timeline.csv``."""
    if os.path.isdir(target):
        path = os.path.join(target, "timeline.csv")
        if not os.path.isfile(path):
            subs = sorted(d for d in os.listdir(target) if os.path.isfile(os.path.join(target, d, "timeline.csv")))
            hint = f"; one per policy in: {', '.join(subs)}" if subs else \
                " (write it with output.timeline: true in the scenario, or run --timeline)"
            raise ExperimentError(f"{target}: no timeline.csv{hint}")
        return path
    if not os.path.isfile(target):
        raise ExperimentError(f"{target}: no such run folder or timeline file")
    return target


def read_usage(path: str, label: str | None = None) -> Usage:
    """Read ``timeline.csv`` and sum its datacenters; errors name the file and line."""
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None or tuple(header[:5]) != FIRST or not all(h.startswith("busy_") for h in header[5:]):
            raise ExperimentError(f"{path}:1: expected the header {','.join(FIRST)},busy_0,..., got {header}")
        tiers = len(header) - 5
        state: dict[str, list[int]] = {}
        total = [0] * (3 + tiers)
        u = Usage(label or _label(path), [], [[] for _ in range(tiers)], [], [], [], _capacity(path))
        last: float | None = None
        for n, row in enumerate(reader, 2):
            if not row:
                continue
            if len(row) != len(header):
                raise ExperimentError(f"{path}:{n}: {len(row)} cells, expected {len(header)}")
            try:
                time = float(row[0])
                values = [int(c) if c else 0 for c in row[2:]]
            except ValueError as exc:
                raise ExperimentError(f"{path}:{n}: {exc}") from None
            if last is not None and time < last:
                raise ExperimentError(f"{path}:{n}: time {time:g} before the previous row's {last:g}")
            if last is not None and time != last:
                _append(u, last, total)
            old = state.get(row[1], [0] * len(values))
            total = [a + b - c for a, b, c in zip(total, values, old)]
            state[row[1]] = values
            last = time
        if last is not None:
            _append(u, last, total)
    return u


def _append(u: Usage, time: float, total: list[int]) -> None:
    u.times.append(time)
    u.running.append(total[0])
    u.queued.append(total[1])
    u.suspended.append(total[2])
    for t, series in enumerate(u.busy):
        series.append(total[3 + t])


def _summary(path: str) -> dict:
    summary = os.path.join(os.path.dirname(path), "summary.json")
    if not os.path.isfile(summary):
        return {}
    with open(summary, encoding="utf-8") as fh:
        doc = json.load(fh)
    return doc if isinstance(doc, dict) else {}


def _label(path: str) -> str:
    doc = _summary(path)
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    name = doc.get("label") or doc.get("policy")
    return f"{folder} ({name})" if name and name != folder else folder


def _capacity(path: str) -> int | None:
    """Processors per tier: a datacenter's hosts, or the VMs of every cloud."""
    doc = _summary(path)
    if isinstance(doc.get("hosts"), int):
        return int(doc["hosts"])
    clouds = doc.get("clouds")
    if isinstance(clouds, list) and clouds and all(isinstance(c, dict) and isinstance(c.get("vms"), int)
                                                  for c in clouds):
        return sum(int(c["vms"]) for c in clouds)
    return None


def window(u: Usage, start: float | None, end: float | None) -> Usage:
    """The steps in ``[start, end]``, the state in force at ``start`` first."""
    lo = 0
    if start is not None:
        while lo < len(u.times) and u.times[lo] <= start:
            lo += 1
        lo = max(lo - 1, 0)
    hi = len(u.times)
    if end is not None:
        while hi > lo and u.times[hi - 1] > end:
            hi -= 1
    times = u.times[lo:hi]
    if start is not None and times and times[0] < start:
        times = [start] + times[1:]
    return Usage(u.label, times, [b[lo:hi] for b in u.busy], u.running[lo:hi], u.queued[lo:hi],
                 u.suspended[lo:hi], u.capacity)


def usage_chart(runs: Sequence[Usage], start: float | None = None, end: float | None = None,
                title: str | None = None, max_steps: int = MAX_STEPS) -> Any:
    """Two panels sharing the time axis: utilization (busy processors over capacity, per tier;
    busy processors when a run's capacity is unknown) and jobs waiting (queued; suspended
    dashed), one step line per run. More than ``max_steps`` steps in the window raise
    :class:`~cloudsim_py.errors.ExperimentError`."""
    cropped = [window(u, start, end) for u in runs]
    steps = sum(len(u.times) for u in cropped)
    if steps > max_steps:
        raise ExperimentError(f"{steps:,} steps in the window, more than the {max_steps:,} a readable chart "
                              "holds; draw a time window (--from/--to), fewer runs, or raise the limit "
                              "(--max-steps)")
    Figure = _figure_class()
    with paper_style():
        fig = Figure(figsize=(7.0, 4.6), layout="constrained")
        top, bottom = fig.subplots(2, 1, sharex=True)
        fraction = all(u.capacity for u in cropped)
        handles = []
        dashed = False
        for n, u in enumerate(cropped):
            tiers = len(u.busy)
            for t, series in enumerate(u.busy):
                ys = [b / u.capacity for b in series] if fraction and u.capacity else series
                name = u.label if tiers == 1 else f"{u.label}, tier {t}"
                line, = top.step(u.times, ys, where="post", color=colour(n), linewidth=1.0, label=name,
                                 linestyle=("-", "--", ":", "-.")[t % 4])
                handles.append(line)
            bottom.step(u.times, u.queued, where="post", color=colour(n), linewidth=1.0, label=f"{u.label}: queued")
            if any(u.suspended):
                dashed = True
                bottom.step(u.times, u.suspended, where="post", color=colour(n), linestyle="--", linewidth=1.0,
                            label=f"{u.label}: suspended")
        top.set_ylabel(catalogue_metric("utilization").axis_label if fraction else
                       catalogue_metric("busy").axis_label)
        if fraction:
            top.set_ylim(0, 1.05)
        bottom.set_ylabel(catalogue_metric("queued").axis_label + (", suspended dashed" if dashed else ""))
        bottom.set_xlabel(catalogue_metric("time").axis_label)
        if start is not None or end is not None:
            lo = start if start is not None else min((u.times[0] for u in cropped if u.times), default=0.0)
            hi = end if end is not None else max((u.times[-1] for u in cropped if u.times), default=lo + 1.0)
            bottom.set_xlim(lo, hi if hi > lo else lo + 1.0)
        # one legend for the figure: the runs (and tiers) by colour; the lower panel's lines
        # have the same colours
        fig.legend(handles, [h.get_label() for h in handles], loc="outside lower center",
                   ncols=min(len(handles), 3), frameon=False)
        if title:
            fig.suptitle(title)
    return fig


def usage_from_runs(targets: Sequence[str], **kw: Any) -> Any:
    """Read each run folder's (or file's) ``timeline.csv`` and draw them together."""
    return usage_chart([read_usage(timeline_path(t)) for t in targets], **kw)
