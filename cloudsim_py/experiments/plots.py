"""Figures of a results table, as in the papers: one curve per policy (``hue``) of a metric
against a parameter (``x``, e.g. the load), the mean over seeds with a 95 % confidence band;
written as PNG and PDF. Needs matplotlib (the ``plot`` extra); uses its object API (no pyplot
state). Imports nothing from the simulator."""

from __future__ import annotations

import math
import os
from typing import Any, Mapping, Sequence

from ..errors import ExperimentError
from .stats import group, ordered

BANDS = ("ci95", "std", "none")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ExperimentError("plots need matplotlib: pip install 'cloudsim_py[plot]'") from None
    return Figure


def plot_results(rows: Sequence[Mapping[str, Any]], x: str, y: Sequence[str] | str, hue: str | None = None,
                 over: Sequence[str] = ("seed",), band: str = "ci95", logy: bool = False,
                 title: str | None = None) -> Any:
    """A matplotlib Figure with one panel per metric in ``y``; in each, one line per value of
    ``hue`` (the mean over ``over``) and, where a point has more than one run, a band: the
    95 % confidence interval of the mean (``ci95``) or +/- one standard deviation (``std``).
    Text values of ``x`` are placed at 0, 1, 2... in the order first met."""
    if band not in BANDS:
        raise ExperimentError(f"--band {band!r}: choose one of {', '.join(BANDS)}")
    metrics = [y] if isinstance(y, str) else list(y)
    if not metrics:
        raise ExperimentError("plot: give at least one --y metric")
    Figure = _figure_class()
    ncols = min(len(metrics), 3)
    nrows = math.ceil(len(metrics) / ncols)
    fig = Figure(figsize=(4.6 * ncols, 3.6 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    by = [hue, x] if hue else [x]
    hint = f"Add the column as --hue or select rows with --where COLUMN=VALUE (x is {x}" + \
           (f", hue is {hue})." if hue else ").")
    for ax, metric in zip(axes, metrics):
        stats = group(rows, by, metric, over, hint=hint)
        xs_all = ordered(k[-1] for k in stats)
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs_all)
        position = {v: (float(v) if numeric else float(i)) for i, v in enumerate(xs_all)}
        series: dict[Any, list] = {}
        for name in ordered(k[0] for k in stats) if hue else [None]:
            series[name] = []
        for key, st in stats.items():
            series[key[0] if hue else None].append((key[-1], st))
        for name, points in series.items():
            points.sort(key=lambda p: position[p[0]])
            px = [position[v] for v, _ in points]
            mean = [st.mean for _, st in points]
            line, = ax.plot(px, mean, marker="o", markersize=3.5, label=str(name) if hue else metric)
            if band != "none" and any(st.n > 1 for _, st in points):
                half = [st.ci95 if band == "ci95" else st.std for _, st in points]
                ax.fill_between(px, [m - h for m, h in zip(mean, half)], [m + h for m, h in zip(mean, half)],
                                color=line.get_color(), alpha=0.2, linewidth=0)
        if not numeric:
            ax.set_xticks([position[v] for v in xs_all], [str(v) for v in xs_all])
        ax.set_xlabel(x)
        ax.set_ylabel(metric)
        if logy:
            ax.set_yscale("log")
            # a band reaching zero or below has no place on a log axis: scale the view to the
            # means (a factor 2 of margin) and let wider bands run off it
            shown = [m for line in ax.get_lines() for m in line.get_ydata() if m > 0]
            if shown:
                ax.set_ylim(min(shown) / 2, max(shown) * 2)
        ax.grid(True, alpha=0.3)
        if hue:
            ax.legend(title=hue, fontsize="small")
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    return fig


def save_figure(fig: Any, prefix: str, formats: Sequence[str] = ("png", "pdf"), dpi: int = 150) -> list[str]:
    """Write ``prefix.png`` and ``prefix.pdf``; returns the paths."""
    folder = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(folder, exist_ok=True)
    paths = []
    for fmt in formats:
        path = f"{prefix}.{fmt}"
        fig.savefig(path, dpi=dpi)
        paths.append(path)
    return paths
