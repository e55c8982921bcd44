"""Liu et al. 2015, Fig. 3 and section 3.2.2 / 3.3.2: FCFS, CCFCFS and ACFCFS on 5 processors
and 7 jobs, replayed event by event.

The figure is not in the text; this job set is reconstructed from the narration. All seven
jobs arrive at time 0 in index order. Multi-process jobs use less CPU than the 96 % threshold,
single-process J4 uses 100 %. The random factors are fixed so the narrated progress holds:
no foreground loss; background efficiency 0.5 for J3 and J7, 0.6 for J5.

  job  procs  runtime  cpu   why
  J1   2      5        0.6   leaves at 5
  J2   4      5        0.5   runs 5-10 on four processors
  J3   2      12.5     0.4   5 alone, 5 x 0.5 under J2, 5 in the foreground: leaves at 15
  J4   1      10       1.0   leaves at 10, never slowed
  J5   2      3        0.4   "advances 3 time units during 0-5" (0.6 per unit, under J1 or J3)
  J6   3      10       0.8   ACFCFS: runs 10-20
  J7   2      5        0.4   ACFCFS: "advances 5 units during 0-10" (0.5 per unit)

J1 and J3 use 0.6 and 0.4 so that ACFCFS's SMJF puts J5 under J3 (lighter foreground first,
the JobDispatch rule) and J3's background VMs are idle when J5 leaves, as narrated; J6 uses 0.8
so CCFCFS's J7 (0.25 per unit under it) is still running, and killed, at 15.

Host ids are 0-4. Equal-load ties go to the lowest id, so our labels are a relabelling of the
figure's: paper P1..P5 = our hosts 2, 3, 4, 0, 1 (J1 "on P4-5" is on hosts 0-1 here).
"""

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.execution import FixedFactors, InterferenceModel

SPEC = {  # id: (procs, runtime, cpu)
    1: (2, 5.0, 0.6), 2: (4, 5.0, 0.5), 3: (2, 12.5, 0.4), 4: (1, 10.0, 1.0),
    5: (2, 3.0, 0.4), 6: (3, 10.0, 0.8), 7: (2, 5.0, 0.4),
}
FACTORS = FixedFactors(eff={3: 0.5, 5: 0.6, 7: 0.5}, default=(1.0, 0.0))
NO_LOSS = InterferenceModel("paper-example")   # thresholds 0.96 / 0.04, factors come from FACTORS


def jobs():
    return [Job(i, 0.0, p, runtime=r, cpu_usage=(c,) * p, cpu_estimate=(c,) * p)
            for i, (p, r, c) in SPEC.items()]


def run(policy, tiers=2):
    return simulate(jobs(), hosts=5, tiers=tiers, policy=policy, interference=NO_LOSS,
                    factors=FACTORS, check=True, record=True)


def actions(result):
    """Every action but finishes, in order: (time, action, job, tier, hosts)."""
    return [e for e in result.datacenter.log if e[1] != "finish"]


def finish_times(result):
    return {e[2]: e[0] for e in result.datacenter.log if e[1] == "finish"}


def test_fcfs_runs_the_jobs_one_tier_in_order():
    # 5 processors: J1 0-5; J2 (4) waits for J1: 5-10; at 10 J3, J4, J5 start (5 procs);
    # J5 ends 13 (2 free < J6's 3); J4 ends 20 -> J6; J3 ends 22.5 -> J7.
    r = simulate(jobs(), hosts=5, policy="fcfs", check=True)
    assert r.records.by_id()[7]["start"] == 22.5
    assert {i: row["start"] for i, row in r.records.by_id().items()} == {
        1: 0.0, 2: 5.0, 3: 10.0, 4: 10.0, 5: 10.0, 6: 20.0, 7: 22.5}


