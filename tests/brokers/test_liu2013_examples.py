"""Liu et al. 2013 (IEEE TPDS), Fig. 1 (CMBF, AMBF on 6 nodes) and Fig. 2 (CMCBF, AMCBF on 5
nodes and 10 jobs), replayed event by event. The figures are not in the text: the job sets are
reconstructed from the narration of sections 4.1.1, 4.1.2 and 4.2, and "saving and restoring
incur trivial cost" is a migration cost of 0. Host ids are 0-based (P1 = host 0)."""

from cloudsim_py import Job, simulate
from cloudsim_py.execution import FixedFactors, InterferenceModel

# ------------------------------------------------------------------------------- Fig. 1
# J1 (1 node, 20), J2 (2, 5), J3 (6, 5), J4 (4, 5), J5 (2, 15), J6 (1, 10), all at time 0.
# J2 holds 2 nodes ("two idle nodes" at 5), J5 2 and J6 1 ("three nodes used by backfilling
# jobs"), J4 4; J3 needs all 6; J1 and J5 finish at 20 in CMBF, J5 (15 of work) at 15 in AMBF.
FIG1 = [(1, 20.0), (2, 5.0), (6, 5.0), (4, 5.0), (2, 15.0), (1, 10.0)]


def fig1(policy):
    jobs = [Job(i, 0.0, p, runtime=r) for i, (p, r) in enumerate(FIG1, 1)]
    return simulate(jobs, hosts=6, policy=policy, migration_cost=0.0, check=True, record=True)


def moves(result):
    return [e for e in result.datacenter.log if e[1] != "finish"]


def test_cmbf_fig1a():
    r = fig1("cmbf")
    assert moves(r) == [
        # t=0: J3 (6) and J4 (4) do not fit the 3 free nodes; J5 and J6 are backfilled
        (0.0, "start", 1, 0, (0,)),
        (0.0, "start", 2, 0, (1, 2)),
        (0.0, "start", 5, 0, (3, 4)),
        (0.0, "start", 6, 0, (5,)),
        # t=5: J2 leaves. J3: 2 idle + 3 held by later arrivals < 6. J4: 2 + 3 >= 4: J6 then
        # J5 are collected, but J5 alone is enough, so J6 stays and J5 is suspended
        (5.0, "suspend", 5, 0, (3, 4)),
        (5.0, "start", 4, 0, (1, 2, 3, 4)),
        # t=10: J4 and J6 leave; J3 still cannot run (J1 holds a node), J5 resumes
        (10.0, "resume", 5, 0, (5, 1)),
        # t=20: J1 and J5 leave; J3 runs (one tier: hosts in the order they became idle)
        (20.0, "start", 3, 0, (2, 3, 4, 0, 5, 1)),
    ]
    assert r.summary["migrations"] == 1 and r.summary["preemptions"] == 1


def test_ambf_fig1b():
    r = fig1("ambf")
    starts = {e[2]: e[0] for e in moves(r) if e[1] == "start"}
    # only the head (J3) may preempt, and it cannot: J4 waits for idle nodes until J5 ends at 15
    assert starts == {1: 0.0, 2: 0.0, 5: 0.0, 6: 0.0, 4: 15.0, 3: 20.0}
    assert r.summary["migrations"] == 0 and r.summary["preemptions"] == 0


# ------------------------------------------------------------------------------- Fig. 2
# All ten jobs at time 0. Single-process jobs (J1, J5, J6, J10) use 100 % of a node, the others
# less than the 96 % threshold. No foreground loss; background efficiency 0.5 for J4 and J7,
# 0.8 for J5 and J10 (single-process). Runtimes make the narrated departures happen:
#   J1 1x10   J2 2x5 (cpu .3)  J3 2x10 (.5)  J4 3x7.5 (.4)  J5 1x22  J6 1x15  J7 2x5 (.4)
#   J8 5x5 (.5)  J9 4x5 (.5)  J10 1x9.4
# J4: 2.5 of work in the background until it is evicted at 5, 5 more from 10 -> ends at 15.
# J5: 0.4 per unit under J3 until 5, then 20 in the foreground -> 25.
# J7: 0.5 per unit under J3 (5-10) and J4 (10-15) -> 15. J10: 0.48 per unit under J4 (10-15),
# 1.0 in the foreground (15-20), 0.4 under J9 (20-25) -> 9.4 at 25.
FIG2 = {1: (1, 10, 1.0), 2: (2, 5, 0.3), 3: (2, 10, 0.5), 4: (3, 7.5, 0.4), 5: (1, 22, 1.0),
        6: (1, 15, 1.0), 7: (2, 5, 0.4), 8: (5, 5, 0.5), 9: (4, 5, 0.5), 10: (1, 9.4, 1.0)}
FACTORS = FixedFactors(eff={4: 0.5, 7: 0.5, 5: 0.8, 10: 0.8}, default=(1.0, 0.0))


