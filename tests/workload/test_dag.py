"""DAG jobs: validation (errors name job, task and key), readiness, critical path and CPOP ranks
(a hand-computed diamond and the worked example of Topcuoglu et al. 2002)."""

from fractions import Fraction as F

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.errors import DAGError
from cloudsim_py.workload.dag import (DagJob, build_dag_job, comm_costs, cpop_critical_tasks, cpop_priority,
                                      critical_path, critical_path_length, downward_rank, priority_list,
                                      ready_tasks, released_by, runtime_cost, upward_rank)
from cloudsim_py.workload.lease import LeaseMode

# -- a hand-computed diamond ------------------------------------------------------------------
#      A
#    4/ \2        average computation costs w: A=2, B=3, C=5, D=1
#    B   C        average communication costs c on the edges
#    2\ /3
#      D
# rank_u: D = 1; B = 3 + (2 + 1) = 6; C = 5 + (3 + 1) = 9; A = 2 + max(4 + 6, 2 + 9) = 13
# rank_d: A = 0; B = 0 + 2 + 4 = 6; C = 0 + 2 + 2 = 4; D = max(6 + 3 + 2, 4 + 5 + 3) = 12
# priority: A = 13, B = 12, C = 13, D = 13 -> |CP| = 13 along A, C, D (2 + 2 + 5 + 3 + 1 = 13)
W = {"A": 2, "B": 3, "C": 5, "D": 1}
C = {("A", "B"): 4, ("A", "C"): 2, ("B", "D"): 2, ("C", "D"): 3}


@pytest.fixture
def diamond():
    tasks = {t: {"type": 0, "runtime": float(w)} for t, w in W.items()}
    return build_dag_job("d", tasks, [(u, v, float(c)) for (u, v), c in C.items()])


def test_upward_ranks_of_the_diamond(diamond):
    assert upward_rank(diamond, W, C) == {"A": 13, "B": 6, "C": 9, "D": 1}


def test_downward_ranks_of_the_diamond(diamond):
    assert downward_rank(diamond, W, C) == {"A": 0, "B": 6, "C": 4, "D": 12}


def test_cpop_priority_and_critical_tasks_of_the_diamond(diamond):
    prio = cpop_priority(diamond, W, C)
    assert prio == {"A": 13, "B": 12, "C": 13, "D": 13}
    assert cpop_critical_tasks(diamond, prio) == ["A", "C", "D"]


def test_priority_list_takes_the_ready_task_of_highest_priority(diamond):
    # A first; then B (12) and C (13) are ready -> C, then B; D last (after both parents)
    assert priority_list(diamond, cpop_priority(diamond, W, C)) == ["A", "C", "B", "D"]


def test_critical_path_without_communication_is_the_longest_chain_of_costs(diamond):
    # zero communication (one cloud): A-C-D = 2 + 5 + 1 = 8 > A-B-D = 6
    assert critical_path(diamond, W) == (8, ["A", "C", "D"])


def test_critical_path_with_communication_equals_the_entry_priority(diamond):
    assert critical_path(diamond, W, C) == (13, ["A", "C", "D"])


def test_runtime_cost_and_comm_costs_read_the_job(diamond):
    # runtimes equal W; data 4 MB at 2 MB/s -> 2 s
    assert critical_path_length(diamond, runtime_cost(diamond)) == 8.0
    assert comm_costs(diamond, 2.0)[("A", "B")] == 2.0


# -- Topcuoglu, Hariri and Wu 2002, Fig. 2 and its table of ranks ----------------------------------
# computation costs on P1, P2, P3 (Fig. 2(b)); w = their mean
TOPCUOGLU_W = {1: (14, 16, 9), 2: (13, 19, 18), 3: (11, 13, 19), 4: (13, 8, 17), 5: (12, 13, 10),
               6: (13, 16, 9), 7: (7, 15, 11), 8: (5, 11, 14), 9: (18, 12, 20), 10: (21, 7, 16)}
TOPCUOGLU_C = {(1, 2): 18, (1, 3): 12, (1, 4): 9, (1, 5): 11, (1, 6): 14, (2, 8): 19, (2, 9): 16, (3, 7): 23,
               (4, 8): 27, (4, 9): 23, (5, 9): 13, (6, 8): 15, (7, 10): 17, (8, 10): 11, (9, 10): 13}


@pytest.fixture
def topcuoglu():
    return build_dag_job("fig2", {t: {"type": t} for t in TOPCUOGLU_W}, list(TOPCUOGLU_C))


def mean_w():
    return {t: F(sum(c), 3) for t, c in TOPCUOGLU_W.items()}


def test_topcuoglu_upward_ranks_match_the_paper(topcuoglu):
    # the paper's table: 108.000, 77.000, 80.000, 80.000, 69.000, 63.333, 42.667, 35.667, 44.333, 14.667
    expected = {1: F(108), 2: F(77), 3: F(80), 4: F(80), 5: F(69), 6: F(190, 3), 7: F(128, 3), 8: F(107, 3),
                9: F(133, 3), 10: F(44, 3)}
    assert upward_rank(topcuoglu, mean_w(), TOPCUOGLU_C) == expected


