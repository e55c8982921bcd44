"""TierPlacement on k-tier datacenters: gymnasium's checks, a hand-worked case with a
background start and a promotion, and "tier 0 or wait" giving exactly FCFS on two tiers."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cloudsim_py.learning  # noqa: E402,F401
from cloudsim_py.learning import TierPlacementEnv  # noqa: E402
from tests.conftest import trace  # noqa: E402

from .helpers import broker_starts, drive, kth_scenario  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:target load")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("tiers", [2, 3])
def test_check_env_passes_for_tier_placement(tiers):
    check_env(TierPlacementEnv(window=100, tiers=tiers), skip_render_check=True)
    env = gymnasium.make("cloudsim_py/TierPlacement-v0", window=50)
    assert env.action_space.n == 5


def two_hosts_half_cpu(*jobs):
    """2 hosts x 2 tiers, no interference, every process at 50 % of its CPU (the background
    tier stays open under a foreground job); ``jobs`` are ``(procs, runtime)``, ids 1, 2, ...
    in that order, all submitted at 0 with exact estimates."""
    return {"name": "hand", "datacenter": {"hosts": 2, "tiers": 2, "interference": "none"},
            "workload": {"runtime_estimate": "trace",
                         "cpu_usage": {"model": "paper", "low": 0.5, "high": 0.5, "single": 0.5},
                         "jobs": [{"id": i, "submit": 0, "procs": p, "runtime": r, "estimate": r}
                                  for i, (p, r) in enumerate(jobs, 1)]}}


def test_hand_case_background_start_and_promotion():
    # 2 hosts x 2 tiers, no interference, every process uses 50 % of its CPU (so the
    # background tier stays open under a foreground job). time_scale 1 s.
    # J1: 2 procs, 4 s; J2: 1 proc, 10 s; J3: 2 procs, 3 s; all at t = 0.
    # obs: head (wait, procs/2, estimate, waiting/32), per tier (fits, available/2, busy/2),
    # promotable, restartable
    scenario = two_hosts_half_cpu((2, 4), (1, 10), (2, 3))
    env = TierPlacementEnv(scenario, window=None, time_scale=1.0, invalid_action="raise")
    T, F = True, False
    steps = [
        # action, time, observation, mask (tier 0, tier 1, wait, promote, restart)
        (None, 0.0, [0, 1, 4, 3 / 32, 1, 1, 0, 1, 1, 0, 0, 0], [T, T, F, F, F]),
        (0, 0.0, [0, .5, 10, 2 / 32, 0, 0, 1, 1, 1, 0, 0, 0], [F, T, T, F, F]),      # J1 in tier 0
        (1, 0.0, [0, 1, 3, 1 / 32, 0, 0, 1, 0, .5, .5, 0, 0], [F, F, T, F, F]),      # J2 in tier 1
        # wait: J1 ends at 4; J2 may now move up in place (promote) or be restarted in tier 0
        (2, 4.0, [4, 1, 3, 1 / 32, 1, 1, 0, 0, .5, .5, 1, 1], [T, F, T, T, T]),
        (3, 4.0, [4, 1, 3, 1 / 32, 0, .5, .5, 1, 1, 0, 0, 0], [F, T, T, F, F]),      # promote J2 to tier 0
    ]
    obs, info = env.reset(seed=0)
    for action, time, want_obs, want_mask in steps:
        if action is not None:
            obs, _, terminated, _, info = env.step(action)
            assert not terminated
        np.testing.assert_allclose(obs, np.array(want_obs, dtype=np.float32))
        assert info["action_mask"].tolist() == want_mask and env.now == time
    *_, terminated, _, _ = env.step(1)                                         # J3 in tier 1
    assert terminated
    _, rec = env.world.results()
    assert {c: rec[c].tolist() for c in ("id", "start", "finish", "tier", "swaps")} == {
        "id": [1, 2, 3], "start": [0.0, 0.0, 4.0], "finish": [4.0, 10.0, 7.0], "tier": [0, 0, 1],
        "swaps": [0, 1, 0]}


def test_hand_case_restart_kills_a_background_run_and_starts_it_again_in_tier_zero():
    # 2 hosts x 2 tiers, no interference, every process at 50 % of its CPU, time_scale 1 s.
    # J1 (1 proc, 4 s) starts in tier 0 on one host; J2 (1 proc, 10 s) in tier 1, on the other
    # host (the lighter); J3 (1 proc, 10 s) in tier 0 on that other host, above J2. At t = 4 J1
    # ends: J2 cannot move up in place (J3 holds its host's tier 0) but fits the idle tier-0
    # VM: restart kills it (4 s of work lost) and starts it again there, to end at 14.
    scenario = two_hosts_half_cpu((1, 4), (1, 10), (1, 10), (2, 1))
    env = TierPlacementEnv(scenario, window=None, time_scale=1.0, invalid_action="raise")
    _, info = env.reset(seed=0)
    for action in (0, 1, 0):                      # J1 tier 0, J2 tier 1, J3 tier 0
        _, _, _, _, info = env.step(action)
    assert info["action_mask"].tolist() == [False, False, True, False, False]   # J4 waits
    obs, _, _, _, info = env.step(2)              # wait: J1 ends at 4
    assert env.now == 4.0
    assert info["action_mask"].tolist() == [False, False, True, False, True]   # J4 fits no tier
    assert obs[-2:].tolist() == [0.0, 1.0]        # no promotion, a restart
    obs, _, _, _, info = env.step(4)              # restart J2 in tier 0
    assert obs[-2:].tolist() == [0.0, 0.0]
    running = {j.id: j.tier for j in env.datacenter.running()}
    assert running == {2: 0, 3: 0}
    while True:
        mask = info["action_mask"]
        _, _, done, _, info = env.step(0 if mask[0] else 2)
        if done:
            break
    _, rec = env.world.results()
    got = {c: rec[c].tolist() for c in ("id", "start", "finish", "kills", "lost_work")}
    # a record's start is the job's first (its wait ends then); the restart shows as a kill
    assert got == {"id": [1, 2, 3, 4], "start": [0.0, 0.0, 0.0, 14.0], "finish": [4.0, 14.0, 10.0, 15.0],
                   "kills": [0, 1, 0, 0], "lost_work": [0.0, 4.0, 0.0, 0.0]}


def test_tier_zero_or_wait_gives_fcfs_start_times_on_two_tier_kth():
    kth = trace("KTH-SP2-1996-2.1-cln.swf.gz")
    fcfs = kth_scenario(kth, "fcfs")
    fcfs["datacenter"]["tiers"] = 2
    env = TierPlacementEnv({k: v for k, v in fcfs.items() if k != "broker"}, window=2000, window_start=0,
                           invalid_action="raise")
    starts, _, _ = drive(env, lambda obs, mask: 0 if mask[0] else 2)
    assert len(starts) == 2000 and starts == broker_starts(fcfs)


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), st.integers(2, 4), st.lists(st.tuples(st.sampled_from([0, 0, 1, 5]), st.integers(1, 6),
                                                                  st.integers(1, 40)), min_size=1, max_size=8),
       st.sampled_from(["liu2015", "none"]), st.integers(0, 2**32 - 1))
def test_random_legal_placements_finish_every_job_within_each_tiers_capacity(hosts, tiers, specs, interference,
                                                                              seed):
    t, jobs = 0, []
    for i, (gap, procs, runtime) in enumerate(specs, 1):
        t += gap
        jobs.append({"id": i, "submit": t, "procs": min(procs, hosts), "runtime": runtime})
    scenario = {"name": "prop", "datacenter": {"hosts": hosts, "tiers": tiers, "interference": interference,
                                               "check": True},
                "workload": {"runtime_estimate": "actual", "jobs": jobs}}
    env = TierPlacementEnv(scenario, window=None, invalid_action="raise")
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed % 7)
    for _ in range(10_000):
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            break
    else:
        raise AssertionError("the episode did not end")
    summary, rec = env.world.results()
    assert summary["jobs_finished"] == len(jobs) and sorted(rec["id"].tolist()) == list(range(1, len(jobs) + 1))
