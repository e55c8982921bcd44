import pytest

from cloudsim_py.engine import EventKind, RandomStreams, Simulation


def test_one_end_of_timestamp_hook_call_after_all_events_of_that_time():
    sim = Simulation()
    seen = []
    sim.on(EventKind.TIMER, lambda ev: seen.append(("timer", sim.now, ev.target)))
    sim.after_timestamp(lambda now: seen.append(("pass", now)))
    for t, name in [(1.0, "a"), (1.0, "b"), (2.0, "c")]:
        sim.schedule(t, EventKind.TIMER, name)
    sim.run()
    assert seen == [("timer", 1.0, "a"), ("timer", 1.0, "b"), ("pass", 1.0),
                    ("timer", 2.0, "c"), ("pass", 2.0)]


def test_run_until_stops_after_that_time_and_can_go_on():
    sim = Simulation()
    fired = []
    sim.on(EventKind.TIMER, lambda ev: fired.append(ev.target))
    for t in (1.0, 5.0, 9.0):
        sim.schedule(t, EventKind.TIMER, t)
    sim.run(until=5.0)        # events at exactly 'until' are processed
    assert fired == [1.0, 5.0] and sim.now == 5.0
    sim.run(until=7.0)        # nothing happens, the clock moves to 7
    assert fired == [1.0, 5.0] and sim.now == 7.0
    sim.run()
    assert fired == [1.0, 5.0, 9.0]


def test_scheduling_in_the_past_raises():
    sim = Simulation()
    sim.run(until=10.0)
    with pytest.raises(ValueError, match="past"):
        sim.schedule(3.0, EventKind.TIMER, None)


def test_two_simulations_in_one_process_do_not_share_state():
    a, b = Simulation(seed=1), Simulation(seed=1)
    a.on(EventKind.TIMER, lambda ev: None)
    a.schedule(4.0, EventKind.TIMER, None)
    a.run()
    assert a.now == 4.0 and b.now == 0.0 and len(b.events) == 0


def test_named_streams_are_reproducible_and_independent_of_request_order():
    one, two = RandomStreams(7), RandomStreams(7)
    x = one["placement"].random(3)
    two["interference"].random(10)        # another stream used first changes nothing
    assert (two["placement"].random(3) == x).all()
    assert not (RandomStreams(8)["placement"].random(3) == x).all()