def test_topcuoglu_downward_ranks_match_the_paper(topcuoglu):
    # the paper's table: 0.000, 31.000, 25.000, 22.000, 24.000, 27.000, 62.333, 66.667, 63.667, 93.333
    expected = {1: F(0), 2: F(31), 3: F(25), 4: F(22), 5: F(24), 6: F(27), 7: F(187, 3), 8: F(200, 3),
                9: F(191, 3), 10: F(280, 3)}
    assert downward_rank(topcuoglu, mean_w(), TOPCUOGLU_C) == expected


def test_topcuoglu_critical_path_is_n1_n2_n9_n10_of_length_108(topcuoglu):
    prio = cpop_priority(topcuoglu, mean_w(), TOPCUOGLU_C)
    assert cpop_critical_tasks(topcuoglu, prio) == [1, 2, 9, 10]
    assert critical_path(topcuoglu, mean_w(), TOPCUOGLU_C) == (F(108), [1, 2, 9, 10])


def test_topcuoglu_priority_list(topcuoglu):
    # priorities: n1 108, n2 108, n3 105, n4 102, n5 93, n6 90.33, n7 105, n8 102.33, n9 108, n10 108
    # ready-queue order: 1; 2 (108); 3 (105) releases 7 (105); 7; 4 (102); 5 (93) releases 9 (108);
    # 9; 6 (90.33) releases 8; 8; 10
    prio = cpop_priority(topcuoglu, mean_w(), TOPCUOGLU_C)
    assert priority_list(topcuoglu, prio) == [1, 2, 3, 7, 4, 5, 9, 6, 8, 10]


# -- readiness --------------------------------------------------------------------------------

def test_ready_tasks_are_those_whose_predecessors_are_all_done(diamond):
    assert ready_tasks(diamond, set()) == ["A"]
    assert ready_tasks(diamond, {"A"}) == ["B", "C"]
    assert ready_tasks(diamond, {"A", "B"}) == ["C"]
    assert ready_tasks(diamond, {"A"}, exclude={"B"}) == ["C"]


def test_released_by_lists_successors_that_become_ready(diamond):
    assert released_by(diamond, "A", {"A"}) == ["B", "C"]
    assert released_by(diamond, "B", {"A", "B"}) == []           # D still waits for C
    assert released_by(diamond, "C", {"A", "B", "C"}) == ["D"]


def test_entry_and_exit_tasks(diamond):
    assert (diamond.entry_tasks(), diamond.exit_tasks()) == (["A"], ["D"])


def test_order_is_the_insertion_order_when_topological_else_kahn():
    g = nx.DiGraph()
    g.add_nodes_from([(t, {"type": 0}) for t in ("c", "b", "a")])
    g.add_edges_from([("a", "b"), ("b", "c")])
    assert DagJob(id=1, graph=g).order == ("a", "b", "c")


def test_the_graph_is_frozen(diamond):
    with pytest.raises(nx.NetworkXError):
        diamond.graph.add_node("E")


# -- validation -------------------------------------------------------------------------------

def test_a_cycle_is_an_error_naming_the_job_and_the_cycle():
    with pytest.raises(DAGError, match=r"job 9: the task graph has a cycle 1 -> 2 -> 3 -> 1"):
        build_dag_job(9, {1: {"type": 0}, 2: {"type": 0}, 3: {"type": 0}}, [(1, 2), (2, 3), (3, 1)])


def test_a_self_loop_is_a_cycle():
    with pytest.raises(DAGError, match=r"job 9: the task graph has a cycle 'x' -> 'x'"):
        build_dag_job(9, {"x": {"type": 0}}, [("x", "x")])


def test_a_task_without_type_or_runtime_is_an_error_naming_job_and_task():
    with pytest.raises(DAGError, match=r"job 4, task 'b': missing field 'type' or 'runtime'"):
        build_dag_job(4, {"a": {"type": 1}, "b": {"cpus": 2}}, [("a", "b")])


def test_an_unknown_task_field_is_an_error_naming_the_key():
    with pytest.raises(DAGError, match=r"job 4, task 'a': unknown field 'runtme' \(known: type, runtime"):
        build_dag_job(4, {"a": {"runtme": 1.0}}, [])


@pytest.mark.parametrize("key, value", [("runtime", -1.0), ("cpus", 0), ("memory_mb", float("nan")),
                                        ("image_mb", "big")])
def test_bad_task_numbers_are_errors_naming_the_key(key, value):
    with pytest.raises(DAGError, match=f"job 4, task 'a': {key} = .* must be a finite number"):
        build_dag_job(4, {"a": {"type": 0, key: value}}, [])


def test_a_bad_edge_field_is_an_error_naming_the_edge():
    g = nx.DiGraph()
    g.add_nodes_from([(1, {"type": 0}), (2, {"type": 0})])
    g.add_edge(1, 2, size=3)
    with pytest.raises(DAGError, match=r"job 5, edge 1 -> 2: unknown field 'size' \(known: data_mb\)"):
        DagJob(id=5, graph=g)


