"""Liu et al. 2015 (seed 000): Table 2's cells on the shared traces (KTH, CTC), the orderings
of section 4.3, and ACFCFS-100's direction (section 4.3.2) on every Table-2-sized shared trace
(issue 18 item 2). Evidence: ``docs/data/runs.jsonl`` (``scripts/reproduce.py run``)."""

from __future__ import annotations

from ..liu2015 import TABLE2
from .core import Claim, Evidence, Verdict, deviation_verdict

#: Table 2's metrics in its column order (times in minutes there, seconds in the runs)
TABLE2_METRICS = ("avg_wait", "max_wait", "avg_bsld", "max_bsld")
TABLE2_LABELS = {"avg_wait": "average wait", "max_wait": "maximum wait", "avg_bsld": "average bounded slowdown",
                 "max_bsld": "maximum bounded slowdown"}
#: how far a table cell may be from the paper's and still hold: FCFS and EASY draw nothing random
#: and must match closely (3 %, the issue's target for EASY's maximum); the consolidation cells
#: come from random CPU usage and interference draws on one trace (15 %, issue 18's target)
CELL_TOLERANCE = {"fcfs": 0.03, "easy": 0.03}
CONSOLIDATION_TOLERANCE = 0.15
#: Table 2 rows with a shared trace: the paper's name -> the name of the recorded runs
TRACE_RUNS = {"KTH": "kth", "CTC": "ctc"}
#: the other shared traces of Table 2's size, where section 4.3's variants are run too
OTHER_TRACES = ("nasa", "sdsc-par", "sdsc-blue", "hpc2n", "llnl-atlas", "sdsc-sp2-5k")
POLICY_NAMES = {"fcfs": "FCFS", "easy": "EASY", "ccfcfs": "CCFCFS", "acfcfs": "ACFCFS",
                "acfcfs_un": "ACFCFS-UN (no CPU information)", "acfcfs100": "ACFCFS-100 (every process at 100 %)"}


def _table2_cell(trace: str, policy: str, i: int) -> Claim:
    metric = TABLE2_METRICS[i]
    paper = TABLE2[trace][policy][i]
    unit = " min" if "wait" in metric else ""
    tol = CELL_TOLERANCE.get(policy, CONSOLIDATION_TOLERANCE)

    def check(ev: Evidence) -> Verdict | None:
        runs = TRACE_RUNS[trace]
        m = ev.mean(runs, policy, metric)
        if m is None:
            return None
        ours = m / 60.0 if "wait" in metric else m
        n = ev.seeds(runs, policy, metric)
        return Verdict(f"{ours:,.1f}{unit}" + (f" ({n} seeds)" if n > 1 else ""),
                       deviation_verdict(ours, paper, tol))

    return Claim("Liu 2015", f"Table 2, {trace}", f"{POLICY_NAMES[policy]}: {TABLE2_LABELS[metric]} "
                 f"{paper:,.1f}{unit} (tolerance {100 * tol:.0f} %)", check)


def _worse(trace: str, label: str, than: str, metric: str, text: str) -> Claim:
    """``label`` above ``than`` on ``metric``; ``trace`` a Table 2 name or a recorded trace's."""
    def check(ev: Evidence) -> Verdict | None:
        runs = TRACE_RUNS.get(trace, trace)
        a, b = ev.mean(runs, label, metric), ev.mean(runs, than, metric)
        if a is None or b is None:
            return None
        return Verdict(f"{a:,.1f} vs {b:,.1f} ({a / b:.2f} x)", "holds" if a > b else "fails")

    return Claim("Liu 2015", f"section 4.3.2, {trace}", text, check)


def _improvement(trace: str, paper_pct: float) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        runs = TRACE_RUNS[trace]
        f, a = ev.mean(runs, "fcfs", "avg_wait"), ev.mean(runs, "acfcfs", "avg_wait")
        if f is None or a is None:
            return None
        ours = 100 * (1 - a / f)
        verdict = "holds" if abs(ours - paper_pct) <= 2.0 else f"off by {ours - paper_pct:+.1f} points"
        return Verdict(f"{ours:.1f} %", verdict)

    return Claim("Liu 2015", f"section 4.3, {trace}",
                 f"ACFCFS improves FCFS's average wait by {paper_pct} % (within 2 points)", check)


def _between(trace: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        runs = TRACE_RUNS[trace]
        f, c, a = (ev.mean(runs, p, "avg_wait") for p in ("fcfs", "ccfcfs", "acfcfs"))
        if f is None or c is None or a is None:
            return None
        return Verdict(f"{a / 60:,.1f} <= {c / 60:,.1f} <= {f / 60:,.1f} min", "holds" if a <= c <= f else "fails")

    return Claim("Liu 2015", f"Table 2, {trace}",
                 "CCFCFS's average wait lies between ACFCFS's and FCFS's (consolidation helps, CPU "
                 "information helps more)",
                 check)


def liu2015_claims() -> list[Claim]:
    claims = []
    for trace in TRACE_RUNS:
        for policy in ("fcfs", "easy", "ccfcfs", "acfcfs", "acfcfs_un", "acfcfs100"):
            for i in range(len(TABLE2_METRICS)):
                claims.append(_table2_cell(trace, policy, i))
        claims.append(_improvement(trace, {"KTH": 98.4, "CTC": 97.3}[trace]))
        claims.append(_between(trace))
        claims.append(_worse(trace, "acfcfs100", "acfcfs", "avg_bsld",
                             "With every process at 100 % CPU, ACFCFS gets worse (average bounded slowdown)"))
        claims.append(_worse(trace, "acfcfs_un", "acfcfs", "avg_bsld",
                             "Without CPU information, ACFCFS gets worse (average bounded slowdown)"))
    for trace in OTHER_TRACES:
        claims.append(_worse(trace, "acfcfs100", "acfcfs", "avg_bsld",
                             "With every process at 100 % CPU, ACFCFS gets worse (average bounded slowdown; "
                             "a shared trace Table 2 does not use)"))
    for trace in ("LANL", "SDSC"):
        claims.append(Claim("Liu 2015", f"Table 2, {trace}", f"every cell of the {trace} rows",
                            why="the trace the paper used is not shared"))
    return claims




def figure_claims() -> list[Claim]:
    """The load sweeps of section 4.2 and Figs. 7-10 (synthetic workloads), not recorded yet."""
    hand = "checked by hand in docs/reproduction.md; its runs are not recorded in docs/data"
    later = "no runs yet"
    return [
        Claim("Liu 2015", "section 4.2, Figs. 4-6", "On FWload and JWload ACFCFS improves FCFS's average wait and "
              "bounded slowdown by over 92 %", why=hand),
        Claim("Liu 2015", "section 4.2", "FWload benefits more from consolidation than JWload", why=later),
        Claim("Liu 2015", "Figs. 7-10", "the effect of CPU information, estimate errors and load on ACFCFS", why=later),
    ]


def claims() -> list[Claim]:
    return liu2015_claims() + figure_claims()
