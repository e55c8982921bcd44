"""Placement strategies: which hosts a job's processes go to when a broker does not name them.
A broker chooses one (``Broker.placement``); the datacenter applies it and checks the result."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence

import numpy as np

from ..errors import CapacityError
from ..workload.cpu import usage_values
from .capacity import INF
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
#: lists in C); above it, in numpy, whose fixed cost per call (a microsecond or more for each
#: operation) only pays for itself on many candidates. On fewer than 448 hosts the bound is
#: lower (:func:`small_ranking`): numpy's sort there is over fewer loads
SMALL_RANKING = 32


def small_ranking(hosts: int) -> int:
    """The most open slots JobDispatch ranks in plain Python on ``hosts`` hosts:
    ``4 + hosts // 16``, at most :data:`SMALL_RANKING`. Counted with callgrind per ranking:
    the Python ranking costs about 4,200 + 900 a instructions for a open slots, the numpy one
    (a stable sort of every host's ranked load) 13,000-15,000 on 100 hosts and 24,000-31,000
    on 338, so they cross near 10 and 25 open slots; both give the same hosts
    (tests/infrastructure/test_placement_ranking.py). O(1)."""
    bound = 4 + hosts // 16
    return bound if bound < SMALL_RANKING else SMALL_RANKING


#: up to this many hosts, one stable argsort of a tier's ranked loads ranks its open slots;
#: above it, a partition does (the sort's O(H log H) overtakes the partition's six calls)
SORT_RANKING = 512


class JobDispatch:
    """Liu 2015 Alg. 2 ``JobDispatch`` (also Liu 2013's dispatch): processes in descending
    order of (estimated) CPU usage go to available slots in ascending order of the estimated
    load of the host's other tiers (ties: lowest host id); unknown usage: random slots (the
    ``placement`` stream). With one tier every load is 0 and it is :class:`FirstIdle`.

    With k >= 2, for a available slots of H hosts: one process, O(H) in one numpy ``argmin``
    of the tier's ranked loads (the capacity index keeps them: the load where the slot is open,
    infinity elsewhere); more processes, O(a log a) in plain Python up to
    :func:`small_ranking` (H) slots, else O(H log H) in one numpy sort (up to
    :data:`SORT_RANKING` hosts) or O(H) in a partition of the open slots
    (:func:`ranked_lightest`). All give the same hosts
    (tests/infrastructure/test_placement_ranking.py)."""

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
        est = usage_values(job.cpu_estimate)
        if est is None:
            chosen_ids = [h.id for h in prefer if h.id in avail][:n] if prefer else []
            if n > len(chosen_ids):
                chosen_ids += self._random(dc, index.open_mask(tier), chosen_ids, n - len(chosen_ids))
            return [hosts[i] for i in chosen_ids]
        if prefer:
            chosen_ids = [h.id for h in prefer if h.id in avail][:n]
            need = n - len(chosen_ids)
            if need:
                if len(avail) <= small_ranking(len(hosts)):
                    chosen_ids += lightest(index.load_buf, avail, chosen_ids, need)
                else:
                    ranked = index.ranked[tier].copy()
                    ranked[chosen_ids] = INF
                    chosen_ids += ranked_lightest(ranked, need)
        elif n == 1:
            return [hosts[int(index.ranked[tier].argmin())]]
        elif len(avail) <= small_ranking(len(hosts)):
            chosen_ids = lightest(index.load_buf, avail, (), n)
        else:
            chosen_ids = ranked_lightest(index.ranked[tier], n)
        return by_process(hosts, chosen_ids, est)

    @staticmethod
    def _random(dc: "Datacenter", mask: np.ndarray, taken: list[int], need: int) -> list[int]:
        """``need`` random available slots (no usage known), from the ``placement`` stream,
        leaving out ``taken``; ``mask``: the open slots, a fresh array (written here); O(H)."""
        if taken:
            mask[taken] = False
        cand = mask.nonzero()[0]             # ascending ids (the method, not numpy's wrapper)
        picks = dc.sim.random["placement"].choice(cand.shape[0], need, replace=False)
        return cand[picks].tolist()


#: above this many processes, :func:`by_process` orders them in numpy (a stable argsort and a
#: scatter) rather than by ``sorted`` with a key per process and a loop in Python
WIDE_ORDER = 64


def by_process(hosts: Sequence[Host], ranked_ids: list[int], est: Sequence[float]) -> list[Host]:
    """JobDispatch's pairing: the hosts ranked lightest first (ids ``ranked_ids``) go to the
    processes in descending order of estimated usage ``est``, ties in process order
    (``sorted`` with reversed keys is stable); returns each process's host, by process.
    O(n log n) for n processes: in Python up to :data:`WIDE_ORDER` of them, else in numpy
    (``argsort`` of the negated estimates, stable: the same order, negation being exact, and
    a scatter of the ids), cheaper for wide jobs (tests/infrastructure/test_placement_ranking.py:
    both give the same hosts)."""
    n = len(ranked_ids)
    if n > WIDE_ORDER:
        order = np.argsort(np.negative(np.asarray(est, dtype=np.float64)), kind="stable")
        ids = np.empty(n, dtype=np.intp)
        ids[order] = ranked_ids
        return list(map(hosts.__getitem__, ids.tolist()))
    by_rank = sorted(range(n), key=est.__getitem__, reverse=True)
    chosen: list[Host] = [hosts[0]] * n
    for rank, proc in enumerate(by_rank):
        chosen[proc] = hosts[ranked_ids[rank]]
    return chosen


def ranked_lightest(ranked: np.ndarray, need: int) -> list[int]:
    """The ``need`` ids of least ``ranked`` value (infinity: not open), ties to the lowest id,
    in that order: one stable sort up to :data:`SORT_RANKING` hosts; above it, a selection
    among the open ids only, each keyed by the complex number ``value + id * 1j`` (numpy
    orders complex numbers by real part, then imaginary part: by value, then id; every key
    distinct, so the partition does not meet the runs of equal loads, 0.0 above all, on which
    a partition of the loads themselves slowed down 4-5 times), then a sort of the ``need``
    selected. O(H) for H hosts plus O(a) for a open ids and O(need log need), in numpy."""
    if need == 1:
        return [int(ranked.argmin())]
    if ranked.shape[0] <= SORT_RANKING:
        return ranked.argsort(kind="stable")[:need].tolist()
    cand = (ranked != INF).nonzero()[0]
    a = cand.shape[0]
    keys = np.empty(a, dtype=np.complex128)
    keys.real = ranked[cand]
    keys.imag = cand              # ids are exact in a float64 (below 2 ** 53)
    if need < a:
        keys = np.partition(keys, need - 1)[:need]
    keys.sort()
    chosen: list[int] = keys.imag.astype(np.intp).tolist()
    if need > a:                  # more than the open slots: the closed ones after, by id
        chosen += (ranked == INF).nonzero()[0][:need - a].tolist()
    return chosen


def lightest(load: Any, avail: Iterable[int], taken: Sequence[int], need: int) -> list[int]:
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
