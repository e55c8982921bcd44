"""The availability profile at floating-point edges: windows and releases must agree with how
bookings are computed (``start + duration``), not with differences of times."""

from cloudsim_py.brokers.profile import INF, AvailabilityProfile


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
