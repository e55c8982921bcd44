"""Migration-supported backfilling (Liu, Wang, Zhou, Chen, Yang, Zomaya 2013, IEEE TPDS) and its
k-tier generalisation (Sindhuja and Santhosh, KTCBF).

One implementation serves the whole family; they differ in how many tiers they use and in who
may preempt:

=========  =====  ===================================  ==================================
policy     tiers  who may preempt later arrivals       paper
=========  =====  ===================================  ==================================
``cmbf``   1      every waiting job                    Liu 2013 Alg. 1, Fig. 1a
``ambf``   1      only the head of the queue           Liu 2013 section 4.1.2, Fig. 1b
``cmcbf``  2      every waiting or background job      Liu 2013 Algs. 2-4, Fig. 2
``amcbf``  2      only the head of the queue           Liu 2013 section 4.2, Fig. 2
``ktcbf``  k      every job (``aggressive``: the head)  Sindhuja and Santhosh, KTCBF
=========  =====  ===================================  ==================================

The rule (Liu 2013 section 4.1): a job is dispatched to the top tier whenever the VMs there
that are idle *or held by jobs that arrived later* cover its size; the later arrivals are
preempted newest first, and those not needed after all (smallest first, within the VMs left
over) stay where they are. A preempted job is switched one tier down by a priority swap when
the VMs below it are idle, else suspended (state saved) and queued again; it resumes anywhere
later, paying the migration cost. Jobs that fit the idle VMs start at once (backfilling without
reservations: no runtime estimates are used). Lower tiers are then filled in priority order:
jobs from lower tiers climb by priority swaps where the VMs above them are idle, and waiting
jobs are placed, in arrival order, where the VMs are idle and the tiers above leave CPU (the
threshold). A process that makes its host's upper tiers use the threshold or more evicts the
lower-tier jobs there (Liu 2013 Fig. 2, time 5: J5 evicts J4).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import partial
from itertools import accumulate
from operator import attrgetter, le
from typing import Iterable

from ...errors import PolicyError
from ...workload.job import Job, JobState
from ..base import Broker, register_broker
from ..eviction import keep_smallest, take_newest_first
from ..queues import WaitQueue, arrival, merged_by_arrival

RUNNING = JobState.RUNNING
SUSPENDED = JobState.SUSPENDED
QUEUED = JobState.QUEUED
#: a job's size, read in C (the preemption test sums it over the later arrivals)
_procs = attrgetter("procs")


class MigrationBackfillBroker(Broker):
    """The family's common engine; see the module docstring."""

    #: how many tiers the policy uses (None: all the datacenter has)
    levels: int | None = 1
    #: only the head of the queue may preempt (the "aggressive" A-variants)
    head_only = False
    queue_type = WaitQueue

    def bind(self, dc) -> None:
        super().bind(dc)
        self.k = dc.tiers if self.levels is None else self.levels
        if self.k > dc.tiers:
            raise PolicyError(f"policy {self.name!r} uses {self.k} tiers; the datacenter has {dc.tiers}")

    def on_submit(self, job: Job) -> None:
        self.queue.add(job)

    def schedule(self, now: float) -> None:
        """The top tier (:meth:`_top_tier`), then each lower tier: climbs (:meth:`_climb`),
        then waiting jobs (:meth:`_fill`); see each for its cost."""
        self._top_tier()
        for tier in range(1, self.k):
            self._climb(tier)
            self._fill(tier)

    # ------------------------------------------------------------------ placement helpers
    def _place(self, job: Job, tier: int) -> None:
        """Start, resume or move ``job`` into ``tier``; then evict what the threshold forbids."""
        dc = self.dc
        if job.state is QUEUED:
            self.queue.remove(job)
            placed = dc.start(job, tier)
        elif job.state is SUSPENDED:
            # Liu 2013 section 4.1: a preempted job's state was saved; restoring it costs the
            # migration cost wherever it resumes (JobDispatch may pick the same hosts)
            self.queue.remove(job)
            placed = dc.resume(job, tier, migrate=True)
        else:  # running in a lower tier
            avail = dc.available_hosts(tier)
            own = [h for h in dc.hosts_of(job) if h.id in avail]
            if len(own) == job.procs:
                dc.swap_tiers(job, tier)                     # switch in place, free
                placed = dc.hosts_of(job)
            else:
                # Liu 2013 section 4.2: processes whose upper VM is idle switch in place, the
                # others are saved and restored elsewhere (one suspend/resume, one migration)
                dc.suspend(job)
                placed = dc.resume(job, tier, dc.choose_hosts(job, tier, prefer=own))
        self._threshold_evictions(placed, tier)

    def _threshold_evictions(self, hosts: Iterable, tier: int) -> None:
        """Lower-tier jobs on hosts whose upper tiers now use >= the threshold are suspended
        (by :meth:`Datacenter.threshold_load`: with ``tier_threshold: foreground`` only a top-tier
        process evicts, as in KTCBF ``dispatch``: "evict the Low_CPU, Medium_CPU, High_CPU job
        if the utilization of ji is above the threshold"). One query for the whole placement
        (:meth:`Datacenter.over_threshold`): O(hosts) plus O(k) per host at the threshold, besides
        the suspensions."""
        dc = self.dc
        if tier + 1 >= dc.tiers:
            return                             # no tier below: nothing to evict (k = 1)
        for job in dc.over_threshold(hosts, tier):
            dc.suspend(job)
            self.queue.add(job)

    def _evict(self, job: Job, tier: int) -> None:
        """Make room in ``tier``: one tier down by a swap if possible, else suspend."""
        dc = self.dc
        below = tier + 1
        if below < self.k and dc.can_swap(job, below):
            dc.swap_tiers(job, below)
        else:
            dc.suspend(job)
            self.queue.add(job)

    # ------------------------------------------------------------------ the top tier
    def _candidates(self) -> Iterable[Job]:
        """Waiting jobs and jobs of lower tiers, in arrival order: a snapshot (placing jobs
        changes the queue), merged lazily, since a pass usually stops early."""
        return merged_by_arrival(list(self.queue), self._below(0))

    def _below(self, tier: int) -> list[Job]:
        """A copy of the running jobs of the tiers below ``tier``, in arrival order: from the
        datacenter's arrival index, O(n) pointer copies for n jobs (one tier below) or
        O(n log k) to merge k tiers' sorted runs."""
        dc = self.dc
        if tier + 2 == self.k:
            return list(dc.running_by_arrival(tier + 1))
        lower = [j for t in range(tier + 1, self.k) for j in dc.running_by_arrival(t)]
        lower.sort(key=arrival)   # sorted runs, one per tier: merged by the sort in C
        return lower

    def _top_tier(self) -> None:
        """Liu 2013 Alg. 1 (one tier) and Alg. 2 lines 10-16 (consolidation): in arrival order,
        start what fits the idle VMs; a job that does not fit preempts later arrivals if they
        and the idle VMs cover it (any job in C-variants, only the queue head in A-variants).

        When the top tier is full, :meth:`_none_may_preempt` (O(k) when no candidate arrived
        before its latest job; see it for the rest) returns at once where the loop below would
        neither place nor preempt anything: the common full pass. Else O(Q + B) pointer copies
        for the snapshot of the Q waiting and B lower-tier jobs, then O(1) per candidate looked
        at and, from the first candidate that may preempt, O(F) once for a snapshot of the F
        top-tier jobs: the later arrivals than each candidate and their processes are read from
        it by one pointer moving forward (the candidates come in arrival order; the jobs placed
        meanwhile arrived earlier than the candidates still to come, so they do not count);
        taken again after a preemption. Besides the placements' own work. The pass stops at the
        first candidate after which nothing can fit or preempt."""
        dc = self.dc
        top = dc.running_by_arrival(0)
        latest = top[-1].order if top else None
        head = self.queue.head()
        idle = dc.idle(0)
        if idle == 0 and self._none_may_preempt(top, head):
            return     # what the loop below would find, having looked at every candidate
        #: the top tier in arrival order when first needed (None: not taken yet), the position
        #: there of the first later arrival than the candidate, and their processes in all
        snap: list[Job] | None = None
        at = 0
        later_procs = 0
        for job in self._candidates():
            if job.state is RUNNING and job.tier == 0:      # moved up earlier in this pass
                continue
            if job.procs <= idle:
                self._place(job, 0)
                idle = dc.idle(0)
                continue
            key = job.order
            if latest is not None and key < latest and (not self.head_only or job is head):
                if snap is None:
                    snap = list(top)
                    at = 0
                    later_procs = sum(map(_procs, snap))
                while at < len(snap) and snap[at].order <= key:
                    later_procs -= snap[at].procs
                    at += 1
                if idle + later_procs >= job.procs:
                    self._preempt_for(job, snap[at:], idle)
                    idle = dc.idle(0)
                    top = dc.running_by_arrival(0)
                    latest = top[-1].order if top else None
                    snap = None
                    continue
            if idle == 0:
                # nothing fits any more: stop once no later candidate may preempt (a later
                # arrival than every top-tier job, or, in A-variants, anything after the head)
                if latest is None or key >= latest:
                    break
                if self.head_only and (head is None or key >= head.order):
                    break

    def _none_may_preempt(self, top: list[Job], head: Job | None) -> bool:
        """With the top tier full, whether the loop of :meth:`_top_tier` would do nothing: no
        candidate fits (every job has a process), so it acts exactly when a candidate that may
        preempt (C-variants: any; A-variants: the queue ``head``) arrived before the latest of
        the ``top`` tier's jobs (in arrival order) and is covered by the processes of the
        top-tier jobs that arrived after it. Until its first action the loop changes nothing,
        so this decides as it does (tests/brokers/test_mbf_top_tier.py). O(k) when no
        candidate arrived before the latest top-tier job; else A-variants: O(log F + L) for the
        L later arrivals than the head, of the F top-tier jobs; C-variants: O(log Q + k log B)
        to find the E waiting and lower-tier jobs that arrived before it (of Q and B), then
        O(F + E) in C, with one binary search of the top-tier arrivals for each of those E."""
        if not top:
            return True
        latest = top[-1].order
        dc = self.dc
        if self.head_only:
            if head is None or head.order >= latest:
                return True
            return sum(map(_procs, top[dc.arrived_after(0, head):])) < head.procs
        lowers = [dc.running_by_arrival(t) for t in range(1, self.k)]
        first = head.order if head is not None else None
        for lower in lowers:
            if lower and (first is None or lower[0].order < first):
                first = lower[0].order
        if first is None or first >= latest:
            return True                        # none arrived before the latest top-tier job
        early = [self.queue.arrived_before(latest)]
        early += [lower[:bisect_left(lower, latest, key=arrival)] for lower in lowers]
        # covered[p]: the processes of top[p:], the later arrivals than a candidate that
        # arrived after p top-tier jobs
        covered = list(accumulate(map(_procs, reversed(top)), initial=0))
        covered.reverse()
        position = partial(bisect_right, list(map(arrival, top)))
        cover = covered.__getitem__
        for jobs in early:
            if any(map(le, map(_procs, jobs), map(cover, map(position, map(arrival, jobs))))):
                return False
        return True

    def _preempt_for(self, job: Job, later: list[Job], idle: int) -> None:
        """Collect later arrivals newest first until ``job`` fits; keep those not needed."""
        need = job.procs
        chosen, idle = take_newest_first(
            (r for r in reversed(later) if r.state is RUNNING and r.tier == 0), idle, need)
        keep_smallest(chosen, idle - need)                 # the smallest not needed stay
        for r in chosen:
            self._evict(r, 0)
        self._place(job, 0)

    # ------------------------------------------------------------------ lower tiers
    def _climb(self, tier: int) -> None:
        """Jobs of tiers below ``tier`` move up by a swap where their VMs in ``tier`` are idle.
        Nothing for the last tier (every pass of k = 2); else O(B + sum of their processes)
        for the B jobs below, each checked on its hosts."""
        dc = self.dc
        movers = self._below(tier) if tier + 1 < self.k else []
        for job in movers:
            if job.state is RUNNING and job.tier > tier and all(
                    dc.is_available(h, tier) for h in dc.hosts_of(job)):
                dc.swap_tiers(job, tier)
                self._threshold_evictions(dc.hosts_of(job), tier)

    def _fill(self, tier: int) -> None:
        """Liu 2013 Alg. 3: scan the queue in arrival order, place what fits the available VMs.
        O(1) when nothing is available or the smallest waiting job is too large; else
        O(log Q + m log m) for the m waiting jobs no larger than the available VMs (the
        queue's size index), besides the placements' own work."""
        dc = self.dc
        avail = dc.available(tier)
        if avail == 0:
            return
        for job in self.queue.fitting(avail):
            if job.procs <= dc.available(tier):
                self._place(job, tier)
            if dc.available(tier) == 0:
                break


