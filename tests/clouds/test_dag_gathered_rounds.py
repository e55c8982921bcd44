"""A gathered round (``DagScheduler._start_round``: with a fixed latency, a round's checks are one
event and its answers one event) decides as a round of a message each: the same schedules, logs,
outcomes, feedback gaps and protocol messages; only the engine's event count is smaller."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from cloudsim_py.brokers.dags import FdlsScheduler, FdmmsScheduler
from cloudsim_py.clouds.overheads import Overheads
from cloudsim_py.systems.clouds import build_dag_system

from .test_dag_fast_paths import POLICIES, clouds_of, random_dags


def outcome(system: Any) -> tuple:
    """Every output of a run but the engine's event count (what a gathered round changes)."""
    summary = dict(system.summary())
    summary.pop("events", None)
    return ([[tuple(i) for i in rec.intervals] for rec in system.records],
            [tuple(o) for o in system.log.finished], system.log.rejected,
            [dc.log for dc in system.world.datacenters], summary,
            [b._gap for b in system.world.brokers], [b.rounds for b in system.world.brokers],
            system.federation.messages, system.world.sim.timestamps)


def run(seed: int, policy: str, params: dict, clouds: int, latency: Any, *, gather: bool, jobs: int = 14,
        batch: int | None = None, switch: float | None = None) -> tuple[tuple, int]:
    """One run, its rounds gathered or a message each; ``switch``: step the run to that time,
    then give the latency as a function of the pair (the same number), as a program may."""
    system = build_dag_system(random_dags(seed, jobs=jobs, clouds=clouds), clouds_of(clouds), policy=policy,
                              params=params, overheads=Overheads(enactment_s=1.0), latency=latency, seed=seed,
                              record=True, check=True)
    for broker in system.world.brokers:
        if not gather:
            broker._gather = False
        if batch is not None:
            broker.BATCH = batch
    sim = system.world.sim
    if switch is not None:
        sim.run(until=switch)
        fixed = sim.latency
        sim.latency = lambda a, b: fixed
    system.run()
    return outcome(system), sim.events_processed


def test_a_gathered_round_decides_as_a_message_each():
    for policy, params in POLICIES:
        for seed in range(3):
            for clouds, latency in ((2, 0.5), (3, 0.0), (3, 0.5), (4, 0.25)):
                got, events = run(seed, policy, params, clouds, latency, gather=True)
                want, plain = run(seed, policy, params, clouds, latency, gather=False)
                assert got == want, (policy, params, seed, clouds, latency)
                # two events a round instead of 2 x (clouds - 1)
                assert events <= plain and (events < plain or clouds == 2 or not sum(got[6])), (policy, seed)


def test_fdmms_rounds_on_arrays_gathered_decide_as_a_message_each():
    for seed in range(4):
        for clouds, latency in ((3, 0.0), (4, 0.5)):
            assert (run(seed, "fdmms", {}, clouds, latency, gather=True, batch=0, jobs=20)[0]
                    == run(seed, "fdmms", {}, clouds, latency, gather=False, batch=0, jobs=20)[0]), (seed, clouds)


def test_a_latency_per_pair_given_while_a_round_is_out_answers_by_messages():
    # the latency becomes a function of the pair while gathered checks are on their way: they
    # are delivered as messages and answered one by one, as a round of a message each would be
    for seed in range(4):
        for switch in (0.1, 3.2, 20.3):
            assert (run(seed, "fdls", {}, 3, 0.5, gather=True, switch=switch)[0]
                    == run(seed, "fdls", {}, 3, 0.5, gather=False, switch=switch)[0]), (seed, switch)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), clouds=st.integers(2, 4), latency=st.sampled_from([0.0, 0.1, 0.5, 3.0]),
       policy=st.sampled_from(range(len(POLICIES))))
def test_gathered_rounds_property(seed, clouds, latency, policy):
    name, params = POLICIES[policy]
    assert (run(seed, name, params, clouds, latency, gather=True, jobs=8)[0]
            == run(seed, name, params, clouds, latency, gather=False, jobs=8)[0])


def test_a_scheduler_that_hears_messages_itself_is_not_gathered():
    class Listening(FdlsScheduler):
        def on_message(self, message):
            super().on_message(message)

    class Declared(FdmmsScheduler):
        gathered_rounds = True

        def answer_check(self, items):
            return super().answer_check(items)

    assert FdlsScheduler.gathered_rounds and FdmmsScheduler.gathered_rounds
    assert not Listening.gathered_rounds
    assert Declared.gathered_rounds
