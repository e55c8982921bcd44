"""ProcessUsage (issue 19, cloud scale): the usage draws kept in numpy until read equal the
tuples the plain draw made, value for value, and their sum is the tuple's."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from cloudsim_py.workload.cpu import (WIDE_USAGE, CpuEstimateModel, CpuUsageModel, ProcessUsage, usage_total,
                                      usage_values)


def plain_draw(model: CpuUsageModel, procs: list[int], rng: np.random.Generator) -> list[tuple]:
    """The draw as it was made before: every value a Python float at once."""
    single = (model.single,)
    multi = [p for p in procs if p > 1]
    flat = (rng.random(sum(multi)) * (model.high - model.low) + model.low).tolist() if multi else []
    out, pos = [], 0
    for p in procs:
        if p == 1:
            out.append(single)
        else:
            out.append(tuple(flat[pos:pos + p]))
            pos += p
    return out


@given(st.lists(st.one_of(st.integers(1, 70), st.integers(1, 300)), min_size=1, max_size=30),
       st.integers(0, 2**32 - 1),
       st.sampled_from(["exact", "error", "unknown", "full"]))
@settings(max_examples=100, deadline=None)
def test_lazy_usage_equals_the_plain_draw(procs, seed, estimate):
    model = CpuUsageModel()
    lazy = model.draw_many(procs, np.random.default_rng(seed))
    plain = plain_draw(model, procs, np.random.default_rng(seed))
    assert [len(u) for u in lazy] == procs
    assert all((type(u) is ProcessUsage) == (p > WIDE_USAGE) for u, p in zip(lazy, procs))
    for u, t in zip(lazy, plain):
        assert usage_total(u) == sum(t)                 # the sum, before any value is read
        assert usage_values(u) == t and u == t and hash(u) == hash(t)
        assert type(usage_values(u)) is tuple and all(type(v) is float for v in usage_values(u))
        assert usage_total(u) == sum(t)                 # and after
        assert list(u) == list(t) and u[0] == t[0] and u[-1] == t[-1]
    em = CpuEstimateModel(estimate, 0.2 if estimate == "error" else 0.0)
    est_lazy = em.estimate_many(model.draw_many(procs, np.random.default_rng(seed)), np.random.default_rng(1))
    est_plain = em.estimate_many(plain, np.random.default_rng(1))
    assert [usage_values(e) for e in est_lazy] == est_plain


def test_a_usage_nobody_reads_stays_in_numpy():
    u = ProcessUsage(np.array([0.5, 0.25, 0.75]), 1, 2)
    assert len(u) == 2 and u.total() == 1.0 and u._values is None
    assert u[1] == 0.75 and u._values == (0.25, 0.75) and u._flat is None
