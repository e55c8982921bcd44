"""WfFormat 1.0-1.4 (tasks named, files per task, no specification/execution split): a document
reads as the 1.5 document WfCommons' migration tool makes of it. Hand-made documents with their
graphs worked out, every shared workflow written back in 1.4 and 1.3, random DAGs written in
1.5, 1.4, 1.3 and 1.0, and errors naming file, task and key."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.errors import TraceError
from cloudsim_py.workload.wfformat import read_wfformat, workflow_from_dict

from .test_wfformat import WORKFLOWS

#: a 1.4 instance: a writes f (3 MB) and g (1 MB); b reads f; c reads f and g; b and c ran on m1
DOC14 = {
    "name": "tiny", "schemaVersion": "1.4",
    "wms": {"name": "Pegasus", "version": "5.0"},
    "workflow": {
        "makespanInSeconds": 20.0, "executedAt": "2020-01-01T00:00:00Z",
        "machines": [{"nodeName": "m1", "cpu": {"count": 8, "speed": 2000}, "memoryInBytes": 16_000_000_000}],
        "tasks": [
            {"name": "a_ID01", "id": "ID01", "category": "a", "type": "compute", "parents": [],
             "files": [{"link": "output", "name": "f", "sizeInBytes": 3_000_000},
                       {"link": "output", "name": "g", "sizeInBytes": 1_000_000}],
             "runtimeInSeconds": 2.0, "cores": 2, "memoryInBytes": 500_000_000,
             "command": {"program": "alpha", "arguments": []}},
            {"name": "b_ID02", "id": "ID02", "category": "b", "type": "compute", "parents": ["a_ID01"],
             "files": [{"link": "input", "name": "f", "sizeInBytes": 3_000_000}],
             "runtimeInSeconds": 3.0, "machine": "m1"},
            {"name": "c_ID03", "id": "ID03", "category": "c", "type": "compute", "parents": ["a_ID01"],
             "files": [{"link": "input", "name": "f", "sizeInBytes": 3_000_000},
                       {"link": "input", "name": "g", "sizeInBytes": 1_000_000}],
             "runtimeInSeconds": 4.5, "machine": "m1"},
        ],
    },
}


def doc14(edit=None):
    d = copy.deepcopy(DOC14)
    if edit:
        edit(d)
    return d


def tasks_of(d):
    return d["workflow"]["tasks"]


def graph(w):
    return dict(w.job.graph.nodes(data=True)), {(u, v): d for u, v, d in w.job.graph.edges(data=True)}


def test_a_tiny_1_4_document_reads_exactly():
    w = workflow_from_dict(doc14(), source="tiny.json")
    nodes, edges = graph(w)
    assert nodes == {"a_ID01": {"runtime": 2.0, "type": "alpha", "name": "a_ID01", "cpus": 2.0, "memory_mb": 500.0},
                     "b_ID02": {"runtime": 3.0, "type": "b", "name": "b_ID02"},
                     "c_ID03": {"runtime": 4.5, "type": "c", "name": "c_ID03"}}
    assert edges == {("a_ID01", "b_ID02"): {"data_mb": 3.0}, ("a_ID01", "c_ID03"): {"data_mb": 4.0}}
    assert (w.job.id, w.makespan_s, w.schema_version) == ("tiny", 20.0, "1.4")
    (m,) = w.machines
    assert (m.name, m.cores, m.speed_mhz, m.memory_mb) == ("m1", 8, 2000.0, 16_000.0)
    assert dict(w.task_machines) == {"a_ID01": (), "b_ID02": ("m1",), "c_ID03": ("m1",)}


def as_1_3(d):
    """The 1.4 document in 1.3's names and units (memory in kilobytes)."""
    d = copy.deepcopy(d)
    d["schemaVersion"] = "1.3"
    w = d["workflow"]
    w["makespan"] = w.pop("makespanInSeconds")
    for m in w.get("machines", []):
        m["memory"] = m.pop("memoryInBytes") // 1000
    for t in w["tasks"]:
        t["runtime"] = t.pop("runtimeInSeconds")
        if "memoryInBytes" in t:
            t["memory"] = t.pop("memoryInBytes") // 1000
        for f in t.get("files", []):
            f["size"] = f.pop("sizeInBytes")
    return d


def as_1_0(d):
    """1.3 as 1.0: ``jobs``, no ids, categories or commands (the type is the name's prefix)."""
    d = as_1_3(d)
    d["schemaVersion"] = "1.0"
    w = d["workflow"]
    w["jobs"] = w.pop("tasks")
    for t in w["jobs"]:
        for k in ("id", "category", "command"):
            t.pop(k, None)
    return d


def test_1_3_names_and_units_read_as_1_4():
    assert graph(workflow_from_dict(as_1_3(doc14()), source="t.json")) == graph(workflow_from_dict(doc14(), source="t.json"))
    w = workflow_from_dict(as_1_3(doc14()), source="t.json")
    assert (w.makespan_s, w.machines[0].memory_mb, w.schema_version) == (20.0, 16_000.0, "1.3")