@register_broker("cmbf", "Liu 2013 CMBF: backfilling, any waiting job may preempt (suspend) later arrivals")
class CmbfBroker(MigrationBackfillBroker):
    levels = 1


@register_broker("ambf", "Liu 2013 AMBF: backfilling, only the queue head may preempt later arrivals")
class AmbfBroker(MigrationBackfillBroker):
    levels = 1
    head_only = True


@register_broker("cmcbf", "Liu 2013 CMCBF: CMBF on two tiers, background jobs move up by swaps")
class CmcbfBroker(MigrationBackfillBroker):
    levels = 2
    min_tiers = 2
    max_tiers = 2


@register_broker("amcbf", "Liu 2013 AMCBF: CMCBF where only the queue head may preempt")
class AmcbfBroker(CmcbfBroker):
    head_only = True


@register_broker("ktcbf", "k-tier consolidation backfilling: CMCBF generalised to every tier")
class KtcbfBroker(MigrationBackfillBroker):
    """KTCBF on all the datacenter's tiers (k >= 1; k = 2 is CMCBF). ``aggressive=True`` lets
    only the queue head preempt, as AMCBF does."""

    levels = None

    def __init__(self, aggressive: bool = False) -> None:
        if not isinstance(aggressive, bool):
            raise ValueError(f"aggressive must be true or false, got {aggressive!r}")
        self.head_only = aggressive
