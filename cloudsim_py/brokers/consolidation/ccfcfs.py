"""CCFCFS and ACFCFS (Liu, Zha, Yin, Peng, Qin 2015, J. Systems and Software, Algorithms 1-3):
FCFS over the queue and the background jobs in the foreground tier, smallest-job-first (SMJF)
tentative runs in the background tier and, in the aggressive version, in the foreground too.
Tentative runs that get in the way of FCFS are killed (work lost) or switched down a tier by a
priority swap. No migration, no runtime estimates."""

from __future__ import annotations

from operator import attrgetter
from typing import Iterator

from ...workload.job import Job, JobState
from ..base import Broker, register_broker
from ..eviction import keep_smallest, take_newest_first
from ..queues import WaitQueue, merged_by_arrival

FG, BG = 0, 1
RUNNING = JobState.RUNNING
#: a job's size, read in C (ACFCFS sums it over the later arrivals of every job it looks at)
_procs = attrgetter("procs")


@register_broker("ccfcfs", "Liu 2015 CCFCFS: FCFS in the foreground, SMJF tentative runs in the background")
class CcfcfsBroker(Broker):
    """Conservative consolidation-based FCFS on two tiers (Liu 2015, Algorithms 1 and 2).

    On an arrival or a foreground departure: select, in arrival order over the queue and the
    background jobs, what fits the idle foreground VMs, stopping at the first that does not
    (``SelectJobs``); move the selected background jobs up by a priority swap where all their
    foreground VMs are idle, else kill and restart them in the foreground; dispatch the selected
    queued jobs; then fill the background by SMJF. On a background departure: only the SMJF fill
    (Algorithm 2). Placement is the papers' ``JobDispatch``.
    """

    min_tiers = 2
    max_tiers = 2
    queue_type = WaitQueue
    aggressive = False

    def bind(self, dc) -> None:
        super().bind(dc)
        self._fg_event = False
        self._bg_event = False

    def on_submit(self, job: Job) -> None:
        self.queue.add(job)
        self._fg_event = True

    def on_finish(self, job: Job) -> None:
        if job.tier == FG:
            self._fg_event = True
        else:
            self._bg_event = True

    def schedule(self, now: float) -> None:
        """Alg. 1 / Alg. 3 after an arrival or a foreground departure (:meth:`_select`,
        :meth:`_deploy`, :meth:`_try_more`), else Alg. 2 (:meth:`_try_more` in the background);
        see each for its cost."""
        if self._fg_event:
            # Alg. 1 (CCFCFS) / Alg. 3 (ACFCFS): job arrival or foreground departure
            selected = self._select(now)
            self._deploy(selected)
            if self.aggressive:
                self._try_more(FG)        # Alg. 3 line 4: tentative runs in the foreground
            self._try_more(BG)
        elif self._bg_event:
            self._try_more(BG)            # Alg. 2: background departure
        self._fg_event = self._bg_event = False

    # --------------------------------------------------------------- Alg. 1 lines 8-20
    def _candidates(self) -> Iterator[Job]:
        """J_q u J_bg in ascending arrival order, lazily (passes usually stop early): the queue's
        arrival index merged with the datacenter's background jobs in arrival order; O(1) to
        set up, O(1) per candidate looked at. Nothing may act while it is read."""
        return merged_by_arrival(self.queue, self.dc.running_by_arrival(BG))

    def _select(self, now: float) -> list[Job]:
        """Alg. 1 ``SelectJobs``: in arrival order, what fits the idle foreground VMs, up to the
        first that does not; O(s + 1) for s jobs selected (the candidates are merged lazily)."""
        idle = self.dc.idle(FG)
        selected = []
        for job in self._candidates():
            if job.procs > idle:
                break
            idle -= job.procs
            selected.append(job)
        return selected

    # --------------------------------------------------------------- Alg. 1 lines 21-34
    def _deploy(self, selected: list[Job]) -> None:
        """Alg. 1 lines 21-34: O(p) for the p processes of the selected background jobs
        (checked for a swap up in place), besides the starts, kills and swaps; O(1) when
        nothing was selected (most passes)."""
        if not selected:
            return
        dc = self.dc
        rest = []
        for job in selected:
            if job.state is RUNNING and all(dc.job_at(h, FG) is None for h in dc.hosts_of(job)):
                dc.swap_tiers(job, FG)    # lines 24-27: switch up in place
            else:
                rest.append(job)
        for job in rest:
            if job.state is RUNNING:      # lines 29-31: a background job whose fg VMs are busy
                dc.kill(job)
                dc.start(job, FG)
            else:                         # lines 32-34
                self.queue.remove(job)
                dc.start(job, FG)

    # --------------------------------------------------------------- Alg. 2 lines 3-20
    def _try_more(self, tier: int) -> None:
        """SMJF: smallest waiting jobs first into the tier's available VMs (ascending size, so
        the first that does not fit ends the pass); O(s + 1) on the queue's size index for s
        jobs started, besides the starts."""
        dc = self.dc
        started = []
        avail = dc.available(tier)
        for job in self.queue.by_size():
            if job.procs > avail:
                break
            started.append(job)
            avail -= job.procs
        for job in started:
            self.queue.remove(job)
            dc.start(job, tier)


