"""The look of every figure: font sizes that stay legible when a figure is shrunk to a column
of a paper, and the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies, and in grey by its markers). Figures are built inside :func:`paper_style`."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from ..errors import ExperimentError

#: Okabe & Ito (2008), "Color Universal Design": black last, yellow late (faint on white)
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

RC: dict[str, Any] = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "legend.title_fontsize": 8,
    "figure.titlesize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 1.4,
    "lines.markersize": 4.5,
    "savefig.dpi": 200,
}


def colour(n: int) -> str:
    """The ``n``-th colour of the palette (cycling)."""
    return PALETTE[n % len(PALETTE)]


def marker(n: int) -> str:
    return MARKERS[n % len(MARKERS)]


@contextmanager
def paper_style() -> Iterator[None]:
    """matplotlib's settings for a figure built inside the block (the palette as the colour
    cycle); the global settings are left as they were."""
    try:
        import matplotlib
        from cycler import cycler
    except ImportError:
        raise ExperimentError("plots need matplotlib: pip install 'cloudsim_py[plot]'") from None

    settings: Any = {**RC, "axes.prop_cycle": cycler(color=list(PALETTE))}
    with matplotlib.rc_context(settings):
        yield
