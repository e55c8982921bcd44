"""The environment is the simulator: driving JobPicking with a plain rule gives, job by job,
the start times of the broker that rule describes, on the first 2,000 jobs of KTH-SP2 and on
the whole trace; and the ``learned`` broker running the same rule as a plugin function gives
them too."""

import textwrap

import pytest

pytest.importorskip("gymnasium")

from cloudsim_py.brokers.learned import oldest_first, shortest_first  # noqa: E402
from cloudsim_py.learning import JobPickingEnv  # noqa: E402
from tests.conftest import trace  # noqa: E402

from .helpers import broker_starts, drive, kth_scenario  # noqa: E402

JOBS = 2000


@pytest.fixture(scope="module")
def kth():
    return trace("KTH-SP2-1996-2.1-cln.swf.gz")


def env_starts(kth, rule, **options):
    env = JobPickingEnv(kth_scenario(kth), window=JOBS, window_start=0, invalid_action="raise", **options)
    starts, _, steps = drive(env, rule)
    assert len(starts) == JOBS and steps >= JOBS
    return starts


def test_oldest_job_without_backfill_gives_fcfs_start_times_on_kth(kth):
    want = broker_starts(kth_scenario(kth, "fcfs"))
    assert len(want) == JOBS
    assert env_starts(kth, oldest_first, k=32, backfill=False) == want


def test_learned_broker_with_the_oldest_rule_as_plugin_gives_fcfs_start_times_on_kth(kth, tmp_path):
    plugin = tmp_path / "picking_rules_fcfs.py"
    plugin.write_text(textwrap.dedent("""
        def oldest(obs, mask):
            return 0 if mask[0] else len(mask) - 1
    """))
    mapping = kth_scenario(kth, "learned", {"policy": "picking_rules_fcfs:oldest", "k": 32})
    mapping["plugins"] = [str(plugin)]
    assert broker_starts(mapping) == broker_starts(kth_scenario(kth, "fcfs"))


def test_oldest_job_with_backfill_gives_easy_start_times_on_kth(kth):
    want = broker_starts(kth_scenario(kth, "easy"))
    assert env_starts(kth, oldest_first, k=32, backfill=True) == want
    assert broker_starts(kth_scenario(kth, "learned", {"policy": "oldest", "backfill": True})) == want


def test_shortest_estimate_with_backfill_gives_sjf_backfill_start_times_on_kth(kth):
    # every waiting job visible (k = the window): the rule sees the whole queue, as the broker
    want = broker_starts(kth_scenario(kth, "sjf-backfill"))
    assert want != broker_starts(kth_scenario(kth, "easy"))          # a different schedule
    assert env_starts(kth, shortest_first, k=JOBS, backfill=True) == want


@pytest.mark.parametrize("policy, rule, options", [
    ("fcfs", oldest_first, {"k": 32, "backfill": False}),
    ("easy", oldest_first, {"k": 32, "backfill": True}),
    ("sjf-backfill", shortest_first, {"k": 4096, "backfill": True}),
])
def test_the_equivalences_hold_on_the_whole_kth_trace(kth, policy, rule, options):
    # all 28,489 jobs; for SJF every waiting job must be visible (the queue stays far below 4,096)
    scenario = kth_scenario(kth, policy, jobs=None)
    want = broker_starts(scenario)
    env = JobPickingEnv({k: v for k, v in scenario.items() if k != "broker"}, window=None,
                        invalid_action="raise", **options)
    starts, _, _ = drive(env, rule)
    assert len(starts) == len(want) > 28_000 and starts == want
