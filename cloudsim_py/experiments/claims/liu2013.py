"""Liu et al. 2013 (seed 003): the migration-supported backfilling family (CMBF, AMBF, CMCBF,
AMCBF) on the Feitelson (FW) and Jann (JW) workloads, sections 5.2-5.4."""

from __future__ import annotations

from .core import Claim


def claims() -> list[Claim]:
    later = "no runs yet"
    return [
        Claim("Liu 2013", "section 5.4", "the migration cost at which migration stops paying off: 600 s (FW), "
              "360 s (JW)", why=later),
        Claim("Liu 2013", "section 5", "JW has more migrations than FW under CMCBF and AMCBF", why=later),
        Claim("Liu 2013", "Figs. 3-4", "CMCBF and AMCBF improve on EASY's wait and slowdown at every load", why=later),
    ]
