"""The Li et al. DAG generator: determinism, the paper's limits (<= 16 tasks, fan-in and fan-out
<= 3, acyclic), AR share, arrivals and parameter checks."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.errors import ScenarioError
from cloudsim_py.workload.lease import LeaseMode
from cloudsim_py.workload.models.dag_li import ARRIVAL_GAPS, LiDagModel


def snapshot(jobs):
    return [(j.id, j.submit_time, j.cloud, j.mode, j.start, sorted(j.graph.nodes(data=True)),
             sorted(j.graph.edges(data=True))) for j in jobs]


def test_the_same_seed_gives_the_same_jobs():
    model = LiDagModel()
    assert snapshot(model.generate(200, np.random.default_rng(7))) == snapshot(model.generate(200, np.random.default_rng(7)))


def test_different_seeds_give_different_jobs():
    model = LiDagModel()
    assert snapshot(model.generate(50, np.random.default_rng(1))) != snapshot(model.generate(50, np.random.default_rng(2)))


@pytest.fixture(scope="module")
def many():
    return LiDagModel().generate(2000, np.random.default_rng(11))


def test_jobs_have_1_to_16_tasks_and_every_size_occurs(many):
    assert sorted({job.tasks for job in many}) == list(range(1, 17))


def test_fan_in_and_fan_out_are_at_most_3_and_3_is_reached(many):
    in_max = max(d for job in many for _, d in job.graph.in_degree())
    out_max = max(d for job in many for _, d in job.graph.out_degree())
    assert (in_max, out_max) == (3, 3)


def test_jobs_are_acyclic_and_connected_with_one_entry_task(many):
    for job in many:
        assert nx.is_directed_acyclic_graph(job.graph)
        assert nx.is_weakly_connected(job.graph)
        assert job.entry_tasks() == [0]


def test_task_fields_are_in_their_ranges(many):
    # defaults: 8 task types, 1..16 CPUs, 600 MB image, 1024 MB memory, 10..100 MB per edge
    nodes = [d for job in many for _, d in job.graph.nodes(data=True)]
    assert {d["type"] for d in nodes} == set(range(8))
    assert {d["cpus"] for d in nodes} == set(range(1, 17))
    assert {(d["image_mb"], d["memory_mb"]) for d in nodes} == {(600.0, 1024.0)}
    data = [d for job in many for _, _, d in job.graph.edges(data="data_mb")]
    assert 10.0 <= min(data) and max(data) <= 100.0


def test_jobs_go_to_all_four_clouds(many):
    assert {job.cloud for job in many} == {0, 1, 2, 3}


def test_12_of_64_jobs_are_advance_reservations_starting_at_their_arrival():
    jobs = LiDagModel().generate(64, np.random.default_rng(3))
    ars = [job for job in jobs if job.mode is LeaseMode.AR]
    assert len(ars) == 12
    assert all(job.start == job.submit_time for job in ars)
    assert all(job.start is None for job in jobs if job.mode is LeaseMode.BEST_EFFORT)


def test_ar_notice_moves_the_requested_start():
    jobs = LiDagModel(ar_notice_s=600.0).generate(64, np.random.default_rng(3))
    assert {job.start - job.submit_time for job in jobs if job.mode is LeaseMode.AR} == {600.0}


@pytest.mark.parametrize("arrivals", ["loose", "tight", 42.0])
def test_arrivals_are_sorted_within_jobs_times_the_gap(arrivals):
    # 64 jobs uniform on [0, 64 x gap]: 230,400 s loose, 640 s tight, 2,688 s for 42 s
    gap = ARRIVAL_GAPS.get(arrivals, arrivals)
    jobs = LiDagModel(arrivals=arrivals).generate(64, np.random.default_rng(5))
    times = [job.submit_time for job in jobs]
    assert times == sorted(times) and 0 <= times[0] and times[-1] <= 64 * gap
    assert [job.id for job in jobs] == list(range(64))


def test_tight_arrivals_are_closer_than_loose_ones_for_the_same_seed():
    loose = LiDagModel(arrivals="loose").generate(64, np.random.default_rng(5))
    tight = LiDagModel(arrivals="tight").generate(64, np.random.default_rng(5))
    # the same uniform draws scaled by 10 / 3600
    assert [t.submit_time for t in tight] == pytest.approx([j.submit_time * 10 / 3600 for j in loose])


def test_fan_in_1_gives_trees():
    jobs = LiDagModel(max_fan_in=1).generate(300, np.random.default_rng(2))
    assert all(job.graph.number_of_edges() == job.tasks - 1 for job in jobs)
    assert max(d for job in jobs for _, d in job.graph.out_degree()) == 3


def test_zero_jobs_is_an_empty_list():
    assert LiDagModel().generate(0, np.random.default_rng(0)) == []


@pytest.mark.parametrize("kw, message", [
    ({"max_tasks": 0}, "min_tasks"), ({"arrivals": "medium"}, "arrivals = 'medium'"),
    ({"ar_share": 1.5}, "ar_share"), ({"cpus": (0, 4)}, "cpus"), ({"data_mb": (5, 1)}, "data_mb"),
    ({"clouds": 0}, "clouds"),
])
def test_bad_parameters_are_scenario_errors_naming_the_key(kw, message):
    with pytest.raises(ScenarioError, match=f"dag_li: .*{message}"):
        LiDagModel(**kw)


def plain_generate(model, jobs, rng):
    """The generator as first written (numpy rows of keys read per comparison, nodes added as
    ``(task, fields)`` pairs, the numpy scalars converted one by one): the bulk reads of
    :meth:`LiDagModel.generate` must give the same jobs."""
    from cloudsim_py.workload.dag import DagJob
    from cloudsim_py.workload.models.dag_li import _range

    def plain_edges(n, fan_in, keys):
        out_deg = [0] * n
        edges = []
        for t in range(1, n):
            candidates = [i for i in range(t) if out_deg[i] < model.max_fan_out]
            if len(candidates) > fan_in[t]:
                row = keys[t]
                candidates.sort(key=lambda i: row[i])
                candidates = sorted(candidates[:fan_in[t]])
            for p in candidates:
                out_deg[p] += 1
                edges.append((p, t))
        return edges

    arrival = np.sort(rng.uniform(0.0, jobs * model.gap_s(), size=jobs))
    n_tasks = rng.integers(model.min_tasks, model.max_tasks + 1, size=jobs)
    cloud = rng.integers(0, model.clouds, size=jobs)
    n_ar = int(round(model.ar_share * jobs))
    is_ar = np.zeros(jobs, dtype=bool)
    is_ar[rng.choice(jobs, size=n_ar, replace=False)] = True
    total = int(n_tasks.sum())
    first = np.concatenate(([0], np.cumsum(n_tasks)))
    task_type = rng.integers(0, model.task_types, size=total)
    clo, chi = _range("cpus", model.cpus, integer=True)
    task_cpus = rng.integers(int(clo), int(chi) + 1, size=total)
    image = rng.uniform(*_range("image_mb", model.image_mb), size=total)
    memory = rng.uniform(*_range("memory_mb", model.memory_mb), size=total)
    fan_in = rng.integers(1, model.max_fan_in + 1, size=total)
    keys = rng.random((total, model.max_tasks))
    edges = [plain_edges(int(n_tasks[j]), fan_in[first[j]:first[j + 1]].tolist(), keys[first[j]:first[j + 1]])
             for j in range(jobs)]
    n_edges = np.array([len(e) for e in edges], dtype=np.int64)
    data = rng.uniform(*_range("data_mb", model.data_mb), size=int(n_edges.sum()))
    efirst = np.concatenate(([0], np.cumsum(n_edges)))
    nlo, nhi = _range("ar_notice_s", model.ar_notice_s)
    notice = rng.uniform(nlo, nhi, size=jobs).tolist() if nhi > nlo else [nlo] * jobs
    out = []
    for j in range(jobs):
        a, b = int(first[j]), int(first[j + 1])
        g = nx.DiGraph()
        g.add_nodes_from((i, {"type": int(task_type[a + i]), "cpus": int(task_cpus[a + i]),
                              "image_mb": float(image[a + i]), "memory_mb": float(memory[a + i])})
                         for i in range(b - a))
        e0 = int(efirst[j])
        g.add_edges_from((u, v, {"data_mb": float(data[e0 + k])}) for k, (u, v) in enumerate(edges[j]))
        submit = float(arrival[j])
        ar = bool(is_ar[j])
        out.append(DagJob(id=j, graph=g, submit_time=submit, cloud=int(cloud[j]),
                          mode=LeaseMode.AR if ar else LeaseMode.BEST_EFFORT,
                          start=submit + notice[j] if ar else None))
    return out


def exact(jobs):
    """Every field of every job, with the types of the numbers, the fields' order and each
    task's predecessors and successors in order."""
    def typed(d):
        return [(k, type(v), v) for k, v in d.items()]
    return [(j.id, type(j.submit_time), j.submit_time, type(j.cloud), j.cloud, j.mode, j.start, j.order,
             [(t, typed(f)) for t, f in j.graph.nodes(data=True)],
             [(u, v, typed(f)) for u, v, f in j.graph.edges(data=True)],
             [list(j.graph.pred[t]) for t in j.order], [list(j.graph.succ[t]) for t in j.order]) for j in jobs]


