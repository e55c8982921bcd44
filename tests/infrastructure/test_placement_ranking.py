"""JobDispatch ranks few candidate slots in plain Python and many in numpy (an argmin, a sort or
a partition of the capacity index's ranked loads): all must pick the same hosts, in the same
order (least estimated load first, ties to the lowest host id)."""

from __future__ import annotations

from array import array

import numpy as np
from hypothesis import given, settings, strategies as st

from cloudsim_py.infrastructure import placement
from cloudsim_py.infrastructure.placement import lightest, ranked_lightest


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
    saved = placement.SORT_RANKING
    placement.SORT_RANKING = 0            # the partition, as on machines of many hosts
    try:
        assert ranked_lightest(ranked, need) == expected
    finally:
        placement.SORT_RANKING = saved
