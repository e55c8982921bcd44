"""What importing the package costs every run: the DAG work's graph library is loaded only
when a DAG is built (docs/performance.md, the section on issue 7)."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_importing_the_package_and_running_a_rigid_job_does_not_import_networkx():
    code = ("import sys\n"
            "from cloudsim_py import Job, simulate\n"
            "simulate([Job(1, 0.0, 2, runtime=5.0)], hosts=2, policy='easy')\n"
            "print('networkx' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=REPO)
    assert out.stdout.strip() == "False"


def test_building_a_dag_job_imports_networkx_then():
    from cloudsim_py.workload.dag import build_dag_job
    job = build_dag_job(1, {"a": {"runtime": 1.0}, "b": {"runtime": 2.0}}, [("a", "b")])
    assert job.order == ("a", "b") and "networkx" in sys.modules
