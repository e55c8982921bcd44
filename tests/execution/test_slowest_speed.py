"""SlowestSpeed (a wide job's slots' speeds as a multiset with a lazy heap) against the plain
model it replaces: ``min`` over the slots' speeds after every change; and the two-tier model
keeping it against a fresh ``min`` through random placements, finishes and re-ratings."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cloudsim_py.engine import Simulation
from cloudsim_py.execution.progress import WIDE_SPEEDS, SlowestSpeed, TwoTierProgress, slowest
from cloudsim_py.infrastructure.host import Host
from cloudsim_py.infrastructure.runstate import RunState
from cloudsim_py.workload.job import JobState


class Slot:
    def __init__(self, speed: float) -> None:
        self.speed = speed


# few distinct values, so that equal speeds (counts above 1) and re-added values are common
speed = st.sampled_from([0.0, 0.25, 0.5, 0.5000000000000001, 0.75, 1.0, 2.0])


@given(st.lists(speed, min_size=1, max_size=40),
       st.lists(st.tuples(st.integers(0, 10**6), speed), max_size=300))
@settings(max_examples=300, deadline=None)
def test_slowest_speed_is_the_min_after_every_change(initial, changes):
    slots = [Slot(v) for v in initial]
    kept = SlowestSpeed(slots)
    assert kept.of is slots
    assert kept.min() == min(s.speed for s in slots)
    for i, new in changes:
        slot = slots[i % len(slots)]
        old = slot.speed
        slot.speed = new
        if new != old:
            kept.moved(None, old, new)
        assert kept.min() == min(s.speed for s in slots)
        assert sum(kept.counts.values()) == len(slots)
        assert len(kept.heap) <= 2 * len(kept.counts) + 17


class Job:
    """A running job as the progress model reads it."""

    def __init__(self, jid: int, size: int) -> None:
        self.id = jid
        self.state = JobState.RUNNING
        self.run = RunState(size=size, remaining=1e6, speed=0.0)


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_two_tier_model_keeps_each_wide_jobs_slowest_speed(data):
    # random starts and ends on a small two-tier machine: after every refresh, every running
    # job's speed is the min of its slots' speeds, whether kept (wide) or scanned (narrow)
    n = WIDE_SPEEDS + 8
    sim = Simulation()
    model = TwoTierProgress(sim, lambda job: None, 0, 0.05)
    hosts = [Host.make(i, 2) for i in range(n)]
    running: list[Job] = []
    for step in range(data.draw(st.integers(1, 25))):
        if running and data.draw(st.booleans()):
            job = running.pop(data.draw(st.integers(0, len(running) - 1)))
            for slot in job.run.slots:
                slot.job = None
            freed = job.run.hosts
            job.run.slots = job.run.hosts = None
            job.state = JobState.FINISHED
            model.refresh(freed)
        else:
            tier = data.draw(st.integers(0, 1))
            free = [h for h in hosts if h.slots[tier].job is None]
            if not free:
                continue
            size = data.draw(st.integers(1, len(free)))
            placed = data.draw(st.permutations(free))[:size]
            job = Job(step, size)
            for h in placed:
                slot = h.slots[tier]
                slot.job = job
                slot.cpu = data.draw(st.sampled_from([0.25, 0.5, 1.0]))
                slot.eff = data.draw(st.sampled_from([0.5, 0.8, 1.0]))
                slot.loss = data.draw(st.sampled_from([0.0, 0.1]))
            job.run.hosts = placed
            job.run.slots = [h.slots[tier] for h in placed]
            running.append(job)
            model.refresh(placed)
        for job in running:
            assert job.run.speed == min(s.speed for s in job.run.slots)
            kept = job.run.speeds
            if kept is not None and kept.of is job.run.slots:
                assert kept.min() == job.run.speed


@given(st.lists(st.one_of(speed, st.just(-0.0)), min_size=1, max_size=40))
@settings(max_examples=300, deadline=None)
def test_the_slowest_slot_read_in_a_loop_is_min(speeds):
    # the same float, and the same one of equal values (-0.0 and 0.0: the first, as min keeps)
    slots = [Slot(v) for v in speeds]
    got = slowest(slots)
    want = min(s.speed for s in slots)
    assert got == want and str(got) == str(want)