def test_1_0_jobs_take_their_type_from_the_name():
    nodes, edges = graph(workflow_from_dict(as_1_0(doc14()), source="t.json"))
    assert {t: f["type"] for t, f in nodes.items()} == {"a_ID01": "a", "b_ID02": "b", "c_ID03": "c"}
    assert edges == {("a_ID01", "b_ID02"): {"data_mb": 3.0}, ("a_ID01", "c_ID03"): {"data_mb": 4.0}}


def test_a_link_declared_by_the_parent_alone_is_an_edge():
    def edit(d):
        tasks_of(d)[0]["children"] = ["b_ID02", "c_ID03"]
        tasks_of(d)[1]["parents"] = []
        tasks_of(d)[2].pop("parents")
    assert graph(workflow_from_dict(doc14(edit), source="t.json")) == graph(workflow_from_dict(doc14(), source="t.json"))


def test_a_parent_named_by_its_old_id():
    _, edges = graph(workflow_from_dict(doc14(lambda d: tasks_of(d)[1].update(parents=["ID01"])), source="t.json"))
    assert ("a_ID01", "b_ID02") in edges


def test_without_declared_links_the_writers_of_the_inputs_are_the_parents():
    def edit(d):
        for t in tasks_of(d):
            t["parents"] = []
    assert graph(workflow_from_dict(doc14(edit), source="t.json")) == graph(workflow_from_dict(doc14(), source="t.json"))


def test_a_file_is_its_path_and_name():
    # c reads another g (in another folder): only f is data from a
    def edit(d):
        tasks_of(d)[2]["files"][1]["path"] = "/elsewhere/"
    _, edges = graph(workflow_from_dict(doc14(edit), source="t.json"))
    assert edges[("a_ID01", "c_ID03")] == {"data_mb": 3.0}


# -- errors -----------------------------------------------------------------------------------

def test_a_duplicate_task_name_names_both_places():
    d = doc14(lambda d: tasks_of(d).append(copy.deepcopy(tasks_of(d)[1])))
    with pytest.raises(TraceError, match=r"t\.json: workflow\.tasks\[3\]: task name 'b_ID02' is declared twice "
                                         r"\(first at workflow\.tasks\[1\]\)"):
        workflow_from_dict(d, source="t.json")


def test_an_unknown_parent_names_task_and_key():
    d = doc14(lambda d: tasks_of(d)[2].update(parents=["a_ID01", "zz"]))
    with pytest.raises(TraceError, match=r"t\.json: task 'c_ID03': key workflow\.tasks\[2\]\.parents names unknown task 'zz'"):
        workflow_from_dict(d, source="t.json")


def test_a_missing_runtime_names_the_key():
    d = as_1_3(doc14())
    d["workflow"]["tasks"][1].pop("runtime")
    with pytest.raises(TraceError, match=r"t\.json: key workflow\.tasks\[1\]\.runtime is missing"):
        workflow_from_dict(d, source="t.json")


def test_a_negative_file_size_names_the_key():
    d = doc14(lambda d: tasks_of(d)[1]["files"][0].update(sizeInBytes=-1))
    with pytest.raises(TraceError, match=r"key workflow\.tasks\[1\]\.files\[0\]\.sizeInBytes = -1 must be a finite number >= 0"):
        workflow_from_dict(d, source="t.json")


def test_an_unknown_machine_names_task_and_key():
    d = doc14(lambda d: tasks_of(d)[1].update(machine="m9"))
    with pytest.raises(TraceError, match=r"task 'b_ID02': key workflow\.tasks\[1\]\.machine names unknown machine 'm9'"):
        workflow_from_dict(d, source="t.json")


def test_a_cycle_names_the_file_and_the_cycle():
    d = doc14(lambda d: tasks_of(d)[0].update(parents=["c_ID03"]))
    with pytest.raises(TraceError, match=r"t\.json: job tiny: the task graph has a cycle"):
        workflow_from_dict(d, source="t.json")


def test_an_empty_task_list_names_the_key():
    d = as_1_0(doc14())
    d["workflow"]["jobs"] = []
    with pytest.raises(TraceError, match=r"t\.json: key workflow\.jobs is empty"):
        workflow_from_dict(d, source="t.json")


# -- the same workflow in 1.5 and before ------------------------------------------------------

