"""Span mode (issue 19, cloud scale): the queue of idle spans and a job's spans equal the plain
per-host model they stand for, and a one-tier datacenter in span mode writes the same schedule
as one kept host by host, also when something asks for per-host state mid-run."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py import DatacenterSpec, build
from cloudsim_py.infrastructure.datacenter import Datacenter
from cloudsim_py.infrastructure.host import Host, LazyHosts
from cloudsim_py.infrastructure.spans import SpanHosts, SpanQueue

from .test_fast_paths import workload


@pytest.fixture(autouse=True, scope="module")
def span_mode_on_small_machines():
    """Span mode from one host on (by default from Datacenter.span_mode_hosts), so that small
    machines, whose schedules are quick to compare, run in it."""
    before = Datacenter.span_mode_hosts
    Datacenter.span_mode_hosts = 1
    yield
    Datacenter.span_mode_hosts = before


def test_small_machines_start_per_host_by_default():
    assert Datacenter.span_mode_hosts == 1        # this module's fixture
    Datacenter.span_mode_hosts = 2048
    try:
        small = build(workload(1, 5, 16), datacenter=DatacenterSpec(hosts=2047), broker="easy").datacenter
        large = build(workload(1, 5, 16), datacenter=DatacenterSpec(hosts=2048), broker="easy").datacenter
        two = build(workload(1, 5, 16), datacenter=DatacenterSpec(hosts=4096, tiers=2), broker="acfcfs").datacenter
    finally:
        Datacenter.span_mode_hosts = 1
    assert small._spans is None and isinstance(small.hosts, list)
    assert large._spans is not None and isinstance(large.hosts, LazyHosts)
    assert two._spans is None and isinstance(two.hosts, list)


def ids_of(spans):
    return [i for a, b in spans for i in range(a, b)]


@given(st.integers(1, 40), st.lists(st.tuples(st.booleans(), st.integers(1, 40), st.integers(0, 99)),
                                    max_size=200))
@settings(max_examples=300, deadline=None)
def test_the_span_queue_is_the_per_host_queue(n, ops):
    # the per-host model: an insertion-ordered dict (take the first k, put back at the end)
    model = dict.fromkeys(range(n))
    queue = SpanQueue(n)
    held: list[list] = []           # jobs' spans (queue) and ids (model), side by side
    for take, k, pick in ops:
        if take and model:
            k = min(k, len(model))
            first = list(model)[:k]
            for i in first:
                del model[i]
            spans, ends = queue.take(k)
            assert ids_of(spans) == first
            assert all(a < b for a, b in spans)
            assert ends == [sum(b - a for a, b in spans[:i + 1]) for i in range(len(spans))]
            held.append([(spans, ends), first])
        elif held:
            spans, first = held.pop(pick % len(held))
            model.update(dict.fromkeys(first))
            queue.put(*spans)
        assert len(queue) == len(model)
        assert list(queue) == list(model)
        assert all(a < b for a, b in queue.spans)
        # neighbours in the queue that continue each other were merged
        assert all(x[1] != y[0] for x, y in zip(queue.spans, list(queue.spans)[1:]))


def test_span_hosts_list_the_hosts_at_first_read():
    hosts = [Host.make(i, 1) for i in range(10)]
    sh = SpanHosts(hosts, [(7, 9), (2, 4), (5, 6)], [2, 4, 5])
    assert sh._list is None and len(sh) == 5       # its length needs no list
    assert list(sh.ids()) == [7, 8, 2, 3, 5]
    assert sh._list is None
    assert sh[0] is hosts[7] and sh[-1] is hosts[5]
    assert sh == [hosts[i] for i in (7, 8, 2, 3, 5)]
    assert sh == tuple(hosts[i] for i in (7, 8, 2, 3, 5))
    assert sh != [hosts[i] for i in (7, 8, 2, 3)]
    assert hosts[3] in sh and hosts[4] not in sh
    assert [h.id for h in sh] == [7, 8, 2, 3, 5]


def schedule_of(policy: str, seed: int, spans: bool, ask_at: int | None = None) -> list[tuple]:
    world = build(workload(seed, 200, 16), datacenter=DatacenterSpec(hosts=16, check=True),
                  broker=policy, record=True)
    dc = world.datacenter
    assert dc._spans is not None                 # k = 1, identical hosts, default placement
    if not spans:
        dc._per_host()
    if ask_at is not None:
        starts = [0]

        class Asker:
            def on_start(self, job):
                starts[0] += 1
                if starts[0] == ask_at:
                    assert dc.job_at(dc.hosts_of(job)[0], 0) is job   # leaves span mode here
                    assert dc._spans is None

        dc.subscribe(Asker())
    world.run()
    assert dc.log is not None
    return dc.log


@given(st.integers(0, 10_000), st.sampled_from(["fcfs", "easy", "conservative"]),
       st.one_of(st.none(), st.integers(1, 150)))
@settings(max_examples=25, deadline=None)
def test_span_mode_writes_the_per_host_schedule(seed, policy, ask_at):
    # the checker (check: true) verifies the spans at every timestamp in span mode
    assert schedule_of(policy, seed, True, ask_at) == schedule_of(policy, seed, False)


def test_a_datacenter_leaves_span_mode_for_per_host_questions_only():
    world = build(workload(1, 50, 16), datacenter=DatacenterSpec(hosts=16), broker="easy")
    dc = world.datacenter
    world.run(until=30.0)
    assert dc._spans is not None
    dc.idle(0), dc.available(0), dc.used(0), dc.running_count()   # counts: still spans
    assert dc._spans is not None
    idle = len(dc._spans)
    ids = list(dc.idle_hosts(0))                                   # ids: per host
    assert dc._spans is None and len(ids) == idle == dc.idle(0)
    dc._check()
    world.run()
    dc._check()


def test_kills_in_span_mode_put_the_spans_back():
    rng = random.Random(3)
    world = build(workload(2, 60, 16), datacenter=DatacenterSpec(hosts=16, check=True), broker="easy",
                  record=True)
    dc = world.datacenter
    killed = []

    class Killer:
        def on_start(self, job):
            if rng.random() < 0.2 and job.kills == 0:
                killed.append(job)

    dc.subscribe(Killer())
    world.run(until=50.0)
    for job in killed:
        if job.state.label == "running":
            free = dc.idle(0)
            dc.kill(job)
            assert dc.idle(0) == free + job.procs
    assert dc._spans is not None
    dc._check()


def test_a_long_run_of_the_span_queue_is_the_per_host_queue():
    # long enough for the queue to drop its taken head many times (_compact)
    rng = random.Random(7)
    n = 300
    model = dict.fromkeys(range(n))
    queue = SpanQueue(n)
    held: list = []
    for step in range(20_000):
        if model and (rng.random() < 0.5 or not held):
            k = rng.randint(1, min(len(model), rng.choice([1, 3, 40, 300])))
            first = list(model)[:k]
            for i in first:
                del model[i]
            spans, ends = queue.take(k)
            assert ids_of(spans) == first
            held.append(((spans, ends), first))
        else:
            (spans, ends), first = held.pop(rng.randrange(len(held)))
            model.update(dict.fromkeys(first))
            queue.put(spans, ends)
        if step % 97 == 0:
            assert list(queue) == list(model)
        assert len(queue) == len(model)
    assert list(queue) == list(model)


@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from(["a", "b"])),
                min_size=1, max_size=5),
       st.lists(st.integers(-40, 40), max_size=30), st.integers(1, 3))
@settings(max_examples=100, deadline=None)
def test_lazy_hosts_are_the_hosts_made_at_once(groups, reads, tiers):
    plain = [Host.make(0, tiers, speed, type_) for count, speed, type_ in groups for _ in range(count)]
    for i, h in enumerate(plain):
        h.id = i
    lazy = LazyHosts(groups, tiers)
    assert len(lazy) == len(plain)
    seen = {}
    for i in reads:
        if not -len(plain) <= i < len(plain):
            continue
        h = lazy[i]
        assert seen.setdefault(i % len(plain), h) is h                  # made once, then kept
        p = plain[i]
        assert (h.id, h.speed, h.type, len(h.slots)) == (p.id, p.speed, p.type, len(p.slots))
    assert [(h.id, h.speed, h.type) for h in lazy[1:4]] == [(h.id, h.speed, h.type) for h in plain[1:4]]
    listed = lazy.listed()
    assert all(listed[i] is h for i, h in seen.items())
    assert [(h.id, h.speed, h.type) for h in listed] == [(h.id, h.speed, h.type) for h in plain]
    assert list(lazy) == listed and lazy[1:4] == listed[1:4]


def test_a_span_mode_datacenter_makes_only_the_hosts_asked_for():
    world = build(workload(1, 50, 16), datacenter=DatacenterSpec(hosts=1000), broker="easy", record=True)
    dc = world.datacenter
    world.run()
    assert isinstance(dc.hosts, LazyHosts) and len(dc.hosts) == 1000
    # the recorder listed every job's hosts: only those were made
    used = {h for e in dc.log for h in e[4]}
    assert sum(h is not None for h in dc.hosts._made) == len(used) < 1000
    dc._per_host()
    assert isinstance(dc.hosts, list) and len(dc.hosts) == 1000
    dc._check()