def fig2(policy):
    jobs = [Job(i, 0.0, p, runtime=float(r), cpu_usage=(c,) * p, cpu_estimate=(c,) * p)
            for i, (p, r, c) in FIG2.items()]
    return simulate(jobs, hosts=5, tiers=2, policy=policy, interference=InterferenceModel("example"),
                    factors=FACTORS, migration_cost=0.0, check=True, record=True)


def test_cmcbf_fig2():
    r = fig2("cmcbf")
    assert moves(r) == [
        # t=0: J1, J2, J3 fill the foreground; J1 uses 100 % so P1 takes no background job;
        # J4 and J5 go to the background of P2-P5 (lightest foreground first: J2 is 0.3)
        (0.0, "start", 1, 0, (0,)),
        (0.0, "start", 2, 0, (1, 2)),
        (0.0, "start", 3, 0, (3, 4)),
        (0.0, "start", 4, 1, (1, 2, 3)),
        (0.0, "start", 5, 1, (4,)),
        # t=5: J2 leaves; J4 (3) does not fit the 2 idle foreground VMs, J5 moves up (to P2:
        # its own foreground VM is busy, so it is saved and restored); J5 uses 100 %, so J4's
        # process under it must go: J4 is suspended; J6 takes P3; J7 goes under J3
        (5.0, "suspend", 5, 1, (4,)),
        (5.0, "resume", 5, 0, (1,)),
        (5.0, "suspend", 4, 1, (1, 2, 3)),
        (5.0, "start", 6, 0, (2,)),
        (5.0, "start", 7, 1, (3, 4)),
        # t=10: J1, J3 leave; J4, the queue head, runs in the foreground; J10 under it on P1
        (10.0, "resume", 4, 0, (0, 3, 4)),
        (10.0, "start", 10, 1, (0,)),
        # t=15: J4 (and J7) leave; J8 and J9 do not fit; J10 switches up in place
        (15.0, "swap", 10, 0, (0,)),
        # t=20: J6 leaves; J8 (5) cannot be served even by preempting J10, J9 (4) can: J10 is
        # switched down in place, J9 runs on P1, P3-P5
        (20.0, "swap", 10, 1, (0,)),
        (20.0, "start", 9, 0, (2, 3, 4, 0)),
        # t=25: J5, J9, J10 leave; J8 takes all five nodes
        (25.0, "start", 8, 0, (0, 1, 2, 3, 4)),
    ]
    finish = {e[2]: e[0] for e in r.datacenter.log if e[1] == "finish"}
    assert finish == {2: 5.0, 1: 10.0, 3: 10.0, 4: 15.0, 7: 15.0, 6: 20.0, 5: 25.0, 9: 25.0,
                      10: 25.0, 8: 30.0}


def test_amcbf_fig2_only_the_head_preempts():
    r = fig2("amcbf")
    log = moves(r)
    # identical up to time 15 ...
    assert log[:12] == moves(fig2("cmcbf"))[:12]
    # ... but at 20 J9 may not preempt J10 (J8 is the head): J10 stays in the foreground and
    # ends at 22, when J9 starts on the idle VMs. At 25 (J5 leaves) the head J8 may preempt:
    # 1 idle + J9's 4 = 5, so J9 (a later arrival) is switched down in place, its background
    # VMs being idle, and J8 runs; J9 goes on in the background (efficiency 1 here) to 27.
    assert log[12:] == [
        (15.0, "swap", 10, 0, (0,)),
        (22.0, "start", 9, 0, (0, 2, 3, 4)),
        (25.0, "swap", 9, 1, (0, 2, 3, 4)),
        (25.0, "start", 8, 0, (1, 0, 2, 3, 4)),
    ]


def test_the_queue_head_preempts_even_behind_an_older_background_job():
    # AMCBF, 3 hosts x 2 tiers, foreground full. B (arrived first, 3 procs) runs in the
    # background; H (the queue head, 3 procs) waits; L (arrived after H, 3 procs) holds the
    # foreground. B may not preempt (it is not the head) and nothing fits, but H may: L is a
    # later arrival whose 3 VMs cover H. L's background VMs are busy (B), so L is suspended.
    from cloudsim_py import Datacenter, Simulation
    from cloudsim_py.brokers import AmcbfBroker

    sim = Simulation(seed=1)
    dc = Datacenter(sim, hosts=3, tiers=2, interference="none", migration_cost=0.0, check=True)
    broker = dc.attach(AmcbfBroker())
    b, h, l_ = (Job(i, float(i - 1), 3, runtime=100.0, cpu_usage=(0.3,) * 3, cpu_estimate=(0.3,) * 3)
                for i in (1, 2, 3))
    for job in (b, h, l_):
        dc.submit(job)
    broker._place(b, 1)
    broker._place(l_, 0)
    assert dc.idle(0) == 0 and broker.queue.head() is h
    broker.schedule(0.0)
    assert h.tier == 0 and h.state.name == "RUNNING" and l_.state.name == "SUSPENDED"
    assert b.tier == 1 and b.state.name == "RUNNING"
