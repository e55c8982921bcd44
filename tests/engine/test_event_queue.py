import pytest
from hypothesis import given, strategies as st

from cloudsim_py.engine import EventQueue
from cloudsim_py.engine.queue import END

FINISH, ARRIVAL, TIMER = 0, 2, 4     # the datacenter model's phases, as plain numbers


def noop(arg):
    return None


def test_equal_times_follow_phase_order():
    q = EventQueue()
    q.push(5.0, TIMER, noop, "timer")
    q.push(5.0, ARRIVAL, noop, "arrival")
    q.push(5.0, FINISH, noop, "finish")
    assert [q.pop().arg for _ in range(3)] == ["finish", "arrival", "timer"]


def test_equal_time_and_phase_keep_scheduling_order():
    q = EventQueue()
    for name in "abc":
        q.push(1.0, ARRIVAL, noop, name)
    assert [q.pop().arg for _ in range(3)] == ["a", "b", "c"]


def test_cancel_removes_exactly_that_event():
    q = EventQueue()
    a = q.push(1.0, FINISH, noop, "a")
    q.push(1.0, FINISH, noop, "b")
    q.cancel(a)
    assert len(q) == 1 and q.pop().arg == "b"


def test_the_head_is_the_earliest_event_and_end_when_empty():
    q = EventQueue()
    assert q.head is END and q.peek() is None and not q
    late = q.push(9.0, FINISH, noop)
    early = q.push(2.0, TIMER, noop)
    assert q.head is early
    q.cancel(early)
    assert q.head is late
    q.pop()
    assert q.head is END


def test_pop_of_an_empty_queue_raises_index_error():
    q = EventQueue()
    q.push(1.0, FINISH, noop)
    q.pop()
    with pytest.raises(IndexError):
        q.pop()


ops = st.lists(st.tuples(st.sampled_from(["push", "cancel", "pop"]),
                         st.floats(0, 100, allow_nan=False), st.sampled_from([FINISH, ARRIVAL, TIMER])),
               max_size=200)


@given(ops)
def test_queue_matches_a_plain_sorted_list(script):
    q = EventQueue()
    model: list[tuple] = []   # (time, phase, seq, name) kept sorted by hand
    handles = []
    seq = 0
    for op, t, phase in script:
        if op == "push":
            seq += 1
            ev = q.push(t, phase, noop, seq)
            handles.append(ev)
            model.append((ev.time, ev.phase, ev.seq, seq))
            model.sort()
        elif op == "cancel" and handles:
            ev = handles.pop(len(handles) // 2)
            if (ev.time, ev.phase, ev.seq, ev.arg) in model:
                q.cancel(ev)
                model.remove((ev.time, ev.phase, ev.seq, ev.arg))
        elif op == "pop" and model:
            assert q.pop().arg == model.pop(0)[3]
        assert len(q) == len(model)
        assert (q.head is END) == (not model)
        if model:
            assert q.head.arg == model[0][3]
            assert q.head not in q.rest      # the head is kept apart from the sorted rest
    assert [e.arg for e in q] == [m[3] for m in model]
    assert [q.pop().arg for _ in range(len(model))] == [m[3] for m in model]


def test_cancelling_an_event_twice_or_after_it_fired_raises():
    q = EventQueue()
    a = q.push(1.0, FINISH, noop, "a")
    b = q.push(2.0, FINISH, noop, "b")
    q.push(3.0, FINISH, noop, "c")
    q.cancel(b)
    with pytest.raises(ValueError, match="not in the queue"):
        q.cancel(b)
    assert q.pop() is a
    with pytest.raises(ValueError, match="not in the queue"):
        q.cancel(a)
    assert len(q) == 1 and q.pop().arg == "c" and not q


def test_many_cancelled_events_are_dropped_and_memory_stays_within_twice_the_pending():
    q = EventQueue()
    events = [q.push(float(i % 97), FINISH, noop, i) for i in range(1000)]
    kept = set(range(1000))
    for i in range(0, 1000, 3):           # cancel a third, then most of the rest
        q.cancel(events[i])
        kept.discard(i)
    for i in range(1, 1000, 3):
        q.cancel(events[i])
        kept.discard(i)
        assert len(q.rest) <= 2 * len(q) + 64
    assert len(q) == len(kept)
    order = sorted((events[i].time, events[i].seq, i) for i in kept)
    assert [q.pop().arg for _ in range(len(kept))] == [i for _, _, i in order]
    assert not q and not q.dead
