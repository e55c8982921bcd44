"""Four jobs on four processors, worked out by hand: every observation, mask and start.

    job  submit  procs  runtime  estimate
    J1   0       2      10       10
    J2   0       4      5        5
    J3   0       1      3        4
    J4   1       1      2        2

k = 3, time_scale = 1 s: a visible job's row is (wait s, procs / 4, estimate s, fits now);
then idle processors / 4 and waiting jobs / 3."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from cloudsim_py.brokers.picking import InvalidAction  # noqa: E402
from cloudsim_py.learning import JobPickingEnv  # noqa: E402

JOBS = [(1, 0, 2, 10, 10), (2, 0, 4, 5, 5), (3, 0, 1, 3, 4), (4, 1, 1, 2, 2)]


def make(backfill):
    scenario = {"name": "hand", "datacenter": {"hosts": 4},
                "workload": {"runtime_estimate": "trace",
                             "jobs": [{"id": i, "submit": s, "procs": p, "runtime": r, "estimate": e}
                                      for i, s, p, r, e in JOBS]}}
    return JobPickingEnv(scenario, window=None, k=3, backfill=backfill, time_scale=1.0,
                         invalid_action="raise")


def obs(rows, idle, waiting):
    """The expected observation: rows of visible jobs (wait, procs, estimate, fits)."""
    out = np.zeros(3 * 4 + 2, dtype=np.float32)
    for i, (wait, procs, est, fits) in enumerate(rows):
        out[4 * i:4 * i + 4] = (wait, procs / 4, est, fits)
    out[12], out[13] = idle / 4, waiting / 3
    return out


def check(env, got, want_obs, want_mask, time):
    o, info = got[0], got[-1]
    np.testing.assert_array_equal(o, want_obs)
    assert info["action_mask"].tolist() == want_mask
    assert env.now == time


def starts(env):
    _, records = env.world.results()
    return dict(zip(records["id"].tolist(), records["start"].tolist()))


def test_hand_case_without_backfill_observations_masks_and_schedule():
    env = make(False)
    T, F = True, False
    r = env.reset(seed=0)
    # t = 0: J1, J2, J3 wait, all fit; nothing runs, so action 3 (nothing now) is masked
    check(env, r, obs([(0, 2, 10, 1), (0, 4, 5, 1), (0, 1, 4, 1)], 4, 3), [T, T, T, F], 0.0)
    r = env.step(2)                       # J3 starts; J2 no longer fits
    check(env, r, obs([(0, 2, 10, 1), (0, 4, 5, 0)], 3, 2), [T, F, F, T], 0.0)
    with pytest.raises(InvalidAction, match="masked"):
        env.step(1)                       # J2 does not fit and backfill is off
    r = env.step(0)                       # J1 starts
    check(env, r, obs([(0, 4, 5, 0)], 1, 1), [F, F, F, T], 0.0)
    r = env.step(3)                       # nothing more now; t = 1: J4 arrives
    check(env, r, obs([(1, 4, 5, 0), (0, 1, 2, 1)], 1, 2), [F, T, F, T], 1.0)
    r = env.step(1)                       # J4 starts at 1
    check(env, r, obs([(1, 4, 5, 0)], 0, 1), [F, F, F, T], 1.0)
    r = env.step(3)                       # t = 3: J3 and J4 have ended, J2 still does not fit
    check(env, r, obs([(3, 4, 5, 0)], 2, 1), [F, F, F, T], 3.0)
    r = env.step(3)                       # t = 10: J1 ends; nothing runs, J2 must start
    check(env, r, obs([(10, 4, 5, 1)], 4, 1), [T, F, F, F], 10.0)
    o, reward, terminated, truncated, info = env.step(0)
    assert terminated and not truncated
    assert starts(env) == {1: 0.0, 2: 10.0, 3: 0.0, 4: 1.0}


def test_hand_case_with_backfill_reserves_and_backfills_as_easy_does():
    env = make(True)
    T, F = True, False
    env.reset(seed=0)
    r = env.step(0)                       # t = 0: J1 starts; J2 may be picked (backfill on)
    check(env, r, obs([(0, 4, 5, 0), (0, 1, 4, 1)], 2, 2), [T, T, F, T], 0.0)
    # pick J2, which does not fit: its reservation is at 10 (J1's estimated end), no extra
    # processors; J3 (estimate 4, ends by 10) is backfilled now; the pass ends; t = 1: J4
    r = env.step(0)
    check(env, r, obs([(1, 4, 5, 0), (0, 1, 2, 1)], 1, 2), [T, T, F, T], 1.0)
    # nothing more now, but backfill around the oldest (J2, still reserved at 10: J4 ends by
    # then): J4 starts at 1; t = 3: J3 (3 s) and J4 (2 s) have ended
    r = env.step(3)
    check(env, r, obs([(3, 4, 5, 0)], 2, 1), [T, F, F, T], 3.0)
    r = env.step(3)                       # t = 10: J1 ends; nothing runs, J2 must start
    check(env, r, obs([(10, 4, 5, 1)], 4, 1), [T, F, F, F], 10.0)
    env.step(0)
    assert starts(env) == {1: 0.0, 2: 10.0, 3: 0.0, 4: 1.0}
