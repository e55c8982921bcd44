"""Liu et al. 2015 (seed 000): Table 2's cells on the shared traces (KTH, CTC), the orderings
of section 4.3, and ACFCFS-100's direction (section 4.3.2) on every Table-2-sized shared trace
(issue 18 item 2). Evidence: ``docs/data/runs.jsonl`` (``scripts/reproduce.py run``). The load
sweeps of section 4.2 and Figs. 7-10 (issue 18 item 5): ``docs/data/liu2015-figs.csv``
(``scripts/liu_sweeps.py record``)."""

from __future__ import annotations

from ..liu2015 import TABLE2
from .core import Claim, Evidence, Verdict, deviation_verdict
from .loadsweep import LIU2015, fmt, improvement, loads_text, mean_of, paired, series

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
        claims.append(_worse(trace, "acfcfs100", "acfcfs", "avg_wait",
                             "With every process at 100 % CPU, ACFCFS gets worse (average wait, s)"))
        claims.append(_worse(trace, "acfcfs_un", "acfcfs", "avg_bsld",
                             "Without CPU information, ACFCFS gets worse (average bounded slowdown)"))
    for trace in OTHER_TRACES:
        claims.append(_worse(trace, "acfcfs100", "acfcfs", "avg_bsld",
                             "With every process at 100 % CPU, ACFCFS gets worse (average bounded slowdown; "
                             "a shared trace Table 2 does not use)"))
        claims.append(_worse(trace, "acfcfs100", "acfcfs", "avg_wait",
                             "With every process at 100 % CPU, ACFCFS gets worse (average wait, s; a shared "
                             "trace Table 2 does not use)"))
    for trace in ("LANL", "SDSC"):
        claims.append(Claim("Liu 2015", f"Table 2, {trace}", f"every cell of the {trace} rows",
                            why="the trace the paper used is not shared"))
    return claims




# -- section 4.2 and Figs. 4-10: the load sweeps on FWload and JWload ---------------------------
# Evidence: docs/data/liu2015-figs.csv (scripts/liu_sweeps.py record; reduced: 5,000 jobs, loads
# 0.5-0.9, three seeds). Columns: workload (FWload, JWload), variant (FCFS, EASY, CCFCFS, ACFCFS,
# ACFCFS10, ACFCFS20, ACFCFSUN, ACFCFS60, ACFCFS80, ACFCFS90, ACFCFS100), load, the metrics.

#: section 4.2 observation 1: ACFCFS's improvement over FCFS, averaged over the loads
FIG_IMPROVEMENT = {("FWload", "avg_wait"): 94.2, ("FWload", "avg_bsld"): 97.5,
                   ("JWload", "avg_wait"): 92.4, ("JWload", "avg_bsld"): 92.9}
#: how far our average improvement may be from the paper's (points): the runs are reduced
FIG_IMPROVEMENT_POINTS = 5.0
#: "comparable to EASY" (section 4.3.1) read as: at most this many times EASY's value
COMPARABLE = 1.5
METRIC_NAMES = {"avg_wait": "average wait", "avg_bsld": "average bounded slowdown", "max_wait": "maximum wait",
                "max_bsld": "maximum bounded slowdown", "kills": "kills"}


def _s(ev: Evidence, workload: str, variant: str, metric: str) -> dict[float, float]:
    return series(ev, LIU2015, metric, workload=workload, variant=variant)


def _mean_improvement(ev: Evidence, workload: str, metric: str, variant: str = "ACFCFS") -> float | None:
    pairs = paired(_s(ev, workload, variant, metric), _s(ev, workload, "FCFS", metric))
    return mean_of(improvement(a, f) for _, a, f in pairs)


def _fig_improvement(workload: str, metric: str) -> Claim:
    paper = FIG_IMPROVEMENT[(workload, metric)]

    def check(ev: Evidence) -> Verdict | None:
        ours = _mean_improvement(ev, workload, metric)
        if ours is None:
            return None
        d = ours - paper
        return Verdict(f"{ours:.1f} %", "holds" if abs(d) <= FIG_IMPROVEMENT_POINTS else f"off by {d:+.1f} points")

    return Claim("Liu 2015", f"section 4.2, {workload}", f"ACFCFS improves FCFS's {METRIC_NAMES[metric]} by "
                 f"{paper} % on average over the loads (within {FIG_IMPROVEMENT_POINTS:g} points)", check)


