"""The MBF family's top-tier pass against a plain reading of it: the shipped pass reads the
later arrivals than each candidate from one snapshot of the top tier with a pointer moving
forward, and with the top tier full returns at once when no candidate that may preempt is
covered by its later arrivals (``_none_may_preempt``); the plain pass below asks the datacenter
for the later arrivals of every candidate it looks at and walks the candidates whenever the top
tier is full and one arrived before its latest job. Both must give the same schedule on random
workloads, under the datacenter's checker; and at every pass that finds the top tier full,
``_none_may_preempt`` must answer whether the plain pass then does anything."""

from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.consolidation.mbf import (AmbfBroker, AmcbfBroker, CmbfBroker,
                                                   CmcbfBroker, KtcbfBroker, MigrationBackfillBroker)
from cloudsim_py.workload.job import JobState


def plain_top_tier(self: MigrationBackfillBroker) -> None:
    """Liu 2013 Alg. 1 / Alg. 2 lines 10-16 read plainly: the later arrivals of each candidate
    that may preempt asked of the datacenter, summed; a full top tier skipped only when no
    candidate arrived before its latest job (A-variants: the head)."""
    dc = self.dc
    top = dc.running_by_arrival(0)
    latest = top[-1].order if top else None
    head = self.queue.head()
    idle = dc.idle(0)
    if idle == 0:
        if latest is None:
            return
        firsts = [head.order] if head is not None else []
        if not self.head_only:
            firsts += [dc.running_by_arrival(t)[0].order for t in range(1, self.k)
                       if dc.running_by_arrival(t)]
        if not firsts or min(firsts) >= latest:
            return
    for job in self._candidates():
        if job.state is JobState.RUNNING and job.tier == 0:
            continue
        if job.procs <= idle:
            self._place(job, 0)
            idle = dc.idle(0)
            continue
        key = job.order
        if latest is not None and key < latest and (not self.head_only or job is head):
            later = top[dc.arrived_after(0, job):]
            if idle + sum(r.procs for r in later) >= job.procs:
                self._preempt_for(job, later, idle)
                idle = dc.idle(0)
                top = dc.running_by_arrival(0)
                latest = top[-1].order if top else None
                continue
        if idle == 0:
            if latest is None or key >= latest:
                break
            if self.head_only and (head is None or key >= head.order):
                break


def plain(cls: type) -> type:
    return type(f"Plain{cls.__name__}", (cls,), {"_top_tier": plain_top_tier})


# dense arrivals on a few hosts, so that passes often find the top tier full with earlier
# candidates waiting, and (rarely: a few in a hundred runs) an A-variant's head covered by later
# arrivals at a pass that starts with no idle VM
specs = st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8), st.integers(1, 30)),
                 min_size=1, max_size=40)
#: every MBF policy, with the tiers it runs on here
mbf_policies = st.sampled_from([(CmbfBroker, 1), (AmbfBroker, 1), (CmcbfBroker, 2), (AmcbfBroker, 2),
                                (KtcbfBroker, 3)])


def workload(jobs: list[tuple[int, int, int]], hosts: int) -> list[Job]:
    """Jobs ``(submit, procs, runtime)`` in submit order, at most ``hosts`` processes each."""
    ordered = sorted(jobs, key=lambda s: s[0])
    return [Job(i, float(sub), min(procs, hosts), runtime=float(rt))
            for i, (sub, procs, rt) in enumerate(ordered, 1)]


@settings(max_examples=300, deadline=None)
@given(specs, mbf_policies, st.integers(4, 8), st.integers(0, 3))
def test_the_top_tier_pass_decides_as_the_plain_one(jobs, policy, hosts, seed):
    cls, tiers = policy
    kw = dict(hosts=hosts, tiers=tiers, seed=seed, check=True)
    fast = simulate(workload(jobs, hosts), policy=cls(), **kw)
    slow = simulate(workload(jobs, hosts), policy=plain(cls)(), **kw)
    assert fast.records.to_csv() == slow.records.to_csv()
    assert fast.summary["preemptions"] == slow.summary["preemptions"]


