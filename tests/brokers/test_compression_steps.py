"""The steps of conservative backfilling's compression (issue 19): a job booked at ``s`` moves
either into its own booking (the step just before ``s`` has room: it starts where that run of
steps begins) or to a window ending by ``s`` (a question about the profile alone, whose empty
answers are recorded and reused while no gain reaches them)."""

import random

from cloudsim_py.brokers.conservative import _free_window, _move, _run_start, _untouched
from cloudsim_py.brokers.profile import INF, AvailabilityProfile
from tests.helpers import random_booked_profile


def two_bookings() -> AvailabilityProfile:
    """4 processors from t=0: 3 booked over [0, 10), 2 over [20, 30).
    Free: 1 on [0, 10), 4 on [10, 20), 2 on [20, 30), 4 from 30 on."""
    p = AvailabilityProfile(4, 0.0)
    p.book_span(0.0, 10.0, 3)
    p.book_span(20.0, 30.0, 2)
    assert p.steps() == [(0.0, 1), (10.0, 4), (20.0, 2), (30.0, 4)]
    return p


def test_a_free_window_is_the_earliest_that_fits_starting_before_the_limit():
    p = two_bookings()
    assert _free_window(p, 0.0, INF, 2, 10.0) == 10.0      # [10, 20): 4 free
    assert _free_window(p, 0.0, 10.0, 2, 10.0) == INF      # must start before 10
    assert _free_window(p, 0.0, INF, 3, 15.0) == 30.0      # [20, 30) has only 2
    assert _free_window(p, 0.0, 30.0, 3, 15.0) == INF
    assert _free_window(p, 0.0, 31.0, 3, 15.0) == 30.0


def test_a_free_window_through_the_steps_all_windows_cover():
    p = two_bookings()
    # windows of 10 starting in [5, 12) all cover [12, 15), inside the step [10, 20) with 4
    # free: the only candidate is the run of steps with room around it, from 10
    assert _free_window(p, 5.0, 12.0, 2, 10.0) == 10.0
    assert _free_window(p, 5.0, 12.0, 3, 10.0) == 10.0     # [10, 20) ends the run for 3: fits
    assert _free_window(p, 5.0, 12.0, 3, 11.0) == INF      # 10 + 11 > 20
    assert _free_window(p, 5.0, 12.0, 4, 3.0) == 10.0      # start 10 < 12, [10, 13) has 4


def test_the_run_into_an_own_booking_starts_after_the_last_short_step():
    p = two_bookings()
    # a job of 2 booked at 20: the step before, [10, 20), has 4 free; [0, 10) has 1 (short)
    assert _run_start(p, 0.0, 2, 20.0) == 10.0
    assert _run_start(p, 12.0, 2, 20.0) == 12.0            # never before lo
    # a job of 1 booked at 20: every step before has room, the run holds lo
    assert _run_start(p, 0.0, 1, 20.0) == 0.0
    assert _run_start(p, 5.0, 1, 20.0) == 5.0


def test_an_empty_range_stays_empty_until_a_gain_reaches_its_windows():
    # no window of 2 for 5 starting in [0, 10) was found when the log held 1 gain: such
    # windows lie in [0, 15); gains logged after it (from index 1 on) may void it
    known = (0.0, 10.0, 1, 2)
    starts, ends = [0.0], [3.0]                            # the gain before the record
    assert _untouched(known, 5.0, starts, ends, 1)
    assert _untouched(known, 5.0, starts + [15.0], ends + [30.0], 2)      # after the windows
    assert _untouched(known, 5.0, starts + [-5.0], ends + [0.0], 2)       # before them
    assert not _untouched(known, 5.0, starts + [14.0], ends + [20.0], 2)  # the window [9, 14)
    assert not _untouched(known, 5.0, starts + [15.0, 2.0], ends + [30.0, 4.0], 3)


def test_compressions_two_ways_match_releasing_the_own_booking():
    """Random profiles with a job of ``procs`` booked over ``[o0, o0 + est)``: its earliest
    window starting in ``[lo, o0)`` with its booking released and a step scan, against the
    compression's way: into its own booking when the step before ``o0`` has room
    (:func:`_run_start`), or else (and earlier) a window ending by ``o0``, found in the profile
    as it is, its own booking kept (:func:`_free_window`)."""
    from bisect import bisect_left

    rng = random.Random(1919)
    into_own = ending_before = 0
    for _ in range(4000):
        prof, procs, o0, est, lo = random_booked_profile(rng)
        cap = prof.capacity
        if lo >= o0:
            continue
        ref = AvailabilityProfile(cap, 0.0)
        ref.time, ref.free = list(prof.time), list(prof.free)
        ref.release_span(o0, o0 + est, procs)
        expect = ref.earliest(lo, procs, est, before=o0)
        time = prof.time
        limit = o0
        run = INF
        if prof.free[bisect_left(time, o0) - 1] >= procs:
            run = limit = _run_start(prof, lo, procs, o0)
            into_own += 1
        end = o0 - est + (abs(o0) + est) * 1e-12
        limit = min(limit, end)
        got = run
        if limit > lo:
            found = _free_window(prof, lo, limit, procs, est)
            if found < INF:
                got = found
                ending_before += 1
        assert got == expect
    assert into_own > 500 and ending_before > 200


def test_a_move_changes_only_what_the_two_bookings_do_not_share():
    """:func:`_move` (when the old and new bookings overlap, take ``[new, start)`` and give back
    ``[new_end, end)``) leaves the very same steps (times and free processors, splits and
    merges alike) as releasing the old booking and taking the new one, on random profiles with
    the new place anywhere its booking fits before the old start, overlapping or not."""
    rng = random.Random(4242)
    overlapping = apart = 0
    for _ in range(3000):
        prof, procs, o0, est, lo = random_booked_profile(rng)
        end = o0 + est
        ref = AvailabilityProfile(prof.capacity, 0.0)
        ref.time, ref.free = list(prof.time), list(prof.free)
        ref.release_span(o0, end, procs)
        new = ref.earliest(rng.uniform(0.0, o0), procs, est, before=o0)
        if new == INF:
            continue
        ref.book_span(new, new + est, procs)
        _move(prof, o0, end, new, new + est, procs)
        assert (prof.time, prof.free) == (ref.time, ref.free)
        if new + est > o0:
            overlapping += 1
        else:
            apart += 1
    assert overlapping > 300 and apart > 100
