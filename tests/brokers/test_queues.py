"""The waiting queues' helpers against their plain definitions."""

from __future__ import annotations

import heapq

from hypothesis import given, strategies as st

from cloudsim_py.brokers.queues import WaitQueue, arrival, merged_by_arrival
from cloudsim_py.workload.job import Job


def jobs_of(keys: list[tuple[int, int]]) -> list[Job]:
    return [Job(i + 1, float(t), procs, runtime=1.0) for i, (t, procs) in enumerate(keys)]


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8)), max_size=40), st.data())
def test_merged_by_arrival_is_heapq_merge(keys, data):
    jobs = jobs_of(keys)
    side = data.draw(st.lists(st.booleans(), min_size=len(jobs), max_size=len(jobs)))
    first = sorted((j for j, s in zip(jobs, side) if s), key=arrival)
    second = sorted((j for j, s in zip(jobs, side) if not s), key=arrival)
    expected = list(heapq.merge(first, second, key=arrival))
    assert list(merged_by_arrival(first, second)) == expected
    assert list(merged_by_arrival(iter(first), second)) == expected   # a one-pass iterator too


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8)), max_size=40), st.integers(0, 9))
def test_fitting_is_the_jobs_that_fit_in_arrival_order(keys, procs):
    queue = WaitQueue()
    jobs = jobs_of(keys)
    for job in jobs:
        queue.add(job)
    assert queue.fitting(procs) == sorted((j for j in jobs if j.procs <= procs), key=arrival)


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8)), max_size=40),
       st.integers(-1, 21), st.integers(0, 41))
def test_arrived_before_is_the_earlier_arrivals_in_order(keys, t, i):
    queue = WaitQueue()
    jobs = jobs_of(keys)
    for job in jobs:
        queue.add(job)
    key = (float(t), i)
    assert queue.arrived_before(key) == sorted((j for j in jobs if j.order < key), key=arrival)


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8)), max_size=40), st.data())
def test_front_queue_keeps_the_order_of_a_plain_list(keys, data):
    from cloudsim_py.brokers.queues import FrontQueue

    queue, plain = FrontQueue(), []
    for job in jobs_of(keys):
        queue.add(job)
        plain.append(job)
        if data.draw(st.booleans()):         # take from the front, as FCFS does, or remove one
            if plain and data.draw(st.booleans()):
                assert queue.jobs.popleft() is plain.pop(0)
            elif plain:
                job = data.draw(st.sampled_from(plain))
                queue.remove(job)
                plain.remove(job)
        assert list(queue) == plain and len(queue) == len(plain) and bool(queue) == bool(plain)
        assert queue.head() is (plain[0] if plain else None)
        assert all(j in queue for j in plain)


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8)), max_size=40), st.data())
def test_wait_queue_keeps_both_orders_of_a_plain_list(keys, data):
    """The two sorted lists (keys beside jobs) against sorting a plain list at every step:
    arrival order, size order with ties in arrival order, head, length and membership, over
    random adds and removes (a removed job added back takes its old place)."""
    import pytest

    queue, plain = WaitQueue(), []
    jobs = jobs_of(keys)
    out: list[Job] = []
    for job in jobs:
        queue.add(job)
        plain.append(job)
        if plain and data.draw(st.booleans()):
            gone = data.draw(st.sampled_from(plain))
            queue.remove(gone)
            plain.remove(gone)
            out.append(gone)
            with pytest.raises(ValueError):
                queue.remove(gone)
        if out and data.draw(st.booleans()):
            back = out.pop(data.draw(st.integers(0, len(out) - 1)))
            queue.add(back)
            plain.append(back)
        assert list(queue) == sorted(plain, key=arrival)
        assert list(queue.by_size()) == sorted(plain, key=lambda j: (j.procs, j.order))
        assert len(queue) == len(plain)
        assert queue.head() is (min(plain, key=arrival) if plain else None)
        assert all(j in queue for j in plain) and not any(j in queue for j in out)
        assert "a job" not in queue
