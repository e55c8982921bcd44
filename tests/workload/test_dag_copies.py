"""Copies of a DagJob (``attrs.evolve``: another id, submit time or cloud) share its frozen
graph: they get the order a fresh check gives, and their own fields are still checked."""

import attrs
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.errors import DAGError
from cloudsim_py.workload import dag as dag_module
from cloudsim_py.workload.dag import DagJob, build_dag_job
from cloudsim_py.workload.lease import LeaseMode


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 12))
    names = draw(st.permutations(list(range(n))))
    tasks = {t: {"runtime": float(draw(st.integers(0, 50)))} for t in names}
    edges = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names))
                          .filter(lambda e: e[0] < e[1]), max_size=20, unique=True))
    return tasks, edges


@settings(max_examples=60, deadline=None)
@given(graphs(), st.integers(1, 5))
def test_copies_of_a_job_have_the_order_a_fresh_check_gives(spec, copies):
    tasks, edges = spec
    job = build_dag_job("j", tasks, edges)
    fresh = build_dag_job("k", tasks, edges)        # another graph of the same tasks: checked anew
    assert fresh.graph is not job.graph and fresh.order == job.order
    for k in range(copies):
        copy = attrs.evolve(job, id=k, submit_time=float(k), cloud=k)
        assert copy.graph is job.graph and copy.order == job.order
        assert dag_module._topological_order(k, copy.graph) == copy.order


def test_a_copy_still_checks_its_own_fields():
    job = build_dag_job("j", {1: {"type": 0}, 2: {"type": 0}}, [(1, 2)])
    with pytest.raises(DAGError, match="submit_time"):
        attrs.evolve(job, submit_time=-1.0)
    with pytest.raises(DAGError, match="cloud"):
        attrs.evolve(job, cloud=-2)
    with pytest.raises(DAGError, match="advance-reservation"):
        attrs.evolve(job, mode=LeaseMode.AR)


def test_every_job_of_a_graph_that_fails_its_check_fails_it():
    g = nx.DiGraph()
    g.add_node(1, runtime=-1.0)
    nx.freeze(g)
    for job_id in (1, 2):                            # the second job is checked again, and fails
        with pytest.raises(DAGError, match=f"job {job_id}, task 1: runtime"):
            DagJob(job_id, g)

