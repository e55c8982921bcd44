"""The barrier clock (execution/barriers.py) keeps a job's processes by the time each reaches the
next barrier, so that one process's change of speed costs O(log n). It must give what the list
rule gives (:func:`advance_steps` over the time passed, then :func:`steps_end`) after any
sequence of speed changes: the same finish, the same least advanced process when settled, and
no progress while it is frozen (a suspension, a migration being paid)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.execution.barriers import BarrierClock
from tests.execution.barrier_rule import advance_steps, steps_end


class Slot:
    """What the clock reads of a slot: its process's index and its speed."""

    def __init__(self, process: int, speed: float) -> None:
        self.process = process
        self.speed = speed


SPEEDS = st.sampled_from([0.25, 0.4, 0.5, 0.9, 1.0])


@st.composite
def histories(draw):
    """A job of 1-6 processes, its work and step, its first speeds, and 1-8 later moments at
    which some of its processes change speed."""
    n = draw(st.integers(1, 6))
    work = float(draw(st.integers(1, 300)))
    step = draw(st.sampled_from([1.0, 4.0, 7.5, 50.0, 1000.0]))
    first = draw(st.lists(SPEEDS, min_size=n, max_size=n))
    changes = draw(st.lists(st.tuples(st.sampled_from([0.0, 0.5, 3.0, 10.0, 40.0]),
                                      st.lists(st.tuples(st.integers(0, n - 1), SPEEDS), max_size=n)),
                            min_size=1, max_size=8))
    return n, work, step, first, changes


def close(a: float, b: float) -> bool:
    return a == b if math.isinf(a) or math.isinf(b) else a == pytest.approx(b, rel=1e-9, abs=1e-6)


@settings(max_examples=400, deadline=None)
@given(histories())
def test_the_clock_finishes_the_job_when_the_list_rule_does(history):
    n, work, step, first, changes = history
    slots = [Slot(i, v) for i, v in enumerate(first)]
    clock = BarrierClock(slots, work, step, 0.0)
    rem, speeds, level, now = [work] * n, list(first), max(0.0, work - step), 0.0
    for dt, moves in changes:
        now += dt
        level = advance_steps(rem, speeds, level, step, dt)
        clock.catch_up(now)
        for i, v in moves:
            old = slots[i].speed
            slots[i].speed = speeds[i] = v
            clock.moved(slots[i], old, v)
        assert close(clock.end(now), now + steps_end(rem, speeds, level))
    assert clock.settle(now) == pytest.approx(max(rem), abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(histories(), st.sampled_from([0.0, 5.0, 100.0]))
def test_a_frozen_clock_does_not_progress_until_it_is_rebuilt(history, pause):
    n, work, step, first, changes = history
    slots = [Slot(i, v) for i, v in enumerate(first)]
    clock = BarrierClock(slots, work, step, 0.0)
    rem, speeds, level = [work] * n, list(first), max(0.0, work - step)
    dt = changes[0][0]
    level = advance_steps(rem, speeds, level, step, dt)
    left = clock.settle(dt)                      # suspended at dt ...
    assert left == pytest.approx(max(rem), abs=1e-6)
    moved = [Slot(i, v) for i, (_, v) in enumerate(zip(first, reversed(first)))]
    clock.rebuild(moved, dt + pause)             # ... resumed elsewhere after the pause
    speeds = [s.speed for s in moved]
    assert close(clock.end(dt + pause), dt + pause + steps_end(rem, speeds, level))


def test_a_barrier_waits_for_the_slowest_process_then_the_steps_go_at_its_speed():
    """Work 10, a step of 4, speeds 1 and 0.5: the first barrier (4 done) at 8, the second
    (8 done) at 16, the end (2 more at 0.5) at 20; the fast process waits 4 s at each."""
    slots = [Slot(0, 1.0), Slot(1, 0.5)]
    clock = BarrierClock(slots, 10.0, 4.0, 0.0)
    assert clock.barrier_time() == 8.0 and clock.end(0.0) == 20.0
    clock.catch_up(9.0)       # past the first barrier: both start the second step at 8
    assert clock.level == 2.0 and clock.barrier_time() == 16.0
    assert clock.settle(9.0) == 5.5     # the slow one: 6 left at 8, 0.5 done since
