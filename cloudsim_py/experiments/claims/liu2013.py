"""Liu et al. 2013 (seed 003): the migration-supported backfilling family (CMBF, AMBF, CMCBF,
AMCBF) on the Feitelson (FWorkload) and Jann (JWorkload) workloads, section 5.3 (Figs. 3-4) and
the discussion studies of section 5.4.

Evidence: ``docs/data/liu2013.csv`` (``scripts/liu_sweeps.py record`` from
``scenarios/papers/liu2013-small.yaml``; reduced: 5,000 jobs per workload, three seeds). One row
per (workload, study, variant, load): the policies of Figs. 3-4 at loads 0.5-0.9 (study
``figs``, migration cost 20 s); AMCBF at loads 0.7-0.9 with a CPU estimate error
(``AMCBF-E10``, ``AMCBF-E20``), without CPU information (``AMCBF-UN``), a migration cost of c
seconds (``AMCBF-Mc``) or a mean CPU usage of p % (``AMCBF-Cp``). Liu 2013 measures the
response time (``avg_response``), the bounded slowdown, migrations per job and utilization."""

from __future__ import annotations

from .core import Claim, Evidence, Verdict, deviation_verdict
from .loadsweep import LIU2013, fmt, loads_text, mean_of, paired, series

WORKLOADS = ("FWorkload", "JWorkload")
SHORT = {"FWorkload": "FW", "JWorkload": "JW"}
#: section 5.3 observation 2: utilization gained over EASY, "up to" (percent)
UTILIZATION_GAIN = {"FWorkload": 2.4, "JWorkload": 3.1}
#: how far our largest utilization gain may be from the paper's, relative
UTILIZATION_TOLERANCE = 0.5
#: section 5.4: the migration cost up to which AMCBF beats EASY; the mean CPU usage below which
MIGRATION_THRESHOLD = {"FWorkload": 600, "JWorkload": 360}
CPU_THRESHOLD = {"FWorkload": 95, "JWorkload": 80}
MIGRATION_COSTS = (0, 20, 60, 120, 240, 360, 600, 900)
CPU_MEANS = (60, 70, 80, 90, 95, 100)
METRICS = ("avg_response", "avg_bsld")
#: the loads of the section 5.4 studies (liu2013-small.yaml)
STUDY_LOADS = (0.7, 0.8, 0.9)
#: a trend "grows" if its last value is above its first and no step falls by more than this
#: (relative): neighbouring migration costs differ by less than the seeds' noise
STEP_NOISE = 0.05


def _s(ev: Evidence, workload: str, variant: str, metric: str) -> dict[float, float]:
    return series(ev, LIU2013, metric, workload=workload, variant=variant)


def _migration_variant(cost: int) -> str:
    return "AMCBF" if cost == 20 else f"AMCBF-M{cost}"


def _cpu_variant(mean: int) -> str:
    return "AMCBF" if mean == 70 else f"AMCBF-C{mean}"


def _compare_everywhere(workload: str, variants: tuple[str, ...], others: tuple[str, ...], metrics: tuple[str, ...],
                        better: bool, where: str, text: str) -> Claim:
    """Each of ``variants`` below (``better``) or above every one of ``others`` on ``metrics`` at
    every load both have."""
    def check(ev: Evidence) -> Verdict | None:
        bad, n = [], 0
        for v in variants:
            for o in others:
                for m in metrics:
                    pairs = paired(_s(ev, workload, v, m), _s(ev, workload, o, m))
                    if not pairs:
                        return None
                    n += len(pairs)
                    bad += [f"{v} vs {o} {m} at {x:g}" for x, a, b in pairs if not (a < b if better else a > b)]
        if not bad:
            return Verdict(f"in all {n} (policy, load, metric) cells", "holds")
        return Verdict(f"not in {len(bad)} of {n}: " + ", ".join(bad[:3]) + (" ..." if len(bad) > 3 else ""),
                       "fails")

    return Claim("Liu 2013", f"{where}, {SHORT[workload]}", text, check)


def _mean_below(workload: str, a: str, b: str, metrics: tuple[str, ...], where: str, text: str) -> Claim:
    """``a``'s mean over the common loads below ``b``'s on every one of ``metrics``."""
    def check(ev: Evidence) -> Verdict | None:
        parts, ok = [], True
        for m in metrics:
            pairs = paired(_s(ev, workload, a, m), _s(ev, workload, b, m))
            if not pairs:
                return None
            ma, mb = mean_of(p[1] for p in pairs), mean_of(p[2] for p in pairs)
            assert ma is not None and mb is not None
            parts.append(f"{m} {fmt(ma)} vs {fmt(mb)}")
            ok = ok and ma < mb
        return Verdict("; ".join(parts), "holds" if ok else "fails")

    return Claim("Liu 2013", f"{where}, {SHORT[workload]}", text, check)


