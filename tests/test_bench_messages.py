"""benchmarks/bench_messages.py kept alive: every message is delivered, and it prints its
figure (no time is asserted: speed is measured in benchmarks/, not in tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _load():
    spec = importlib.util.spec_from_file_location("bench_messages", REPO / "benchmarks" / "bench_messages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_two_peers_deliver_exactly_the_messages_asked_for():
    bench = _load()
    from cloudsim_py.engine import Simulation

    sim = Simulation()
    a, b = bench.Peer(sim, 7), bench.Peer(sim, 7)
    a.other, b.other = b, a
    sim.send(b, "x", 0.5, sender=a)
    sim.run()
    assert (a.seen, b.seen, sim.now) == (3, 4, 3.5)     # b at 0.5, a at 1.0, ... the 7th at 3.5


def test_the_command_prints_microseconds_per_message(capsys):
    assert _load().main(["--messages", "50", "--repeat", "1"]) == 0
    assert "CPU us per message" in capsys.readouterr().out
