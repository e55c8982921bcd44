"""The capacity index: which tier slots are idle, which of them accept a placement under the
threshold, and each host's estimated load; O(1) counts, kept current as slots change."""

from __future__ import annotations

from array import array
from typing import Any, Iterable, Sequence

import numpy as np

from .host import Host

INF = float("inf")


class CapacityIndex:
    """Per tier, the ids of hosts whose slot is idle (an insertion-ordered dict used as a set)
    and, for lower tiers, of idle slots *open* for placement (the tiers above use less than
    ``threshold`` of the CPU, by the estimates a broker has); tier 0's open set is its idle set.
    ``foreground``: the threshold reads tier 0's load alone (paper 004's KTCBF ``dispatch``),
    else the load of every tier above (``stacked``); see :meth:`threshold_load`.

    With k >= 2 tiers the same sets and each host's estimated load are mirrored in numpy views
    over plain Python buffers (cheap to write, read in C), so JobDispatch ranks available slots
    in numpy instead of keeping a sorted index (docs/architecture.md). ``ranked[t]`` is the
    load where tier t's slot is open and infinity elsewhere: the lightest open slot of a tier,
    lowest id among equals, is one ``argmin``."""

    __slots__ = ("hosts", "tiers", "threshold", "foreground", "idle", "open", "load_buf", "load",
                 "mask_buf", "mask", "ranked_buf", "ranked")

    def __init__(self, hosts: Sequence[Host], tiers: int, threshold: float,
                 foreground: bool = True) -> None:
        n = len(hosts)
        self.hosts = hosts
        self.tiers = tiers
        self.threshold = threshold
        self.foreground = foreground
        self.idle: list[dict[int, None]] = [dict.fromkeys(range(n)) for _ in range(tiers)]
        self.open: list[dict[int, None]] = [self.idle[0]] + [dict.fromkeys(range(n))
                                                             for _ in range(1, tiers)]
        self.load_buf = array("d", bytes(8 * n))
        self.load = np.frombuffer(self.load_buf, dtype=np.float64)
        self.mask_buf = [bytearray(b"\x01" * n) for _ in range(tiers)] if tiers > 1 else []
        self.mask = [np.frombuffer(b, dtype=bool) for b in self.mask_buf]
        self.ranked_buf = [array("d", bytes(8 * n)) for _ in range(tiers)] if tiers > 1 else []
        self.ranked = [np.frombuffer(b, dtype=np.float64) for b in self.ranked_buf]

    def load_above(self, host: Host, tier: int, exclude: Any = None) -> float:
        """Estimated CPU load of the tiers above ``tier`` on ``host``, leaving out ``exclude``'s
        process; O(tier)."""
        load = 0.0
        for slot in host.slots[:tier]:
            if slot.job is not None and slot.job is not exclude and slot.cpu_est is not None:
                load += slot.cpu_est
        return load

    def threshold_load(self, host: Host, tier: int, exclude: Any = None) -> float:
        """The estimated load the threshold rule reads for a process in ``tier`` on ``host``,
        leaving out ``exclude``'s process: with ``foreground``, tier 0's alone (Sindhuja and
        Santhosh, KTCBF ``dispatch``: Low, Medium and High processes go where the utilization
        "caused by the VeryHigh_CPU load" is below the threshold, and a VeryHigh process above
        it evicts them); else (``stacked``) :meth:`load_above`. 0 for tier 0."""
        if self.foreground and tier > 1:
            tier = 1
        return self.load_above(host, tier, exclude)

    def host_changed(self, host: Host) -> None:
        """Re-derive the host's estimated load and, tier by tier, whether its idle slots accept a
        placement (for lower tiers: the tiers above use less than the threshold); O(k)."""
        hid = host.id
        masks = self.mask_buf
        threshold = self.threshold
        foreground = self.foreground
        above = 0.0
        top = 0.0
        for t, slot in enumerate(host.slots):
            job = slot.job
            if t:
                if job is None and (top if foreground else above) < threshold:
                    self.open[t][hid] = None
                    masks[t][hid] = 1
                else:
                    self.open[t].pop(hid, None)
                    masks[t][hid] = 0
            else:
                masks[0][hid] = job is None
            if job is not None and slot.cpu_est is not None:
                above += slot.cpu_est
            if not t:
                top = above
        host.load = above
        self.load_buf[hid] = above
        if self.ranked_buf:
            for t, ranked in enumerate(self.ranked_buf):
                ranked[hid] = above if masks[t][hid] else INF

    def hosts_changed(self, hosts: Iterable[Host]) -> None:
        """:meth:`host_changed` for many hosts; with two tiers unrolled, the lookups hoisted out
        of the loop (fast path: this runs for every process placed or freed; equal to the
        general path, tests/infrastructure/test_capacity.py)."""
        if self.tiers != 2:
            for h in hosts:
                self.host_changed(h)
            return
        mask0, mask1 = self.mask_buf
        ranked0, ranked1 = self.ranked_buf
        open1 = self.open[1]
        load_buf = self.load_buf
        threshold = self.threshold
        for host in hosts:
            hid = host.id
            fg, bg = host.slots
            if fg.job is None:
                above = 0.0
                mask0[hid] = 1
            else:
                above = fg.cpu_est if fg.cpu_est is not None else 0.0
                mask0[hid] = 0
            if bg.job is None:
                load = above
                if above < threshold:
                    open1[hid] = None
                    mask1[hid] = 1
                    ranked1[hid] = load
                else:
                    open1.pop(hid, None)
                    mask1[hid] = 0
                    ranked1[hid] = INF
            else:
                open1.pop(hid, None)
                mask1[hid] = 0
                ranked1[hid] = INF
                load = above + bg.cpu_est if bg.cpu_est is not None else above
            ranked0[hid] = load if fg.job is None else INF
            host.load = load
            load_buf[hid] = load

    def check(self) -> None:
        """Verify the index against the slots; raises AssertionError."""
        hosts = self.hosts
        for t in range(self.tiers):
            idle = {h.id for h in hosts if h.slots[t].job is None}
            assert idle == set(self.idle[t]), f"tier {t}: idle index out of date"
            if t > 0:
                op = {h.id for h in hosts if h.slots[t].job is None
                      and self.threshold_load(h, t) < self.threshold}
                assert op == set(self.open[t]), f"tier {t}: open index out of date"
            if self.tiers > 1:
                assert np.flatnonzero(self.mask[t]).tolist() == sorted(self.open[t]), \
                    f"tier {t}: availability mask out of date"
                assert (self.ranked[t] == np.where(self.mask[t], self.load, INF)).all(), \
                    f"tier {t}: ranked loads out of date"
        if self.tiers > 1:
            for h in hosts:
                est = sum(s.cpu_est for s in h.slots if s.job is not None and s.cpu_est is not None)
                assert abs(h.load - est) <= 1e-9 and self.load[h.id] == h.load, \
                    f"host {h.id}: load mirror out of date"