@register_broker("acfcfs", "Liu 2015 ACFCFS: CCFCFS plus tentative foreground runs, evicting later arrivals")
class AcfcfsBroker(CcfcfsBroker):
    """Aggressive consolidation-based FCFS (Liu 2015, Algorithm 3).

    ``SelectJobs_Refined``: a job that does not fit the idle foreground VMs may still be selected
    if idle VMs plus the VMs of foreground jobs that arrived later suffice; those are marked for
    eviction, newest first, until it fits. ``RefineEvictedJobs``: marked jobs small enough for
    the VMs left over stay (smallest first); marked jobs whose background VMs are all idle are
    switched down by a priority swap; the rest are killed and queued again. Then the selected
    jobs are deployed as in CCFCFS, SMJF tentative runs fill the foreground, then the background.
    """

    aggressive = True

    def _select(self, now: float) -> list[Job]:
        """Alg. 3 ``SelectJobs_Refined``: O(s + 1) for s jobs selected that fit the idle VMs, and
        for a job that needs evictions O(log F + L) (F foreground jobs, L of them later arrivals
        than it: read from the datacenter's arrival index, newest first)."""
        dc = self.dc
        idle = dc.idle(FG)
        selected: list[Job] = []
        evicted: list[Job] = []
        marked: set[Job] = set()
        for job in self._candidates():
            need = job.procs
            if need <= idle:                                   # lines 15-16
                idle -= need
                selected.append(job)
                continue
            # the foreground jobs that arrived after this one, not yet marked (most passes stop
            # here: the list is read oldest first for the sum, reversed only when it is used)
            later = dc.running_by_arrival(FG)[dc.arrived_after(FG, job):]
            if marked:
                later = [r for r in later if r not in marked]
            if need > idle + sum(map(_procs, later)):          # line 26: stop (FCFS order)
                break
            taken, idle = take_newest_first(reversed(later), idle, need)  # lines 21-24: newest first
            evicted += taken
            marked.update(taken)
            idle -= need
            selected.append(job)
        self._refine_evicted(evicted, idle)
        return selected

    def _refine_evicted(self, evicted: list[Job], idle: int) -> None:
        """Liu 2015 Alg. 3 lines 32-43, then line 29: kill what is still marked; O(e² + p)
        for e marked jobs of p processes, besides the swaps and kills."""
        if not evicted:                                        # most passes evict nothing
            return
        dc = self.dc
        keep_smallest(evicted, idle)                           # lines 34-39
        for job in list(evicted):                              # lines 40-43
            if all(dc.job_at(h, BG) is None for h in dc.hosts_of(job)):
                evicted.remove(job)
                dc.swap_tiers(job, BG)
        for job in evicted:                                    # line 29
            dc.kill(job)
            self.queue.add(job)
