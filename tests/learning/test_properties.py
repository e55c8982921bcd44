"""Random small workloads driven by random legal actions: the episode ends, every job starts
exactly once and finishes, the machine is never over its capacity (checked from the records),
and ``reset(seed)`` replays the same episode."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from cloudsim_py.learning import JobPickingEnv  # noqa: E402


@st.composite
def workloads(draw):
    hosts = draw(st.integers(1, 8))
    n = draw(st.integers(1, 10))
    t = 0
    jobs = []
    for i in range(1, n + 1):
        t += draw(st.sampled_from([0, 0, 1, 3, 20]))
        runtime = draw(st.integers(1, 50))
        jobs.append({"id": i, "submit": t, "procs": draw(st.integers(1, hosts)), "runtime": runtime,
                     "estimate": runtime * draw(st.sampled_from([1, 1, 2, 5]))})
    return hosts, jobs


def episode(env, seed, action_seed):
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    trail = [obs.tolist()]
    for _ in range(10_000):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        trail.append((obs.tolist(), reward))
        if terminated:
            return trail
    raise AssertionError("the episode did not end in 10,000 steps")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads(), st.integers(1, 4), st.booleans(), st.integers(0, 2**32 - 1))
def test_random_legal_actions_end_start_every_job_once_and_never_overfill(workload, k, backfill, seed):
    hosts, jobs = workload
    scenario = {"name": "prop", "datacenter": {"hosts": hosts, "check": True},
                "workload": {"runtime_estimate": "trace", "jobs": jobs}}
    env = JobPickingEnv(scenario, window=None, k=k, backfill=backfill, time_scale=1.0,
                        invalid_action="raise")
    trail = episode(env, 7, seed)
    summary, rec = env.world.results()
    assert summary["jobs_finished"] == len(jobs) and summary["kills"] == 0
    assert sorted(rec["id"].tolist()) == [j["id"] for j in jobs]
    by_id = {j["id"]: j for j in jobs}
    for i, start, finish in zip(rec["id"].tolist(), rec["start"].tolist(), rec["finish"].tolist()):
        assert start >= by_id[i]["submit"] and finish == start + by_id[i]["runtime"]
    for t in rec["start"].tolist():       # capacity at every start
        busy = sum(p for p, s, f in zip(rec["procs"].tolist(), rec["start"].tolist(),
                                        rec["finish"].tolist()) if s <= t < f)
        assert busy <= hosts
    assert episode(env, 7, seed) == trail                  # reset(seed) replays it
