"""Speed of one process from its host's tier occupancy (ARCHITECTURE.md, Progress).

Tier by tier: the CPU share left to tier t is what the busy tiers above it leave, never below
``idle_floor``; a process under a busy higher tier runs at ``eff * min(1, left / cpu)``
(Liu 2015 eq. 2, Liu 2013 section 5.1); a process with nothing busy above but something busy
below runs at ``1 - loss`` (Liu 2015 eq. 1); alone it runs at 1.
"""

from __future__ import annotations


def process_speed(slots: list, tier: int, idle_floor: float) -> float:
    """Speed (work seconds per second) of the process in ``slots[tier]``."""
    me = slots[tier]
    left = 1.0
    above = False
    for u in range(tier):
        other = slots[u]
        if other.job is not None:
            above = True
            used = other.cpu if other.cpu < left else left
            left -= used
            if left < idle_floor:
                left = idle_floor
    if above:
        share = left / me.cpu
        return me.eff * (share if share < 1.0 else 1.0)
    for u in range(tier + 1, len(slots)):
        if slots[u].job is not None:
            return 1.0 - me.loss
    return 1.0
