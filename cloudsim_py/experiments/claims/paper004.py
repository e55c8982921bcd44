"""Sindhuja and Santhosh (seed 004): k prioritized tiers per host (KTCBF)."""

from __future__ import annotations

from .core import Claim


def claims() -> list[Claim]:
    notes = ("checked by hand in docs/reproduction-notes.md, \"Four tiers that are used\"; its runs are "
             "not recorded in docs/data")
    return [
        Claim("paper 004", "Fig. 3, conclusion", "k tiers improve responsiveness over two", why=notes),
        Claim("paper 004", "dispatch", "the fourth tier takes a real share of the jobs", why=notes),
        Claim("paper 004", "Fig. 6", "k tiers need slightly fewer migrations than two", why=notes),
        Claim("paper 004", "Fig. 4", "more accurate CPU estimates give better performance", why=notes),
    ]
