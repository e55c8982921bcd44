"""The progress models: the inlined two-tier equations equal the general k-tier formula."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cloudsim_py.engine import Simulation
from cloudsim_py.execution.progress import KTierProgress, TwoTierProgress, process_speed
from cloudsim_py.infrastructure.host import Host

process = st.tuples(st.floats(0.01, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 0.1))  # cpu, eff, loss


class Idle:
    """Stands for a job: the models only collect the jobs on a host, never run them here."""

    state = None
    run = None


@given(st.lists(st.tuples(st.one_of(st.none(), process), st.one_of(st.none(), process),
                          st.floats(0.25, 4.0)), min_size=1, max_size=6),
       st.floats(0.0, 0.2))
@settings(max_examples=300, deadline=None)
def test_two_tier_speeds_equal_the_general_formula(hosts_spec, floor):
    # Liu 2015 eqs. 1-2 as inlined in TwoTierProgress vs process_speed(...) x host speed
    sim = Simulation()
    hosts = []
    for i, (fg, bg, speed) in enumerate(hosts_spec):
        h = Host.make(i, 2, speed=speed)
        for slot, proc in zip(h.slots, (fg, bg)):
            if proc is not None:
                slot.job = Idle()
                slot.cpu, slot.eff, slot.loss = proc
        hosts.append(h)
    TwoTierProgress(sim, lambda job: None, 0, floor).refresh(hosts)
    fast = [s.speed for h in hosts for s in h.slots if s.job is not None]
    KTierProgress(sim, lambda job: None, 0, floor).refresh(hosts)
    general = [s.speed for h in hosts for s in h.slots if s.job is not None]
    expected = [process_speed(h.slots, s.tier, floor) * h.speed
                for h in hosts for s in h.slots if s.job is not None]
    assert fast == general == expected


def test_a_host_twice_as_fast_runs_a_job_twice_as_fast():
    from cloudsim_py import Datacenter, Job

    from tests.infrastructure.test_datacenter import Idle as IdleBroker

    sim = Simulation()
    dc = Datacenter(sim, groups=[{"count": 1, "speed": 1.0}, {"count": 2, "speed": 2.0, "type": "fast"}])
    dc.attach(IdleBroker())
    slow, fast = Job(1, 0.0, 1, runtime=60.0), Job(2, 0.0, 2, runtime=60.0)
    for job in (slow, fast):
        dc.submit(job)
    dc.start(slow, hosts=[0])
    dc.start(fast, hosts=[1, 2])
    sim.run()
    # 60 s of work on a speed-1 host: 60 s; on two speed-2 hosts: 30 s
    assert (slow.finish_time, fast.finish_time) == (60.0, 30.0)
    assert [h.type for h in dc.hosts] == ["default", "fast", "fast"]


def test_a_parallel_job_on_hosts_of_two_speeds_runs_at_the_slower_one():
    from cloudsim_py import Datacenter, Job

    from tests.infrastructure.test_datacenter import Idle as IdleBroker

    sim = Simulation()
    dc = Datacenter(sim, groups=[{"count": 1, "speed": 1.0}, {"count": 1, "speed": 2.0}])
    dc.attach(IdleBroker())
    job = Job(1, 0.0, 2, runtime=60.0)
    dc.submit(job)
    dc.start(job, hosts=[0, 1])
    sim.run()
    assert job.finish_time == 60.0      # its slowest process sets the pace
