"""The report's numbers on a hand-made results table, in the form of Liu 2015 Table 2."""

import pytest

from cloudsim_py.errors import ExperimentError
from cloudsim_py.experiments.report import build_report, format_markdown, improvement


def rows():
    """Waits in seconds, two seeds each. KTH: FCFS 600/600, EASY 60/180, ACFCFS 300/300;
    CTC: FCFS 1200/1200, EASY 120/120 (no ACFCFS run)."""
    table = {("KTH", "fcfs"): (600, 600), ("KTH", "easy"): (60, 180), ("KTH", "acfcfs"): (300, 300),
             ("CTC", "fcfs"): (1200, 1200), ("CTC", "easy"): (120, 120)}
    out = []
    for (trace, policy), waits in table.items():
        for seed, wait in enumerate(waits, 1):
            out.append({"run_id": f"{trace}{policy}{seed}", "status": "ok", "tag.trace": trace,
                        "broker.policy": policy, "seed": seed, "policy": policy, "avg_wait": float(wait),
                        "avg_bsld": wait / 6.0})
    return out


def test_improvement_is_the_papers_imp_column():
    # Liu 2015 Table 2, KTH average wait: FCFS 6498.2 min, EASY 114.2 min, Imp 98.2 %
    assert round(improvement(6498.2, 114.2), 1) == 98.2
    # CTC maximum bounded slowdown: FCFS 174853, ACFCFS 13272, Imp 92.4 %
    assert round(improvement(174853, 13272), 1) == 92.4


def test_mean_std_and_improvement_per_trace_and_policy():
    wait, bsld = build_report(rows(), ["avg_wait", "avg_bsld"], rows_by=["tag.trace"], baseline="fcfs")
    assert wait.label == "avg_wait (min)" and bsld.label == "avg_bsld"
    assert wait.rows == [("KTH",), ("CTC",)] and wait.columns == ["fcfs", "easy", "acfcfs"]
    easy = wait.cells[(("KTH",), "easy")]
    # EASY on KTH: 1 and 3 min -> mean 2, sample std sqrt(((1-2)^2 + (3-2)^2) / 1) = 1.414
    assert easy.mean == pytest.approx(2.0) and easy.std == pytest.approx(2 ** 0.5) and easy.n == 2
    # Imp = (10 - 2) / 10 = 80 %; ACFCFS (10 - 5) / 10 = 50 %; CTC EASY (20 - 2) / 20 = 90 %
    assert wait.improvement[(("KTH",), "easy")] == pytest.approx(80.0)
    assert wait.improvement[(("KTH",), "acfcfs")] == pytest.approx(50.0)
    assert wait.improvement[(("CTC",), "easy")] == pytest.approx(90.0)
    assert (("CTC",), "acfcfs") not in wait.cells
    # bounded slowdowns are not converted: EASY on KTH 10 and 30 -> mean 20, Imp (100 - 20) / 100
    assert bsld.cells[(("KTH",), "easy")].mean == pytest.approx(20.0)
    assert bsld.improvement[(("KTH",), "easy")] == pytest.approx(80.0)


def test_markdown_table():
    text = format_markdown(build_report(rows(), ["avg_wait"], rows_by=["tag.trace"]), ["tag.trace"])
    assert text.splitlines() == [
        "**avg_wait (min)** (mean ± std over runs (n = 2 per cell))",
        "",
        "| tag.trace | fcfs | easy | imp % | acfcfs | imp % |",
        "|---|---:|---:|---:|---:|---:|",
        "| KTH | 10.0 ± 0.00 | 2.00 ± 1.41 | 80.0 | 5.00 ± 0.00 | 50.0 |",
        "| CTC | 20.0 ± 0.00 | 2.00 ± 0.00 | 90.0 | - | - |",
    ]


def test_a_parameter_that_varies_inside_a_cell_is_an_error_not_an_average():
    table = rows()
    for i, r in enumerate(table):
        r["workload.model.load"] = 0.5 if i % 2 else 0.7
    with pytest.raises(ExperimentError, match=r"workload\.model\.load takes 0\.5, 0\.7.*--rows"):
        build_report(table, ["avg_wait"], rows_by=["tag.trace"])


def test_an_unknown_baseline_lists_the_policies():
    with pytest.raises(ExperimentError, match="--baseline sjf: no such policy; found fcfs, easy, acfcfs"):
        build_report(rows(), ["avg_wait"], rows_by=["tag.trace"], baseline="sjf")
