""":class:`~cloudsim_py.clouds.extremes.Extreme` gives what ``min`` (``max``) of its list gives,
after any changes in place noted in its ``changed`` set: random writes (ties, repeats of old
values, the slot table's ``BIG`` and ``-BIG``), questions between them, enough changes to make
its heap anew."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cloudsim_py.clouds.extremes import FEW, Extreme
from cloudsim_py.clouds.slottable import BIG

_VALUES = st.sampled_from([-BIG, BIG, 0.0, 1.0, 2.5, 2.5, 7.0, 1e6]) | st.floats(-1e9, 1e9)


@given(st.integers(1, 12), st.lists(st.tuples(st.integers(0, 11), _VALUES, st.integers(0, 3)), max_size=300),
       st.booleans(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_extreme_is_the_min_or_max_of_its_list(n: int, writes: list[tuple[int, float, int]], most: bool,
                                               lazy: bool) -> None:
    """Questions after one change or several (up to :data:`FEW` and more); ``lazy``: the owner
    stops noting changes once more than :data:`FEW` are noted, as the slot table does."""
    values = [0.0] * n
    ext = Extreme(values, most=most)
    pick = max if most else min
    assert ext.get() == pick(values)
    for i, v, ask in writes:
        values[i % n] = v
        if not lazy or len(ext.changed) <= FEW:
            ext.changed.add(i % n)
        if not ask:
            assert ext.get() == pick(values)
    assert ext.get() == pick(values)
    assert ext.get() == pick(values)          # (asked twice with nothing changed)


def test_the_heap_stays_within_four_pairs_a_value() -> None:
    values = [float(i) for i in range(10)]
    ext = Extreme(values)
    for k in range(1000):
        values[k % 10] = float(1000 - k)
        ext.changed.add(k % 10)
        assert ext.get() == min(values)
        assert ext.pairs <= 4 * 10 + 64
