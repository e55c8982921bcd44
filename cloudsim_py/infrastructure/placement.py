"""Placement strategies: which hosts a job's processes go to when a broker does not name them.
A broker chooses one (``Broker.placement``); the datacenter applies it and checks the result."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Protocol, Sequence

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


class JobDispatch:
    """Liu 2015 Alg. 2 ``JobDispatch`` (also Liu 2013's dispatch): processes in descending
    order of (estimated) CPU usage go to available slots in ascending order of the estimated
    load of the host's other tiers (ties: lowest host id); unknown usage: random slots (the
    ``placement`` stream). With one tier every load is 0 and it is :class:`FirstIdle`.
    O(H) in numpy for k >= 2."""

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
        chosen_ids = [h.id for h in prefer if h.id in avail][:n]
        need = n - len(chosen_ids)
        est = job.cpu_estimate
        if need:
            mask = index.mask[tier]
            if chosen_ids:
                mask = mask.copy()
                mask[chosen_ids] = False
            cand = np.flatnonzero(mask)          # ascending ids
            if est is None:                      # no usage known: random slots
                picks = dc.sim.random["placement"].choice(cand.shape[0], need, replace=False)
                chosen_ids += cand[picks].tolist()
            else:
                loads = index.load[cand]
                if need == 1:                    # the lightest host, lowest id among equals
                    chosen_ids.append(int(cand[int(np.argmin(loads))]))
                elif need < cand.shape[0]:
                    # the need lightest hosts, ties to the lowest id, without a full sort
                    v = np.partition(loads, need - 1)[need - 1]
                    below = loads < v
                    first = cand[below][np.argsort(loads[below], kind="stable")]
                    tied = cand[loads == v][:need - first.shape[0]]
                    chosen_ids += first.tolist() + tied.tolist()
                else:
                    chosen_ids += cand[np.argsort(loads, kind="stable")].tolist()
        if est is None:
            return [hosts[i] for i in chosen_ids]
        order = sorted(range(n), key=lambda i: -est[i])
        chosen: list[Host] = [hosts[0]] * n
        for rank, proc in enumerate(order):
            chosen[proc] = hosts[chosen_ids[rank]]
        return chosen