def _better_everywhere(workload: str, variants: tuple[str, ...], than: str, metrics: tuple[str, ...],
                       where: str, text: str) -> Claim:
    """Each of ``variants`` below ``than`` on each of ``metrics`` at every load."""
    def check(ev: Evidence) -> Verdict | None:
        worse, n = [], 0
        for v in variants:
            for m in metrics:
                pairs = paired(_s(ev, workload, v, m), _s(ev, workload, than, m))
                if not pairs:
                    return None
                n += len(pairs)
                worse += [f"{v} {m} at {x:g}" for x, a, b in pairs if not a < b]
        if not worse:
            return Verdict(f"better in all {n} (load, metric) cells", "holds")
        return Verdict(f"not better in {len(worse)} of {n}: " + ", ".join(worse[:4])
                       + (" ..." if len(worse) > 4 else ""), "fails")

    return Claim("Liu 2015", f"{where}, {workload}", text, check)


def _easy_only_above(workload: str, metric: str, threshold: float) -> Claim:
    """Section 4.2 observation 2: EASY beats ACFCFS only above ``threshold``."""
    def check(ev: Evidence) -> Verdict | None:
        pairs = paired(_s(ev, workload, "EASY", metric), _s(ev, workload, "ACFCFS", metric))
        if not pairs:
            return None
        easy_wins = [x for x, e, a in pairs if e < a]
        bad = [x for x in easy_wins if x <= threshold]
        return Verdict(f"EASY better at loads {loads_text(easy_wins)}", "fails" if bad else "holds")

    return Claim("Liu 2015", f"section 4.2, {workload}", f"EASY outperforms ACFCFS on the {METRIC_NAMES[metric]} "
                 f"only when the load is above {threshold:g}", check)


