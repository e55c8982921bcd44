"""FDLS's priority list read from the task orders' links (:func:`cpop_list`) is CPOP's, as the
graph functions of ``workload.dag`` compute it: a hand case, then random DAGs (hypothesis)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.brokers.dags import DagRun, TaskOrder, cpop_list, link_orders
from cloudsim_py.workload.dag import build_dag_job, comm_costs, cpop_priority, priority_list


def orders_of(dag, times):
    """Task orders of ``dag`` with ``times[task]`` (per cloud), linked as submit_dag links them."""
    orders = {}
    run = DagRun(dag, 1, 0, orders, dag.tasks)
    for rank, task in enumerate(dag.order):
        orders[task] = TaskOrder(run, task, rank, 1.0, 0.0, 0.0, [1], [0.0], list(times[task]), rank=rank)
    link_orders(dag, orders)
    return [orders[t] for t in dag.order]


def listing(dag, times, bandwidth):
    topo = orders_of(dag, times)
    w = [math.fsum(o.exec) / len(o.exec) for o in topo]
    return cpop_list(topo, w, bandwidth)


def test_a_fork_lists_the_heavier_branch_first():
    # A -> B (30 s), A -> C (10 s), B, C -> D; one cloud: rank_u A = 5 + 30 + 5 = 40,
    # B 35, C 15, D 5; rank_d A 0, B 5, C 5, D 35: priorities A 40, B 40, C 20, D 40.
    # A first; then B (40) before C (20); then D once both are done.
    dag = build_dag_job("j", {t: {"runtime": 1.0} for t in "ABCD"}, [("A", "B"), ("A", "C"), ("B", "D"), ("C", "D")])
    times = {"A": [5.0], "B": [30.0], "C": [10.0], "D": [5.0]}
    assert listing(dag, times, None) == ["A", "B", "C", "D"]


def test_transfer_costs_count_between_clouds():
    # A -> B carries 64 MB, A -> C nothing; at 8 MB/s B's branch gains 8 s: times are means
    # over two clouds (B 10 s, C 12 s), so C leads without transfers and B with them.
    dag = build_dag_job("j", {t: {"runtime": 1.0} for t in "ABC"}, [("A", "B", 64.0), ("A", "C")])
    times = {"A": [1.0, 1.0], "B": [10.0, 10.0], "C": [12.0, 12.0]}
    assert listing(dag, times, None) == ["A", "C", "B"]
    assert listing(dag, times, 8.0) == ["A", "B", "C"]


@st.composite
def dags(draw):
    n = draw(st.integers(1, 12))
    edges = []
    for child in range(1, n):
        for parent in draw(st.sets(st.integers(0, child - 1), max_size=3)):
            data = draw(st.sampled_from([None, 0.0, 16.0, 100.0, 7.5]))
            edges.append((parent, child) if data is None else (parent, child, data))
    dag = build_dag_job("r", {t: {"runtime": 1.0} for t in range(n)}, edges)
    clouds = draw(st.integers(1, 3))
    times = {t: [draw(st.sampled_from([0.0, 1.0, 2.5, 10.0, 33.3])) for _ in range(clouds)] for t in range(n)}
    return dag, times, draw(st.sampled_from([None, 4.0, 12.5]))


@settings(max_examples=300, deadline=None)
@given(dags())
def test_the_list_from_the_links_is_cpops_list_from_the_graph(case):
    dag, times, bandwidth = case
    w = {t: math.fsum(times[t]) / len(times[t]) for t in dag.order}
    c = comm_costs(dag, bandwidth) if bandwidth is not None else None
    assert listing(dag, times, bandwidth) == priority_list(dag, cpop_priority(dag, w, c))
