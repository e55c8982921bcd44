"""JobPicking passes gymnasium's own checks and is made by its registered id."""

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cloudsim_py.learning  # noqa: E402,F401 - registers the environments
from cloudsim_py.learning import JobPickingEnv  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("backfill", [False, True])
def test_check_env_passes_for_job_picking(backfill):
    check_env(JobPickingEnv(window=100, k=8, backfill=backfill), skip_render_check=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_make_by_id_gives_a_job_picking_env():
    env = gymnasium.make("cloudsim_py/JobPicking-v0", window=50, k=4)
    assert isinstance(env.unwrapped, JobPickingEnv)
    obs, info = env.reset(seed=1)
    assert obs.shape == (4 * 4 + 1 + 1,) and info["action_mask"].shape == (5,)
