"""The capacity index: which tier slots are idle, which of them accept a placement under the
threshold, and each host's estimated load; O(1) counts, kept current as slots change."""

from __future__ import annotations

from array import array
from itertools import repeat
from typing import Any, Iterable, Sequence

import numpy as np

from .host import Host

INF = float("inf")
#: with two tiers, a job of more than this many processes has the index updated in numpy over
#: its host ids when it is placed or freed (:meth:`CapacityIndex.tier_changed`), a narrower one
#: host by host (:meth:`CapacityIndex.tier_changed_by_host`, cheaper there)
WIDE_INDEX = 48


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
    lowest id among equals, is one ``argmin``. Whether a slot is open is not mirrored apart:
    ``ranked[t]`` is finite exactly there (:meth:`open_mask`), so a placement writes one
    array per tier and host, not two."""

    __slots__ = ("hosts", "tiers", "threshold", "foreground", "idle", "open", "load_buf", "load",
                 "ranked_buf", "ranked", "busy_buf", "busy", "est_buf", "est")

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
        self.ranked_buf = [array("d", bytes(8 * n)) for _ in range(tiers)] if tiers > 1 else []
        self.ranked = [np.frombuffer(b, dtype=np.float64) for b in self.ranked_buf]
        #: two tiers: per tier, whether each host's slot is busy and its estimated usage (0 when
        #: idle or unknown), mirrored from the slots, so that a wide placement or release
        #: updates the index in a few numpy operations over its host ids (:meth:`tier_changed`)
        self.busy_buf = [bytearray(n) for _ in range(tiers)] if tiers == 2 else []
        self.busy = [np.frombuffer(b, dtype=bool) for b in self.busy_buf]
        self.est_buf = [array("d", bytes(8 * n)) for _ in range(tiers)] if tiers == 2 else []
        self.est = [np.frombuffer(b, dtype=np.float64) for b in self.est_buf]

    def open_mask(self, tier: int) -> np.ndarray:
        """k >= 2: a new boolean array, True where ``tier``'s slot is open (in ``open[tier]``):
        where its ranked load is finite (loads are sums of finite estimates); O(H) in numpy.
        For the rare readers (random placement of unknown usage, :meth:`check`)."""
        return self.ranked[tier] != INF

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
        threshold = self.threshold
        foreground = self.foreground
        above = 0.0
        top = 0.0
        for t, slot in enumerate(host.slots):
            job = slot.job
            if t:
                if job is None and (top if foreground else above) < threshold:
                    self.open[t][hid] = None
                else:
                    self.open[t].pop(hid, None)
            if job is not None and slot.cpu_est is not None:
                above += slot.cpu_est
            if not t:
                top = above
        self.load_buf[hid] = above
        top_idle = host.slots[0].job is None
        for t, (ranked, open_) in enumerate(zip(self.ranked_buf, self.open)):
            ranked[hid] = above if (hid in open_ if t else top_idle) else INF

    def slots_changed(self, hosts: Sequence[Host], tier: int, busy: bool,
                      est: Sequence[float] | None = None) -> None:
        """``tier``'s slot on each of ``hosts`` was taken (``busy``; ``est[i]`` the estimated
        usage of the process on ``hosts[i]``, None if unknown) or freed, by a job's placement
        or release. With two tiers only the changed tier is written, from the host ids alone: a
        job wider than :data:`WIDE_INDEX` processes in numpy (:meth:`tier_changed`), a narrower
        one host by host (:meth:`tier_changed_by_host`, cheaper there); with one tier, or three
        or more, every tier of each host is derived again (:meth:`hosts_changed`). O(n) for n
        hosts (O(n k) for k >= 3)."""
        if self.tiers != 2:
            self.hosts_changed(hosts)
        elif len(hosts) > WIDE_INDEX:
            self.tier_changed([h.id for h in hosts], tier, busy, est)
        else:
            self.tier_changed_by_host(hosts, tier, busy, est)

    def hosts_changed(self, hosts: Iterable[Host]) -> None:
        """:meth:`host_changed` for many hosts; with two tiers unrolled, the lookups hoisted out
        of the loop (fast path: this runs for every process placed or freed; equal to the
        general path, tests/infrastructure/test_capacity.py)."""
        if self.tiers != 2:
            for h in hosts:
                self.host_changed(h)
            return
        ranked0, ranked1 = self.ranked_buf
        busy0, busy1 = self.busy_buf
        est0, est1 = self.est_buf
        open1 = self.open[1]
        load_buf = self.load_buf
        threshold = self.threshold
        for host in hosts:
            hid = host.id
            fg, bg = host.slots
            if fg.job is None:
                above = 0.0
                busy0[hid] = 0
            else:
                above = fg.cpu_est if fg.cpu_est is not None else 0.0
                busy0[hid] = 1
            est0[hid] = above
            if bg.job is None:
                busy1[hid] = 0
                est1[hid] = 0.0
                load = above
                if above < threshold:
                    open1[hid] = None
                    ranked1[hid] = load
                else:
                    open1.pop(hid, None)
                    ranked1[hid] = INF
            else:
                open1.pop(hid, None)
                ranked1[hid] = INF
                busy1[hid] = 1
                if bg.cpu_est is not None:
                    est1[hid] = bg.cpu_est
                    load = above + bg.cpu_est
                else:
                    est1[hid] = 0.0
                    load = above
            ranked0[hid] = load if fg.job is None else INF
            load_buf[hid] = load

    def tier_changed_by_host(self, hosts: Sequence[Host], tier: int, busy: bool,
                             est: Sequence[float] | None = None) -> None:
        """Two tiers: :meth:`tier_changed` host by host in Python, for a narrow placement or
        release (where numpy's fixed cost per call does not pay): ``tier``'s slot on each of
        ``hosts`` was taken (``busy``, ``est[i]`` the estimated usage of the process on
        ``hosts[i]``, None if unknown) or freed; the other tier's slots did not change, so
        their mirrors are read instead of the slots and only what the changed tier decides is
        written. Equal to :meth:`hosts_changed` (tests/infrastructure/test_capacity_wide.py);
        O(n) for n hosts, about two thirds of its stores."""
        ranked0, ranked1 = self.ranked_buf
        busy0, busy1 = self.busy_buf
        est0, est1 = self.est_buf
        open1 = self.open[1]
        load_buf = self.load_buf
        threshold = self.threshold
        ests = est if busy and est is not None else repeat(None)
        if tier == 0:
            for host, e in zip(hosts, ests):
                hid = host.id
                if busy:
                    if e is None:
                        e = 0.0
                    busy0[hid] = 1
                    ranked0[hid] = INF
                else:
                    e = 0.0
                    busy0[hid] = 0
                est0[hid] = e
                if busy1[hid]:                 # closed below, and stays so
                    e1 = est1[hid]
                    load = e + e1
                elif e < threshold:
                    load = e
                    open1[hid] = None
                    ranked1[hid] = load
                else:
                    load = e
                    open1.pop(hid, None)
                    ranked1[hid] = INF
                if not busy:
                    ranked0[hid] = load
                load_buf[hid] = load
            return
        for host, e in zip(hosts, ests):
            hid = host.id
            above = est0[hid]
            if busy:
                busy1[hid] = 1
                open1.pop(hid, None)
                ranked1[hid] = INF
                if e is None:
                    est1[hid] = 0.0
                    load = above
                else:
                    est1[hid] = e
                    load = above + e
            else:
                busy1[hid] = 0
                est1[hid] = 0.0
                load = above
                if above < threshold:
                    open1[hid] = None
                    ranked1[hid] = load
                else:
                    open1.pop(hid, None)
                    ranked1[hid] = INF
            if not busy0[hid]:
                ranked0[hid] = load
            load_buf[hid] = load

    def tier_changed(self, ids: list[int], tier: int, busy: bool,
                     est: Sequence[float] | None = None) -> None:
        """Two tiers: ``tier``'s slot on each of the hosts ``ids`` was taken (``busy``,
        ``est[i]`` the estimated usage of the process on host ``ids[i]``, None if unknown) or
        freed; the other tier's slots did not change. Equal to :meth:`hosts_changed`
        (tests/infrastructure/test_capacity_wide.py) in O(n) numpy work for n hosts, plus in
        Python one set operation per host whose lower slot opened or closed (in ``ids`` order,
        as :meth:`hosts_changed` inserts them). Worth its fixed cost (a dozen numpy calls) on
        a wide job only."""
        ix = np.array(ids, dtype=np.intp)
        self.busy[tier][ix] = busy
        if busy and est is not None:
            self.est[tier][ix] = est
        else:
            self.est[tier][ix] = 0.0
        b0 = self.busy[0][ix]
        e0 = self.est[0][ix]
        load = e0 + self.est[1][ix]
        op = ~self.busy[1][ix] & (e0 < self.threshold)
        ranked1 = self.ranked[1]
        was = ranked1[ix] != INF
        self.ranked[0][ix] = np.where(b0, INF, load)
        ranked1[ix] = np.where(op, load, INF)
        self.load[ix] = load
        flips = (op != was).nonzero()[0]
        if flips.shape[0]:
            open1 = self.open[1]
            for hid, now_open in zip(ix[flips].tolist(), op[flips].tolist()):
                if now_open:
                    open1[hid] = None
                else:
                    del open1[hid]

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
                mask = self.open_mask(t)
                assert np.flatnonzero(mask).tolist() == sorted(self.open[t]), \
                    f"tier {t}: ranked loads finite elsewhere than on the open slots"
                assert (self.ranked[t] == np.where(mask, self.load, INF)).all(), \
                    f"tier {t}: ranked loads out of date"
        if self.tiers == 2:
            for t in range(2):
                busy = [h.slots[t].job is not None for h in hosts]
                assert self.busy[t].tolist() == busy, f"tier {t}: busy mirror out of date"
                ests = [h.slots[t].cpu_est or 0.0 if b else 0.0 for h, b in zip(hosts, busy)]
                assert self.est[t].tolist() == ests, f"tier {t}: estimate mirror out of date"
        if self.tiers > 1:
            for h in hosts:
                est = sum(s.cpu_est for s in h.slots if s.job is not None and s.cpu_est is not None)
                assert abs(self.load_buf[h.id] - est) <= 1e-9, f"host {h.id}: load out of date"
