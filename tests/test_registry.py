import sys
import textwrap
from importlib import metadata

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.base import broker_registry, make_broker
from cloudsim_py.errors import PolicyError
from cloudsim_py.scenario import load_scenario, run_scenario

MODULE = """
from cloudsim_py import Broker

class Greedy(Broker):
    description = "start whatever fits, in any order"
    def __init__(self, reverse: bool = False):
        self.reverse = reverse
    def schedule(self, now):
        for job in sorted(self.queue, key=lambda j: j.procs, reverse=self.reverse):
            if job.procs <= self.dc.idle():
                self.dc.start(job)
                self.queue.remove(job)
"""


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "my_policies.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "my_policies"
    sys.modules.pop("my_policies", None)


def test_a_user_class_is_named_in_yaml_as_module_colon_class(tmp_path, user_module):
    # issue 11: the module must be listed under plugins (tests/scenario/test_plugins.py)
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent("""\
        name: mine
        plugins: [my_policies]
        datacenter: {hosts: 4}
        workload: {jobs: [{submit: 0, procs: 3, runtime: 5}, {submit: 0, procs: 1, runtime: 5}]}
        broker: {policy: "my_policies:Greedy", params: {reverse: true}}
        """))
    [(policy, result)] = run_scenario(load_scenario(path))
    assert policy == "my_policies:Greedy" and result.summary["jobs_finished"] == 2
    assert result.broker.reverse is True


def test_a_missing_module_or_class_is_a_clear_error(user_module):
    with pytest.raises(PolicyError, match="cannot import module 'nope_mod'"):
        make_broker("nope_mod:X")
    with pytest.raises(PolicyError, match="has no attribute 'Missing'"):
        make_broker("my_policies:Missing")


def test_brokers_from_other_packages_come_through_the_entry_point_group(monkeypatch, user_module):
    ep = metadata.EntryPoint(name="greedy-ep", value="my_policies:Greedy", group="cloudsim_py.brokers")
    real = metadata.entry_points
    monkeypatch.setattr(metadata, "entry_points",
                        lambda group=None, **kw: [ep] if group == "cloudsim_py.brokers" else real(group=group, **kw))
    monkeypatch.setattr(broker_registry, "_entry_points_loaded", False)
    jobs = [Job(1, 0.0, 2, runtime=5.0)]
    assert simulate(jobs, hosts=2, policy="greedy-ep").summary["jobs_finished"] == 1
    assert "greedy-ep" in broker_registry.names()
    broker_registry._items.pop("greedy-ep", None)


@pytest.mark.parametrize("body, raised", [("import sys\nsys.exit(0)\n", "SystemExit: 0"),
                                          ("raise RuntimeError('no licence')\n", "RuntimeError: no licence")])
def test_an_installed_plugin_that_fails_to_load_is_an_error_naming_it(body, raised, tmp_path, monkeypatch):
    """An entry point whose module exits or raises on import: a PolicyError naming the entry
    point, not a traceback and not a silent exit 0 (issue 17)."""
    from cloudsim_py.registry import Registry

    (tmp_path / "broken_plugin.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = metadata.EntryPoint(name="broken", value="broken_plugin:Policy", group="test.group")
    monkeypatch.setattr(metadata, "entry_points", lambda group=None, **kw: [ep] if group == "test.group" else [])
    r = Registry("policy", entry_point_group="test.group")
    with pytest.raises(PolicyError, match=rf"^policy 'broken' of an installed package \(broken_plugin:Policy, entry "
                                          rf"point group test.group\) cannot be loaded: {raised}$"):
        r.get("broken")
    sys.modules.pop("broken_plugin", None)


def test_an_unregistered_name_is_unknown_again():
    from cloudsim_py.registry import Registry

    r = Registry("shape", entry_point_group=None)
    r.register("square")(object)
    r.unregister("SQUARE")          # names are case-insensitive
    r.unregister("circle")          # unknown: ignored
    with pytest.raises(PolicyError, match="unknown shape 'square'; known: $"):
        r.get("square")


def test_a_broker_without_its_own_constructor_takes_no_parameters():
    # FcfsBroker has object's constructor: every key is unknown, and the error names it
    from cloudsim_py.errors import PolicySpecError
    with pytest.raises(PolicySpecError, match=r"params\.depth: unknown parameter of policy 'fcfs'; known: \(none\)"):
        make_broker("fcfs", {"depth": 1}, where="")


def test_constructor_keywords_are_read_from_the_broker_class():
    from cloudsim_py import Broker
    from cloudsim_py.brokers.base import _parameters

    class Named(Broker):
        def __init__(self, depth: int = 1, *, alpha: float = 0.5):
            self.depth, self.alpha = depth, alpha

        def schedule(self, now):
            pass

    class Open(Named):
        def __init__(self, **options):
            super().__init__()

    assert _parameters(Named) == (False, ("depth", "alpha"))
    assert _parameters(Open) == (True, ())


def test_a_name_of_a_built_in_not_yet_imported_cannot_be_taken():
    # conservative backfilling is registered by name and imported when first asked for; a class
    # of another module registering that name is refused at once, not when the built-in loads
    from cloudsim_py.registry import Registry

    r = Registry("policy", entry_point_group=None)
    r.register_lazy("conservative", "cloudsim_py.brokers.conservative")

    class Mine:
        pass

    with pytest.raises(PolicyError, match=r"'conservative' is registered twice: it is the name of a built-in "
                                          r"policy \(cloudsim_py\.brokers\.conservative\)"):
        r.register("conservative")(Mine)
    r.register("mine")(Mine)                    # any other name is free
    assert r.get("mine") is Mine
