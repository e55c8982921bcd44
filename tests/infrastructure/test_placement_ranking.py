"""JobDispatch ranks few candidate slots in plain Python and many in numpy (an argmin, a sort or
a partition of the capacity index's ranked loads): all must pick the same hosts, in the same
order (least estimated load first, ties to the lowest host id)."""

from __future__ import annotations

from array import array
from contextlib import contextmanager
from typing import Iterator

import numpy as np
from hypothesis import given, settings, strategies as st

from cloudsim_py.infrastructure import placement
from cloudsim_py.infrastructure.placement import by_process, lightest, ranked_lightest


@contextmanager
def partition_only() -> Iterator[None]:
    """ranked_lightest's many-hosts path (the partition) whatever the number of hosts."""
    saved = placement.SORT_RANKING
    placement.SORT_RANKING = 0
    try:
        yield
    finally:
        placement.SORT_RANKING = saved

@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_python_ranking_equals_the_numpy_ranking(data):
    hosts = data.draw(st.integers(1, 40))
    # few distinct loads, so that ties are the rule (0.0 is every host with nothing above)
    loads = data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.25, 0.4, 0.4, 0.9, 1.0]),
                               min_size=hosts, max_size=hosts))
    open_ids = data.draw(st.lists(st.integers(0, hosts - 1), min_size=1, unique=True))
    avail = dict.fromkeys(open_ids)               # insertion order, not id order
    taken = data.draw(st.lists(st.sampled_from(open_ids), unique=True, max_size=len(open_ids) - 1))
    need = data.draw(st.integers(1, len(open_ids) - len(taken)))
    buf = array("d", loads)
    ranked = np.full(hosts, np.inf)
    ranked[open_ids] = np.asarray(loads)[open_ids]
    ranked[taken] = np.inf
    expected = sorted((i for i in open_ids if i not in taken), key=lambda i: (loads[i], i))[:need]
    assert lightest(buf, avail, list(taken), need) == expected
    assert ranked_lightest(ranked, need) == expected
    with partition_only():               # the partition, as on machines of many hosts
        assert ranked_lightest(ranked, need) == expected


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_partition_of_the_open_slots_equals_the_definition(data):
    # the many-hosts path on its own: loads with runs of ties (0.0 above all), closed slots
    # anywhere, and more slots asked for than are open (the closed ones then follow, by id)
    hosts = data.draw(st.integers(2, 120))
    values = data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.25, 0.4, 0.9, 1.0, -0.0, np.inf, np.inf]),
                                min_size=hosts, max_size=hosts))
    ranked = np.asarray(values, dtype=np.float64)
    need = data.draw(st.integers(2, hosts))
    expected = sorted(range(hosts), key=lambda i: (values[i], i))[:need]
    with partition_only():
        assert ranked_lightest(ranked, need) == expected


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_process_order_in_numpy_equals_the_sort_in_python(data):
    # estimates with many ties (a stable order: ties in process order), ids in any order
    n = data.draw(st.integers(1, 90))
    est = tuple(data.draw(st.lists(st.sampled_from([0.0, -0.0, 0.2, 0.4, 0.4, 0.7, 1.0]),
                                   min_size=n, max_size=n)))
    ids = data.draw(st.permutations(range(n)))
    hosts = [object() for _ in range(n)]
    by_rank = sorted(range(n), key=lambda p: -est[p])      # the definition, stable
    expected = [None] * n
    for rank, proc in enumerate(by_rank):
        expected[proc] = hosts[ids[rank]]
    saved = placement.WIDE_ORDER
    try:
        for wide in (10 ** 9, 0):          # the Python branch, then numpy's
            placement.WIDE_ORDER = wide
            assert by_process(hosts, list(ids), est) == expected
    finally:
        placement.WIDE_ORDER = saved


def test_the_python_ranking_bound_follows_the_hosts_up_to_its_cap():
    # where the two rankings cost alike in instructions (placement.small_ranking's docstring)
    from cloudsim_py.infrastructure.placement import SMALL_RANKING, small_ranking

    assert [small_ranking(h) for h in (16, 100, 338, 447, 448, 4096)] == [5, 10, 25, 31, 32, SMALL_RANKING]
