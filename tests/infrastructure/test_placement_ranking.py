"""JobDispatch ranks few candidate slots in plain Python and many in numpy: both must pick the
same hosts, in the same order (least estimated load first, ties to the lowest host id)."""

from __future__ import annotations

from array import array

import numpy as np
from hypothesis import given, settings, strategies as st

from cloudsim_py.infrastructure.placement import JobDispatch, lightest


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
    mask = np.zeros(hosts, dtype=bool)
    mask[open_ids] = True
    numpy_pick = JobDispatch._ranked(None, mask, np.frombuffer(buf), list(taken), need, False)  # type: ignore[arg-type]
    assert lightest(buf, avail, list(taken), need) == numpy_pick
    assert sorted(numpy_pick, key=lambda i: (loads[i], i)) == numpy_pick
