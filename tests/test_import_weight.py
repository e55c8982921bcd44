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


#: modules a ``cloudsim-py run`` of a datacenter scenario under EASY must not import (issue 19, a
#: fast start): the other commands' tools, the other policies' brokers (conservative, the
#: consolidation family, the cloud and DAG brokers, the moldable-job brokers), the cloud
#: systems, the moldable-job workload and per-class metrics, the synthetic workload models, and
#: what they pull in
RUN_PATH_FORBIDDEN = ("cloudsim_py.commands", "cloudsim_py.experiments", "cloudsim_py.brokers.dags",
                      "cloudsim_py.brokers.conservative", "cloudsim_py.brokers.consolidation", "cloudsim_py.brokers.sjf",
                      "cloudsim_py.workload.moldable", "cloudsim_py.workload.reshape", "cloudsim_py.class_metrics",
                      "numpy.typing", "shutil", "logging",
                      "cloudsim_py.brokers.leases", "cloudsim_py.brokers.pect", "cloudsim_py.brokers.prio",
                      "cloudsim_py.clouds.local", "cloudsim_py.clouds.lease_plan", "cloudsim_py.systems.clouds", "cloudsim_py.workload.models",
                      "cloudsim_py.workload.lwf", "networkx", "urllib.request", "matplotlib")


def test_a_run_of_a_datacenter_scenario_imports_only_what_it_runs(tmp_path):
    trace = tmp_path / "t.swf"
    trace.write_text("".join(f"{i} {10 * i} 0 {50 + i} {1 + i % 4} -1 -1 {1 + i % 4} {100 + i} -1 1 1 1 1 1 1 -1 -1\n"
                             for i in range(1, 30)))
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"name: t\ndatacenter: {{hosts: 8}}\nworkload: {{trace: {trace}}}\nbroker: easy\n")
    code = ("import sys\n"
            "from cloudsim_py.cli import main\n"
            f"code = main(['run', {str(scenario)!r}, '--quiet'])\n"
            "print('MODULES', code, ' '.join(sorted(sys.modules)))\n")
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=str(tmp_path))
    line = next(x for x in out.stdout.splitlines() if x.startswith("MODULES"))
    _, code_, *modules = line.split()
    assert code_ == "0"
    loaded = [m for m in modules if any(m == f or m.startswith(f + ".") for f in RUN_PATH_FORBIDDEN)]
    assert loaded == []
    # what it does need is there: the policy that ran and the datacenter
    assert "cloudsim_py.brokers.easy" in modules and "cloudsim_py.infrastructure.datacenter" in modules


def test_the_lazily_registered_policies_resolve_and_are_listed():
    from cloudsim_py.brokers import broker_registry
    assert broker_registry.get("pect").__name__ == "PectBroker"
    assert {"fdls", "fdmms", "leases", "pect", "prio"} <= set(broker_registry.names())
    from cloudsim_py.brokers import LeaseScheduler, PrioBroker
    assert broker_registry.get("prio") is PrioBroker and broker_registry.get("leases") is LeaseScheduler


def _blas_setting_after_main(before: str, preset: str | None) -> str:
    """OPENBLAS_NUM_THREADS as a child process sees it after ``cloudsim-py policies`` ran
    through :func:`cloudsim_py.cli.main`, having run ``before`` first."""
    code = (f"{before}\nimport os\nfrom cloudsim_py.cli import main\nmain(['policies'])\n"
            "print('BLAS', os.environ.get('OPENBLAS_NUM_THREADS', 'unset'))\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = REPO + os.pathsep + os.environ.get("PYTHONPATH", "")
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=REPO)
    return next(x for x in out.stdout.splitlines() if x.startswith("BLAS")).split()[1]


def test_the_command_line_holds_openblas_to_one_thread_before_numpy_is_imported():
    # its threads' start is half of numpy's import time; the run uses no threaded BLAS
    assert _blas_setting_after_main("", None) == "1"


def test_the_command_line_keeps_a_blas_thread_count_the_environment_gives():
    assert _blas_setting_after_main("", "3") == "3"


def test_the_command_line_leaves_the_blas_alone_once_numpy_is_imported():
    # too late to matter then: numpy read the environment when it was imported
    assert _blas_setting_after_main("import numpy", None) == "unset"


def test_the_help_width_is_the_terminal_s_as_shutil_has_it(monkeypatch):
    import shutil

    from cloudsim_py.cli import terminal_columns
    monkeypatch.setenv("COLUMNS", "123")
    assert terminal_columns() == 123 == shutil.get_terminal_size().columns
    monkeypatch.setenv("COLUMNS", "not a number")
    assert terminal_columns() == shutil.get_terminal_size().columns
    monkeypatch.delenv("COLUMNS")
    assert terminal_columns() == shutil.get_terminal_size().columns     # 80 under pytest's capture