@pytest.mark.parametrize("params", [{}, {"max_tasks": 9, "max_fan_in": 2, "max_fan_out": 1},
                                    {"arrivals": 120, "ar_share": 0.5, "ar_notice_s": (0, 3600), "cpus": 4}])
def test_the_bulk_reads_give_the_jobs_of_the_plain_generator(params):
    model = LiDagModel(**params)
    for seed in (1, 2, 3):
        assert exact(model.generate(150, np.random.default_rng(seed))) == \
            exact(plain_generate(model, 150, np.random.default_rng(seed)))


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(1, 16), st.integers(1, 4), st.integers(1, 4))
def test_the_parents_drawn_from_the_kept_spare_list_are_those_of_the_scan(data, n, max_in, max_out):
    # LiDagModel._edges keeps the earlier tasks with spare fan-out in a list; the generator as
    # first written scanned every earlier task for each task. Keys drawn from a few values, so
    # equal keys (the sort's ties) occur.
    fan_in = data.draw(st.lists(st.integers(1, max_in), min_size=n, max_size=n))
    keys = data.draw(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75]), min_size=16, max_size=16),
                              min_size=n, max_size=n))
    model = LiDagModel(max_fan_in=max_in, max_fan_out=max_out)
    out_deg = [0] * n
    plain = []
    for t in range(1, n):
        candidates = [i for i in range(t) if out_deg[i] < max_out]
        if len(candidates) > fan_in[t]:
            candidates.sort(key=keys[t].__getitem__)
            candidates = sorted(candidates[:fan_in[t]])
        for p in candidates:
            out_deg[p] += 1
            plain.append((p, t))
    assert model._edges(n, fan_in, keys) == plain
