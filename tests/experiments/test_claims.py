"""The claims ledger (issue 18, item 8): each claim's verdict is computed from recorded runs, on
a tiny hand-made evidence here; a slow test runs Table 2's FCFS and EASY on KTH and reads their
cells through the ledger."""

import importlib.util
import os

import pytest

from cloudsim_py.experiments.claims import (Claim, Evidence, Verdict, all_claims, counts, deviation_verdict,
                                            ledger, liu2015_claims, li_claims, markdown, read_evidence)
from cloudsim_py.experiments.liu2015 import TABLE2, TRACES, traces_dir

from ..conftest import REPO


def kth(label, seed=1, **metrics):
    return {"trace": "kth", "label": label, "seed": seed, **metrics}


def rows_where(rows, where, text_start):
    return [r for r in rows if r.where == where and r.text.startswith(text_start)]


def test_a_cell_within_its_tolerance_holds_and_one_outside_is_off_by_its_deviation():
    assert deviation_verdict(102.9, 100.0, 0.03) == "holds"
    assert deviation_verdict(116.0, 100.0, 0.15) == "off by +16.0 %"
    assert deviation_verdict(80.0, 100.0, 0.15) == "off by -20.0 %"


def test_table2_cells_read_the_mean_over_seeds_in_the_papers_units():
    # KTH CCFCFS average wait: seeds 9,000 s and 9,480 s -> mean 9,240 s = 154.0 min, the paper's
    ev = Evidence(runs=(kth("ccfcfs", 1, avg_wait=9000.0), kth("ccfcfs", 2, avg_wait=9480.0)))
    (row,) = rows_where(ledger(liu2015_claims(), ev), "Table 2, KTH", "CCFCFS: average wait")
    assert (row.ours, row.verdict) == ("154.0 min (2 seeds)", "holds")


def test_an_fcfs_cell_four_percent_off_is_off():
    paper = TABLE2["KTH"]["fcfs"][2]                                  # average bounded slowdown
    ev = Evidence(runs=(kth("fcfs", avg_bsld=paper * 1.04),))
    (row,) = rows_where(ledger(liu2015_claims(), ev), "Table 2, KTH", "FCFS: average bounded slowdown")
    assert row.verdict == "off by +4.0 %"


def test_a_trend_that_does_not_hold_fails():
    # ACFCFS-100 better than ACFCFS: the paper's "gets worse" fails
    ev = Evidence(runs=(kth("acfcfs", avg_bsld=40.0), kth("acfcfs100", avg_bsld=30.0)))
    (row,) = rows_where(ledger(liu2015_claims(), ev), "section 4.3.2, KTH",
                        "With every process at 100 % CPU, ACFCFS gets worse (average bounded")
    assert (row.ours, row.verdict) == ("30.0 vs 40.0 (0.75 x)", "fails")


def test_a_claim_whose_runs_are_missing_is_not_attempted():
    rows = ledger(liu2015_claims(), Evidence())
    assert all(r.verdict.startswith("not attempted") for r in rows)
    assert rows[0].verdict == "not attempted (its runs are not recorded)" and rows[0].ours == "-"


def test_li_claims_compare_every_alpha():
    li = [{"situation": "tight", "policy": p, "alpha": a, "mean_s": m}
          for p, a, m in (("fdls", "0", "100"), ("fdls", "0.5", "90"), ("fdmms", "0", "95"), ("fdmms", "0.5", "91"))]
    rows = ledger(li_claims(), Evidence(li=tuple(li)))
    tight_below = rows[1]                                              # FDMMS below FDLS, tight
    assert (tight_below.ours, tight_below.verdict) == ("1 of 2 alphas, FDMMS / FDLS at most 1.011", "fails")
    assert (rows[2].ours, rows[2].verdict) == ("best alpha > 0: -10.0 % against alpha = 0", "holds")


def test_a_claim_without_a_check_says_why():
    (row,) = ledger([Claim("p", "w", "t", why="the trace is not shared")], Evidence())
    assert row.verdict == "not attempted (the trace is not shared)"


def test_markdown_counts_the_verdicts():
    rows = ledger([Claim("p", "w", "a", lambda ev: Verdict("1", "holds")),
                   Claim("p", "w", "b", lambda ev: Verdict("2", "off by +20.0 %")),
                   Claim("p", "w", "c", lambda ev: Verdict("3", "fails")), Claim("p", "w", "d")], Evidence())
    assert counts(rows) == {"holds": 1, "off": 1, "fails": 1, "not attempted": 1}
    text = markdown(rows)
    assert "4 claims: 1 hold, 1 off, 1 fail, 1 not attempted." in text
    assert "| p | w | b | 2 | off by +20.0 % |" in text


