"""Issue 19: the availability profile's edits and window searches against a plain model.

``AvailabilityProfile._add`` changes a booking of one step in place and a longer one by a C
``map`` over the slice; ``earliest`` counts a job's own booking as free in a copy of the free
list. Random bookings and releases (one step and many, until further notice too) must leave
the steps a model computes from the bookings alone, and refuse exactly the oversubscribing
ones; a search with an own booking must find what releasing that booking and scanning finds.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.brokers.profile import INF, AvailabilityProfile

CAPACITY = 6

#: (start, end, procs); end INF: until further notice
spans = st.tuples(st.integers(0, 20), st.one_of(st.integers(1, 12), st.just(-1)),
                  st.integers(1, CAPACITY)).map(
    lambda s: (float(s[0]), INF if s[1] < 0 else float(s[0] + s[1]), s[2]))


def _model_steps(bookings: list[tuple[float, float, int]]) -> list[tuple[float, int]]:
    """The steps of the bookings' free capacity from 0 on, equal neighbours merged."""
    cuts = sorted({0.0} | {t for s, e, _ in bookings for t in (s, e) if t < INF})
    steps: list[tuple[float, int]] = []
    for t in cuts:
        v = CAPACITY - sum(p for s, e, p in bookings if s <= t < e)
        if not steps or steps[-1][1] != v:
            steps.append((t, v))
    return steps


def _fits(bookings: list[tuple[float, float, int]]) -> bool:
    return all(0 <= v <= CAPACITY for _, v in _model_steps(bookings))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), spans), min_size=1, max_size=25))
def test_bookings_and_releases_leave_the_models_steps(ops):
    p = AvailabilityProfile(CAPACITY, 0.0)
    held: list[tuple[float, float, int]] = []
    for release, span in ops:
        if release and held:
            s, e, procs = held.pop(len(held) // 2)
            p.release_span(s, e, procs)
        else:
            s, e, procs = span
            if _fits(held + [span]):
                p.book_span(s, e, procs)
                held.append(span)
            else:
                with pytest.raises(ValueError, match="leaves -"):
                    p.book_span(s, e, procs)
                return                  # a refused booking may leave a split step behind
        assert p.steps() == _model_steps(held)


@settings(max_examples=300, deadline=None)
@given(st.lists(spans, max_size=12), spans, st.integers(0, 20), st.integers(0, 40))
def test_a_search_with_its_own_booking_finds_what_releasing_it_finds(others, own, now, before):
    p = AvailabilityProfile(CAPACITY, 0.0)
    held: list[tuple[float, float, int]] = []
    for span in others + [own]:
        if _fits(held + [span]):
            p.book_span(*span)
            held.append(span)
    if not held or held[-1] is not own:
        return
    s, e, procs = own
    ref = AvailabilityProfile(CAPACITY, 0.0)
    ref.time, ref.free = list(p.time), list(p.free)
    ref.release_span(s, e, procs)
    duration = e - s
    lim = float(before) if before < 40 else INF
    expect = ref.earliest(float(now), procs, duration, before=lim)
    assert p.earliest(float(now), procs, duration, (s, e), lim) == expect
    assert p.earliest(float(now), procs, duration) == _scan(p, float(now), procs, duration)


def _scan(p: AvailabilityProfile, now: float, procs: int, duration: float) -> float:
    """The earliest start, tried at ``now`` and at every step's start after it."""
    for t in [now] + [t for t in p.time if t > now]:
        if all(f >= procs for t0, f, t1 in zip(p.time, p.free, p.time[1:] + [INF])
               if t0 < t + duration and t1 > t):
            return t
    return INF