def to_1_4(doc15):
    """A 1.5 document written as 1.4 (the inverse of WfCommons' migration: files declared per task,
    links by name, the execution fields on the task)."""
    spec, execution = doc15["workflow"]["specification"], doc15["workflow"]["execution"]
    sizes = {f["id"]: f["sizeInBytes"] for f in spec.get("files", [])}
    runs = {e["id"]: e for e in execution["tasks"]}
    names = {t["id"]: t["name"] for t in spec["tasks"]}
    tasks = []
    for t in spec["tasks"]:
        e = runs[t["id"]]
        task = {"name": t["name"], "id": t["id"], "type": "compute",
                "parents": [names[p] for p in t["parents"]], "children": [names[c] for c in t["children"]],
                "files": [{"link": "input", "name": f, "sizeInBytes": sizes[f]} for f in t.get("inputFiles", [])]
                + [{"link": "output", "name": f, "sizeInBytes": sizes[f]} for f in t.get("outputFiles", [])],
                "runtimeInSeconds": e["runtimeInSeconds"]}
        for old, new in (("coreCount", "cores"), ("memoryInBytes", "memoryInBytes"), ("command", "command")):
            if old in e:
                task[new] = e[old]
        if e.get("machines"):
            task["machine"] = e["machines"][0]
        tasks.append(task)
    machines = [{"nodeName": m["nodeName"], "cpu": {k2: m["cpu"][k1] for k1, k2 in (("coreCount", "count"), ("speedInMHz", "speed"))
                                                   if k1 in m.get("cpu", {})},
                 **({"memoryInBytes": m["memoryInBytes"]} if "memoryInBytes" in m else {})}
                for m in execution.get("machines", [])]
    return {"name": doc15.get("name"), "schemaVersion": "1.4",
            "workflow": {"makespanInSeconds": execution["makespanInSeconds"], "executedAt": execution.get("executedAt", ""),
                         "machines": machines, "tasks": tasks}}


def same_workflow(a, b):
    assert graph(a) == graph(b)
    assert (a.makespan_s, a.machines) == (b.makespan_s, b.machines)
    assert {t: m[:1] for t, m in a.task_machines.items()} == dict(b.task_machines)


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_every_shared_workflow_reads_the_same_in_1_4_and_1_3(workflow_file, name):
    path = workflow_file(name)
    with open(path, encoding="utf-8") as f:
        doc15 = json.load(f)
    w15 = read_wfformat(path)
    d14 = to_1_4(doc15)
    same_workflow(w15, workflow_from_dict(d14, source=name, job_id=w15.job.id))
    if all(m.get("memoryInBytes", 0) % 1000 == 0 for m in d14["workflow"]["machines"]) and \
            all(t.get("memoryInBytes", 0) % 1000 == 0 for t in d14["workflow"]["tasks"]):
        same_workflow(w15, workflow_from_dict(as_1_3(d14), source=name, job_id=w15.job.id))


@st.composite
def random_doc15(draw):
    """A random DAG of 1-12 tasks in 1.5: edges only from earlier to later tasks, each parent
    writing a file the child reads (sizes whole bytes), runtimes in hundredths of a second."""
    n = draw(st.integers(1, 12))
    edges = sorted(draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                                .filter(lambda e: e[0] < e[1]), max_size=20)))
    files = [{"id": f"out{i}", "sizeInBytes": draw(st.integers(0, 10**9))} for i in range(n)]
    tasks, runs = [], []
    for i in range(n):
        tid = f"t{i}_ID{i:05d}"
        tasks.append({"name": tid, "id": tid,
                      "parents": [f"t{p}_ID{p:05d}" for p, c in edges if c == i],
                      "children": [f"t{c}_ID{c:05d}" for p, c in edges if p == i],
                      "inputFiles": [f"out{p}" for p, c in edges if c == i], "outputFiles": [f"out{i}"]})
        run = {"id": tid, "runtimeInSeconds": draw(st.integers(0, 10**6)) / 100,
               "command": {"program": f"t{i}"}}
        if draw(st.booleans()):
            run["coreCount"] = draw(st.integers(1, 8))
        runs.append(run)
    return {"name": "random", "schemaVersion": "1.5",
            "workflow": {"specification": {"tasks": tasks, "files": files},
                         "execution": {"makespanInSeconds": 1.0, "executedAt": "x", "tasks": runs}}}


@settings(max_examples=60, deadline=None)
@given(random_doc15())
def test_a_random_dag_reads_the_same_in_every_version(doc15):
    w15 = workflow_from_dict(doc15, source="r.json")
    d14 = to_1_4(doc15)
    same_workflow(w15, workflow_from_dict(d14, source="r.json"))
    same_workflow(w15, workflow_from_dict(as_1_3(d14), source="r.json"))
    same_workflow(w15, workflow_from_dict(as_1_0(d14), source="r.json"))


def test_a_1_4_file_reads_like_its_dict(tmp_path):
    path = tmp_path / "tiny-run.json"
    path.write_text(json.dumps(DOC14))
    w = read_wfformat(path, submit_time=5.0, cloud=1)
    assert (w.job.id, w.job.submit_time, w.job.cloud, w.name, w.source) == ("tiny-run", 5.0, 1, "tiny", str(path))
