"""Cloud-system scenarios (federation with dags or leases): they load, run as the Python API does,
and bad input is an error naming the file, the line, the key and the job, task or lease."""

from __future__ import annotations

import json
import textwrap

import pytest

from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

FED = """\
federation:
  vm_types:
    v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 32}
    v1: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 32}
  clouds:
    - {name: c0, vm_type: v0, vms: 2}
    - {name: c1, vm_type: v1, vms: 2}
  inter_cloud_mbps: 8
  matrix:
    times:
      a: {v0: 10, v1: 40}
      b: {v0: 50, v1: 20}
      c: {v0: 10, v1: 30}
"""

CHAIN = FED + """\
dags:
  jobs:
    - id: chain
      cloud: 0
      tasks:
        A: {type: a, image_mb: 64}
        B: {type: b, image_mb: 64}
        C: {type: c, image_mb: 64}
      edges: [[A, B, 16], [B, C, 16]]
broker: [fdls, fdmms]
"""

LEASES = """\
federation:
  vm_types: {node: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 128}}
  clouds: [{name: site, vm_type: node, vms: 4, copy_mbps: 32}]
leases:
  requests:
    - {id: 1, submit: 0, mode: best-effort, duration: 3600, nodes: 1, memory_mb: 1024, image_mb: 1024}
    - {id: 2, submit: 900, mode: ar, start: 1800, duration: 1800, nodes: 4, memory_mb: 1024, image_mb: 1024}
"""


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_dag_scenario_runs_the_chain_of_the_python_test(tmp_path):
    # The 3-task chain of tests/federation/test_federation.py, written in YAML: A on c0 to 12, B
    # on c1 to 36, C on c0 to 50, under both policies.
    runs = run_scenario(load_scenario(write(tmp_path, CHAIN)), str(tmp_path / "out"))
    assert [p for p, _ in runs] == ["fdls", "fdmms"]
    for _, r in runs:
        assert r.summary["avg_job_time"] == 50.0 and r.summary["dag_jobs_finished"] == 1
    doc = json.loads((tmp_path / "out" / "fdls" / "summary.json").read_text())
    assert doc["summary"]["avg_job_time"] == 50.0 and [c["name"] for c in doc["clouds"]] == ["c0", "c1"]
    rows = (tmp_path / "out" / "fdls" / "intervals.csv").read_text().splitlines()
    assert rows[0] == "cloud,job,kind,start,end,vms" and "c1,2,run,16.0,36.0,0" in rows
    assert (tmp_path / "out" / "fdmms" / "dag_jobs.csv").read_text().splitlines()[1] == "chain,0,0.0,0.0,50.0,3,False,finished,"


def test_a_lease_scenario_runs_haizeas_preemption_case(tmp_path):
    # preemption.lwf written inline: lease 1 ends at 5480 (suspended at 1760, resumed at 3600).
    sc = load_scenario(write(tmp_path, LEASES))
    assert sc.brokers[0].policy == "leases"            # the default for leases
    (_, r), = run_scenario(sc)
    assert r.summary["be_done"] == 5480.0 and r.summary["be_preempted"] == 1 and r.summary["ar_late"] == 0
    assert r.summary["vm_s_save"] == 32.0 and r.summary["vm_s_reload"] == 32.0


def test_a_lease_file_scenario_reads_the_file_relative_to_the_scenario(tmp_path, lease_file):
    src = lease_file("haizea-tests/preemption.lwf")
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "p.lwf").write_text(src.read_text())
    text = LEASES.split("leases:")[0] + "leases: {lwf: w/p.lwf}\nbroker: {policy: leases, params: {preemption: start-late}}\n"
    (_, r), = run_scenario(load_scenario(write(tmp_path, text)))
    assert r.summary["be_done"] == 3608.0 and r.summary["ar_avg_delay"] == 1816.0


def test_a_generated_workload_is_the_same_for_the_same_seed(tmp_path):
    text = FED.replace("a: {v0: 10, v1: 40}", "0: {v0: 10, v1: 40}").split("  matrix:")[0] + """\
  matrix: {random: {task_types: 8}}
dags:
  model: {name: li, jobs: 6, arrivals: tight, clouds: 2, cpus: [1, 2]}
seed: 4
"""
    a = run_scenario(load_scenario(write(tmp_path, text)))[0][1].summary
    b = run_scenario(load_scenario(write(tmp_path, text)))[0][1].summary
    assert a["avg_job_time"] == b["avg_job_time"] and a["dag_jobs_finished"] == 6


