import pytest
from hypothesis import given, strategies as st

from cloudsim_py.engine import RandomStreams, Simulation


def test_one_end_of_timestamp_hook_call_after_all_events_of_that_time():
    sim = Simulation()
    seen = []
    sim.after_timestamp(lambda now: seen.append(("pass", now)))
    for t, name in [(1.0, "a"), (1.0, "b"), (2.0, "c")]:
        sim.schedule(t, lambda arg: seen.append(("event", sim.now, arg)), name)
    sim.run()
    assert seen == [("event", 1.0, "a"), ("event", 1.0, "b"), ("pass", 1.0),
                    ("event", 2.0, "c"), ("pass", 2.0)]


def test_events_carry_their_action_so_any_entity_schedules_its_own_kinds():
    sim = Simulation()
    seen = []

    class Lamp:
        def on(self, colour):
            seen.append(("on", colour))

        def off(self, _):
            seen.append(("off", sim.now))

    lamp = Lamp()
    sim.schedule(3.0, lamp.off)
    sim.schedule(1.0, lamp.on, "red")
    sim.run()
    assert seen == [("on", "red"), ("off", 3.0)]


def test_lower_phases_run_first_within_a_timestamp():
    sim = Simulation()
    order = []
    sim.schedule(5.0, order.append, "late phase", phase=7)
    sim.schedule(5.0, order.append, "early phase", phase=1)
    sim.run()
    assert order == ["early phase", "late phase"]


def test_run_until_stops_after_that_time_and_can_go_on():
    sim = Simulation()
    fired = []
    for t in (1.0, 5.0, 9.0):
        sim.schedule(t, fired.append, t)
    sim.run(until=5.0)        # events at exactly 'until' are processed
    assert fired == [1.0, 5.0] and sim.now == 5.0
    sim.run(until=7.0)        # nothing happens, the clock moves to 7
    assert fired == [1.0, 5.0] and sim.now == 7.0
    sim.run()
    assert fired == [1.0, 5.0, 9.0]


def test_step_processes_one_timestamp_and_peek_tells_the_next():
    sim = Simulation()
    fired, passes = [], []
    sim.after_timestamp(passes.append)
    for t in (2.0, 2.0, 6.0):
        sim.schedule(t, fired.append, t)
    assert sim.peek() == 2.0
    assert sim.step() == 2.0 and fired == [2.0, 2.0] and passes == [2.0]
    assert sim.peek() == 6.0
    assert sim.step() == 6.0 and fired == [2.0, 2.0, 6.0] and passes == [2.0, 6.0]
    assert sim.peek() is None and sim.step() is None


def test_scheduling_in_the_past_raises():
    sim = Simulation()
    sim.run(until=10.0)
    with pytest.raises(ValueError, match="past"):
        sim.schedule(3.0, print)


def test_two_simulations_in_one_process_do_not_share_state():
    a, b = Simulation(seed=1), Simulation(seed=1)
    a.schedule(4.0, print)
    a.run()
    assert a.now == 4.0 and b.now == 0.0 and len(b.events) == 0


def test_several_sources_merge_in_time_order_holding_one_entry_each():
    sim = Simulation()
    got = []
    a = sim.add_source([(1.0, "a1"), (4.0, "a2")], got.append, phase=2)
    b = sim.add_source([(2.0, "b1"), (4.0, "b2"), (9.0, "b3")], got.append, phase=2)
    assert len(sim._sources) == 2          # one pending entry per source, nothing else
    sim.run()
    # equal times and phases: the entry pulled first (a2, pulled when a1 was delivered) first
    assert got == ["a1", "b1", "a2", "b2", "b3"]
    assert (a.fed, b.fed) == (2, 3)


def test_a_source_item_runs_after_queued_events_of_a_lower_phase_and_before_higher_ones():
    sim = Simulation()
    got = []
    sim.schedule(3.0, got.append, "timer", phase=4)
    sim.schedule(3.0, got.append, "finish", phase=0)
    sim.add_source([(3.0, "arrival")], got.append, phase=2)
    sim.run()
    assert got == ["finish", "arrival", "timer"]


