"""Li et al. (seed 001): the feedback schedulers FDLS and FDMMS, Figs. 1-2 (mean execution
time against the feedback factor alpha, loose and tight clouds). Evidence:
``docs/data/li-feedback.csv`` (``scripts/li_feedback_figures.py``)."""

from __future__ import annotations

import math

from .core import Claim, Evidence, Verdict

def _fdmms_below(situation: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        alphas = ev.li_alphas(situation, "fdls")
        found = [(ev.li_mean(situation, "fdmms", a), ev.li_mean(situation, "fdls", a)) for a in alphas]
        pairs = [(m, s) for m, s in found if m is not None and s is not None]
        if not pairs or len(pairs) < len(found):
            return None
        below = sum(1 for m, s in pairs if m < s)
        worst = max(m / s for m, s in pairs)
        return Verdict(f"{below} of {len(pairs)} alphas, FDMMS / FDLS at most {worst:.3f}",
                       "holds" if below == len(pairs) else "fails")

    return Claim("Li et al.", f"Fig. {1 if situation == 'loose' else 2} ({situation})",
                 "FDMMS gives a lower average execution time than FDLS at every feedback factor alpha", check)


def _feedback_helps(situation: str, policy: str) -> Claim:
    def check(ev: Evidence) -> Verdict | None:
        alphas = [a for a in ev.li_alphas(situation, policy) if a > 0]
        base = ev.li_mean(situation, policy, 0.0)
        if base is None or not alphas:
            return None
        best = min(ev.li_mean(situation, policy, a) or math.inf for a in alphas)
        change = 100 * (best / base - 1)
        return Verdict(f"best alpha > 0: {change:+.1f} % against alpha = 0", "holds" if best < base else "fails")

    return Claim("Li et al.", f"Fig. 2 ({situation})",
                 f"With feedback (alpha > 0) {policy.upper()} finishes jobs sooner than without (alpha = 0) "
                 "when the clouds are tight", check)


def li_claims() -> list[Claim]:
    return [_fdmms_below("loose"), _fdmms_below("tight"), _feedback_helps("tight", "fdls"),
            _feedback_helps("tight", "fdmms")]


def claims() -> list[Claim]:
    return li_claims()