# -- bad input -------------------------------------------------------------------------------------

def error(tmp_path, text, run=False):
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as exc:
        sc = load_scenario(path)
        if run:
            run_scenario(sc)
    return str(exc.value)


def test_a_dag_with_a_cycle_names_the_file_line_job_and_key(tmp_path):
    msg = error(tmp_path, CHAIN.replace("[[A, B, 16], [B, C, 16]]", "[[A, B, 16], [B, C, 16], [C, A]]"))
    assert msg.startswith(f"{tmp_path / 's.yaml'}:")
    assert "dags.jobs.0.edges: job chain: the task graph has a cycle 'A' -> 'B' -> 'C' -> 'A'" in msg


def test_a_task_type_missing_from_the_matrix_names_job_task_and_key(tmp_path):
    msg = error(tmp_path, CHAIN.replace("C: {type: c,", "C: {type: gemm,"))
    assert ":21: dags.jobs.0.tasks.C.type: job chain, task 'C': task type 'gemm' is not in the " \
           "execution-time matrix (types: 'a', 'b', 'c')" in msg


def test_an_ar_lease_that_starts_in_the_past_names_the_lease_and_key(tmp_path):
    msg = error(tmp_path, LEASES.replace("start: 1800", "start: 600"))
    assert ":7: leases.requests.1.start: lease 2: advance reservation starts at 600 s, before its " \
           "submission at 900 s" in msg


def test_an_ar_lease_in_a_file_that_starts_in_the_past_is_an_error_in_strict_mode(tmp_path):
    # Line 2 of the old-format file: an AR submitted at 100 for 50.
    (tmp_path / "ar.lwf").write_text("0 600 60 60 1 1 1024 0 img 600\n100 50 60 60 1 1 1024 0 img 600\n")
    base = LEASES.split("leases:")[0]
    msg = error(tmp_path, base + "leases: {lwf: ar.lwf, strict: true}\n", run=True)
    assert f"leases: {tmp_path / 'ar.lwf'}:2: lease 2: advance reservation starts at 50 s" in msg
    # not strict: skipped and counted, the other lease runs
    (_, r), = run_scenario(load_scenario(write(tmp_path, base + "leases: {lwf: ar.lwf}\n")))
    assert r.summary["jobs_finished"] == 1


def test_an_ar_lease_asking_more_than_the_cloud_has_is_an_error(tmp_path):
    msg = error(tmp_path, LEASES.replace("duration: 1800, nodes: 4", "duration: 1800, nodes: 5"))
    assert ":7: leases.requests.1.nodes: lease 2 asks 5 VMs, more than cloud 'site' has (4)" in msg
    (tmp_path / "big.lwf").write_text("0 600 60 60 9 1 1024 0 img 600\n")
    msg = error(tmp_path, LEASES.split("leases:")[0] + "leases: {lwf: big.lwf}\n", run=True)
    assert f"{tmp_path / 'big.lwf'}:1: lease 1 asks 9 VMs, more than cloud 'site' has (4)" in msg


def test_a_vm_type_with_zero_cpus_names_the_vm_type_and_key(tmp_path):
    msg = error(tmp_path, CHAIN.replace("v1: {cpus: 1,", "v1: {cpus: 0,"))
    assert ":4: federation.vm_types.v1.cpus: VM type 'v1': cpus = 0 must be an integer >= 1" in msg


def test_a_malformed_lwf_element_names_the_file_line_and_element(tmp_path):
    (tmp_path / "bad.lwf").write_text(textwrap.dedent("""\
        <lease-workload name="bad">
          <lease-requests>
            <lease-request arrival="00:00:00">
              <lease id="1" preemptible="true">
                <nodes><node-set numnodes="1"><res type="CPU" amount="100"/><res type="Memory" amount="1024"/></node-set></nodes>
                <start/>
                <duration time="1h"/>
                <software><none/></software>
              </lease>
            </lease-request>
          </lease-requests>
        </lease-workload>
        """))
    msg = error(tmp_path, LEASES.split("leases:")[0] + "leases: {lwf: bad.lwf}\n", run=True)
    assert (f"leases: {tmp_path / 'bad.lwf'}:7: <lease-workload/lease-requests[1]/lease-request[1]/lease[1]/"
            "duration[1]>: attribute 'time' = '1h' is invalid") in msg


