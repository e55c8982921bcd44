"""A scenario runs user code only through an explicit ``plugins:`` list: no scenario key imports
a module on its own (not even during ``validate``), and nothing is imported from the working
directory implicitly."""

import re
import sys
import textwrap

import pytest

from cloudsim_py.brokers.base import broker_registry
from cloudsim_py.cli import main
from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

JOBS = "workload: {jobs: [{submit: 0, procs: 1, runtime: 5}]}"


@pytest.fixture
def evil(tmp_path, monkeypatch):
    """A module on sys.path that leaves a marker file when imported."""
    marker = tmp_path / "imported"
    name = f"evil_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').close()\n"
                                         "def gen(*a, **k): return None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, marker
    sys.modules.pop(name, None)


@pytest.mark.parametrize("key", [
    "broker: {{policy: '{m}:X'}}",
    "workload: {{model: {{name: '{m}:gen', jobs: 10}}}}",
    "datacenter: {{hosts: 2, interference: '{m}:model'}}",
    "workload: {{runtime_estimate: '{m}:f', jobs: [{{submit: 0, procs: 1, runtime: 5}}]}}",
    "metrics: {{probes: ['{m}:X']}}",
])
def test_no_scenario_key_imports_a_module_not_listed_in_plugins(tmp_path, evil, key, capsys):
    name, marker = evil
    text = key.format(m=name)
    lines = ["name: x"] + ([JOBS] if not text.startswith("workload") else []) + \
        (["datacenter: {hosts: 2}"] if not text.startswith("datacenter") else []) + [text]
    path = tmp_path / "s.yaml"
    path.write_text("\n".join(lines) + "\n")
    assert main(["validate", str(path)]) == 2
    assert f"{name}:" in capsys.readouterr().err
    assert not marker.exists()


def test_a_policy_module_listed_in_plugins_is_imported_and_its_class_usable(tmp_path, evil):
    name, marker = evil
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""\
        open({str(marker)!r}, 'w').close()
        from cloudsim_py import Broker

        class Mine(Broker):
            def schedule(self, now):
                for job in list(self.queue):
                    if job.procs <= self.dc.idle():
                        self.dc.start(job)
                        self.queue.remove(job)
        """))
    sc = load_scenario({"name": "x", "plugins": [name], "datacenter": {"hosts": 2},
                        "workload": {"jobs": [{"submit": 0, "procs": 1, "runtime": 5}]},
                        "broker": {"policy": f"{name}:Mine"}})
    assert marker.exists() and sc.plugins == (name,)
    [(label, result)] = run_scenario(sc)
    assert label == f"{name}:Mine" and result.summary["jobs_finished"] == 1


def test_the_cli_runs_a_policy_a_plugin_file_registers(tmp_path, capsys):
    # a .py file named relative to the scenario's folder, registering a policy by name
    (tmp_path / "plug").mkdir()
    (tmp_path / "plug" / "greedy_plugin_file.py").write_text(textwrap.dedent("""\
        from cloudsim_py import Broker, register_broker

        @register_broker("greedy-from-plugin-file", "start what fits")
        class Greedy(Broker):
            def schedule(self, now):
                for job in list(self.queue):
                    if job.procs <= self.dc.idle():
                        self.dc.start(job)
                        self.queue.remove(job)
        """))
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\nplugins: [plug/greedy_plugin_file.py]\ndatacenter: {{hosts: 2}}\n{JOBS}\n"
                    "broker: greedy-from-plugin-file\n")
    try:
        assert main(["run", str(path), "--quiet"]) == 0
        assert "policy greedy-from-plugin-file" in capsys.readouterr().out
    finally:
        sys.modules.pop("greedy_plugin_file", None)
        broker_registry.unregister("greedy-from-plugin-file")   # later tests list the known policies


def test_a_module_in_the_working_directory_is_not_imported_implicitly(tmp_path, monkeypatch):
    # `python -m cloudsim_py` puts the working directory on sys.path; a plugin named by module
    # must still come from an installed package or PYTHONPATH, not from there
    marker = tmp_path / "imported"
    (tmp_path / "cwd_plugin_mod.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path)] + [p for p in sys.path if p])
    monkeypatch.delenv("PYTHONPATH", raising=False)
    with pytest.raises(ScenarioError, match=r"<mapping>: plugins.0: cannot import plugin 'cwd_plugin_mod'"):
        load_scenario({"name": "x", "plugins": ["cwd_plugin_mod"], "datacenter": {"hosts": 1},
                       "workload": {"jobs": [{"submit": 0, "procs": 1, "runtime": 5}]}})
    assert not marker.exists() and "cwd_plugin_mod" not in sys.modules


def test_a_plugin_that_fails_to_import_is_an_error_at_its_line(tmp_path):
    (tmp_path / "broken_plugin_x.py").write_text("raise RuntimeError('boom')\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ndatacenter: {{hosts: 1}}\n{JOBS}\nplugins:\n  - ./broken_plugin_x.py\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:5: plugins.0: cannot import plugin "
                                            r"'./broken_plugin_x.py': RuntimeError: boom"):
        load_scenario(path)


@pytest.mark.parametrize("code", ["0", "None", "'bye'"])
def test_a_plugin_that_calls_sys_exit_while_imported_is_an_error_naming_it(tmp_path, code):
    name = "exiting_plugin"
    (tmp_path / f"{name}.py").write_text(f"import sys\nsys.exit({code})\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ndatacenter: {{hosts: 1}}\n{JOBS}\nplugins:\n  - ./{name}.py\n")
    with pytest.raises(ScenarioError, match=rf"s.yaml:5: plugins.0: cannot import plugin './{name}.py': "
                                            rf"it called sys.exit\({re.escape(code)}\) while being imported$"):
        load_scenario(path)
    assert name not in sys.modules


def test_run_with_a_plugin_that_exits_0_on_import_fails_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "exit_zero_plugin.py").write_text("import sys\nsys.exit(0)\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ndatacenter: {{hosts: 1}}\n{JOBS}\nplugins: [./exit_zero_plugin.py]\n")
    out = tmp_path / "out"
    assert main(["run", str(path), "--quiet", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"cloudsim-py: error: {path}:4: plugins.0: cannot import plugin "
                                       "'./exit_zero_plugin.py': it called sys.exit(0) while being imported\n")
    assert not out.exists()


def test_a_plugin_that_raises_a_base_exception_on_import_is_an_error_naming_it(tmp_path):
    (tmp_path / "base_exc_plugin.py").write_text("raise GeneratorExit('odd')\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ndatacenter: {{hosts: 1}}\n{JOBS}\nplugins: [./base_exc_plugin.py]\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:4: plugins.0: cannot import plugin "
                                            r"'./base_exc_plugin.py': GeneratorExit: odd$"):
        load_scenario(path)


def test_ctrl_c_while_a_plugin_is_imported_still_interrupts(tmp_path):
    (tmp_path / "interrupt_plugin.py").write_text("raise KeyboardInterrupt\n")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ndatacenter: {{hosts: 1}}\n{JOBS}\nplugins: [./interrupt_plugin.py]\n")
    with pytest.raises(KeyboardInterrupt):
        load_scenario(path)
