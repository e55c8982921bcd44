"""``Datacenter.over_threshold`` (one query for the threshold evictions after a placement) names
the same jobs, in the same order, as its definition read host by host through the per-host
queries (``hosts_loaded``, ``job_at``, ``threshold_load``), which is how the MBF family asked
before: on random occupancies of 2 and 3 tiers, both threshold readings, known and unknown
estimates."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py import Broker, Datacenter, Job, Simulation
from cloudsim_py.errors import CapacityError


class Idle(Broker):
    """Does nothing by itself: the test drives the datacenter."""

    def schedule(self, now):
        pass


def by_host(dc, hosts, tier):
    """The definition, one host and one query at a time."""
    victims = {}
    threshold = dc.threshold
    for h in dc.hosts_loaded(hosts, threshold):
        for low in range(tier + 1, dc.tiers):
            other = dc.job_at(h, low)
            if other is not None and dc.threshold_load(h, low) >= threshold:
                victims[other] = None
    return list(victims)


estimate = st.one_of(st.none(), st.sampled_from([0.1, 0.2, 0.45, 0.5, 0.55, 0.9, 1.0]))
where = st.lists(st.integers(0, 7), min_size=4, max_size=4, unique=True)
job = st.tuples(st.integers(1, 4), st.integers(0, 2), estimate, where)


@settings(max_examples=300, deadline=None)
@given(tiers=st.sampled_from([2, 3]), stacked=st.booleans(), threshold=st.sampled_from([0.5, 0.96]),
       jobs=st.lists(job, max_size=14), asked=st.lists(st.integers(0, 7), unique=True),
       tier=st.integers(0, 2))
def test_over_threshold_is_its_definition_read_host_by_host(tiers, stacked, threshold, jobs, asked, tier):
    sim = Simulation(seed=1)
    dc = Datacenter(sim, hosts=8, tiers=tiers, threshold=threshold,
                    tier_threshold="stacked" if stacked else "foreground", check=True)
    dc.attach(Idle())
    for i, (procs, on, est, where) in enumerate(jobs):
        on = min(on, tiers - 1)
        j = Job(i + 1, 0.0, procs, runtime=10.0, cpu_usage=(0.6,) * procs,
                cpu_estimate=None if est is None else (est,) * procs)
        dc.submit(j)
        try:
            dc.start(j, on, hosts=where[:procs])
        except CapacityError:
            continue        # busy or closed there: the occupancy is what could be placed
    tier = min(tier, tiers - 1)
    hosts = [dc.hosts[i] for i in asked]
    assert list(dc.over_threshold(hosts, tier)) == by_host(dc, hosts, tier)
