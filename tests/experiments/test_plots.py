"""Plots: one line per policy, the mean over seeds with a band, PNG and PDF written; waits in
minutes (the catalogue's unit)."""

import pytest

from cloudsim_py.experiments.plots import plot_results, save_figure

pytest.importorskip("matplotlib")


def rows():
    """avg_wait = seed minutes (1, 2, 3) for FCFS and 10 x seed for EASY, at loads 0.5 and 0.7
    (+1 at 0.7), stored in seconds; avg_bsld = 2 x the wait in minutes."""
    out = []
    for policy, factor in (("fcfs", 1.0), ("easy", 10.0)):
        for load in (0.5, 0.7):
            for seed in (1, 2, 3):
                wait = factor * seed + (1.0 if load == 0.7 else 0.0)
                out.append({"run_id": f"{policy}{load}{seed}", "status": "ok", "broker.policy": policy,
                            "workload.model.load": load, "seed": seed, "policy": policy,
                            "avg_wait": 60 * wait, "avg_bsld": 2 * wait})
    return out


def test_one_line_per_policy_in_each_panel_with_the_means():
    fig = plot_results(rows(), "workload.model.load", ["avg_wait", "avg_bsld"], hue="policy")
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 2
    for ax, scale in zip(panels, (1.0, 2.0)):
        lines = ax.get_lines()
        assert [line.get_label() for line in lines] == ["fcfs", "easy"]
        # FCFS: mean(1, 2, 3) = 2 at 0.5, 3 at 0.7; EASY: 20 and 21
        assert list(lines[0].get_xdata()) == [0.5, 0.7]
        assert list(lines[0].get_ydata()) == pytest.approx([2 * scale, 3 * scale])
        assert list(lines[1].get_ydata()) == pytest.approx([20 * scale, 21 * scale])
        assert ax.get_legend() is None
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["fcfs", "easy"]


def test_the_ci_band_is_the_95_percent_confidence_interval_over_seeds():
    fig = plot_results(rows(), "workload.model.load", "avg_wait", hue="policy", band="ci")
    ax = fig.axes[0]
    bands = [c for c in ax.collections if c.get_paths()]
    assert len(bands) == 2
    # FCFS at 0.7: values 2, 3, 4 min -> mean 3, std 1, half-width t(0.975, 2) / sqrt(3) =
    # 4.303 / 1.732 = 2.484; at 0.5 the band would reach 2 - 2.484 < 0: a wait is >= 0
    ys = bands[0].get_paths()[0].vertices[:, 1]
    assert ys.min() == 0.0 and ys.max() == pytest.approx(3 + 4.303 / 3 ** 0.5)


def test_no_band_when_asked():
    fig = plot_results(rows(), "workload.model.load", "avg_wait", hue="policy", band="none")
    assert len(fig.axes[0].get_lines()) == 2 and not fig.axes[0].collections


def test_png_and_pdf_are_written(tmp_path):
    fig = plot_results(rows(), "workload.model.load", "avg_wait", hue="policy")
    paths = save_figure(fig, str(tmp_path / "figs" / "wait"))
    assert [p.rsplit(".", 1)[1] for p in paths] == ["png", "pdf"]
    assert (tmp_path / "figs" / "wait.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "figs" / "wait.pdf").read_bytes()[:5] == b"%PDF-"


def test_text_x_values_keep_the_order_of_the_table():
    fig = plot_results(rows(), "policy", "avg_wait", over=("seed", "workload.model.load"))
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["fcfs", "easy"]
    # means over 3 seeds x 2 loads: FCFS (2 + 3) / 2 = 2.5, EASY (20 + 21) / 2 = 20.5
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx([2.5, 20.5])
