"""Figures of a results table, as in the papers: one curve per policy (``hue``) of a metric
against a parameter (``x``, e.g. the load), the mean over seeds with a band (see
:data:`BANDS`); axis labels and units from the metric catalogue (waits in minutes, as
``report``), one legend per figure, written as PNG, PDF or SVG by the extension asked. Needs
matplotlib (the ``plot`` extra); uses its object API (no pyplot state). Imports nothing from
the simulator."""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Mapping, Sequence

from ..catalogue import Metric, metric as catalogue_metric
from ..errors import ExperimentError
from .stats import Stats, group, ordered
from .style import colour, marker, paper_style

#: the band around the mean: +/- one standard deviation of the runs, the 95 % confidence
#: interval of the mean (Student's t: with two seeds 12.7 x the standard error, wider than
#: the data), the lowest to the highest run, or none
BANDS = ("std", "ci", "minmax", "none")
#: readable with two or three seeds, and the spread of the runs rather than a claim about
#: the mean
DEFAULT_BAND = "std"
#: older spellings
BAND_ALIASES = {"ci95": "ci"}
#: file formats written by extension; a path without one gets both of DEFAULT_FORMATS
FORMATS = ("png", "pdf", "svg")
DEFAULT_FORMATS = ("png", "pdf")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ExperimentError("plots need matplotlib: pip install 'cloudsim_py[plot]'") from None
    return Figure


def band_limits(st: Stats, band: str, bounds: Metric) -> tuple[float, float]:
    """The band of one point in the stored unit, inside the metric's bounds."""
    if band == "minmax":
        lo, hi = min(st.values), max(st.values)
    else:
        half = st.ci95 if band == "ci" else st.std
        lo, hi = st.mean - half, st.mean + half
    return bounds.clamp(lo), bounds.clamp(hi)


def _band(band: str) -> str:
    band = BAND_ALIASES.get(band, band)
    if band not in BANDS:
        raise ExperimentError(f"--band {band!r}: choose one of {', '.join(BANDS)}")
    return band