def test_the_ledger_covers_every_paper():
    assert {c.paper for c in all_claims()} == {"Liu 2015", "Liu 2013", "paper 004", "Sodan 2009", "Li et al."}


def _reproduce_script():
    spec = importlib.util.spec_from_file_location("reproduce", os.path.join(REPO, "scripts", "reproduce.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ledger_replaces_its_previous_section_only(tmp_path):
    script = _reproduce_script()
    doc = tmp_path / "r.md"
    doc.write_text(f"# before\n\n{script.BEGIN}\nold ledger\n{script.END}\n\n# after\n")
    script.write_ledger(str(doc), str(tmp_path / "none.jsonl"), str(tmp_path / "none.csv"))
    text = doc.read_text()
    assert text.startswith("# before\n") and text.endswith("\n# after\n") and "old ledger" not in text
    assert text.count(script.BEGIN) == 1 and "## Claims ledger" in text


def test_the_recorded_runs_give_the_committed_ledger():
    """docs/reproduction.md's ledger is what the recorded runs give (it is generated)."""
    script = _reproduce_script()
    doc = open(os.path.join(REPO, "docs", "reproduction.md"), encoding="utf-8").read()
    assert script.ledger_section() in doc


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(os.path.join(traces_dir(), TRACES["KTH"][0])), reason="KTH trace missing")
def test_a_reduced_run_of_table2_holds_through_the_ledger(tmp_path):
    """FCFS and EASY on KTH (deterministic), recorded as scripts/reproduce.py records them, read
    through the ledger: each of their eight cells holds within 3 %."""
    from cloudsim_py.experiments.liu2015 import load
    from cloudsim_py.runner import simulate

    table, procs = load("KTH")
    runs = []
    for policy in ("fcfs", "easy"):
        s = simulate(table, hosts=procs, policy=policy).summary
        runs.append({"trace": "kth", "label": policy, "seed": 1,
                     **{m: s[m] for m in ("avg_wait", "max_wait", "avg_bsld", "max_bsld")}})
    rows = ledger(liu2015_claims(), Evidence(runs=tuple(runs)))
    cells = [r for r in rows if r.where == "Table 2, KTH" and r.text.startswith(("FCFS:", "EASY:"))]
    assert len(cells) == 8 and all(r.verdict == "holds" for r in cells), cells
    assert read_evidence(None, None) == Evidence()


def test_every_other_csv_in_the_data_folder_is_a_named_table(tmp_path):
    (tmp_path / "li.csv").write_text("situation,policy,alpha,mean_s\ntight,fdls,0,1\n")
    (tmp_path / "paper004.csv").write_text("tiers,seed\n4,0\n")
    ev = read_evidence(None, str(tmp_path / "li.csv"), str(tmp_path))
    assert ev.table("paper004") == ({"tiers": "4", "seed": "0"},)
    assert set(ev.tables) == {"paper004"} and len(ev.li) == 1 and ev.table("missing") == ()


def test_acfcfs100_is_checked_on_a_shared_trace_table2_does_not_use():
    runs = ({"trace": "hpc2n", "label": "acfcfs", "seed": 1, "avg_bsld": 24.0},
            {"trace": "hpc2n", "label": "acfcfs100", "seed": 1, "avg_bsld": 36.0})
    (row,) = [r for r in ledger(liu2015_claims(), Evidence(runs=runs))
              if r.where == "section 4.3.2, hpc2n" and "bounded slowdown" in r.text]
    assert (row.ours, row.verdict) == ("36.0 vs 24.0 (1.50 x)", "holds")


def test_acfcfs100_waiting_less_than_acfcfs_fails_the_wait_claim_alone():
    # SDSC-Blue's case: a higher bounded slowdown but a shorter average wait
    runs = ({"trace": "sdsc-blue", "label": "acfcfs", "seed": 1, "avg_bsld": 28.0, "avg_wait": 13_680.0},
            {"trace": "sdsc-blue", "label": "acfcfs100", "seed": 1, "avg_bsld": 34.0, "avg_wait": 10_690.0})
    rows = {("bounded" in r.text): (r.ours, r.verdict) for r in ledger(liu2015_claims(), Evidence(runs=runs))
            if r.where == "section 4.3.2, sdsc-blue"}
    assert rows == {True: ("34.0 vs 28.0 (1.21 x)", "holds"), False: ("10,690.0 vs 13,680.0 (0.78 x)", "fails")}
