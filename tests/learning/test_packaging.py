"""gymnasium stays optional: the core never imports it; the environments are made by id with
the module named in the id, without importing the package first."""

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True, cwd=REPO).stdout.strip()


def test_running_the_learned_broker_does_not_import_gymnasium():
    code = ("import sys\n"
            "from cloudsim_py import Job, simulate\n"
            "r = simulate([Job(1, 0.0, 2, runtime=5.0)], hosts=2, policy='learned')\n"
            "print(r.summary['jobs_finished'], 'gymnasium' in sys.modules)\n")
    assert run(code) == "1 False"


def test_gymnasium_make_with_the_module_in_the_id_needs_no_import_first():
    pytest.importorskip("gymnasium")
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "import gymnasium\n"
            "env = gymnasium.make('cloudsim_py.learning:cloudsim_py/JobPicking-v0', window=20, k=4)\n"
            "print(type(env.unwrapped).__name__)\n")
    assert run(code) == "JobPickingEnv"
