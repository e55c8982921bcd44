"""WfFormat workflows: every shared instance parses, its critical path under the measured runtimes
is as computed by hand (chain, fork-join) or by an independent longest-path computation, and bad
documents give errors naming file, task and key."""

import copy
import json

import networkx as nx
import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload.dag import critical_path, runtime_cost
from cloudsim_py.workload.wfformat import read_wfformat, workflow_from_dict

#: file: (tasks, edges, critical path of the measured runtimes (s), measured makespan (s)).
#: Tasks and makespans are those of the files (PROVENANCE.md); edges counted from the
#: specification; critical paths as in docs/dag-and-leases.md (checked below against networkx).
WORKFLOWS = {
    "helloworld-chain-5-chameleon.json": (5, 4, 501.240, 661.0),
    "helloworld-forkjoin-10-chameleon.json": (10, 16, 307.360, 437.0),
    "srasearch-chameleon-10a-001.json": (22, 30, 1005.858, 3488.0),
    "epigenomics-chameleon-hep-1seq-100k-001.json": (41, 48, 104.822, 594.0),
    "1000genome-chameleon-2ch-100k-001.json": (52, 76, 204.686, 776.0),
    "montage-chameleon-dss-05d-001.json": (58, 114, 559.794, 870.0),
    "soykb-chameleon-10fastq-10ch-001.json": (96, 194, 2933.276, 9323.0),
    "seismology-chameleon-100p-001.json": (101, 100, 2.840, 354.0),
}


def networkx_longest_path(job):
    """Independent check: split every task t into (t, in) -> (t, out) weighted by its runtime."""
    g = nx.DiGraph()
    for t, runtime in job.graph.nodes(data="runtime"):
        g.add_edge((t, "in"), (t, "out"), weight=runtime)
    for u, v in job.graph.edges:
        g.add_edge((u, "out"), (v, "in"), weight=0.0)
    return nx.dag_longest_path_length(g, weight="weight")


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_every_shared_workflow_parses_with_its_critical_path(workflow_file, name):
    w = read_wfformat(workflow_file(name))
    tasks, edges, cp, makespan = WORKFLOWS[name]
    length, path = critical_path(w.job, runtime_cost(w.job))
    assert (w.job.tasks, w.job.graph.number_of_edges(), w.makespan_s) == (tasks, edges, makespan)
    assert length == pytest.approx(cp, abs=5e-4)
    assert length == pytest.approx(networkx_longest_path(w.job), rel=1e-12)
    assert length <= w.makespan_s                    # the run cannot beat its critical path
    assert w.job.id == name[:-len(".json")]


def test_chain_critical_path_is_the_sum_of_its_five_runtimes(workflow_file):
    # 100.376 + 100.120 + 99.396 + 100.886 + 100.462 = 501.240 s; each edge carries one
    # 16,666,667-byte file = 16.666667 MB
    w = read_wfformat(workflow_file("helloworld-chain-5-chameleon.json"))
    assert critical_path(w.job, runtime_cost(w.job))[0] == pytest.approx(501.240, abs=1e-9)
    assert [d for _, _, d in w.job.graph.edges(data="data_mb")] == [16.666667] * 4


def test_forkjoin_critical_path_goes_through_its_slowest_branch(workflow_file):
    # 100.187 (fork) + 107.353 (task 2, the slowest of 8 branches) + 99.820 (join) = 307.360 s
    w = read_wfformat(workflow_file("helloworld-forkjoin-10-chameleon.json"))
    length, path = critical_path(w.job, runtime_cost(w.job))
    assert length == pytest.approx(307.360, abs=1e-9)
    assert path == ["cpuhog_forkjoin_00000001", "cpuhog_forkjoin_00000002", "cpuhog_forkjoin_00000010"]


def test_task_fields_and_machines(workflow_file):
    w = read_wfformat(workflow_file("helloworld-chain-5-chameleon.json"))
    first = w.job.graph.nodes["cpuhog_chain_00000001"]
    assert first == {"runtime": 100.376, "type": "cpuhog", "name": "cpuhog_chain_00000001", "memory_mb": 0.087824}
    [m] = w.machines
    assert (m.name, m.cores, m.speed_mhz) == ("ubuntu", 64, 1200.0)
    assert w.task_machines["cpuhog_chain_00000001"] == ("ubuntu",)


def test_seismology_ran_on_three_machines(workflow_file):
    w = read_wfformat(workflow_file("seismology-chameleon-100p-001.json"))
    assert [(m.name, m.speed_mhz) for m in w.machines] == [("compute-5", 1575.0), ("compute-7", 1825.0),
                                                             ("compute-3", 1200.0)]


# -- errors -----------------------------------------------------------------------------------

DOC = {
    "name": "tiny", "schemaVersion": "1.5",
    "workflow": {
        "specification": {
            "tasks": [
                {"name": "a", "id": "a", "parents": [], "children": ["b"], "inputFiles": [], "outputFiles": ["f"]},
                {"name": "b", "id": "b", "parents": ["a"], "children": [], "inputFiles": ["f"], "outputFiles": []},
            ],
            "files": [{"id": "f", "sizeInBytes": 3_000_000}],
        },
        "execution": {
            "makespanInSeconds": 10.0, "executedAt": "2020-01-01T00:00:00Z",
            "tasks": [{"id": "a", "runtimeInSeconds": 2.0, "coreCount": 2},
                      {"id": "b", "runtimeInSeconds": 3.0, "command": {"program": "bee"}}],
        },
    },
}


def doc(edit=None):
    d = copy.deepcopy(DOC)
    if edit:
        edit(d)
    return d


def spec_tasks(d):
    return d["workflow"]["specification"]["tasks"]