def _utilization_gain(workload: str) -> Claim:
    paper = UTILIZATION_GAIN[workload]

    def check(ev: Evidence) -> Verdict | None:
        easy = _s(ev, workload, "EASY", "utilization")
        gains = [(100 * (u / e - 1), x, v) for v in ("CMCBF", "AMCBF")
                 for x, u, e in paired(_s(ev, workload, v, "utilization"), easy)]
        if not gains:
            return None
        g, x, v = max(gains)
        return Verdict(f"{g:+.1f} % ({v} at load {x:g})",
                       deviation_verdict(g, paper, UTILIZATION_TOLERANCE) if g > 0 else "fails")

    return Claim("Liu 2013", f"section 5.3, {SHORT[workload]}", f"Consolidation raises the utilization over "
                 f"EASY's by up to {paper} % (tolerance {100 * UTILIZATION_TOLERANCE:.0f} %)", check)


def _jw_more_migrations(policy: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        fw = mean_of(_s(ev, "FWorkload", policy, "migrations").values())
        jw = mean_of(_s(ev, "JWorkload", policy, "migrations").values())
        if fw is None or jw is None:
            return None
        return Verdict(f"JW {jw:.3f} vs FW {fw:.3f} per job", "holds" if jw > fw else "fails")

    return Claim("Liu 2013", "section 5.3", f"JWorkload has more migrations per job than FWorkload ({policy})", check)


def _most_cases(ev: Evidence, workload: str, variant: str) -> tuple[int, int] | None:
    """(cases where ``variant`` beats EASY, cases): the (load, metric) pairs of section 5.4, at
    the loads of its studies."""
    wins = n = 0
    for m in METRICS:
        pairs = [p for p in paired(_s(ev, workload, variant, m), _s(ev, workload, "EASY", m)) if p[0] in STUDY_LOADS]
        n += len(pairs)
        wins += sum(1 for _, a, e in pairs if a < e)
    return (wins, n) if n else None


def _beats_easy_without_cpu(workload: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        r = _most_cases(ev, workload, "AMCBF-UN")
        if r is None:
            return None
        return Verdict(f"better in {r[0]} of {r[1]} (load, metric) cases", "holds" if 2 * r[0] > r[1] else "fails")

    return Claim("Liu 2013", f"section 5.4, {SHORT[workload]}", "AMCBF beats EASY in most cases even without any "
                 "CPU information (response and slowdown, loads 0.7-0.9)", check)


def _threshold(ev: Evidence, workload: str, steps: tuple[int, ...], name) -> tuple[int | None, list[str]] | None:
    """The largest step up to which AMCBF beats EASY in most cases at every step (None: not even
    at the first), and each step's record."""
    last: int | None = None
    broken = False
    record = []
    for step in steps:
        r = _most_cases(ev, workload, name(step))
        if r is None:
            return None
        record.append(f"{step}: {r[0]}/{r[1]}")
        if 2 * r[0] > r[1] and not broken:
            last = step
        else:
            broken = True
    return last, record


def _migration_threshold(workload: str) -> Claim:
    """FW: "even with a migration cost at 600 seconds ... AMCBF can still outperform EASY in most
    cases" (a statement at 600 s); JW: "the threshold is 360 seconds" (wins up to 360 s, not at
    600 s, the next cost swept)."""
    paper = MIGRATION_THRESHOLD[workload]

    def check(ev: Evidence) -> Verdict | None:
        if workload == "FWorkload":
            r = _most_cases(ev, workload, _migration_variant(paper))
            if r is None:
                return None
            return Verdict(f"better in {r[0]} of {r[1]} (load, metric) cases at {paper} s",
                           "holds" if 2 * r[0] > r[1] else "fails")
        t = _threshold(ev, workload, MIGRATION_COSTS, _migration_variant)
        if t is None:
            return None
        last, record = t
        upto = ("at every cost swept" if last == MIGRATION_COSTS[-1] else
                f"up to {last} s" if last is not None else "at no cost")
        return Verdict(f"{upto} (wins per cost {', '.join(record)})", "holds" if last == paper else "fails")

    text = (f"AMCBF still beats EASY in most cases with a migration cost of {paper} s (24 % of the mean runtime)"
            if workload == "FWorkload" else
            f"AMCBF beats EASY in most cases up to a migration cost of {paper} s (3.2 % of the mean runtime), not beyond")
    return Claim("Liu 2013", f"section 5.4, {SHORT[workload]}", text, check)


def _cpu_threshold(workload: str) -> Claim:
    paper = CPU_THRESHOLD[workload]

    def check(ev: Evidence) -> Verdict | None:
        t = _threshold(ev, workload, CPU_MEANS, _cpu_variant)
        if t is None:
            return None
        last, record = t
        if workload == "FWorkload":
            ok = last is not None and last >= 90          # every mean below 95 %
        else:
            ok = last == paper                            # about 80 %: wins at 80, not at 90
        upto = f"up to {last} %" if last is not None else "at no mean"
        return Verdict(f"{upto} (wins per mean {', '.join(record)})",
                       "holds" if ok else "fails")

    text = ("AMCBF beats EASY in most cases while the mean CPU usage is below 95 %" if workload == "FWorkload"
            else "AMCBF beats EASY in most cases up to a mean CPU usage of about 80 %, not beyond")
    return Claim("Liu 2013", f"section 5.4, {SHORT[workload]}", text, check)


def _grows(workload: str, variants: tuple[str, ...], labels: tuple[str, ...], metric: str,
           where: str, text: str) -> Claim:
    """``metric``'s mean over the loads all ``variants`` have grows along ``variants``: the last
    above the first, no step falling by more than :data:`STEP_NOISE`."""
    def check(ev: Evidence) -> Verdict | None:
        seriess = [_s(ev, workload, v, metric) for v in variants]
        if any(not s for s in seriess):
            return None
        common = set(seriess[0])
        for s in seriess[1:]:
            common &= set(s)
        if not common:
            return None
        values = [sum(s[x] for x in common) / len(common) for s in seriess]
        ok = values[-1] > values[0] and all(b >= a * (1 - STEP_NOISE) for a, b in zip(values, values[1:]))
        return Verdict(", ".join(f"{lab} {fmt(m)}" for lab, m in zip(labels, values))
                       + f" (loads {loads_text(sorted(common))})", "holds" if ok else "fails")

    return Claim("Liu 2013", f"{where}, {SHORT[workload]}", text, check)


def claims() -> list[Claim]:
    out: list[Claim] = []
    for w in WORKLOADS:
        out += [
            _compare_everywhere(w, ("CMBF", "AMBF"), ("FCFS",), METRICS, True, "section 5.3, Figs. 3-4",
                                "CMBF and AMBF beat FCFS (response time and bounded slowdown, every load)"),
            _compare_everywhere(w, ("CMBF", "AMBF"), ("EASY",), METRICS, False, "section 5.3, Figs. 3-4",
                                "CMBF and AMBF are worse than EASY with exact runtimes (response time and bounded "
                                "slowdown, every load)"),
            _compare_everywhere(w, ("CMCBF", "AMCBF"), ("FCFS", "CMBF", "AMBF"), METRICS, True,
                                "section 5.3, Figs. 3-4", "CMCBF and AMCBF beat FCFS, CMBF and AMBF (response time "
                                "and bounded slowdown, every load)"),
            _compare_everywhere(w, ("CMCBF", "AMCBF"), ("EASY",), METRICS, True, "section 5.3, Figs. 3-4",
                                "CMCBF and AMCBF, without runtime estimates, beat EASY with exact ones (response "
                                "time and bounded slowdown, every load)"),
            _compare_everywhere(w, ("CMCBF", "AMCBF"), ("FCFS", "EASY", "CMBF", "AMBF"), ("utilization",), False,
                                "section 5.3, Figs. 3-4", "CMCBF and AMCBF reach a higher utilization than the other "
                                "algorithms (every load)"),
            _utilization_gain(w),
            _mean_below(w, "AMBF", "CMBF", METRICS, "section 5.3", "AMBF beats CMBF (response time and bounded "
                        "slowdown, mean over the loads)"),
            _mean_below(w, "AMCBF", "CMCBF", METRICS, "section 5.3", "AMCBF is slightly better than CMCBF (response "
                        "time and bounded slowdown, mean over the loads)"),
            _mean_below(w, "AMCBF", "CMCBF", ("migrations",), "section 5.3", "AMCBF migrates slightly less than "
                        "CMCBF (migrations per job, mean over the loads)"),
            _mean_below(w, "AMBF", "CMBF", ("migrations",), "section 5.3", "AMBF migrates significantly less than "
                        "CMBF (migrations per job, mean over the loads)"),
        ]
    out.append(_compare_everywhere("JWorkload", ("CMBF",), ("CMCBF", "AMCBF"), ("migrations",), False, "section 5.3",
                                   "CMBF migrates more than CMCBF and AMCBF (every load)"))
    out += [_jw_more_migrations(p) for p in ("CMBF", "AMBF", "CMCBF", "AMCBF")]
    out.append(Claim("Liu 2013", "section 5.3", "Consolidation raises the saturation CPU utilization over EASY's by "
                     "11 % (FW) and 16 % (JW)", why="the sweeps stop at load 0.9; the saturation point is not swept"))
    for w in WORKLOADS:
        out += [
            _grows(w, ("AMCBF", "AMCBF-E10", "AMCBF-E20", "AMCBF-UN"), ("exact", "10 %", "20 %", "none"),
                            "avg_bsld", "section 5.4", "AMCBF improves as the CPU usage estimate gets more accurate "
                            "(exact, 10 %, 20 % error, none; bounded slowdown, steps within 5 % noise)"),
            _beats_easy_without_cpu(w),
            _grows(w, tuple(_migration_variant(c) for c in MIGRATION_COSTS),
                            tuple(f"{c} s" for c in MIGRATION_COSTS), "avg_bsld", "section 5.4",
                            "AMCBF degrades as the migration cost grows (0-900 s; bounded slowdown, steps "
                            "within 5 % noise)"),
            _migration_threshold(w),
            _grows(w, tuple(_cpu_variant(c) for c in CPU_MEANS), tuple(f"{c} %" for c in CPU_MEANS),
                            "avg_bsld", "section 5.4", "The benefit of consolidation falls as the mean CPU usage "
                            "rises (60-100 %; bounded slowdown, steps within 5 % noise)"),
            _cpu_threshold(w),
        ]
    return out
