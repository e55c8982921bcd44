"""CapacityIndex.tier_changed (a wide placement or release updated in numpy over its host ids)
and tier_changed_by_host (a narrow one, host by host from the mirrors of the tier that did not
change) against the plain model they replace, hosts_changed (host by host, reading the slots): the same
open sets in the same order, open masks (read from the ranked loads), ranked loads, loads and mirrors, over random
sequences of placements and releases on two tiers."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cloudsim_py.infrastructure.capacity import CapacityIndex
from cloudsim_py.infrastructure.host import Host

N = 12


def state(index: CapacityIndex, hosts: list[Host]) -> tuple:
    return (list(index.open[0]), list(index.open[1]), index.open_mask(0).tolist(), index.open_mask(1).tolist(),
            list(index.ranked_buf[0]), list(index.ranked_buf[1]), list(index.load_buf),
            bytes(index.busy_buf[0]), bytes(index.busy_buf[1]),
            list(index.est_buf[0]), list(index.est_buf[1]))


@given(st.data(), st.sampled_from([0.3, 0.6, 1.0]))
@settings(max_examples=200, deadline=None)
def test_tier_changed_equals_hosts_changed(data, threshold):
    both = []
    for _ in range(3):
        hosts = [Host.make(i, 2) for i in range(N)]
        both.append((hosts, CapacityIndex(hosts, 2, threshold)))
    for step in range(data.draw(st.integers(1, 30))):
        tier = data.draw(st.integers(0, 1))
        take = data.draw(st.booleans())
        free = [i for i in range(N) if (both[0][0][i].slots[tier].job is None) == take]
        if not free:
            continue
        ids = data.draw(st.permutations(free))[:data.draw(st.integers(1, len(free)))]
        known = data.draw(st.booleans())
        ests = tuple(data.draw(st.sampled_from([0.0, 0.2, 0.5, 0.6, 0.9, 1.0])) for _ in ids) if known else None
        job = object()
        for k, (hosts, index) in enumerate(both):
            placed = [hosts[i] for i in ids]
            for n, h in enumerate(placed):
                slot = h.slots[tier]
                if take:               # the slots and the idle set, as the datacenter writes them
                    slot.job = job
                    slot.cpu_est = ests[n] if ests is not None else None
                    del index.idle[tier][h.id]
                else:
                    slot.job = None        # cpu_est left as it was, as the datacenter leaves it
                    index.idle[tier][h.id] = None
            if k == 0:
                index.hosts_changed(placed)
            elif k == 1:
                index.tier_changed(list(ids), tier, take, ests)
            else:
                index.tier_changed_by_host(placed, tier, take, ests)
        assert state(both[0][1], both[0][0]) == state(both[1][1], both[1][0])
        assert state(both[0][1], both[0][0]) == state(both[2][1], both[2][0])
        both[1][1].check()
        both[2][1].check()
