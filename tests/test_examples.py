"""Every example in examples/ runs (and says something checkable)."""

import runpy

from tests.conftest import REPO


def test_custom_broker_example_runs_and_sjf_starves_wide_jobs_more_than_easy():
    mod = runpy.run_path(str(REPO / "examples" / "custom_broker.py"))
    out = mod["main"](200)
    assert all(s["jobs_finished"] == 200 for s in out.values())
    # shortest-first with no reservation lets some wide job wait longer than EASY does
    assert out["sjf"]["max_wait"] > out["easy"]["max_wait"]


def test_step_by_step_example_runs_every_job():
    mod = runpy.run_path(str(REPO / "examples" / "step_by_step.py"))
    trail = mod["main"]()
    assert trail[0] == (0.0, 4, 0) and len(trail) == 20