def _state(broker: MigrationBackfillBroker) -> tuple:
    """What any placement or preemption of the top-tier pass changes."""
    dc = broker.dc
    return (dc.running_count(), len(broker.queue), dc.suspensions, dc.swaps, dc.migrations,
            dc.idle(0), tuple(dc.running_by_arrival(0)))


def checked(cls: type) -> type:
    """The plain pass, asserting first, when the top tier is full, that ``_none_may_preempt``
    tells whether it acts."""

    def _top_tier(self: MigrationBackfillBroker) -> None:
        dc = self.dc
        full = dc.idle(0) == 0
        quiet = full and self._none_may_preempt(dc.running_by_arrival(0), self.queue.head())
        before = _state(self)
        plain_top_tier(self)
        if full:
            assert quiet == (_state(self) == before), f"t={dc.now}: _none_may_preempt said {quiet}"

    return type(f"Checked{cls.__name__}", (cls,), {"_top_tier": _top_tier})


@settings(max_examples=300, deadline=None)
@given(specs, mbf_policies, st.integers(4, 8), st.integers(0, 3))
def test_none_may_preempt_tells_whether_the_plain_pass_acts(jobs, policy, hosts, seed):
    cls, tiers = policy
    simulate(workload(jobs, hosts), policy=checked(cls)(), hosts=hosts, tiers=tiers, seed=seed, check=True)


class _Tiers:
    """A datacenter reduced to what ``_none_may_preempt`` reads: each tier's running jobs in
    arrival order (``bind`` reads ``tiers``)."""

    def __init__(self, tiers: list[list[Job]]) -> None:
        self.tiers = len(tiers)
        self._by_arrival = [sorted(jobs, key=lambda j: j.order) for jobs in tiers]

    def running_by_arrival(self, tier: int) -> list[Job]:
        return self._by_arrival[tier]

    def arrived_after(self, tier: int, job: Job) -> int:
        return sum(1 for j in self._by_arrival[tier] if j.order <= job.order)


# a full top tier, waiting jobs and lower-tier jobs with arrival times drawn from a small range,
# so that candidates before the latest top-tier job, and exact covers, are common
states = st.lists(st.tuples(st.integers(0, 12), st.integers(1, 4), st.integers(0, 3)),
                  min_size=1, max_size=20)


@settings(max_examples=500, deadline=None)
@given(states, st.sampled_from([(CmcbfBroker, 2), (AmcbfBroker, 2), (KtcbfBroker, 3), (CmbfBroker, 1)]))
# a waiting job exactly covered by the one top-tier job that arrived after it (it preempts)
@example([(0, 2, 3), (1, 2, 0)], (AmcbfBroker, 2))
@example([(0, 2, 3), (1, 2, 0)], (CmcbfBroker, 2))
@example([(0, 2, 1), (1, 2, 0)], (CmcbfBroker, 2))
def test_none_may_preempt_is_its_definition(jobs, policy):
    """Against the definition read directly: some candidate that may preempt (any waiting or
    lower-tier job; A-variants: the queue's head) arrived before the latest top-tier job and is
    no larger than the processes of the top-tier jobs that arrived after it."""
    cls, k = policy
    made = [Job(i, float(sub), procs, runtime=1.0) for i, (sub, procs, _) in enumerate(jobs, 1)]
    where = [min(w, k) for _, _, w in jobs]      # 0..k-1: a tier; k: the queue
    tiers = [[j for j, w in zip(made, where) if w == t] for t in range(k)]
    broker = cls()
    broker.bind(_Tiers(tiers))
    for j, w in zip(made, where):
        if w == k:
            broker.queue.add(j)
    top = broker.dc.running_by_arrival(0)
    head = broker.queue.head()
    candidates = list(broker.queue) + [j for t in range(1, k) for j in tiers[t]]
    if broker.head_only:
        candidates = [head] if head is not None else []
    acts = any(c.order < top[-1].order
               and c.procs <= sum(r.procs for r in top if r.order > c.order)
               for c in candidates) if top else False
    assert broker._none_may_preempt(top, head) is (not acts)
