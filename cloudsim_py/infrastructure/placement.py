"""Placement strategies: which hosts a job's processes go to when a broker does not name them.
A broker chooses one (``Broker.placement``); the datacenter applies it and checks the result."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence

import numpy as np

from ..errors import CapacityError
from .host import Host

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.job import Job
    from .datacenter import Datacenter


class Placement(Protocol):
    """``choose(dc, job, tier, prefer)``: ``job.procs`` distinct hosts whose ``tier`` slot is
    available, ``result[i]`` for process i; raises :class:`CapacityError` when too few are.
    ``prefer``: hosts to take first where available (a job moving up keeps what it can)."""

    def choose(self, dc: "Datacenter", job: "Job", tier: int,
               prefer: Sequence[Host] = ()) -> list[Host]: ...


def _too_few(dc: "Datacenter", job: "Job", tier: int, avail: int) -> CapacityError:
    return CapacityError(f"t={dc.now}: job {job.id} needs {job.procs} slots in tier {tier}, "
                         f"{avail} available")


class FirstIdle:
    """The first available slots in the index's order (the order hosts became idle); O(n)."""

    def choose(self, dc: "Datacenter", job: "Job", tier: int,
               prefer: Sequence[Host] = ()) -> list[Host]:
        avail = dc.index.open[tier]
        n = job.procs
        if n > len(avail):
            raise _too_few(dc, job, tier, len(avail))
        hosts = dc.hosts
        chosen = [h for h in prefer if h.id in avail][:n]
        if len(chosen) == n:
            return chosen
        taken = {h.id for h in chosen}
        rest = (i for i in avail if i not in taken) if taken else iter(avail)
        return chosen + [hosts[i] for i in islice(rest, n - len(chosen))]


#: at most this many candidate slots, JobDispatch ranks them in plain Python (a sort of small
#: lists in C); above it, in numpy, whose fixed cost per call (a few microseconds for each of
#: the half-dozen operations) only pays for itself on many candidates
SMALL_RANKING = 48


class JobDispatch:
    """Liu 2015 Alg. 2 ``JobDispatch`` (also Liu 2013's dispatch): processes in descending
    order of (estimated) CPU usage go to available slots in ascending order of the estimated
    load of the host's other tiers (ties: lowest host id); unknown usage: random slots (the
    ``placement`` stream). With one tier every load is 0 and it is :class:`FirstIdle`.

    O(a log a) for a available slots with k >= 2: up to :data:`SMALL_RANKING` of them sorted
    in plain Python (the ids, then stably by load), else ranked in numpy with one partition;
    the two give the same hosts (tests/infrastructure/test_placement_ranking.py)."""

    def choose(self, dc: "Datacenter", job: "Job", tier: int,
               prefer: Sequence[Host] = ()) -> list[Host]:
        index = dc.index
        n = job.procs
        avail = index.open[tier]
        if n > len(avail):
            raise _too_few(dc, job, tier, len(avail))
        hosts = dc.hosts
        if index.tiers == 1:
            return [hosts[i] for i in islice(avail, n)]
        chosen_ids = [h.id for h in prefer if h.id in avail][:n] if prefer else []
        need = n - len(chosen_ids)
        est = job.cpu_estimate
        if need:
            if est is not None and len(avail) <= SMALL_RANKING:
                chosen_ids += lightest(index.load_buf, avail, chosen_ids, need)
            else:
                chosen_ids += self._ranked(dc, index.mask[tier], index.load, chosen_ids, need,
                                           est is None)
        if est is None:
            return [hosts[i] for i in chosen_ids]
        if n == 1:
            return [hosts[chosen_ids[0]]]
        # descending estimated usage, ties in process order (a stable sort, reversed keys)
        order = sorted(range(n), key=est.__getitem__, reverse=True)
        chosen: list[Host] = [hosts[0]] * n
        for rank, proc in enumerate(order):
            chosen[proc] = hosts[chosen_ids[rank]]
        return chosen

    @staticmethod
    def _ranked(dc: "Datacenter", mask: np.ndarray, load: np.ndarray, taken: list[int],
                need: int, at_random: bool) -> list[int]:
        """The ``need`` lightest available slots (ties: lowest id) in numpy, leaving out
        ``taken``; with ``at_random`` (no usage known) random ones from the ``placement``
        stream instead; O(H)."""
        if taken:
            mask = mask.copy()
            mask[taken] = False
        cand = mask.nonzero()[0]             # ascending ids (the methods, not numpy's wrappers)
        if at_random:                        # no usage known: random slots
            picks = dc.sim.random["placement"].choice(cand.shape[0], need, replace=False)
            return cand[picks].tolist()
        loads = load[cand]
        if need == 1:                        # the lightest host, lowest id among equals
            return [int(cand[loads.argmin()])]
        if need < cand.shape[0]:
            # the need lightest hosts, ties to the lowest id, without a full sort
            v = np.partition(loads, need - 1)[need - 1]
            below = loads < v
            first = cand[below][loads[below].argsort(kind="stable")]
            tied = cand[loads == v][:need - first.shape[0]]
            return first.tolist() + tied.tolist()
        return cand[loads.argsort(kind="stable")].tolist()


def lightest(load: Any, avail: Iterable[int], taken: list[int], need: int) -> list[int]:
    """The ``need`` ids of ``avail`` (not in ``taken``) of least ``load[id]``, ties to the lowest
    id, in that order: JobDispatch's ranking in plain Python; O(a log a) in C for a ids."""
    if taken:
        skip = set(taken)
        cand = sorted(i for i in avail if i not in skip)
    else:
        cand = sorted(avail)
    key = load.__getitem__
    if need == 1:
        return [min(cand, key=key)]      # the first least in ascending ids: the lowest id
    cand.sort(key=key)                   # stable: equal loads stay in ascending ids
    return cand[:need]