def test_negative_edge_data_is_an_error():
    with pytest.raises(DAGError, match=r"job 5, edge 1 -> 2: data_mb = -1.0 must be a finite number >= 0"):
        build_dag_job(5, {1: {"type": 0}, 2: {"type": 0}}, [(1, 2, -1.0)])


def test_an_edge_to_an_unknown_task_is_an_error():
    with pytest.raises(DAGError, match=r"job 5: edge 1 -> 3 names unknown task 3"):
        build_dag_job(5, {1: {"type": 0}, 2: {"type": 0}}, [(1, 3)])


def test_an_empty_graph_and_a_multigraph_are_errors():
    with pytest.raises(DAGError, match="job 1: the graph has no task"):
        DagJob(id=1, graph=nx.DiGraph())
    with pytest.raises(DAGError, match="job 2: the graph must be a networkx DiGraph, not MultiDiGraph"):
        DagJob(id=2, graph=nx.MultiDiGraph([(1, 2)]))


def test_an_ar_job_needs_a_start_not_before_its_submission():
    with pytest.raises(DAGError, match=r"job 3: an advance-reservation job needs a start >= its submit time 10, got 5.0"):
        build_dag_job(3, {1: {"type": 0}}, [], submit_time=10.0, mode=LeaseMode.AR, start=5.0)


def test_a_best_effort_job_has_no_start():
    with pytest.raises(DAGError, match="job 3: start 5.0 given for a best-effort job"):
        build_dag_job(3, {1: {"type": 0}}, [], start=5.0)


def test_a_negative_cloud_index_is_an_error():
    with pytest.raises(DAGError, match="job 3: cloud -1 must be a cloud index >= 0"):
        build_dag_job(3, {1: {"type": 0}}, [], cloud=-1)


def _built_edge_by_edge(job_id, tasks, edges):
    """The graph build_dag_job made before its edges were added in bulk: each task with a copy
    of its fields, each edge checked and added on its own (the reference of the test below)."""
    g = nx.DiGraph()
    g.add_nodes_from((t, dict(f)) for t, f in tasks.items())
    for edge in edges:
        u, v = edge[0], edge[1]
        for t in (u, v):
            if t not in g:
                raise DAGError(f"job {job_id}: edge {u!r} -> {v!r} names unknown task {t!r}")
        if len(edge) == 3:
            g.add_edge(u, v, data_mb=edge[2])
        else:
            g.add_edge(u, v)
    return g


def test_build_dag_job_makes_the_graph_of_one_edge_at_a_time():
    # random tasks (int, string and tuple ids), edges forward and backward, repeated (the data
    # of the last one kept), with and without data; and unknown tasks (unhashable ones
    # among them): the same first error
    import random

    rng = random.Random(3)
    for case in range(60):
        ids = rng.sample([0, 1, 2, "a", "b", ("t", 1), ("t", 2), 7.5], rng.randint(1, 8))
        tasks = {t: {"runtime": float(rng.randint(0, 9)), **({"cpus": 2} if rng.random() < 0.3 else {})}
                 for t in ids}
        order = list(ids)
        rng.shuffle(order)
        pairs = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))
                 if rng.random() < 0.4]
        edges = [(u, v, float(rng.randint(0, 50))) if rng.random() < 0.5 else (u, v) for u, v in pairs]
        edges += rng.sample(edges, min(2, len(edges)))
        if case % 7 == 0:
            edges.insert(rng.randint(0, len(edges)), (ids[0], "nobody"))
        if case % 11 == 5:      # an unhashable task: unknown too, not a TypeError
            edges.insert(rng.randint(0, len(edges)), (["nobody"], ids[0]) if case % 2 else (ids[0], {}))
        try:
            want = _built_edge_by_edge(case, tasks, edges)
        except DAGError as exc:
            with pytest.raises(DAGError) as got:
                build_dag_job(case, tasks, edges)
            assert str(got.value) == str(exc)
            continue
        g = build_dag_job(case, tasks, edges).graph
        assert list(g.nodes(data=True)) == list(want.nodes(data=True))
        assert list(g.edges(data=True)) == list(want.edges(data=True))
        assert [list(g.pred[t]) for t in g] == [list(want.pred[t]) for t in want]
        assert all(g.nodes[t] is not tasks[t] for t in g)      # the fields were copied


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6), st.booleans(),
                 st.fractions(), st.decimals(allow_nan=False, allow_infinity=False), st.none(), st.text(max_size=2)),
       st.booleans())
def test_a_task_number_is_checked_as_a_finite_real_number(value, positive):
    # dag._valid_number (its float and int fast paths) against the rule it states: a real
    # number, not a bool, finite, > 0 when positive, else >= 0
    import math
    import numbers

    from cloudsim_py.workload.dag import _valid_number

    real = isinstance(value, numbers.Real) and not isinstance(value, bool)
    want = real and math.isfinite(float(value)) and (float(value) > 0 if positive else float(value) >= 0)
    assert _valid_number(value, positive) is want
