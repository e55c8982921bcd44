"""The cloud's waiting queue (:class:`~cloudsim_py.clouds.waiting.WaitingQueue`) keeps the order a
sorted list keyed by the plans' ``key`` keeps (what it replaced): random adds at the end and in
the middle (a suspended lease re-queued with its old key), removals anywhere, compared step by
step with ``sortedcontainers.SortedKeyList``."""

from __future__ import annotations

from operator import attrgetter

import attrs
import pytest
from hypothesis import given, settings, strategies as st
from sortedcontainers import SortedKeyList

from cloudsim_py.clouds.waiting import WaitingQueue


@attrs.define(eq=False)
class _Plan:
    key: tuple[float, int]


#: a step: add a plan submitted at one of a few times (so ties of time are common, broken by the
#: number) with the next number or an older one given back, or remove the i-th waiting plan
_STEPS = st.lists(st.one_of(st.tuples(st.just("add"), st.integers(0, 5), st.booleans()),
                            st.tuples(st.just("remove"), st.integers(0, 50), st.booleans())),
                  max_size=200)


@given(_STEPS)
@settings(max_examples=300, deadline=None)
def test_the_waiting_queue_keeps_a_sorted_lists_order(steps: list[tuple[str, int, bool]]) -> None:
    queue = WaitingQueue()
    ref: SortedKeyList = SortedKeyList(key=attrgetter("key"))
    number = 0
    gone: list[_Plan] = []            # plans removed, which may come back with their old key
    for kind, value, flag in steps:
        if kind == "add":
            if flag and gone:
                p = gone.pop(value % len(gone))
            else:
                number += 1
                p = _Plan((float(value), number))
            queue.add(p)
            ref.add(p)
        elif ref:
            p = ref[value % len(ref)]
            if flag:                  # out of the front as often as from anywhere
                p = ref[0]
            queue.remove(p)
            ref.remove(p)
            gone.append(p)
        assert list(queue) == list(ref)
        assert len(queue) == len(ref) and bool(queue) == bool(ref)
        assert all(p in queue for p in ref) and not any(p in queue for p in gone)


def test_a_plan_not_waiting_cannot_be_removed() -> None:
    queue = WaitingQueue()
    p = _Plan((0.0, 1))
    queue.add(p)
    queue.remove(p)
    with pytest.raises(ValueError):
        queue.remove(p)
    assert not queue and list(queue) == []
