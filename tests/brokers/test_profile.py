"""The availability profile at floating-point edges: windows and releases must agree with how
bookings are computed (``start + duration``), not with differences of times."""

from cloudsim_py.brokers.profile import INF, AvailabilityProfile
from tests.helpers import random_booked_profile


def test_a_window_as_long_as_a_booking_fits_where_the_booking_was():
    # 6 processors; 4 booked over [2.0, 2.0 + 0.01) and released again leave a step of 5 free
    # from 2.0 to 2.01 (= 2.0 + 0.01 in floating point), but 2.01 - 2.0 = 0.00999999999999979 <
    # 0.01: a window check by difference refuses the very spot the booking came from.
    p = AvailabilityProfile(6, 1.0)
    p.book_span(1.0, INF, 1)
    p.book_span(1.0, 2.0, 4)
    p.book_span(2.0 + 0.01, 3.01, 2)
    assert p.steps() == [(1.0, 1), (2.0, 5), (2.01, 3), (3.01, 5)]
    assert p.earliest(1.0, 4, 0.01) == 2.0


def test_a_release_by_its_ends_gives_back_exactly_the_booking():
    # booked [0, 0.01); the job ends at 0.001: releasing [0.001, 0.01) restores a flat profile.
    # (By duration, 0.001 + (0.01 - 0.001) = 0.010000000000000002 overshoots the booking.)
    p = AvailabilityProfile(1, 0.0)
    p.book_span(0.0, 0.01, 1)
    p.advance(0.001)
    p.release_span(0.001, 0.01, 1)
    assert p.steps() == [(0.0, 0), (0.001, 1)]


def test_a_booking_until_further_notice_holds_for_ever_and_is_given_back_whole():
    p = AvailabilityProfile(4, 0.0)
    p.book_span(5.0, INF, 3)
    assert p.earliest(0.0, 2, 10.0) == INF      # 1 free from 5 on: no 10 s window for 2
    assert p.earliest(0.0, 1, 1e9) == 0.0
    p.release_span(5.0, INF, 3)
    assert p.steps() == [(0.0, 4)]


def _copy(p: AvailabilityProfile) -> AvailabilityProfile:
    q = AvailabilityProfile(p.capacity, p.time[0])
    q.time, q.free = list(p.time), list(p.free)
    return q


def test_compressions_window_searches_match_releasing_the_own_booking():
    """Issue 19: compression searches with the job's own booking counted as free, before it,
    without splitting the profile, and through the steps all windows cover
    (``earliest_covering``): the same answer as releasing the booking and scanning."""
    import random
    from bisect import bisect_left

    rng = random.Random(19)
    covered = 0
    for _ in range(4000):
        prof, procs, o0, est, lo = random_booked_profile(rng)
        limit = rng.choice([o0, rng.uniform(lo, o0), float(rng.randint(int(lo), int(o0)))])
        if limit <= lo:
            continue
        ref = _copy(prof)
        ref.release_span(o0, o0 + est, procs)
        expect = ref.earliest(lo, procs, est, before=limit)
        before = (list(prof.time), list(prof.free))
        assert prof.earliest(lo, procs, est, (o0, o0 + est), limit) == expect
        assert (prof.time, prof.free) == before            # nothing split
        # the compression's shortcut: every window starting in [lo, limit) covers steps i..j-1
        time = prof.time
        i = bisect_left(time, limit) - 1
        j = bisect_left(time, min(lo + est, o0))
        if i < j:
            covered += 1
            if min(prof.free[i:j]) < procs:
                assert expect == INF
            else:
                assert prof.earliest_covering(lo, procs, est, (o0, o0 + est), i, j) == expect
    assert covered > 500