def _kills_grow(workload: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        k = _s(ev, workload, "ACFCFS", "kills")
        if len(k) < 2:
            return None
        values = [k[x] for x in sorted(k)]
        up = all(b >= a for a, b in zip(values, values[1:]))
        return Verdict(" -> ".join(f"{v:,.0f}" for v in values), "holds" if up else "fails")

    return Claim("Liu 2015", f"section 4.2, Fig. 6, {workload}", "ACFCFS's number of job kills increases with the "
                 "load (loads 0.5-0.9)", check)


def _ccfcfs_kills_peak(workload: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        k = _s(ev, workload, "CCFCFS", "kills")
        if len(k) < 3:
            return None
        loads = sorted(k)
        peak = max(loads, key=lambda x: k[x])
        text = " -> ".join(f"{k[x]:,.0f}" for x in loads)
        return Verdict(f"{text} (peak at {peak:g})", "holds" if loads[0] < peak < loads[-1] else "fails")

    return Claim("Liu 2015", f"section 4.2, Fig. 6, {workload}", "CCFCFS's kills are few at low and at high load "
                 "and most at a moderate load", check)


def _more_kills(workload: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        a, c = _s(ev, workload, "ACFCFS", "kills"), _s(ev, workload, "CCFCFS", "kills")
        pairs = paired(a, c)
        if not pairs:
            return None
        x, ka, kc = pairs[-1]
        return Verdict(f"{ka:,.0f} vs {kc:,.0f} at load {x:g}", "holds" if ka > kc else "fails")

    return Claim("Liu 2015", f"section 4.2, {workload}", "ACFCFS pays for beating CCFCFS with more job kills "
                 "(especially at high load)", check)


def _bsld_gain_larger(workload: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        w, b = _mean_improvement(ev, workload, "avg_wait"), _mean_improvement(ev, workload, "avg_bsld")
        if w is None or b is None:
            return None
        return Verdict(f"slowdown {b:.1f} % vs wait {w:.1f} %", "holds" if b > w else "fails")

    return Claim("Liu 2015", f"section 4.2, {workload}", "ACFCFS's improvement on the bounded slowdown is larger "
                 "than on the wait (small jobs are short)", check)


def _fw_benefits_more() -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        fw_w, fw_b = _mean_improvement(ev, "FWload", "avg_wait"), _mean_improvement(ev, "FWload", "avg_bsld")
        jw_w, jw_b = _mean_improvement(ev, "JWload", "avg_wait"), _mean_improvement(ev, "JWload", "avg_bsld")
        if fw_w is None or fw_b is None or jw_w is None or jw_b is None:
            return None
        return Verdict(f"wait FW {fw_w:.1f} % vs JW {jw_w:.1f} %; slowdown FW {fw_b:.1f} % vs JW {jw_b:.1f} %",
                       "holds" if fw_w > jw_w and fw_b > jw_b else "fails")

    return Claim("Liu 2015", "section 4.2", "FWload benefits more from ACFCFS than JWload (improvement over FCFS, "
                 "wait and slowdown)", check)


def _comparable_to_easy(workload: str, variant: str, below: float) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        pairs = [p for p in paired(_s(ev, workload, variant, "avg_bsld"), _s(ev, workload, "EASY", "avg_bsld"))
                 if p[0] < below]
        if not pairs:
            return None
        ratios = [a / e for _, a, e in pairs]
        return Verdict("x EASY: " + ", ".join(f"{r:.2f}" for r in ratios),
                       "holds" if max(ratios) <= COMPARABLE else "fails")

    return Claim("Liu 2015", f"section 4.3.1, Figs. 7-8, {workload}", f"{variant} is comparable to EASY on the "
                 f"average bounded slowdown below load {below:g} (read: at most {COMPARABLE:g} x EASY's)", check)


def _ordered(workload: str, variants: tuple[str, ...], metric: str, where: str, text: str) -> Claim:
    """The mean over the loads of ``metric`` does not decrease along ``variants``."""
    def check(ev: Evidence) -> Verdict | None:
        means = []
        for v in variants:
            m = mean_of(_s(ev, workload, v, metric).values())
            if m is None:
                return None
            means.append(m)
        ok = all(b >= a for a, b in zip(means, means[1:]))
        return Verdict(" <= ".join(f"{v} {fmt(m)}" for v, m in zip(variants, means)) if ok else
                       ", ".join(f"{v} {fmt(m)}" for v, m in zip(variants, means)), "holds" if ok else "fails")

    return Claim("Liu 2015", f"{where}, {workload}", text, check)


def figure_claims() -> list[Claim]:
    """Section 4.2 (Figs. 4-6) and section 4.3 (Figs. 7-10) on FWload and JWload, checked on the
    reduced load sweeps (docs/data/liu2015-figs.csv)."""
    out: list[Claim] = []
    for w in ("FWload", "JWload"):
        out += [_fig_improvement(w, "avg_wait"), _fig_improvement(w, "avg_bsld")]
    for w in ("FWload", "JWload"):
        out.append(_better_everywhere(w, ("CCFCFS", "ACFCFS"), "FCFS", ("avg_wait", "avg_bsld", "max_wait", "max_bsld"),
                                      "section 4.2", "CCFCFS and ACFCFS beat FCFS on the average and maximum wait "
                                      "and bounded slowdown at every load"))
        out.append(_better_everywhere(w, ("ACFCFS",), "CCFCFS", ("avg_wait", "avg_bsld"), "section 4.2",
                                      "ACFCFS beats CCFCFS (average wait and bounded slowdown, every load)"))
        out.append(_more_kills(w))
        out.append(_easy_only_above(w, "avg_wait", 0.8))
        out.append(_easy_only_above(w, "avg_bsld", 0.85))
        out.append(_bsld_gain_larger(w))
        out.append(_kills_grow(w))
        out.append(_ccfcfs_kills_peak(w))
    out.append(_fw_benefits_more())
    for w in ("FWload", "JWload"):
        out.append(_better_everywhere(w, ("ACFCFSUN",), "FCFS", ("avg_wait", "avg_bsld"), "section 4.3.1, Figs. 7-8",
                                      "Without CPU information ACFCFS still beats FCFS (average wait and bounded "
                                      "slowdown, every load)"))
        out.append(_comparable_to_easy(w, "ACFCFSUN", 0.8))
        out.append(_better_everywhere(w, ("ACFCFS20",), "ACFCFSUN", ("avg_bsld",), "section 4.3.1, Figs. 7-8",
                                      "A CPU estimate even with 20 % error beats no CPU information (average "
                                      "bounded slowdown, every load)"))
        out.append(_ordered(w, ("ACFCFS60", "ACFCFS", "ACFCFS80", "ACFCFS90", "ACFCFS100"), "avg_bsld",
                            "section 4.3.2, Figs. 9-10", "The benefit of ACFCFS falls as the mean CPU usage rises "
                            "(60, 70, 80, 90, 100 %; average bounded slowdown over the loads)"))
        out.append(_better_everywhere(w, ("ACFCFS100",), "FCFS", ("avg_wait", "avg_bsld"), "section 4.3.2, Figs. 9-10",
                                      "With every process at 100 % CPU ACFCFS still beats FCFS (average wait and "
                                      "bounded slowdown, every load)"))
    return out


def claims() -> list[Claim]:
    return liu2015_claims() + figure_claims()
