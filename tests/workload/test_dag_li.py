"""The Li et al. DAG generator: determinism, the paper's limits (<= 16 tasks, fan-in and fan-out
<= 3, acyclic), AR share, arrivals and parameter checks."""

import networkx as nx
import numpy as np
import pytest

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