def test_ccfcfs_replays_the_narrated_schedule():
    r = run("ccfcfs")
    assert actions(r) == [
        # t=0: J1 in the foreground by FCFS (J2 needs 4 of the 3 left); SMJF puts J4, J3, J5
        # in the background, each on the idle background VMs with the lightest foreground
        (0.0, "start", 1, 0, (0, 1)),
        (0.0, "start", 4, 1, (2,)),
        (0.0, "start", 3, 1, (3, 4)),
        (0.0, "start", 5, 1, (0, 1)),
        # t=5: J1 and J5 leave; FCFS takes J2 (J3, next in arrival order, does not fit);
        # SMJF puts J7 under J2
        (5.0, "start", 2, 0, (0, 1, 3, 4)),
        (5.0, "start", 7, 1, (0, 1)),
        # t=10: J2 and J4 leave; J3 is switched up in place by swapping priorities, J6 starts
        (10.0, "swap", 3, 0, (3, 4)),
        (10.0, "start", 6, 0, (2, 0, 1)),
        # t=15: J3 leaves; J7 is killed in the background and restarted in the foreground
        (15.0, "kill", 7, 1, (0, 1)),
        (15.0, "start", 7, 0, (3, 4)),
    ]
    assert finish_times(r) == {1: 5.0, 5: 5.0, 2: 10.0, 4: 10.0, 3: 15.0, 6: 20.0, 7: 20.0}
    assert r.summary["kills"] == 1 and r.summary["swaps"] == 1


def test_acfcfs_replays_the_narrated_schedule():
    r = run("acfcfs")
    assert actions(r) == [
        # t=0: J1 by FCFS; J4 and J3 tentatively in the foreground by SMJF; J5 and J7 in the
        # background (J5 under the lighter J3)
        (0.0, "start", 1, 0, (0, 1)),
        (0.0, "start", 4, 0, (2,)),
        (0.0, "start", 3, 0, (3, 4)),
        (0.0, "start", 5, 1, (3, 4)),
        (0.0, "start", 7, 1, (0, 1)),
        # t=5: J1, J5 leave. J2 needs 4: 2 idle + J3, J4 (later arrivals) = 5. J4 then J3 are
        # marked; one VM is left over, so J4 stays; J3's background VMs are idle, so it is
        # switched down instead of killed; J2 takes the four free foreground VMs
        (5.0, "swap", 3, 1, (3, 4)),
        (5.0, "start", 2, 0, (0, 1, 3, 4)),
        # t=10: J2, J4, J7 leave; J3 is switched back up, J6 starts
        (10.0, "swap", 3, 0, (3, 4)),
        (10.0, "start", 6, 0, (0, 1, 2)),
    ]
    assert finish_times(r) == {1: 5.0, 5: 5.0, 2: 10.0, 4: 10.0, 7: 10.0, 3: 15.0, 6: 20.0}
    assert r.summary["kills"] == 0


def test_acfcfs_beats_ccfcfs_beats_fcfs_on_this_example():
    wait = {p: simulate(jobs(), hosts=5, tiers=1 if p == "fcfs" else 2, policy=p,
                        interference=NO_LOSS, factors=FACTORS).summary["avg_wait"]
            for p in ("fcfs", "ccfcfs", "acfcfs")}
    assert wait["acfcfs"] < wait["ccfcfs"] < wait["fcfs"]


@pytest.mark.parametrize("policy", ["ccfcfs", "acfcfs"])
@pytest.mark.parametrize("step", [1.0, 4.0, 100.0])
def test_the_narrated_schedule_holds_under_barriers(policy, step):
    # every job's processes run at one speed at every moment here (the narration has no job
    # partly under busy foreground VMs), so waiting at barriers (job_progress: barriers, the
    # reading that fits Table 2) cannot change a start, a swap, a kill or a finish
    model = InterferenceModel("paper-example", job_progress="barriers", barrier_work=step)
    r = simulate(jobs(), hosts=5, tiers=2, policy=policy, interference=model, factors=FACTORS,
                 check=True, record=True)
    base = run(policy)
    assert actions(r) == actions(base)
    assert finish_times(r) == finish_times(base)