def test_a_tiny_document_reads_exactly():
    w = workflow_from_dict(doc(), source="tiny.json")
    assert w.job.id == "tiny" and w.makespan_s == 10.0
    assert dict(w.job.graph.nodes(data=True)) == {"a": {"runtime": 2.0, "type": "a", "name": "a", "cpus": 2.0},
                                                  "b": {"runtime": 3.0, "type": "bee", "name": "b"}}
    assert w.job.data_mb("a", "b") == 3.0        # file f: 3,000,000 bytes


def test_parents_and_children_that_disagree_name_file_task_and_key():
    d = doc(lambda d: spec_tasks(d)[1].update(parents=[]))
    with pytest.raises(TraceError, match=r"tiny\.json: task 'a' lists 'b' in workflow\.specification\.tasks\[0\]\.children, "
                                         r"but 'b' does not list 'a' in workflow\.specification\.tasks\[1\]\.parents "
                                         r"\(parents and children disagree\)"):
        workflow_from_dict(d, source="tiny.json")


def test_an_unknown_parent_names_the_task_and_key():
    d = doc(lambda d: spec_tasks(d)[1].update(parents=["a", "zz"]))
    with pytest.raises(TraceError, match=r"task 'b': key workflow\.specification\.tasks\[1\]\.parents names unknown task 'zz'"):
        workflow_from_dict(d, source="tiny.json")


def test_a_task_without_execution_entry_is_a_missing_runtime():
    d = doc(lambda d: d["workflow"]["execution"]["tasks"].pop())
    with pytest.raises(TraceError, match=r"tiny\.json: task 'b': no entry in workflow\.execution\.tasks \(missing runtime\)"):
        workflow_from_dict(d, source="tiny.json")


def test_an_execution_entry_without_runtime_names_the_key():
    d = doc(lambda d: d["workflow"]["execution"]["tasks"][1].pop("runtimeInSeconds"))
    with pytest.raises(TraceError, match=r"key workflow\.execution\.tasks\[b\]\.runtimeInSeconds is missing"):
        workflow_from_dict(d, source="tiny.json")


def test_an_execution_entry_for_an_unknown_task_is_an_error():
    d = doc(lambda d: d["workflow"]["execution"]["tasks"].append({"id": "c", "runtimeInSeconds": 1.0}))
    with pytest.raises(TraceError, match=r"workflow\.execution\.tasks\[2\]: execution entry for unknown task 'c'"):
        workflow_from_dict(d, source="tiny.json")


def test_a_cycle_is_an_error_naming_file_job_and_cycle():
    def edit(d):
        spec_tasks(d)[0]["parents"] = ["b"]
        spec_tasks(d)[1]["children"] = ["a"]
    with pytest.raises(TraceError, match=r"tiny\.json: job tiny: the task graph has a cycle 'a' -> 'b' -> 'a'"):
        workflow_from_dict(doc(edit), source="tiny.json")


def test_an_undeclared_file_names_task_and_key():
    d = doc(lambda d: spec_tasks(d)[1].update(inputFiles=["f", "g"]))
    with pytest.raises(TraceError, match=r"task 'b': key workflow\.specification\.tasks\[1\]\.inputFiles names undeclared file 'g'"):
        workflow_from_dict(d, source="tiny.json")


def test_a_duplicate_task_id_is_an_error():
    d = doc(lambda d: spec_tasks(d).append(dict(spec_tasks(d)[0])))
    with pytest.raises(TraceError, match=r"workflow\.specification\.tasks\[2\]: task id 'a' is declared twice"):
        workflow_from_dict(d, source="tiny.json")


def test_an_unsupported_schema_version_is_an_error():
    with pytest.raises(TraceError, match=r"key schemaVersion = '2.0' is not supported "
                                         r"\(supported: 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6\)"):
        workflow_from_dict(doc(lambda d: d.update(schemaVersion="2.0")), source="tiny.json")


def test_a_missing_specification_names_the_key():
    d = doc(lambda d: d["workflow"].pop("specification"))
    with pytest.raises(TraceError, match=r"tiny\.json: key workflow\.specification is missing"):
        workflow_from_dict(d, source="tiny.json")


def test_invalid_json_names_the_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "name": "x",\n  "workflow": \n}\n')
    with pytest.raises(TraceError, match=r"bad\.json:4: invalid JSON"):
        read_wfformat(path)


def test_a_file_reads_like_its_dict(tmp_path):
    path = tmp_path / "tiny-run.json"
    path.write_text(json.dumps(DOC))
    w = read_wfformat(path, submit_time=5.0, cloud=1)
    assert (w.job.id, w.job.submit_time, w.job.cloud, w.name) == ("tiny-run", 5.0, 1, "tiny")


def test_an_edges_data_is_the_same_sum_whatever_the_string_hashes(tmp_path):
    """Fractional file sizes summed in the child's order, not a set's (whose order follows
    PYTHONHASHSEED): the same bits in every process."""
    import os
    import subprocess
    import sys

    names = [f"f{i}" for i in range(12)]
    sizes = [0.1 * 10 ** (i % 7) + i / 3 for i in range(12)]
    d = doc(lambda d: (spec_tasks(d)[0].update(outputFiles=names), spec_tasks(d)[1].update(inputFiles=names),
                       d["workflow"]["specification"].update(files=[{"id": n, "sizeInBytes": s}
                                                                      for n, s in zip(names, sizes)])))
    path = tmp_path / "w.json"
    path.write_text(json.dumps(d))
    code = ("import sys; from cloudsim_py.workload.wfformat import read_wfformat; "
            f"print(repr(read_wfformat({str(path)!r}).job.data_mb('a', 'b')))")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONPATH=repo)).stdout
            for seed in range(6)}
    assert len(seen) == 1
