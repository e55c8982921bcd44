"""benchmarks/bench_clouds.py kept alive: its generators are deterministic for a seed, its heapq
floor follows the rule its docstring states (start times worked out by hand), and every case runs
end to end at a tiny size."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from cloudsim_py.workload.dag import build_dag_job
from cloudsim_py.workload.shared_data import leases_dir, workflows_dir

REPO = Path(__file__).resolve().parents[1]


def _load():
    name = "bench_clouds"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "bench_clouds.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


def _has_workflows() -> bool:
    folder = workflows_dir()
    return os.path.isdir(folder) and any(n.endswith(".json") for n in os.listdir(folder))


def _has_blue() -> bool:
    root = os.path.join(leases_dir(), "blue-30days")
    return (os.path.isfile(os.path.join(root, "30days.swf"))
            and os.path.isfile(os.path.join(root, "injected", "work_20-dur_2h-size_2medium.lwf")))


needs_workflows = pytest.mark.skipif(not _has_workflows(), reason=f"no WfFormat workflows in {workflows_dir()} "
                                                                   "(set CLOUDSIM_PY_WORKFLOWS)")
needs_blue = pytest.mark.skipif(not _has_blue(), reason=f"no SDSC Blue lease files in {leases_dir()} "
                                                        "(set CLOUDSIM_PY_LEASES)")


def _shape(dags):
    """Everything a run can see of DAG jobs."""
    return [(d.id, d.submit_time, d.cloud, d.mode, d.order, sorted(d.graph.nodes(data=True)),
             sorted(d.graph.edges(data=True))) for d in dags]


# -- generators ----------------------------------------------------------------------------------

def test_layered_dags_are_deterministic_for_a_seed():
    a = bench.layered_dags(300, seed=7)
    assert _shape(a) == _shape(bench.layered_dags(300, seed=7))
    assert _shape(a) != _shape(bench.layered_dags(300, seed=8))


def test_layered_dags_have_the_stated_shape():
    layers, width = 4, 3
    dags = bench.layered_dags(100, layers=layers, width=width, runtime=(5.0, 7.0), seed=3)
    assert len(dags) == 9                                  # ceil(100 / 12)
    assert [d.id for d in dags] == list(range(9))
    times = [d.submit_time for d in dags]
    assert times == sorted(times) and times[0] > 0
    fan_in: dict[int, int] = {}
    for d in dags:
        g = d.graph
        assert d.cloud == 0 and g.number_of_nodes() == layers * width
        for t, data in g.nodes(data=True):
            assert set(data) == {"runtime", "cpus"} and 5.0 <= data["runtime"] <= 7.0 and data["cpus"] == 1
            layer = t // width
            parents = sorted(g.predecessors(t))
            if layer == 0:
                assert parents == []
            else:
                assert {p // width for p in parents} == {layer - 1}       # the layer just above only
                fan_in[len(parents)] = fan_in.get(len(parents), 0) + 1
    # 9 jobs x 3 lower layers x 3 tasks = 81 draws of randint(1, 3) from seed 3: every count occurs
    assert fan_in == {1: 28, 2: 29, 3: 24}


def test_a_fixed_fan_in_links_each_task_to_that_many_above():
    # width 2, fan-in exactly 2: every task below the first layer depends on both tasks above it
    (d,) = bench.layered_dags(6, layers=3, width=2, fan_in=(2, 2), seed=1)
    assert sorted(d.graph.edges) == [(0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (2, 5), (3, 4), (3, 5)]


@needs_workflows
def test_wfformat_dags_are_copies_with_distinct_ids_at_time_zero():
    workflows = bench.read_workflows()
    dags = bench.wfformat_dags(1000, workflows)
    assert _shape(dags) == _shape(bench.wfformat_dags(1000, bench.read_workflows()))
    total = sum(d.tasks for d in dags)
    assert total >= 1000 and total - dags[-1].tasks < 1000      # stops as soon as there are enough
    assert [d.id for d in dags] == list(range(len(dags)))
    assert all(d.submit_time == 0.0 and d.cloud == 0 for d in dags)
    assert [d.tasks for d in dags[:len(workflows)]] == [w.job.tasks for w in workflows]
    # the first two distinct machines in file order, a 1-CPU VM per core (the shared files:
    # pegasus-5 and compute-3, 48 cores each)
    first: dict[str, object] = {}
    for m in (m for w in workflows for m in (w.machines or ())):
        first.setdefault(m.name, m)
    machines = list(first.values())[:2]
    clouds = bench.wfformat_clouds(workflows)
    assert [(c.name, c.vms, c.vm_type.cpus) for c in clouds] == [(m.name, m.cores or 1, 1) for m in machines]


# -- the heapq floor -----------------------------------------------------------------------------

def test_heapq_floor_gives_the_hand_computed_starts():
    # two 1-CPU VMs.  Job A at t=0: x (4 s), y (2 s), w (3 s, after y), z (1 s, after x and y).
    # Job B at t=1: q (1 s, 2 CPUs), p (2 s), independent.
    #   t=0  A arrives: ready [x, y]; x and y start (VMs 0, 1).
    #   t=1  B arrives: ready [q, p]; no VM free.
    #   t=2  y ends: w ready (z still waits for x): ready [q, p, w]; q needs 2 VMs, 1 free: skipped
    #        (first fit), p starts; no VM free, w waits.
    #   t=4  x ends (started first) then p ends, both before the dispatch: z ready: [q, w, z];
    #        2 VMs free: q starts; none left.
    #   t=5  q ends (B done): w and z start.  t=6 z ends.  t=8 w ends (A done).
    a = build_dag_job("A", {"x": {"runtime": 4}, "y": {"runtime": 2}, "w": {"runtime": 3}, "z": {"runtime": 1}},
                      [("y", "w"), ("x", "z"), ("y", "z")], submit_time=0.0)
    b = build_dag_job("B", {"q": {"runtime": 1, "cpus": 2}, "p": {"runtime": 2}}, [], submit_time=1.0)
    r = bench.heapq_floor([a, b], vms=2)
    assert r.starts == {("A", "x"): 0.0, ("A", "y"): 0.0, ("B", "p"): 2.0, ("B", "q"): 4.0,
                        ("A", "w"): 5.0, ("A", "z"): 5.0}
    assert r.finishes == {"A": 8.0, "B": 5.0}
    assert r.events == 8 and r.tasks == 6          # 2 arrivals, 6 finishes


def test_heapq_floor_on_2_cpu_vms_counts_vms_not_cpus():
    # one 2-CPU VM: a 2-CPU task needs one VM, a 3-CPU task two (there is one: never fits);
    # the 1-CPU tasks run one after the other (a VM runs one task at a time)
    a = build_dag_job(0, {0: {"runtime": 3, "cpus": 2}, 1: {"runtime": 1}, 2: {"runtime": 1}}, [(0, 2)])
    r = bench.heapq_floor([a], vms=1, vm_cpus=2)
    assert r.starts == {(0, 0): 0.0, (0, 1): 3.0, (0, 2): 4.0}


def test_heapq_floor_keeps_precedence_and_capacity_on_layered_dags():
    dags = bench.layered_dags(400, seed=2)
    vms = 8
    r = bench.heapq_floor(dags, vms=vms)
    assert r.tasks == len(r.starts) == sum(d.tasks for d in dags)
    ends = {}
    for d in dags:
        for t, data in d.graph.nodes(data=True):
            start = r.starts[(d.id, t)]
            assert start >= d.submit_time
            ends[(d.id, t)] = start + data["runtime"]
        for u, v in d.graph.edges():
            assert r.starts[(d.id, v)] >= ends[(d.id, u)]
        assert r.finishes[d.id] == max(ends[(d.id, t)] for t in d.graph)
    # never more than `vms` tasks at once: sweep the starts (+1) and ends (-1), ends first at a tie
    points = sorted([(e, -1) for e in ends.values()] + [(s, 1) for s in r.starts.values()])
    running = peak = 0
    for _, step in points:
        running += step
        peak = max(peak, running)
    assert peak == vms


# -- every case, end to end, tiny ----------------------------------------------------------------

def _run(tmp_path, *argv):
    out = tmp_path / "bench.json"
    assert bench.main([*argv, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    return doc, {r["case"]: r for r in doc["rows"]}


def test_layered_case_end_to_end(tmp_path, capsys):
    doc, rows = _run(tmp_path, "--only", "layered", "--tasks", "200")
    assert set(rows) == {"layered-make", "layered-floor", "layered-fdls", "layered-fdmms"}
    for r in rows.values():
        assert r["jobs"] == 10 and r["tasks"] == 200 and r["seconds"] >= 0
    for case in ("layered-floor", "layered-fdls", "layered-fdmms"):
        assert rows[case]["events"] >= 210
    assert rows["layered-floor"]["replay_seconds"] >= 0
    assert doc["machine"]["python"] and doc["rows"][0]["workload"].startswith("layered DAGs")
    assert "heapq floor" in capsys.readouterr().out


@needs_workflows
def test_wfformat_case_end_to_end(tmp_path):
    _, rows = _run(tmp_path, "--only", "wfformat", "--tasks", "150")
    assert set(rows) == {"wfformat-make", "wfformat-floor", "wfformat-fdls", "wfformat-fdmms"}
    tasks = {r["tasks"] for r in rows.values()}
    assert len(tasks) == 1 and tasks.pop() >= 150


def test_li_case_end_to_end(tmp_path):
    _, rows = _run(tmp_path, "--only", "li", "--dag-jobs", "6")
    assert set(rows) == {"li-fdls", "li-fdmms"}
    for r in rows.values():
        assert r["jobs"] == 6 and r["tasks"] >= 6 and r["events"] > 0


@needs_blue
def test_blue_case_end_to_end(tmp_path):
    _, rows = _run(tmp_path, "--only", "blue")
    assert set(rows) == {"blue-leases", "blue-haizea"}
    assert rows["blue-leases"]["policy"] == "leases" and rows["blue-haizea"]["policy"] == "haizea"
    for r in rows.values():
        assert r["jobs"] == r["tasks"] > 5000


def test_scale_gives_a_curve(tmp_path, capsys):
    doc, rows = _run(tmp_path, "--scale", "100,200", "--only", "layered-fdmms,layered-floor,li-fdls")
    assert sorted(r["tasks"] for r in doc["rows"] if r["case"] == "layered-fdmms") == [100, 200]
    curves = {(c["case"], c["policy"]): c["points"] for c in doc["scaling"]}
    assert set(curves) == {("layered", "fdmms"), ("layered", "heapq floor"), ("li", "fdls")}
    for points in curves.values():
        assert len(points) == 2 and points[0]["cost_per_task_vs_smallest"] == 1.0
    assert "scaling" in capsys.readouterr().out


def test_profile_prints_the_top_functions(capsys):
    assert bench.main(["--profile", "layered-fdls", "--tasks", "100", "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "layered DAGs" in out and "tottime" in out


def test_unknown_case_is_refused():
    with pytest.raises(SystemExit):
        bench.main(["--only", "nothing"])
    with pytest.raises(SystemExit):
        bench.main(["--profile", "layered-nothing", "--tasks", "100"])
