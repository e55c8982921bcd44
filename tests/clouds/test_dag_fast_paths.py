"""The shortcuts of the DAG schedulers' per-task path give what the general paths give: a lone
cloud's list round decided at once, without a round (``DagScheduler._dispatch``), a DAG task's
plan read field by field (``LocalCloud._plan_task``), a start on given VMs of one tier of identical hosts
(``Datacenter.start``'s second fast path), FDMMS's answers for a mappable set kept while the
slot tables and the time are the same (``DagScheduler._quote_snapshot``)."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.brokers.base import Broker, register_broker
from cloudsim_py.brokers.dags import FdmmsScheduler, Quotes, Transfer
from cloudsim_py.clouds.cloud import CloudSpec
from cloudsim_py.clouds.local import Plan
from cloudsim_py.clouds.overheads import Overheads
from cloudsim_py.clouds.vmtypes import VMType
from cloudsim_py.systems.clouds import build_dag_system
from cloudsim_py.workload.dag import build_dag_job
from cloudsim_py.workload.dag_task import TaskJob
from cloudsim_py.engine import Simulation
from cloudsim_py.errors import CapacityError
from cloudsim_py.infrastructure.datacenter import Datacenter
from cloudsim_py.infrastructure.spec import DatacenterSpec
from cloudsim_py.workload.job import Job, JobState
from cloudsim_py.workload.lease import LeaseMode


def random_dags(seed: int, jobs: int = 12, clouds: int = 1) -> list:
    """Layered DAGs with data on the edges, images, memory, 1-3 CPUs, some AR jobs, ties in
    submit times on purpose."""
    rng = random.Random(seed)
    t = 0.0
    out = []
    for j in range(jobs):
        t += rng.choice([0.0, 0.0, 3.0, 20.0])
        layers = [[f"j{j}t{k}_{i}" for i in range(rng.randint(1, 3))] for k in range(rng.randint(1, 4))]
        tasks = {name: {"runtime": float(rng.choice([0, 1, 5, 30, 120])), "cpus": rng.randint(1, 3),
                        "image_mb": float(rng.choice([0, 0, 64, 512])), "memory_mb": float(rng.choice([0, 256]))}
                 for layer in layers for name in layer}
        edges = [(a, b, float(rng.choice([0, 0, 16, 200]))) for up, down in zip(layers, layers[1:])
                 for b in down for a in rng.sample(up, rng.randint(1, len(up)))]
        ar = rng.random() < 0.25
        fields = {"mode": LeaseMode.AR, "start": t + rng.choice([0.0, 10.0])} if ar else {}
        out.append(build_dag_job(f"j{j}", tasks, edges, submit_time=t, cloud=rng.randrange(clouds), **fields))
    return out


def clouds_of(n: int) -> list[CloudSpec]:
    return [CloudSpec(f"c{i}", VMType(f"v{i}", 1, 1024, 0, 32 * (i + 1)), 4 + i) for i in range(n)]


def outcome(system) -> tuple:
    """Everything a run writes of its clouds, its jobs and its datacenters' actions, and the
    schedulers' feedback gaps (the last estimate of each cloud, which no output shows on one
    cloud)."""
    return ([[tuple(i) for i in rec.intervals] for rec in system.records],
            [tuple(o) for o in system.log.finished], system.log.rejected,
            [dc.log for dc in system.world.datacenters], system.summary(),
            [b._gap for b in system.world.brokers], system.world.sim.events_processed,
            system.federation.messages)


def run(seed: int, policy: str, params: dict, clouds: int = 1, *, alone: bool = True, fast: bool = True,
        latency: float = 0.0, batch: int | None = None, keep: bool = True, jobs: int = 12,
        plain_send: bool = False, one: bool = True, fused: bool = True, check: bool = True,
        estimates: bool = True, answers: bool = True, every_pass: bool = False, gather: bool = True) -> tuple:
    system = build_dag_system(random_dags(seed, jobs=jobs, clouds=clouds), clouds_of(clouds), policy=policy,
                              params=params, overheads=Overheads(enactment_s=1.0), latency=latency, seed=seed,
                              record=True, check=check)
    for broker in system.world.brokers:
        if not gather:
            broker._gather = False          # a round's checks and answers a message each
        if plain_send:
            # messages through Broker.send and handlers through on_message (the plain paths)
            broker._post = lambda dest, payload, broker=broker: Broker.send(broker, dest, payload)
            broker._direct = {}
        if every_pass:
            # a pass after every answer and transfer received, as after any other message (the plain rule)
            def receive(message, broker=broker, plain=broker.receive):
                if type(message.payload) in (Quotes, Transfer):
                    broker.dc.request_pass()
                plain(message)
            broker.receive = receive
        if not alone:
            broker._alone = False
        if not fused:
            broker._min_min = False         # FDMMS's list rounds through their lists and _pick
        if not one:
            broker._first_pick = False      # a one-task round through _decide's rows and _pick
        if batch is not None:
            broker.BATCH = batch            # FDMMS: rounds on arrays from this many ready tasks
        if not estimates:
            broker._keep_estimates = False  # FDMMS: every round on arrays sums every slot again
        if not answers:
            broker._keep_answers = False    # FDMMS: every list round quotes every task again
        if not keep:
            quote = broker._quote_snapshot

            def fresh(snap, broker=broker, quote=quote):
                broker._kept_quotes = None  # every slot quoted again
                return quote(snap)
            broker._quote_snapshot = fresh
    for dc in system.world.datacenters:
        assert dc._fast
        dc._fast = fast
    system.run()
    return outcome(system)


POLICIES = [("fdls", {}), ("fdls", {"strict": False}), ("fdls", {"alpha": 0.5}), ("fdmms", {}),
            ("fdmms", {"alpha": 0.3, "ar_slack": 2.0})]


def test_a_lone_clouds_list_round_decided_at_once_gives_the_rounds_schedule():
    for policy, params in POLICIES:
        for seed in range(6):
            assert run(seed, policy, params) == run(seed, policy, params, alone=False), (policy, params, seed)


def test_a_start_on_given_vms_gives_the_plain_paths_schedule():
    # plain path: _place with the hosts given and OneTierProgress.start
    for policy, params in POLICIES:
        for seed in range(4):
            for clouds in (1, 2):
                assert (run(seed, policy, params, clouds, latency=0.5)
                        == run(seed, policy, params, clouds, fast=False, latency=0.5)), (policy, params, seed)


def test_messages_posted_directly_give_the_schedule_of_broker_send():
    # DagScheduler._post (straight to Simulation.send) and receive's own handler look-up, against
    # Broker.send and on_message: the same schedules, summaries (events, messages) and logs,
    # with a fixed latency and a latency per pair of schedulers
    def per_pair(a, b):
        return 0.25 * (a.index + 1) + 0.5 * b.index

    for policy, params in POLICIES:
        for seed in range(3):
            for latency in (0.0, 0.5, per_pair):
                for gather in (True, False):
                    assert (run(seed, policy, params, 3, latency=latency, gather=gather)
                            == run(seed, policy, params, 3, latency=latency, plain_send=True, gather=gather)), \
                        (policy, params, seed, gather)


def test_answers_and_transfers_ask_for_a_pass_only_when_they_change_this_cloud():
    # DagScheduler.receive asks for no pass on Quotes and Transfer; _on_quotes asks for one when
    # the decision it completes keeps the task here, _on_transfer after a reservation or a
    # refusal: the same schedules, logs, events and messages as a pass after every message, on two and three clouds, with a fixed latency and one per pair, with
    # the datacenters' invariants checked after every timestamp
    def per_pair(a, b):
        return 0.25 * (a.index + 1) + 0.5 * b.index

    for policy, params in POLICIES:
        for seed in range(4):
            for clouds, latency in ((2, 0.0), (3, 0.5), (3, per_pair)):
                # (a message each: the plain rule's receive hears every answer)
                assert (run(seed, policy, params, clouds, latency=latency, jobs=16, gather=False)
                        == run(seed, policy, params, clouds, latency=latency, jobs=16, every_pass=True,
                               gather=False)), (policy, params, seed, clouds)
    for seed in range(4):           # FDMMS's rounds on arrays too
        assert (run(seed, "fdmms", {}, 2, batch=0, jobs=20, gather=False)
                == run(seed, "fdmms", {}, 2, batch=0, jobs=20, every_pass=True, gather=False)), seed


def test_a_round_of_one_task_decided_alone_gives_the_rounds_rows_and_pick():
    # DagScheduler._decide_min_min for a round of one task (every FDLS round) against _decide's
    # general path, with and without feedback, on two and three clouds
    for policy, params in POLICIES:
        for seed in range(4):
            for clouds, latency in ((2, 0.0), (3, 0.5)):
                assert (run(seed, policy, params, clouds, latency=latency)
                        == run(seed, policy, params, clouds, latency=latency, one=False)), (policy, params, seed)


def test_a_lone_clouds_min_min_picked_while_quoting_gives_the_lists_and_pick():
    # a lone cloud's FDMMS rounds decided at once by DagScheduler._decide_min_min against its
    # rounds through _decide's lists and FdmmsScheduler._pick
    for params in ({}, {"alpha": 0.3, "ar_slack": 2.0}):
        for seed in range(8):
            assert run(seed, "fdmms", params, jobs=20) == run(seed, "fdmms", params, jobs=20, fused=False), (params, seed)


def test_a_list_round_of_several_tasks_picked_while_summed_gives_the_rounds_rows_and_pick():
    # DagScheduler._decide_min_min against _decide's rows and FdmmsScheduler._pick (FDMMS's list
    # rounds of several ready tasks), with and without feedback, on two and three clouds, with
    # a fixed latency (a latency per pair of schedulers takes the general path)
    for params in ({}, {"alpha": 0.3, "ar_slack": 2.0}):
        for seed in range(6):
            for clouds, latency in ((2, 0.0), (3, 0.5)):
                assert (run(seed, "fdmms", params, clouds, latency=latency, jobs=20)
                        == run(seed, "fdmms", params, clouds, latency=latency, jobs=20, fused=False)), (params, seed)


def test_fdmms_answers_kept_for_list_rounds_give_the_schedule_of_answers_made_anew():
    # DagScheduler._decide_min_min's answers kept per state of the tables and time, against
    # every task quoted again at every round, on two and three clouds (without latency most
    # rounds of one time meet the same state), with and without feedback
    for params in ({}, {"alpha": 0.3, "ar_slack": 2.0}):
        for seed in range(6):
            for clouds, latency in ((2, 0.0), (3, 0.0), (3, 0.5)):
                assert (run(seed, "fdmms", params, clouds, latency=latency, jobs=20)
                        == run(seed, "fdmms", params, clouds, latency=latency, jobs=20, answers=False)), \
                    (params, seed, clouds, latency)


def test_fdmms_answers_kept_for_a_mappable_set_give_the_schedule_of_answers_made_anew():
    # every round on arrays (BATCH 0), jobs submitted together to two or three clouds
    for params in ({}, {"alpha": 0.3, "ar_slack": 2.0}):
        for seed in range(6):
            for clouds, latency in ((2, 0.0), (2, 0.5), (3, 0.0)):
                got = run(seed, "fdmms", params, clouds, latency=latency, batch=0, jobs=20)
                assert got == run(seed, "fdmms", params, clouds, latency=latency, batch=0, jobs=20, keep=False), \
                    (params, seed, clouds, latency)
    # the shortcut is taken: a cloud asked again at the same state (no latency: every round at
    # one time until a task ends) quotes only the slots added since
    system = build_dag_system(random_dags(0, jobs=20, clouds=1), clouds_of(2), policy="fdmms",
                              overheads=Overheads(enactment_s=1.0), seed=0)
    slots = {"asked": 0, "quoted": 0}
    for broker in system.world.brokers:
        broker.BATCH = 0
        quote, asked = broker.local.quotes, broker._quote_snapshot

        def counted(n, *rest, quote=quote):
            slots["quoted"] += n.shape[0]
            return quote(n, *rest)

        def counted_snap(snap, asked=asked):
            slots["asked"] += snap.size
            return asked(snap)
        broker.local.quotes = counted
        broker._quote_snapshot = counted_snap
    system.run()
    assert 0 < slots["quoted"] < slots["asked"], slots


def test_fdmms_estimates_kept_for_a_mappable_set_give_the_schedule_of_estimates_made_anew():
    # DagScheduler._decide_snapshot's kept estimates (only the slots killed since set to
    # infinity, the least looked for again only when it was killed) against every slot summed
    # at every round: every round on arrays (BATCH 0), with and without feedback and latency,
    # on two and three clouds
    for params in ({}, {"alpha": 0.3, "ar_slack": 2.0}):
        for seed in range(6):
            for clouds, latency in ((2, 0.0), (2, 0.5), (3, 0.0)):
                got = run(seed, "fdmms", params, clouds, latency=latency, batch=0, jobs=20)
                assert got == run(seed, "fdmms", params, clouds, latency=latency, batch=0, jobs=20,
                                  estimates=False), (params, seed, clouds, latency)
    # the shortcut is taken: no latency, every round at one time until a task ends
    from cloudsim_py.brokers.dags import DagScheduler
    system = build_dag_system(random_dags(0, jobs=20, clouds=1), clouds_of(2), policy="fdmms",
                              overheads=Overheads(enactment_s=1.0), seed=0)
    for broker in system.world.brokers:
        broker.BATCH = 0
    sums = {"rounds": 0, "kept": 0}
    decide = DagScheduler._decide_snapshot

    def counted(self, now, rnd):
        before = {c: k.raw for c, k in self._kept_estimates.items()}
        out = decide(self, now, rnd)
        sums["rounds"] += 1
        sums["kept"] += sum(before.get(c) is k.raw for c, k in self._kept_estimates.items())
        return out
    for broker in system.world.brokers:
        broker._decide_snapshot = lambda now, rnd, broker=broker: counted(broker, now, rnd)
    system.run()
    assert 0 < sums["kept"] and sums["rounds"] > 0, sums


def plan_fields(p: Plan) -> dict:
    out = {f.name: getattr(p, f.name) for f in attrs.fields(Plan) if f.name not in ("key", "arrival")}
    out["submit"] = (p.key[0], p.arrival[0])
    return out


@given(st.integers(1, 3), st.floats(0, 1e4), st.sampled_from([LeaseMode.AR, LeaseMode.BEST_EFFORT]),
       st.sampled_from([0.0, 64.0, 700.0]), st.sampled_from([0.0, 300.0]),
       st.one_of(st.none(), st.floats(0, 2e4)), st.one_of(st.none(), st.floats(0, 2e4)), st.floats(0, 1e4))
@settings(max_examples=200, deadline=None)
def test_a_dag_tasks_plan_read_field_by_field_equals_the_probed_plan(procs, runtime, mode, image, memory,
                                                                      ready_at, start, submit):
    system = build_dag_system([], clouds_of(1), overheads=Overheads.preset("haizea"))
    local = system.world.brokers[0].local
    desc = TaskJob(id=1, submit_time=submit, procs=procs, runtime=runtime, job_id="j", task="t", mode=mode,
                   image_mb=image, memory_mb=memory, ready_at=ready_at, start=start)
    job = Job(desc)
    fast, probed = local.plan(job), local._plan_probed(job)
    assert plan_fields(fast) == plan_fields(probed)
    assert type(fast.left) is type(probed.left) is float and type(fast.ready_at) is float



@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("hosts, problem", [((1, 2), "host 1 tier 0 holds job 1"), ((2, 2), "the same host is given twice"),
                                            ((2,), "1 hosts given for 2 processes"),
                                            ((-1, 2), "host 3 tier 0 holds job 3")])
def test_a_start_on_given_hosts_refuses_what_the_plain_path_refuses(fast, hosts, problem):
    # jobs 1 and 3 hold hosts 0, 1 and 3; job 2 (2 processes) is given a busy, a repeated, too
    # few, or a negative (the last host's) id; then it starts on the hosts left, given as a
    # tuple of ids and as a host and an id
    for given in ((2, 1), (2,)):
        dc = Datacenter(Simulation(0), DatacenterSpec(hosts=4))
        dc._fast = fast
        jobs = [Job(i, 0.0, 1 if i == 3 else 2, runtime=10.0) for i in (1, 2, 3)]
        for job in jobs:
            dc.submit(job)
        dc.start(jobs[0], 0, hosts=(0, 1))
        dc.start(jobs[2], 0, hosts=[3])
        with pytest.raises(CapacityError, match=problem):
            dc.start(jobs[1], 0, hosts=hosts)
        dc.kill(jobs[0])
        ok = (0, 2) if len(given) == 2 else [dc.hosts[2], 0]
        assert [h.id for h in dc.start(jobs[1], 0, hosts=ok)] == [h if isinstance(h, int) else h.id for h in ok]
        assert jobs[1].state is JobState.RUNNING and dc.idle(0) == 1


def plain_draw(n_vms, n, free, blockers, units, rng):
    """``LocalCloud._draw`` as first written: the pool made from the free VMs and the movable
    ones, drawn from as a list."""
    movable = [v for v, holders in blockers.items() if all(q is not None for q in holders)]
    pool = sorted(set(free).union(movable))
    if len(pool) < n:
        return None
    take = sorted(int(v) for v in rng.choice(pool, size=n, replace=False))
    used = set(take)
    return tuple(take), [q for q in units if used.intersection(q.vms)]


def test_an_arbitrary_draw_of_positions_gives_the_draw_of_the_pool():
    # Li et al.'s arbitrary choice of an AR task's VMs (LocalCloud._draw): drawing positions in
    # the pool gives the same VMs, the same victims and leaves the stream where drawing from
    # the pool itself leaves it (every later draw of the run is the same)
    import types

    import numpy as np

    from cloudsim_py.clouds.local import LocalCloud

    class Lease:
        def __init__(self, vms):
            self.vms = vms

    rnd = random.Random(5)
    for case in range(300):
        n_vms = rnd.choice([1, 4, 40, 100])
        held = rnd.sample(range(n_vms), rnd.randint(0, n_vms))
        leases = [Lease(tuple(sorted(rnd.sample(range(n_vms), rnd.randint(1, min(4, n_vms))))))
                  for _ in range(rnd.randint(0, 6))]
        blockers: dict = {}
        for v in held:
            blockers[v] = [rnd.choice(leases + [None]) if leases else None for _ in range(rnd.randint(1, 2))]
        units = {q: None for q in leases}
        free = [v for v in range(n_vms) if v not in blockers]
        stuck = {v for v, holders in blockers.items() if None in holders}
        n = rnd.randint(1, 16)
        a, b = np.random.default_rng(case), np.random.default_rng(case)
        me = types.SimpleNamespace(n_vms=n_vms, dc=types.SimpleNamespace(sim=types.SimpleNamespace(random={"ar_vms": a})))
        assert LocalCloud._draw(me, n, stuck, units) == plain_draw(n_vms, n, free, blockers, units, b)
        assert a.bit_generator.state == b.bit_generator.state


def random_table(rnd: random.Random):
    """A slot table of a few VMs with random bookings, some released and shortened."""
    from cloudsim_py.clouds.slottable import SlotTable

    n = rnd.choice([1, 3, 8, 20])
    table = SlotTable(n)
    for rid in range(rnd.randint(0, 30)):
        vms = tuple(sorted(rnd.sample(range(n), rnd.randint(1, n))))
        s = float(rnd.randint(0, 40))
        try:
            table.reserve(rid, vms, s, s + rnd.choice([0.5, 1.0, 3.0, 10.0]))
        except CapacityError:
            continue
        if rnd.random() < 0.2:
            table.release(rid)
        elif rnd.random() < 0.2:
            r = table[rid]
            table.shorten(rid, (r.start + r.end) / 2)
    return table


def test_the_reservations_meeting_an_interval_on_all_vms_are_those_of_the_walk_over_each_vm():
    # SlotTable.overlapping without candidates looks at each reservation once; naming every VM
    # takes the per-VM walk: the same reservations in the same order, empty and inverted
    # intervals included
    rnd = random.Random(3)
    for _ in range(400):
        table = random_table(rnd)
        for _ in range(10):
            a = rnd.choice([float(rnd.randint(-2, 52)), rnd.uniform(-2, 52)])
            b = a + rnd.choice([0.0, -1.0, 0.5, 1.0, 4.0, 30.0])
            assert table.overlapping(a, b) == table.overlapping(a, b, list(range(table.n_vms)))


def test_a_quote_profiles_horizons_from_the_unbooked_count_are_the_sorted_ones():
    # QuoteProfile.horizon answers from the count of VMs with no booking when it covers n:
    # the same horizons as the table's, for every n, before and after the sorted list is made
    from cloudsim_py.clouds.quotes import QuoteProfile

    rnd = random.Random(4)
    for _ in range(300):
        table = random_table(rnd)
        t = rnd.choice([0.0, 5.0, 20.0, 60.0])
        prof = QuoteProfile(table, table.version, t, table.longest_gap(t))
        order = list(range(1, table.n_vms + 1))
        rnd.shuffle(order)
        for n in order:
            assert prof.horizon(n) == table.horizon(n, t)
        assert prof.gap() == table.longest_gap(t)       # taken when first needed: the same gap
        assert table.unbooked() == sum(not table.reservations_of(v) for v in range(table.n_vms))


def test_task_times_shared_per_type_are_the_models_times_with_the_same_first_error():
    # DagScheduler._times_of keeps the times of a type timed by the matrix for later tasks of
    # that type: the same numbers as the model's per task and cloud, and the same error at the
    # same task (a type not in the matrix, a VM type not in it, a task with neither)
    import types as ns

    import numpy as np

    from cloudsim_py.brokers.dags import DagScheduler
    from cloudsim_py.clouds.matrix import ExecutionModel, ExecutionTimeMatrix
    from cloudsim_py.errors import PlatformError

    etm = ExecutionTimeMatrix(("a", "b", 3), ("v0", "v1"), np.array([[4.0, 2.0], [9.0, 3.0], [1.5, 7.0]]))
    rnd = random.Random(6)

    def outcome(call):
        try:
            return call()
        except PlatformError as exc:
            return str(exc)

    for case in range(300):
        model = ExecutionModel(etm, use_runtime=rnd.random() < 0.7)
        vms = [VMType(rnd.choice(["v0", "v1", "v1", "v9"]), 1, 1024, 0, 32, speed=rnd.choice([1.0, 2.0]))
               for _ in range(rnd.randint(1, 3))]
        me = ns.SimpleNamespace(_fed=lambda model=model: ns.SimpleNamespace(model=model), _type_times={})
        for j in range(4):
            tasks = {}
            for i in range(rnd.randint(1, 8)):
                f: dict = {}
                if rnd.random() < 0.9:
                    f["type"] = rnd.choice(["a", "b", 3, 3, "zz"] if rnd.random() < 0.1 else ["a", "b", 3])
                if rnd.random() < 0.3 or "type" not in f:
                    f["runtime"] = float(rnd.choice([1, 10, 60]))
                tasks[f"t{i}"] = f
            dag = build_dag_job(f"j{case}-{j}", tasks, [])
            plain = outcome(lambda: {t: [model.time(dag, t, v) for v in vms] for t in dag.order})
            fields = dict(dag.graph.nodes(data=True))
            assert outcome(lambda: DagScheduler._times_of(me, dag, vms, fields)) == plain


def test_the_orders_links_read_from_the_adjacency_are_those_of_the_edge_view():
    # link_orders reads the graph's adjacency dicts: each order's predecessors (with their
    # data) and successors in the order graph.edges(data=True) gives them
    import types as ns

    from cloudsim_py.brokers.dags import link_orders

    for seed in range(40):
        for dag in random_dags(seed, jobs=6):
            def fresh():
                return {t: ns.SimpleNamespace(succ=[], preds=[], pending=0, name=t) for t in dag.order}
            got, want = fresh(), fresh()
            link_orders(dag, got)
            for parent, child, edge in dag.graph.edges(data=True):
                up, down = want[parent], want[child]
                up.succ.append(down)
                down.preds.append((up, float(edge.get("data_mb", 0.0))))
                down.pending += 1

            def shape(orders):
                return {t: ([s.name for s in o.succ], [(p.name, d) for p, d in o.preds], o.pending)
                        for t, o in orders.items()}
            assert shape(got) == shape(want)


def test_input_times_taken_a_predecessor_at_a_time_are_those_of_the_loop_per_cloud():
    # DagScheduler._not_before against the loop per cloud over the predecessors it replaced
    from types import SimpleNamespace

    from cloudsim_py.brokers.dags import DagScheduler

    def per_cloud(order, bw):
        dag = order.run.dag
        t0 = dag.start if dag.start is not None else dag.submit_time
        out = []
        for cloud in range(len(bw)):
            t = t0
            for src, data in order.preds:
                arrive = src.finish + (data / bw[src.cloud][cloud] if data else 0.0)
                if arrive > t:
                    t = arrive
            out.append(t)
        return out

    rng = random.Random(5)
    for _ in range(500):
        n = rng.randint(1, 5)
        bw = [[float("inf") if a == b else rng.choice([1.0, 3.0, 8.0, 0.7]) for b in range(n)] for a in range(n)]
        dag = SimpleNamespace(start=rng.choice([None, 2.5]), submit_time=rng.choice([0.0, 1.0, 10.0]))
        preds = [(SimpleNamespace(finish=rng.choice([0.0, 1.0, 3.3, 12.0, 1e6 + 0.3]), cloud=rng.randrange(n)),
                  rng.choice([0.0, 0.0, 1.0, 16.0, 200.0])) for _ in range(rng.randint(0, 4))]
        order = SimpleNamespace(run=SimpleNamespace(dag=dag), preds=preds)
        sched = SimpleNamespace(_f=SimpleNamespace(bw=bw))
        assert DagScheduler._not_before(sched, order) == per_cloud(order, bw)


def test_fdls_and_fdmms_declare_the_pick_rules_their_picks_have():
    from cloudsim_py.brokers.dags import FdlsScheduler, FdmmsScheduler
    assert FdlsScheduler.pick_rule == "first-task"
    assert FdmmsScheduler.pick_rule == "min-min"
    assert FdlsScheduler.direct_messages and FdmmsScheduler.direct_messages


def test_a_subclass_with_its_own_pick_is_decided_by_its_pick_unless_it_declares_a_rule():
    from cloudsim_py.brokers.dags import FdmmsScheduler

    class LastCloud(FdmmsScheduler):
        def _pick(self, orders, efts):
            return 0, len(efts[0]) - 1

    class Declared(FdmmsScheduler):
        pick_rule = "min-min"

        def _pick(self, orders, efts):
            return FdmmsScheduler._pick(self, orders, efts)

    assert LastCloud.pick_rule is None
    assert Declared.pick_rule == "min-min"


def test_a_subclass_with_its_own_on_message_hears_every_message():
    from cloudsim_py.brokers.dags import FdlsScheduler

    class Listening(FdlsScheduler):
        def on_message(self, message):
            return super().on_message(message)

    assert Listening.direct_messages is False


@register_broker("test-last-cloud", "FDMMS's rounds with a pick of its own: every task to the last cloud (tests)")
class LastCloudScheduler(FdmmsScheduler):
    def _pick(self, orders, efts):
        return 0, len(efts[0]) - 1


def test_a_subclass_with_its_own_pick_has_every_round_decided_by_it():
    # rounds on arrays from 1 ready task on (BATCH 0) would be FDMMS's min-min; with a pick of
    # its own (pick_rule None) every round goes through the lists and _pick: every task runs on
    # the last cloud, none on the first, and every job finishes
    for seed in range(4):
        system = build_dag_system(random_dags(seed, jobs=20, clouds=2), clouds_of(2), policy="test-last-cloud",
                                  overheads=Overheads(enactment_s=1.0), seed=seed, record=True, check=True)
        for broker in system.world.brokers:
            broker.BATCH = 0
        system.run()
        first, last = ({i.job for i in rec.intervals if i.kind == "run"} for rec in system.records)
        assert not first and last, seed
        assert len(system.log.finished) == 20 and not system.log.rejected, seed
