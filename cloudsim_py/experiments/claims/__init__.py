"""The claims ledger (issue 18 item 8): every claim of the seed papers the project checks, one
row each (paper, where, the claim, our number, the verdict), computed from recorded runs in
docs/data, never typed by hand. The mechanism is :mod:`.core`; each paper's claims are a module
(:mod:`.liu2015`, :mod:`.li`, :mod:`.liu2013`, :mod:`.paper004`, :mod:`.sodan2009`) with a
``claims()`` function; :mod:`.loadsweep` reads the recorded load sweeps of Liu 2013 and Liu
2015 for theirs; ``scripts/reproduce.py claims`` writes the ledger into docs/reproduction.md."""

from __future__ import annotations

from . import li, liu2013, liu2015, paper004, sodan2009
from .core import (Check, Claim, Evidence, Row, Verdict, counts, deviation_verdict, ledger, markdown,
                   read_evidence)
from .li import li_claims
from .liu2015 import liu2015_claims

__all__ = ["Check", "Claim", "Evidence", "Row", "Verdict", "all_claims", "counts", "deviation_verdict",
           "ledger", "li_claims", "liu2015_claims", "markdown", "read_evidence"]


def all_claims() -> list[Claim]:
    """Every claim, paper by paper (the ledger's row order)."""
    return liu2015.claims() + li.claims() + liu2013.claims() + paper004.claims() + sodan2009.claims()