def plot_results(rows: Sequence[Mapping[str, Any]], x: str, y: Sequence[str] | str, hue: str | None = None,
                 over: Sequence[str] = ("seed",), band: str = DEFAULT_BAND, logy: bool = False,
                 title: str | None = None, xlabel: str | None = None, ylabels: Sequence[str] = (),
                 legend: str | None = None) -> Any:
    """A matplotlib Figure with one panel per metric in ``y``; in each, one line per value of
    ``hue`` (the mean over ``over``) and, where a point has more than one run, a band (see
    :data:`BANDS`) clamped to the metric's bounds. Values are shown in the catalogue's unit
    (seconds of waits as minutes). Text values of ``x`` are placed at 0, 1, 2... in the order
    first met. ``xlabel``/``ylabels`` replace the catalogue's labels (one ``ylabels`` entry
    for every panel, or one per panel); ``legend`` titles the legend (``"none"``: no legend).
    On a log axis, points of zero or less cannot be drawn: the panel says how many it hides."""
    band = _band(band)
    metrics = [y] if isinstance(y, str) else list(y)
    if not metrics:
        raise ExperimentError("plot: give at least one --y metric")
    if len(ylabels) not in (0, 1, len(metrics)):
        raise ExperimentError(f"--ylabel: give one for every panel or one per --y ({len(metrics)}), "
                              f"not {len(ylabels)}")
    Figure = _figure_class()
    ncols = min(len(metrics), 3)
    nrows = math.ceil(len(metrics) / ncols)
    by = [hue, x] if hue else [x]
    hint = f"Add the column as --hue or select rows with --where COLUMN=VALUE (x is {x}" + \
           (f", hue is {hue})." if hue else ").")
    xinfo = catalogue_metric(x)
    with paper_style():
        fig = Figure(figsize=(3.4 * ncols, 2.8 * nrows + 0.5), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        handles: dict[str, Any] = {}
        for n, (ax, name) in enumerate(zip(axes, metrics)):
            info = catalogue_metric(name)
            stats = group(rows, by, name, over, hint=hint)
            xs_all = ordered(k[-1] for k in stats)
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs_all)
            position = {v: (xinfo.shown(float(v)) if numeric else float(i)) for i, v in enumerate(xs_all)}
            series: dict[Any, list] = {h: [] for h in (ordered(k[0] for k in stats) if hue else [None])}
            for key, st in stats.items():
                if st.n:
                    series[key[0] if hue else None].append((key[-1], st))
            hidden = 0
            for i, (label, points) in enumerate(series.items()):
                points.sort(key=lambda p: position[p[0]])
                px = [position[v] for v, _ in points]
                mean = [info.shown(st.mean) for _, st in points]
                if logy:      # a mean <= 0 has no place on a log axis: a gap in the line, counted
                    hidden += sum(1 for m in mean if not m > 0)
                    mean = [m if m > 0 else math.nan for m in mean]
                text = str(label) if hue else info.label
                line, = ax.plot(px, mean, marker=marker(i), markersize=4, color=colour(i), label=text)
                handles.setdefault(text, line)
                if band != "none" and any(st.n > 1 for _, st in points):
                    limits = [band_limits(st, band, info) for _, st in points]
                    ax.fill_between(px, [info.shown(lo) for lo, _ in limits], [info.shown(hi) for _, hi in limits],
                                    color=line.get_color(), alpha=0.2, linewidth=0)
            if not numeric:
                ax.set_xticks([position[v] for v in xs_all], [str(v) for v in xs_all])
            ax.set_xlabel(xlabel if xlabel is not None else xinfo.axis_label)
            ax.set_ylabel(ylabels[0] if len(ylabels) == 1 else ylabels[n] if ylabels else info.axis_label)
            if logy:
                _log_axis(ax, hidden)
        for ax in axes[len(metrics):]:
            ax.set_visible(False)
        if legend != "none" and (hue or len(handles) > 1):
            heading = legend if legend is not None else (catalogue_metric(hue).label if hue else None)
            fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                       ncols=min(len(handles), 6), title=heading, frameon=False)
        if title:
            fig.suptitle(title)
    return fig


def _log_axis(ax: Any, hidden: int) -> None:
    """A log y axis scaled to the positive means (a factor 2 of margin; wider bands run off
    it), with a note of the points of zero or less it cannot show."""
    ax.set_yscale("log")
    shown = [m for line in ax.get_lines() for m in line.get_ydata() if m > 0]   # NaN > 0 is False
    if shown:
        ax.set_ylim(min(shown) / 2, max(shown) * 2)
    if hidden:
        note = f"{hidden} point{'s' if hidden > 1 else ''} <= 0 not shown (log axis)"
        ax.text(0.02, 0.02, note, transform=ax.transAxes, fontsize="small", color="0.3", va="bottom")
        print(f"plot: {ax.get_ylabel()}: {note}", file=sys.stderr)


def figure_paths(out: str) -> list[str]:
    """The files ``out`` names: itself if it ends in .png, .pdf or .svg, else ``out.png`` and
    ``out.pdf`` (a prefix)."""
    ext = os.path.splitext(out)[1].lower().lstrip(".")
    if ext in FORMATS:
        return [out]
    return [f"{out}.{fmt}" for fmt in DEFAULT_FORMATS]


def save_figure(fig: Any, out: str, formats: Sequence[str] | None = None, dpi: int = 200) -> list[str]:
    """Write the figure to ``out`` as given when it ends in .png, .pdf or .svg, else to
    ``out.png`` and ``out.pdf`` (``formats``: these extensions after ``out`` instead); returns
    the paths. Folders are created."""
    paths = [f"{out}.{fmt}" for fmt in formats] if formats is not None else figure_paths(out)
    folder = os.path.dirname(os.path.abspath(out))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise ExperimentError(f"{out}: cannot create the folder {folder} ({exc.strerror or exc})") from None
    for path in paths:
        try:
            fig.savefig(path, dpi=dpi)
        except OSError as exc:
            raise ExperimentError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return paths
