"""Episodes: seeded windows and model draws, several environments side by side, vectorised
over processes, and the rewards' sums."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from cloudsim_py.brokers.learned import oldest_first  # noqa: E402
from cloudsim_py.learning import JobPickingEnv  # noqa: E402
from tests.conftest import trace  # noqa: E402

from .helpers import drive  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:target load")



def test_reset_with_a_seed_replays_the_model_draw_and_other_seeds_differ():
    env = JobPickingEnv(window=300, k=8)
    a = drive(env, oldest_first, seed=5)
    b = drive(env, oldest_first, seed=5)
    c = drive(env, oldest_first, seed=6)
    assert a == b and a != c


def test_trace_windows_start_where_the_seed_says():
    env = JobPickingEnv(trace=trace("KTH-SP2-1996-2.1-cln.swf.gz"), hosts=100, window=100, k=4)
    starts = set()
    for seed in range(4):
        env.reset(seed=seed)
        first = int(env.table.data[0, 0])
        env.reset(seed=seed)
        assert int(env.table.data[0, 0]) == first and len(env.table) == 100
        starts.add(first)
    assert len(starts) == 4


def test_two_environments_in_one_process_do_not_share_state():
    one, two = JobPickingEnv(window=200, k=4), JobPickingEnv(window=200, k=4)
    alone = drive(JobPickingEnv(window=200, k=4), oldest_first, seed=3)
    one.reset(seed=3)
    two.reset(seed=4)
    for _ in range(50):                   # interleaved steps
        for env in (one, two):
            mask = env.action_masks()
            env.step(0 if mask[0] else 4)
    assert drive(one, oldest_first, seed=3) == alone


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_async_vector_env_runs_two_environments_in_processes():
    import cloudsim_py.learning  # noqa: F401

    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("cloudsim_py/JobPicking-v0", window=100, k=4)] * 2)
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs.shape == (2, 4 * 4 + 2) and info["action_mask"].shape == (2, 5)
        for _ in range(20):
            actions = np.array([0 if m[0] else 4 for m in info["action_mask"]])
            obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (2,)
    finally:
        envs.close()


@pytest.mark.parametrize("kind", ["bsld", "wait"])
def test_per_step_rewards_add_up_to_the_episodes_metric(kind):
    step = JobPickingEnv(window=300, k=8, reward=kind, reward_at="step")
    end = JobPickingEnv(window=300, k=8, reward=kind, reward_at="end")
    _, total_step, _ = drive(step, oldest_first, seed=2)
    _, total_end, _ = drive(end, oldest_first, seed=2)
    summary, _ = end.world.results()
    want = -summary["avg_bsld"] if kind == "bsld" else -summary["avg_wait"] / 3600.0
    assert total_end == pytest.approx(want, rel=1e-12)
    assert total_step == pytest.approx(want, rel=1e-9)


def test_utilization_rewards_fall_with_the_idle_time():
    step = JobPickingEnv(window=300, k=8, reward="utilization")
    end = JobPickingEnv(window=300, k=8, reward="utilization", reward_at="end")
    _, total_step, _ = drive(step, oldest_first, seed=2)
    _, total_end, _ = drive(end, oldest_first, seed=2)
    summary, rec = end.world.results()
    assert total_end == pytest.approx(summary["utilization"])
    span = rec["finish"].max() - rec["submit"].min()
    idle = 64 * span - float(np.dot(rec["procs"], rec["runtime"]))
    assert total_step == pytest.approx(-idle / (64 * 3600.0), rel=1e-9)


def test_an_illegal_action_falls_back_to_a_legal_one_and_says_so():
    env = JobPickingEnv(window=50, k=4)
    _, info = env.reset(seed=0)
    assert not info["action_mask"][4]          # nothing runs yet: "nothing now" is illegal
    *_, info = env.step(4)
    assert info["invalid_action"] is True


def test_an_environment_without_a_decision_procedure_cannot_be_made():
    from cloudsim_py.learning import SchedulingEnv

    with pytest.raises(TypeError, match="abstract"):
        SchedulingEnv()
