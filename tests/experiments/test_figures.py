"""Figures for a paper: --out used as given (PNG, PDF, SVG by extension), the band modes
inside the metric's bounds, one legend per figure, labels with units, the log-axis note."""

import pytest

from cloudsim_py.cli import main
from cloudsim_py.experiments.plots import plot_results
from cloudsim_py.experiments.store import write_results

pytest.importorskip("matplotlib", reason="plots need matplotlib (the plot extra)")


def rows(bsld=((1, 1.0), (2, 3.0))):
    """Two seeds of FCFS and EASY at loads 0.5 and 0.7; avg_bsld of FCFS 1 and 3 at every
    load (mean 2, std sqrt(2)), EASY twice that; avg_wait 0 s for FCFS at 0.5, else 120 s."""
    out = []
    for policy, factor in (("fcfs", 1.0), ("easy", 2.0)):
        for load in (0.5, 0.7):
            for seed, value in bsld:
                out.append({"run_id": f"{policy}{load}{seed}", "status": "ok", "seed": seed, "policy": policy,
                            "workload.model.load": load, "avg_bsld": factor * value,
                            "avg_wait": 0.0 if (policy, load) == ("fcfs", 0.5) else 120.0})
    return out


def band_of(fig, n=0):
    bands = [c for c in fig.axes[0].collections if c.get_paths()]
    ys = bands[n].get_paths()[0].vertices[:, 1]
    return float(ys.min()), float(ys.max())


def test_the_std_band_is_clamped_at_a_bounded_slowdown_of_one():
    # FCFS: mean 2, std sqrt(2) = 1.414 -> 0.586..3.414, the lower edge raised to 1
    fig = plot_results(rows(), "workload.model.load", "avg_bsld", hue="policy")
    lo, hi = band_of(fig)
    assert lo == 1.0 and hi == pytest.approx(2 + 2 ** 0.5)


def test_the_ci_band_with_two_seeds_is_clamped_too():
    # t(0.975, 1) = 12.706; half-width 12.706 x sqrt(2) / sqrt(2) = 12.706
    lo, hi = band_of(plot_results(rows(), "workload.model.load", "avg_bsld", hue="policy", band="ci"))
    assert lo == 1.0 and hi == pytest.approx(2 + 12.706)


def test_the_minmax_band_spans_the_runs():
    lo, hi = band_of(plot_results(rows(), "workload.model.load", "avg_bsld", hue="policy", band="minmax"))
    assert (lo, hi) == (1.0, 3.0)


def test_the_older_ci95_name_is_the_ci_band():
    lo, hi = band_of(plot_results(rows(), "workload.model.load", "avg_bsld", hue="policy", band="ci95"))
    assert hi == pytest.approx(2 + 12.706)


def test_one_legend_for_the_figure_whatever_the_panels():
    fig = plot_results(rows(), "workload.model.load", ["avg_bsld", "avg_wait"], hue="policy")
    assert all(ax.get_legend() is None for ax in fig.axes)
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["fcfs", "easy"]
    assert legend.get_title().get_text() == "policy"


def test_labels_have_units_and_can_be_replaced():
    fig = plot_results(rows(), "workload.model.load", ["avg_bsld", "avg_wait"], hue="policy")
    assert [ax.get_ylabel() for ax in fig.axes] == ["average bounded slowdown", "average wait (min)"]
    assert fig.axes[0].get_xlabel() == "offered load"
    fig = plot_results(rows(), "workload.model.load", "avg_bsld", hue="policy", xlabel="load",
                       ylabels=["BSLD"], legend="scheduler")
    assert (fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()) == ("load", "BSLD")
    assert fig.legends[0].get_title().get_text() == "scheduler"


def test_a_log_axis_says_how_many_points_it_hides(capsys):
    # FCFS waits 0 at load 0.5: one point a log axis cannot draw
    fig = plot_results(rows(), "workload.model.load", "avg_wait", hue="policy", logy=True)
    notes = [t.get_text() for t in fig.axes[0].texts]
    assert notes == ["1 point <= 0 not shown (log axis)"]
    assert "1 point <= 0 not shown" in capsys.readouterr().err


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "r.csv"
    write_results(str(path), rows())
    return path


@pytest.mark.parametrize("ext, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF-"), ("svg", b"<?xml")])
def test_out_is_written_as_given_by_its_extension(table, tmp_path, ext, magic, capsys):
    out = tmp_path / f"fig.{ext}"
    assert main(["plot", str(table), "--x", "workload.model.load", "--y", "avg_bsld", "--hue", "policy",
                 "--out", str(out)]) == 0
    assert out.read_bytes()[: len(magic)] == magic
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r.csv", out.name])
    assert capsys.readouterr().out == f"wrote {out}\n"


def test_out_without_an_extension_is_a_prefix_for_png_and_pdf(table, tmp_path):
    assert main(["plot", str(table), "--x", "workload.model.load", "--y", "avg_bsld", "-o",
                 str(tmp_path / "fig")]) == 2  # policy varies inside a point: refused, nothing written
    assert main(["plot", str(table), "--x", "workload.model.load", "--y", "avg_bsld", "--hue", "policy",
                 "-o", str(tmp_path / "fig")]) == 0
    assert (tmp_path / "fig.png").is_file() and (tmp_path / "fig.pdf").is_file()


def test_help_prints_a_single_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["plot", "--help"])
    out = capsys.readouterr().out
    assert "95 % confidence" in out and "%%" not in out
