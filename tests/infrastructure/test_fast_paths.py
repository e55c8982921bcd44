"""Every inlined fast path equals the plain path it stands for."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from cloudsim_py import DatacenterSpec, Job, build
from cloudsim_py.infrastructure.capacity import CapacityIndex
from cloudsim_py.infrastructure.host import Host


def workload(seed: int, n: int = 300, hosts: int = 16) -> list[Job]:
    rng = random.Random(seed)
    t = 0.0
    jobs = []
    for i in range(1, n + 1):
        t += rng.choice([0.0, 0.0, 1.0, 5.0, 30.0])          # ties on purpose
        runtime = rng.choice([1.0, 7.0, 60.0, 600.0])
        jobs.append(Job(i, t, rng.randint(1, hosts), runtime=runtime,
                        runtime_estimate=runtime * rng.choice([1.0, 2.0, 10.0])))
    return jobs


def schedule_of(policy: str, fast: bool, seed: int) -> list[tuple]:
    world = build(workload(seed), datacenter=DatacenterSpec(hosts=16, check=True), broker=policy,
                  record=True)
    dc = world.datacenter
    assert dc._fast                      # k = 1, identical hosts, default placement
    dc._fast = fast
    world.run()
    assert dc.log is not None
    return dc.log


def test_the_one_tier_start_fast_path_gives_the_plain_paths_schedule():
    # plain path: JobDispatch through _place and OneTierProgress.start
    for policy in ("fcfs", "easy", "conservative"):
        for seed in (1, 2, 3):
            assert schedule_of(policy, True, seed) == schedule_of(policy, False, seed), (policy, seed)


slot_state = st.tuples(st.booleans(), st.floats(0.05, 1.0), st.one_of(st.none(), st.floats(0.05, 1.0)))


@given(st.lists(st.tuples(slot_state, slot_state), min_size=1, max_size=8),
       st.floats(0.5, 1.0))
@settings(max_examples=200, deadline=None)
def test_the_two_tier_capacity_update_equals_the_general_one(states, threshold):
    def index_with(states):
        hosts = [Host.make(i, 2) for i in range(len(states))]
        for h, tiers in zip(hosts, states):
            for slot, (busy, cpu, est) in zip(h.slots, tiers):
                slot.job = object() if busy else None
                slot.cpu, slot.cpu_est = cpu, est
        return hosts, CapacityIndex(hosts, 2, threshold)

    hosts_a, fast = index_with(states)
    hosts_b, plain = index_with(states)
    fast.hosts_changed(hosts_a)               # the unrolled two-tier path
    for h in hosts_b:
        plain.host_changed(h)                 # the general k-tier path
    assert set(fast.open[1]) == set(plain.open[1])
    assert (fast.open_mask(0) == plain.open_mask(0)).all()
    assert (fast.open_mask(1) == plain.open_mask(1)).all()
    assert list(fast.ranked_buf[0]) == list(plain.ranked_buf[0])
    assert list(fast.ranked_buf[1]) == list(plain.ranked_buf[1])
    assert list(fast.load_buf) == list(plain.load_buf)
