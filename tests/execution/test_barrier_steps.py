"""``job_progress: barriers`` as the list rule (tests/execution/barrier_rule.py, the oracle of
the barrier clock): :func:`advance_steps` passes whole steps in one count, which must be what
passing them one barrier at a time gives, and :func:`steps_end` must be when
:func:`advance_steps` finds the work done. Over piecewise-constant speeds a job under barriers
ends no sooner than per process (no barrier) and no later than in lockstep (at its slowest
process's speed all the time)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from tests.execution.barrier_rule import _to_barrier, advance_steps, steps_end


def one_barrier_at_a_time(rem: list[float], speeds: list[float], level: float, step: float,
                          dt: float) -> float:
    """The reference: the same rule with every barrier passed on its own (no count of steps)."""
    while True:
        t = _to_barrier(rem, speeds, level)
        if t > dt:
            for i, v in enumerate(speeds):
                if v and rem[i] > level:
                    rem[i] = max(level, rem[i] - v * dt)
            return level
        dt -= t
        rem[:] = [level] * len(rem)
        if level <= 0.0:
            return 0.0
        level = max(0.0, level - step)


speeds_st = st.lists(st.sampled_from([0.25, 0.5, 0.75, 1.0]), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 200), st.sampled_from([1.0, 3.0, 7.5, 50.0]), speeds_st,
       st.sampled_from([0.5, 4.0, 13.0, 100.0, 1000.0]))
def test_counting_whole_steps_is_passing_them_one_by_one(work, step, speeds, dt):
    work = float(work)
    rem_a, rem_b = [work] * len(speeds), [work] * len(speeds)
    level = max(0.0, work - step)
    la = advance_steps(rem_a, speeds, level, step, dt)
    lb = one_barrier_at_a_time(rem_b, speeds, level, step, dt)
    assert la == pytest.approx(lb, abs=1e-6)
    assert rem_a == pytest.approx(rem_b, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 200), st.sampled_from([1.0, 3.0, 7.5, 50.0]), speeds_st, st.sampled_from([0.0, 2.0, 9.0]))
def test_the_end_is_when_every_process_has_done_its_work(work, step, speeds, before):
    work = float(work)
    rem = [work] * len(speeds)
    level = advance_steps(rem, speeds, max(0.0, work - step), step, before)
    end = steps_end(rem, speeds, level)
    advance_steps(rem, speeds, level, step, end)
    assert max(rem) == pytest.approx(0.0, abs=1e-6)


def finish(work: float, segments: list[tuple[float, list[float]]], step: float) -> float:
    """When a job of ``work`` per process ends under ``segments`` of (duration, speeds), the
    last segment lasting for ever; ``step`` math.inf: per process."""
    n = len(segments[0][1])
    rem, level, now = [work] * n, max(0.0, work - step), 0.0
    for duration, speeds in segments[:-1]:
        end = steps_end(rem, speeds, level)
        if end <= duration:
            return now + end
        level = advance_steps(rem, speeds, level, step, duration)
        now += duration
    return now + steps_end(rem, segments[-1][1], level)


def lockstep_finish(work: float, segments: list[tuple[float, list[float]]]) -> float:
    now, left = 0.0, work
    for duration, speeds in segments[:-1]:
        if left <= min(speeds) * duration:
            return now + left / min(speeds)
        left -= min(speeds) * duration
        now += duration
    return now + left / min(segments[-1][1])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100), st.integers(1, 4).flatmap(
    lambda n: st.lists(st.tuples(st.sampled_from([1.0, 5.0, 20.0]),
                                 st.lists(st.sampled_from([0.25, 0.5, 1.0]), min_size=n, max_size=n)),
                       min_size=1, max_size=6)),
       st.sampled_from([0.5, 2.0, 10.0, 40.0]))
def test_barriers_end_between_per_process_and_lockstep(work, segments, step):
    work = float(work)
    per_process = finish(work, segments, math.inf)
    barriers = finish(work, segments, step)
    assert per_process - 1e-6 <= barriers <= lockstep_finish(work, segments) + 1e-6
