from hypothesis import given, strategies as st

from cloudsim_py.engine import EventKind, EventQueue


def test_equal_times_follow_phase_order_finish_before_arrival_before_timer():
    q = EventQueue()
    q.push(5.0, EventKind.TIMER, "timer")
    q.push(5.0, EventKind.ARRIVAL, "arrival")
    q.push(5.0, EventKind.FINISH, "finish")
    assert [q.pop().target for _ in range(3)] == ["finish", "arrival", "timer"]


def test_equal_time_and_phase_keep_scheduling_order():
    q = EventQueue()
    for name in "abc":
        q.push(1.0, EventKind.ARRIVAL, name)
    assert [q.pop().target for _ in range(3)] == ["a", "b", "c"]


def test_cancel_removes_exactly_that_event():
    q = EventQueue()
    a = q.push(1.0, EventKind.FINISH, "a")
    q.push(1.0, EventKind.FINISH, "b")
    q.cancel(a)
    assert len(q) == 1 and q.pop().target == "b"


ops = st.lists(st.tuples(st.sampled_from(["push", "cancel", "pop"]),
                         st.floats(0, 100, allow_nan=False), st.sampled_from(list(EventKind))),
               max_size=200)


@given(ops)
def test_queue_matches_a_plain_sorted_list(script):
    q = EventQueue()
    model: list[tuple] = []   # (time, phase, seq, name) kept sorted by hand
    handles = []
    seq = 0
    for op, t, kind in script:
        if op == "push":
            seq += 1
            ev = q.push(t, kind, seq)
            handles.append(ev)
            model.append((ev.time, ev.phase, ev.seq, seq))
            model.sort()
        elif op == "cancel" and handles:
            ev = handles.pop(len(handles) // 2)
            if (ev.time, ev.phase, ev.seq, ev.target) in model:
                q.cancel(ev)
                model.remove((ev.time, ev.phase, ev.seq, ev.target))
        elif op == "pop" and model:
            assert q.pop().target == model.pop(0)[3]
        assert len(q) == len(model)
    assert [q.pop().target for _ in range(len(model))] == [m[3] for m in model]