def test_a_source_whose_times_decrease_is_refused():
    sim = Simulation()
    sim.add_source([(5.0, "x"), (4.0, "y")], lambda item: None)
    with pytest.raises(ValueError, match="must not decrease"):
        sim.run()


def test_a_message_arrives_after_its_latency_with_sender_and_send_time():
    sim = Simulation(latency=2.5)
    inbox = []

    class Node:
        def receive(self, message):
            inbox.append((sim.now, message.sender, message.payload, message.sent_at))

    a, b = Node(), Node()
    sim.schedule(1.0, lambda _: sim.send(b, "hello", sender=a))
    sim.schedule(1.0, lambda _: sim.send(a, "fast", delay=0.5, sender=b))
    sim.run()
    # 'fast' was sent at 1.0 with its own delay 0.5; 'hello' with the default latency 2.5
    assert inbox == [(1.5, b, "fast", 1.0), (3.5, a, "hello", 1.0)]


def test_latency_can_depend_on_sender_and_destination():
    far = {("x", "y"): 10.0}
    sim = Simulation(latency=lambda s, d: far.get((s.name, d.name), 0.0))
    times = []

    class Node:
        def __init__(self, name):
            self.name = name

        def receive(self, message):
            times.append((message.payload, sim.now))

    x, y = Node("x"), Node("y")
    sim.send(y, "x->y", sender=x)
    sim.send(x, "y->x", sender=y)
    sim.run()
    assert sorted(times) == [("x->y", 10.0), ("y->x", 0.0)]


def test_named_streams_are_reproducible_and_independent_of_request_order():
    one, two = RandomStreams(7), RandomStreams(7)
    x = one["placement"].random(3)
    two["interference"].random(10)        # another stream used first changes nothing
    assert (two["placement"].random(3) == x).all()
    assert not (RandomStreams(8)["placement"].random(3) == x).all()


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 3)), max_size=60),
       st.lists(st.integers(0, 20), max_size=30))
def test_the_run_loop_delivers_everything_in_time_phase_seq_order(events, arrivals):
    # the inlined pop in run() must give the order of a plain sorted list of all entries
    sim = Simulation()
    got = []
    expected = []
    seq = 0
    for t, phase in events:
        ev = sim.schedule(float(t), got.append, ("event", t, phase, seq), phase=phase)
        expected.append(((float(t), phase, ev.seq), ("event", t, phase, seq)))
        seq += 1
    sim.add_source([(float(t), ("arrival", t)) for t in sorted(arrivals)], got.append, phase=2)
    sim.run()
    assert [g for g in got if g[0] == "event"] == [x for _, x in sorted(expected)]
    assert [g for g in got if g[0] == "arrival"] == [("arrival", t) for t in sorted(arrivals)]
    merged_times = [g[1] for g in got]
    assert merged_times == sorted(merged_times)


def test_resume_hooks_run_when_a_stepped_simulation_goes_on():
    # the first run() calls no resume hook; every later run()/step() calls them first, at
    # the clock's time: 2 when the second step starts, 6 when the final run starts
    sim = Simulation()
    resumed = []
    sim.on_resume(resumed.append)
    for t in (2.0, 6.0):
        sim.schedule(t, lambda _: None, t)
    sim.step()
    assert resumed == []
    sim.step()
    assert resumed == [2.0]
    sim.run()
    assert resumed == [2.0, 6.0]


def test_the_collector_runs_less_often_during_a_run_and_as_before_after_it():
    import gc

    from cloudsim_py.engine.simulation import GC_YOUNG

    before = gc.get_threshold()
    seen = []
    sim = Simulation()
    sim.schedule(1.0, lambda _: seen.append(gc.get_threshold()[0]))
    try:
        gc.set_threshold(700, *before[1:])
        sim.run()
        assert seen == [GC_YOUNG] and gc.get_threshold()[0] == 700
        gc.set_threshold(GC_YOUNG * 3, *before[1:])      # a program's own higher threshold stays
        sim.schedule(2.0, lambda _: seen.append(gc.get_threshold()[0]))
        sim.run()
        assert seen[-1] == GC_YOUNG * 3 and gc.get_threshold()[0] == GC_YOUNG * 3
    finally:
        gc.set_threshold(*before)
