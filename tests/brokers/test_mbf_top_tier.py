"""The MBF family's top-tier pass against a plain reading of it: the shipped pass reads the
later arrivals than each candidate from one snapshot of the top tier with a pointer moving
forward, and with the top tier full returns at once when no candidate that may preempt is
covered by its later arrivals (``_none_may_preempt``); the plain pass below asks the datacenter
for the later arrivals of every candidate it looks at and walks the candidates whenever the top
tier is full and one arrived before its latest job. Both must give the same schedule on random
workloads, under the datacenter's checker; and at every pass that finds the top tier full,
``_none_may_preempt`` must answer whether the plain pass then does anything."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

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


@settings(max_examples=300, deadline=None)
@given(specs, st.sampled_from([(CmbfBroker, 1), (AmbfBroker, 1), (CmcbfBroker, 2), (AmcbfBroker, 2),
                               (KtcbfBroker, 3)]),
       st.integers(4, 8), st.integers(0, 3))
def test_the_top_tier_pass_decides_as_the_plain_one(jobs, policy, hosts, seed):
    cls, tiers = policy

    def workload() -> list[Job]:
        ordered = sorted(jobs, key=lambda s: s[0])
        return [Job(i, float(sub), min(procs, hosts), runtime=float(rt))
                for i, (sub, procs, rt) in enumerate(ordered, 1)]

    kw = dict(hosts=hosts, tiers=tiers, seed=seed, check=True)
    fast = simulate(workload(), policy=cls(), **kw)
    slow = simulate(workload(), policy=plain(cls)(), **kw)
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
@given(specs, st.sampled_from([(CmbfBroker, 1), (AmbfBroker, 1), (CmcbfBroker, 2), (AmcbfBroker, 2),
                               (KtcbfBroker, 3)]),
       st.integers(4, 8), st.integers(0, 3))
def test_none_may_preempt_tells_whether_the_plain_pass_acts(jobs, policy, hosts, seed):
    cls, tiers = policy
    ordered = sorted(jobs, key=lambda s: s[0])
    workload = [Job(i, float(sub), min(procs, hosts), runtime=float(rt))
                for i, (sub, procs, rt) in enumerate(ordered, 1)]
    simulate(workload, policy=checked(cls)(), hosts=hosts, tiers=tiers, seed=seed, check=True)