def test_a_workflow_whose_parents_and_children_disagree_names_file_task_and_key(tmp_path, workflow_file):
    doc = json.loads(workflow_file("helloworld-chain-5-chameleon.json").read_text())
    tasks = doc["workflow"]["specification"]["tasks"]
    tasks[1]["parents"] = []            # task 1 no longer lists task 0, which lists it as a child
    (tmp_path / "wf.json").write_text(json.dumps(doc))
    text = FED.split("  matrix:")[0] + "dags: {workflows: [wf.json]}\n"
    msg = error(tmp_path, text, run=True)
    assert f"dags: {tmp_path / 'wf.json'}: task {tasks[0]['id']!r} lists {tasks[1]['id']!r} in " \
           "workflow.specification.tasks[0].children" in msg
    assert "(parents and children disagree)" in msg


@pytest.mark.parametrize("change, where, message", [
    (lambda t: t.replace("vm_type: v1, vms: 2", "vm_type: v9, vms: 2"), "federation.clouds.1.vm_type",
     "unknown VM type 'v9'; known: v0, v1"),
    (lambda t: t.replace("c: {v0: 10, v1: 30}", "c: {v0: 10}"), "federation.matrix.times.c.v1",
     "missing: every task type needs a time on every VM type"),
    (lambda t: t.replace("broker: [fdls, fdmms]", "broker: easy"), "broker.policy",
     "policy 'easy' cannot run dags: give a cloud-system policy (fdls, fdmms)"),
    (lambda t: t.replace("      cloud: 0\n", "      cloud: 7\n"), "dags.jobs.0.cloud",
     "job chain: cloud 7, the system has 2"),
    (lambda t: t.replace("A: {type: a,", "A: {type: a, cpus: 3,"), "dags.jobs.0.tasks.A.cpus",
     "job chain, task 'A': needs 3 CPUs, more than any cloud has (2)"),
    (lambda t: t.replace("  inter_cloud_mbps: 8\n", "  inter_cloud_mbps: 0\n"), "federation.inter_cloud_mbps",
     "must be > 0"),
    (lambda t: t.replace("dags:", "workload: {jobs: [{submit: 0, procs: 1, runtime: 1}]}\ndags:"), "workload",
     "a cloud system runs dags or leases, not workload"),
])
def test_bad_cloud_scenarios_name_the_key(tmp_path, change, where, message):
    msg = error(tmp_path, change(CHAIN))
    assert f": {where}: {message}" in msg


def test_leases_need_one_cloud_and_a_lease_scheduler(tmp_path):
    two = LEASES.replace("clouds: [{name: site, vm_type: node, vms: 4, copy_mbps: 32}]",
                         "clouds: [{name: a, vm_type: node, vms: 4}, {name: b, vm_type: node, vms: 4}]")
    assert "federation.clouds: a lease workload runs on one cloud; 2 are given" in error(tmp_path, two)
    assert "broker.policy: policy 'fdls' cannot run leases" in error(tmp_path, LEASES + "broker: fdls\n")
    assert "dags and leases run on clouds: give federation" in error(tmp_path, "leases: {requests: []}\n")


def test_the_command_line_validates_and_runs_a_cloud_scenario(tmp_path, capsys):
    from cloudsim_py.cli import main

    path = write(tmp_path, CHAIN)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 DAG job(s) on 2 cloud(s): c0 (2 x v0), c1 (2 x v1)" in out and "1 DAG jobs read" in out
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out
    assert "avg job execution time (s)" in out and "50.00" in out


def test_the_scenario_examples_of_docs_federation_md_are_valid(tmp_path, lease_file):
    # Both YAML examples of the scenario-keys section load as written (the lease one reads the
    # shared Blue files, through $CLOUDSIM_PY_LEASES).
    import re
    from pathlib import Path

    lease_file("blue-30days/30days.swf")
    doc = (Path(__file__).resolve().parents[2] / "docs" / "federation.md").read_text()
    section = doc.split("## Scenario keys", 1)[1].split("\n## ", 1)[0]
    dag_example, lease_example = re.findall(r"```yaml\n(.*?)```", section, re.S)
    sc = load_scenario(write(tmp_path, dag_example, "dags.yaml"))
    assert [b.policy for b in sc.brokers] == ["fdls", "fdmms"] and sc.system.dags.model["jobs"] == 64
    from cloudsim_py.workload.shared_data import leases_dir

    sc = load_scenario(write(tmp_path, lease_example, "leases.yaml"), env={"CLOUDSIM_PY_LEASES": leases_dir()})
    assert sc.brokers[0].params["preemption"] == "suspend" and sc.system.federation.clouds[0].vms == 144
