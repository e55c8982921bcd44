"""KTCBF, the k-tier generalisation (Sindhuja and Santhosh): tier 0 follows CMCBF's foreground
rule, lower tiers are filled in priority order, jobs climb by priority swaps."""

from hypothesis import given, settings, strategies as st

from cloudsim_py import Job, simulate
from cloudsim_py.execution import FixedFactors, InterferenceModel
from tests.brokers.test_liu2013_examples import fig2, moves


def test_with_two_tiers_ktcbf_is_cmcbf_on_the_fig2_example():
    assert moves(fig2("ktcbf")) == moves(fig2("cmcbf"))


def test_aggressive_ktcbf_with_two_tiers_is_amcbf():
    from tests.brokers.test_liu2013_examples import FACTORS, FIG2
    jobs = lambda: [Job(i, 0.0, p, runtime=float(r), cpu_usage=(c,) * p, cpu_estimate=(c,) * p)  # noqa: E731
                    for i, (p, r, c) in FIG2.items()]
    kw = dict(hosts=5, tiers=2, interference=InterferenceModel("example"), factors=FACTORS,
              migration_cost=0.0, record=True)
    a = simulate(jobs(), policy="ktcbf", params={"aggressive": True}, **kw).datacenter.log
    b = simulate(jobs(), policy="amcbf", **kw).datacenter.log
    assert a == b


def three_tier(jobs, hosts=3):
    return simulate(jobs, hosts=hosts, tiers=3, policy="ktcbf", interference=InterferenceModel("k3"),
                    factors=FixedFactors(default=(0.5, 0.0)), migration_cost=0.0, check=True,
                    record=True)


def light(i, submit, procs, runtime):
    return Job(i, submit, procs, runtime=runtime, cpu_usage=(0.3,) * procs, cpu_estimate=(0.3,) * procs)


def test_jobs_fill_the_tiers_in_priority_order_and_climb_when_the_top_empties():
    # 3 hosts x 3 tiers, every process uses 30 % (0.3 + 0.3 < 0.96: three can share a host).
    # J1, J2, J3 (3 procs each) arrive together: J1 takes tier 0, J2 tier 1, J3 tier 2.
    # J1 ends at 10: J2 climbs to tier 0 and J3 to tier 1, both by priority swaps in place.
    # J4 (3 procs) arrives at 20 and takes the free bottom tier. J2 did 5 of its 100 s of work
    # by 10 (efficiency 0.5 under J1), so it ends at 105, and J3 climbs to the top.
    r = three_tier([light(1, 0, 3, 10), light(2, 0, 3, 100), light(3, 0, 3, 100), light(4, 20, 3, 5)])
    assert moves(r) == [
        (0.0, "start", 1, 0, (0, 1, 2)),
        (0.0, "start", 2, 1, (0, 1, 2)),
        (0.0, "start", 3, 2, (0, 1, 2)),
        (10.0, "swap", 2, 0, (0, 1, 2)),
        (10.0, "swap", 3, 1, (0, 1, 2)),
        (20.0, "start", 4, 2, (0, 1, 2)),
        (105.0, "swap", 3, 0, (0, 1, 2)),
    ]


def test_a_lone_arrival_takes_the_top_tier_not_the_lowest():
    # The paper's arrival procedure tests the Low tier first; read literally it would put a job
    # alone on an empty machine in its lowest-priority VM. Our reading: the highest tier with room.
    r = three_tier([light(1, 0, 2, 10)])
    assert moves(r) == [(0.0, "start", 1, 0, (0, 1))]


def test_a_heavy_top_process_closes_the_tiers_below_it():
    # J3 (1 process at 100 %) takes tier 0 of host 0 at t=0. J1 (3 procs) arrives at 0.5: tier 0
    # has 2 idle slots, and host 0's lower tiers are closed (the tier above uses >= 96 %), so no
    # tier has 3 available slots: J1 waits. J4 (2 procs) at 1 takes tier 0 of hosts 1-2. J1 can
    # only start at 10, when J3 leaves host 0: then tier 1 has three open slots.
    heavy = Job(3, 0.0, 1, runtime=10.0, cpu_usage=(1.0,), cpu_estimate=(1.0,))
    r = three_tier([heavy, light(1, 0.5, 3, 10), light(4, 1, 2, 5)])
    assert moves(r)[:2] == [(0.0, "start", 3, 0, (0,)), (1.0, "start", 4, 0, (1, 2))]
    assert [e for e in moves(r) if e[2] == 1][0][:2] == (10.0, "start")


def test_a_heavy_process_placed_on_top_evicts_the_jobs_below_it():
    # 2 hosts x 3 tiers, light processes use 30 %. J1 (1 proc, ends at 10) and J2 (1 proc) take
    # tier 0; J3 (2 procs) tier 1; J4 (2 procs) tier 2. At 10 host 0's top slot empties, but
    # neither J3 nor J4 can climb (their other host's upper slot is busy). J5, one process at
    # 100 %, arrives at 12 and takes it: the tiers below it on host 0 may no longer be used
    # (>= 96 % above), so J3 and J4 are suspended (Liu 2013 Fig. 2 at time 5, one tier deeper).
    heavy = Job(5, 12.0, 1, runtime=50.0, cpu_usage=(1.0,), cpu_estimate=(1.0,))
    r = three_tier([light(1, 0, 1, 10), light(2, 0, 1, 100), light(3, 0, 2, 100),
                    light(4, 0, 2, 100), heavy], hosts=2)
    assert moves(r)[:4] == [(0.0, "start", 1, 0, (0,)), (0.0, "start", 2, 0, (1,)),
                            (0.0, "start", 3, 1, (0, 1)), (0.0, "start", 4, 2, (0, 1))]
    assert moves(r)[4:7] == [(12.0, "start", 5, 0, (0,)), (12.0, "suspend", 3, 1, (0, 1)),
                             (12.0, "suspend", 4, 2, (0, 1))]


jobs_st = st.lists(st.tuples(st.integers(0, 40), st.integers(1, 4), st.integers(1, 30),
                             st.sampled_from([0.3, 0.5, 0.7, 1.0])), min_size=1, max_size=15)


@settings(max_examples=40, deadline=None)
@given(jobs_st)
def test_ktcbf_with_two_tiers_matches_cmcbf_on_random_workloads(specs):
    def jobs():
        return [Job(i, float(s), p, runtime=float(r), cpu_usage=(c,) * p, cpu_estimate=(c,) * p)
                for i, (s, p, r, c) in enumerate(sorted(specs), 1)]
    kw = dict(hosts=4, tiers=2, seed=3, check=True, record=True)
    assert simulate(jobs(), policy="ktcbf", **kw).datacenter.log == \
        simulate(jobs(), policy="cmcbf", **kw).datacenter.log


@settings(max_examples=40, deadline=None)
@given(jobs_st, st.sampled_from(["ccfcfs", "acfcfs", "cmcbf", "amcbf", "ktcbf"]), st.integers(2, 4))
def test_every_consolidation_policy_finishes_every_job_with_the_invariants_kept(specs, policy, k):
    if policy != "ktcbf":
        k = 2
    jobs = [Job(i, float(s), p, runtime=float(r), cpu_usage=(c,) * p, cpu_estimate=(c,) * p)
            for i, (s, p, r, c) in enumerate(sorted(specs), 1)]
    r = simulate(jobs, hosts=4, tiers=k, policy=policy, seed=5, check=True)
    assert r.summary["jobs_finished"] == len(specs) and r.summary["jobs_unfinished"] == 0
