"""Events beyond the eight built-in hooks: a listener method that no event ever calls is
refused when it subscribes (naming it), and a declared kind reaches the listeners that have
its ``on_<kind>`` method through ``datacenter.emit``, apart from the built-in hooks."""

import pytest

from cloudsim_py.engine import Simulation
from cloudsim_py.errors import PolicyError
from cloudsim_py.infrastructure.datacenter import Datacenter
from cloudsim_py.infrastructure.listener import DatacenterListener, declare_event, known_events
from cloudsim_py.infrastructure.spec import DatacenterSpec


@pytest.fixture
def host_down():
    """``host_down`` declared for one test (declarations are global: leave none behind)."""
    from cloudsim_py.infrastructure import listener

    declare_event("host_down", "a test's host failure")
    yield "host_down"
    listener._EVENTS.pop("host_down", None)


def datacenter():
    return Datacenter(Simulation(0), DatacenterSpec(hosts=2))


class HostWatcher(DatacenterListener):
    def __init__(self):
        self.down = []

    def on_host_down(self, host, reason=""):
        self.down.append((host, reason))


class Typo:
    def on_finsh(self, job):
        pass


def test_a_listener_method_for_an_event_nobody_sends_is_refused_naming_it():
    with pytest.raises(PolicyError, match=r"HostWatcher.on_host_down: no event 'host_down' is ever sent.*"
                                          r"declare_event\('host_down'\)"):
        datacenter().subscribe(HostWatcher())


def test_a_misspelt_hook_is_refused_and_nothing_is_subscribed():
    dc = datacenter()
    with pytest.raises(PolicyError, match="Typo.on_finsh"):
        dc.subscribe(Typo())
    assert dc.listeners == ()


def test_a_declared_event_reaches_the_listeners_that_have_its_method_in_order(host_down):
    dc = datacenter()
    first, second = HostWatcher(), HostWatcher()
    dc.subscribe(second)
    dc.subscribe(first, first=True)
    dc.subscribe(DatacenterListener())             # no on_host_down: not told
    assert dc.emit("host_down", 1, reason="disk") == 2
    assert first.down == second.down == [(1, "disk")]
    dc.unsubscribe(first)
    assert dc.emit("host_down", 0) == 1 and first.down == [(1, "disk")] and second.down[-1] == (0, "")
    assert "host_down" in known_events() and "finish" in known_events()


def test_emitting_an_undeclared_kind_is_an_error():
    with pytest.raises(PolicyError, match=r"emit\('host_dwn'\): no such kind of event"):
        datacenter().emit("host_dwn", 1)


@pytest.mark.parametrize("kind", ["finish", "not a name", ""])
def test_a_built_in_hook_or_a_non_name_cannot_be_declared(kind):
    with pytest.raises(PolicyError, match="declare_event"):
        declare_event(kind)


def test_the_built_in_hooks_keep_their_fast_path(host_down):
    """A declared kind does not go through the hooks' lists, nor a hook through emit's."""
    dc = datacenter()

    class Both(HostWatcher):
        def on_finish(self, job):
            pass

    listener = dc.subscribe(Both())
    assert dc._on_finish == [listener.on_finish]
    assert dc._emitted == {"host_down": [listener.on_host_down]}
