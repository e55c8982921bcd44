"""A generated corpus of bad inputs (issue 17): each is given to the command line as a user
would, and each must be refused with one clear line (``cloudsim-py: error: ...`` naming the
file, and the key or line where there is one), exit code 2, in bounded time: no traceback, no
hang, nothing accepted.

The corpus is made, not listed: every number of three small valid scenarios (a datacenter, a
cloud of leases, two clouds of DAG jobs) replaced by values no such number may take; a key no
section knows added to every section; every field of an SWF line spoiled; every attribute of a
Haizea lease file spoiled (with ``strict: true``: without it an invalid lease is skipped and
counted, a row in ``jobs.csv`` with the reason); bad command-line options. The base inputs themselves must pass (a
corpus of refusals is worth nothing if everything is refused)."""

from __future__ import annotations

import copy
import json
import os
import signal
from typing import Any, Iterator

import pytest
import yaml

from cloudsim_py.cli import main

DATACENTER = {
    "name": "dc",
    "seed": 1,
    "datacenter": {"hosts": 4, "tiers": 2},
    "workload": {"jobs": [{"id": 1, "submit": 0, "procs": 2, "runtime": 100, "estimate": 200},
                          {"id": 2, "submit": 10, "procs": 4, "runtime": 50}]},
    "broker": {"policy": "easy"},
}
LEASES = {
    "name": "leases",
    "federation": {"vm_types": {"v0": {"cpus": 2, "memory_mb": 1024, "disk_mb": 0, "bandwidth_mbps": 100}},
                   "clouds": [{"name": "c0", "vm_type": "v0", "vms": 2, "copy_mbps": 32}],
                   "latency": 0.5},
    "leases": {"requests": [{"id": 1, "submit": 0, "mode": "ar", "duration": 100, "nodes": 1, "start": 50},
                            {"id": 2, "submit": 5, "mode": "best-effort", "duration": 100, "nodes": 1}]},
    "broker": {"policy": "leases"},
}
DAGS = {
    "name": "dags",
    "federation": {"vm_types": {"v0": {"cpus": 1, "memory_mb": 1024, "disk_mb": 0, "bandwidth_mbps": 100}},
                   "clouds": [{"name": "c0", "vm_type": "v0", "vms": 2}, {"name": "c1", "vm_type": "v0", "vms": 3}],
                   "latency": 1},
    "dags": {"jobs": [{"id": "j1", "submit": 0, "tasks": {"a": {"runtime": 10, "cpus": 1}, "b": {"runtime": 5}},
                       "edges": [["a", "b"]]},
                      {"id": "j2", "submit": 30, "tasks": {"c": {"runtime": 20}}}]},
    "broker": {"policy": "fdls"},
}
BASES = {"datacenter": DATACENTER, "leases": LEASES, "dags": DAGS}

#: values no number of these scenarios may take (a seed and an id may be negative; an AR's
#: start may lie before its submission, which is a lease the loader skips and counts)
NOT_A_NUMBER = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf"), "text": "abc",
                "list": [1], "mapping": {"k": 1}, "bool": True, "null": None}
NEGATIVE_OK = {"seed", "id", "start"}
#: mappings whose keys are names of the user's (a key added there is a new entry, not unknown)
NAMED = {"vm_types", "tasks"}


def leaves(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list) and path[-1:] != ("edges",):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    else:
        yield path, node


def mappings(node: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(node, dict):
        if path[-1:] and path[-1] not in NAMED or not path:
            yield path
        for k, v in node.items():
            yield from mappings(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from mappings(v, path + (i,))


def put(doc: dict, path: tuple, value: Any) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return doc


def scenario_cases() -> Iterator[tuple[str, dict]]:
    for kind, base in BASES.items():
        for path, value in leaves(base):
            key = ".".join(map(str, path))
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            bad = dict(NOT_A_NUMBER)
            if path[-1] not in NEGATIVE_OK:
                bad["-1"] = -1
            for name, v in bad.items():
                yield f"{kind}:{key}={name}", put(base, path, v)
        for path in mappings(base):
            key = ".".join(map(str, path)) or "(top)"
            node = base
            for k in path:
                node = node[k]
            yield f"{kind}:{key}+unknown", put(base, path + ("no_such_key",), 1) if path else {**base, "no_such_key": 1}
        for path, value in leaves(base):
            if path[-1] in ("policy", "vm_type", "mode"):
                yield f"{kind}:{'.'.join(map(str, path))}=unknown", put(base, path, "no-such-name")


SWF_LINE = "1 0 5 100 2 -1 -1 2 200 -1 1 1 1 1 1 -1 -1 -1"
SWF_FIELDS = ["job", "submit", "wait", "run", "alloc_procs", "avg_cpu", "used_mem", "req_procs", "req_time",
              "req_mem", "status", "user", "group", "app", "queue", "partition", "preceding", "think"]


def swf_cases() -> Iterator[tuple[str, str]]:
    fields = SWF_LINE.split()
    for i, name in enumerate(SWF_FIELDS):
        for bad in ("x", "nan", "inf", "1e400", "0x10"):
            spoiled = list(fields)
            spoiled[i] = bad
            yield f"swf:{name}={bad}", " ".join(spoiled)
    yield "swf:17 fields", " ".join(fields[:17])
    yield "swf:empty field list", ";only a comment\n" + " ".join(fields[:3])
    for i, bad in ((0, "1.5"), (0, "9007199254740993"), (1, "-5"), (1, "1e300"), (3, "2e12"),
                   (4, "2.5"), (4, "20000000"), (7, "1.5"), (8, "1e13")):
        spoiled = list(fields)
        spoiled[i] = bad
        yield f"swf:{SWF_FIELDS[i]}={bad}", " ".join(spoiled)


LWF = """<lease-workload name="corpus">
  <lease-requests>
    <lease-request arrival="{arrival}">
      <lease id="1" preemptible="{preemptible}">
        <nodes>
          <node-set numnodes="{numnodes}">
            <res type="CPU" amount="{cpu}"/>
            <res type="Memory" amount="{memory}"/>
          </node-set>
        </nodes>
        <start/>
        <duration time="{duration}"/>
        <software>
          <disk-image id="foobar.img" size="{size}"/>
        </software>
      </lease>
    </lease-request>
  </lease-requests>
</lease-workload>
"""
LWF_GOOD = {"arrival": "00:00:00.00", "preemptible": "true", "numnodes": "1", "cpu": "100", "memory": "1024",
            "duration": "01:00:00.00", "size": "1024"}


def lwf_cases() -> Iterator[tuple[str, str]]:
    bad_values = {"arrival": ("x", "-01:00:00.00", "00:00"), "preemptible": ("maybe",),
                  "numnodes": ("x", "0", "-1", "1.5", "nan"), "cpu": ("x", "nan", "-100"),
                  "memory": ("x", "nan", "inf", "-1"), "duration": ("x", "-00:10:00.00", "nan"),
                  "size": ("x", "nan", "inf", "-5")}
    for key, values in bad_values.items():
        for v in values:
            yield f"lwf:{key}={v}", LWF.format(**{**LWF_GOOD, key: v})
    yield "lwf:not closed", LWF.format(**LWF_GOOD)[:-30]
    yield "lwf:not xml", "lease please\n"


def _chain_workflow() -> dict | None:
    """The shared 5-task chain workflow (WfFormat 1.5), or None when the workflows are missing."""
    from cloudsim_py.workload.shared_data import workflows_dir

    path = os.path.join(workflows_dir(), "helloworld-chain-5-chameleon.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


WORKFLOW = _chain_workflow()
#: WfFormat values of the wrong kind (JSON has no NaN): each number, name or list replaced
NOT_JSON_NUMBER = {"text": "abc", "list": [1], "mapping": {"k": 1}, "bool": True, "null": None, "-1": -1}


def wfformat_cases() -> Iterator[tuple[str, dict]]:
    if WORKFLOW is None:
        return
    tasks = ("workflow", "specification", "tasks")
    execution = ("workflow", "execution", "tasks")
    first = WORKFLOW["workflow"]["execution"]["tasks"][0]
    for key, value in first.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or key not in ("runtimeInSeconds",):
            continue
        for name, bad in NOT_JSON_NUMBER.items():
            yield f"wfformat:execution.tasks[0].{key}={name}", put(WORKFLOW, execution + (0, key), bad)
    for key in ("id", "children", "parents"):
        for name, bad in (("null", None), ("number", 7), ("unknown", ["no-such-task"]) if key != "id" else ("list", [1])):
            yield f"wfformat:specification.tasks[1].{key}={name}", put(WORKFLOW, tasks + (1, key), bad)
    yield "wfformat:no tasks key", put(WORKFLOW, ("workflow", "specification"), {"files": []})
    yield "wfformat:a task twice", put(WORKFLOW, tasks, WORKFLOW["workflow"]["specification"]["tasks"] * 2)
    yield "wfformat:not an object", {"workflow": []}


#: a 1.4 instance (schema before the specification/execution split), written here so that its
#: cases do not need ../shared; ``LEGACY13`` the same in 1.3's names and units
LEGACY14 = {
    "name": "legacy", "schemaVersion": "1.4",
    "workflow": {
        "makespanInSeconds": 9.0, "executedAt": "2020-01-01T00:00:00Z",
        "machines": [{"nodeName": "m1", "cpu": {"count": 4, "speed": 2000}, "memoryInBytes": 8_000_000_000}],
        "tasks": [
            {"name": "a_ID1", "id": "ID1", "parents": [], "children": ["b_ID2"], "runtimeInSeconds": 2.0,
             "cores": 1, "memoryInBytes": 1000, "machine": "m1",
             "files": [{"link": "output", "name": "f", "sizeInBytes": 10}]},
            {"name": "b_ID2", "id": "ID2", "parents": ["a_ID1"], "runtimeInSeconds": 3.0,
             "files": [{"link": "input", "name": "f", "sizeInBytes": 10}]},
        ],
    },
}
LEGACY13 = {
    "name": "legacy", "schemaVersion": "1.3",
    "workflow": {
        "makespan": 9.0, "executedAt": "2020-01-01T00:00:00Z",
        "machines": [{"nodeName": "m1", "cpu": {"count": 4, "speed": 2000}, "memory": 8_000_000}],
        "tasks": [
            {"name": "a_ID1", "parents": [], "runtime": 2.0, "memory": 1,
             "files": [{"link": "output", "name": "f", "size": 10}]},
            {"name": "b_ID2", "parents": ["a_ID1"], "runtime": 3.0,
             "files": [{"link": "input", "name": "f", "size": 10}]},
        ],
    },
}


def legacy_wfformat_cases() -> Iterator[tuple[str, dict]]:
    """Every number, name and list of the 1.4 and 1.3 documents spoiled."""
    for label, doc, keys, file_key, top in (
            ("1.4", LEGACY14, ("runtimeInSeconds", "cores", "memoryInBytes"), "sizeInBytes", "makespanInSeconds"),
            ("1.3", LEGACY13, ("runtime", "memory"), "size", "makespan")):
        tasks = ("workflow", "tasks")
        for key in keys:
            for name, bad in NOT_JSON_NUMBER.items():
                if key == "memory" and name == "null":
                    continue                  # an absent memory is allowed
                if key in ("cores", "memoryInBytes") and name == "null":
                    continue
                yield f"wfformat {label}:tasks[0].{key}={name}", put(doc, tasks + (0, key), bad)
        for name, bad in NOT_JSON_NUMBER.items():
            yield f"wfformat {label}:files[0].{file_key}={name}", put(doc, tasks + (1, "files", 0, file_key), bad)
            yield f"wfformat {label}:{top}={name}", put(doc, ("workflow", top), bad)
        for key, bads in (("name", (("null", None), ("number", 7), ("list", [1]))),
                          ("parents", (("number", 7), ("unknown", ["no-such-task"]), ("mapping", {"a": 1}))),
                          ("files", (("number", 7), ("text", "f"))),
                          ("machine", (("unknown", "m9"), ("number", 7)))):
            for name, bad in bads:
                yield f"wfformat {label}:tasks[1].{key}={name}", put(doc, tasks + (1, key), bad)
        yield f"wfformat {label}:a task twice", put(doc, tasks, doc["workflow"]["tasks"] * 2)
        yield f"wfformat {label}:no tasks", put(doc, tasks, [])
        yield f"wfformat {label}:a cycle", put(doc, tasks + (0, "parents"), ["b_ID2"])
        yield f"wfformat {label}:tasks not a list", put(doc, tasks, {"a": 1})


#: a two-job DAX workflow (Pegasus XML), each attribute of which the cases below spoil
DAX = """<?xml version="1.0" encoding="UTF-8"?>
<adag xmlns="http://pegasus.isi.edu/schema/DAX" version="2.1" name="two">
  <job id="a" name="split" runtime="2" cores="1">
    <uses file="f" link="output" size="10"/>
  </job>
  <job id="b" name="join" runtime="3">
    <uses file="f" link="input" size="10"/>
  </job>
  <child ref="b"><parent ref="a"/></child>
</adag>
"""


def dax_cases() -> Iterator[tuple[str, str]]:
    for attr, good in (('runtime="2"', "2"), ('size="10"', "10"), ('cores="1"', "1")):
        key = attr.split("=")[0]
        for name, bad in (("text", "abc"), ("nan", "nan"), ("inf", "inf"), ("-1", "-1"), ("1e400", "1e400"),
                          ("empty", ""), ("5000 digits", "9" * 5000)):
            yield f"dax:{key}={name}", DAX.replace(attr, f'{key}="{bad}"', 1)
    yield "dax:no runtime", DAX.replace(' runtime="2"', "", 1)
    yield "dax:no id", DAX.replace('id="a" ', "", 1)
    yield "dax:an id twice", DAX.replace('id="b"', 'id="a"', 1)
    yield "dax:unknown parent", DAX.replace('<parent ref="a"/>', '<parent ref="zz"/>')
    yield "dax:unknown child", DAX.replace('<child ref="b">', '<child ref="zz">')
    yield "dax:a cycle", DAX.replace("</adag>", '<child ref="a"><parent ref="b"/></child></adag>')
    yield "dax:bad link", DAX.replace('link="input"', 'link="sideways"')
    yield "dax:no file name", DAX.replace('file="f" link="input"', 'link="input"')
    yield "dax:sub-workflow", DAX.replace("</adag>", '<dax id="s" file="s.dax"/></adag>')
    yield "dax:no jobs", '<adag version="2.1"></adag>\n'
    yield "dax:other root", DAX.replace("<adag ", "<dag ").replace("</adag>", "</dag>")
    yield "dax:truncated", DAX[: len(DAX) // 2]
    yield "dax:entity", '<?xml version="1.0"?>\n<!DOCTYPE adag [<!ENTITY x "xxxx">]>\n<adag/>\n'
    yield "dax:too deep", "<adag>" + "<x>" * 200 + "</x>" * 200 + "</adag>\n"


CLI_CASES = [
    ("run --set without =", ["run", "{scenario}", "--set", "seed"]),
    ("run --set unknown key", ["run", "{scenario}", "--set", "no_such.key=1"]),
    ("run --set bad value", ["run", "{scenario}", "--set", "datacenter.hosts=-3"]),
    ("run --set nan", ["run", "{scenario}", "--set", "datacenter.hosts=.nan"]),
    ("run missing file", ["run", "{tmp}/missing.yaml"]),
    ("run a folder", ["run", "{tmp}"]),
    ("validate missing file", ["validate", "{tmp}/missing.yaml"]),
    ("stats missing trace", ["workload", "stats", "{tmp}/missing.swf"]),
    ("stats a folder", ["workload", "stats", "{tmp}"]),
    ("workflow missing file", ["workload", "workflow", "{tmp}/missing.json"]),
    ("workflow a folder", ["workload", "workflow", "{tmp}"]),
    ("workflow the scenario", ["workload", "workflow", "{scenario}"]),
]


class CaseTimeout(BaseException):
    """A case ran past its time (a BaseException: the command line's handlers do not catch it)."""


def refused(argv: list[str], capsys: Any, seconds: int = 20) -> tuple[int, str]:
    def alarm(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"{argv} still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        try:
            code = main(argv)
        except SystemExit as exc:               # argparse's own refusals
            code = exc.code if isinstance(exc.code, int) else 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    err = capsys.readouterr().err
    return code, err


def assert_one_clear_line(code: int, err: str, *names: str) -> None:
    assert code == 2, f"accepted (exit {code}): {err}"
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert lines and ("error:" in lines[-1]), err
    assert len(lines) <= 3, err                # argparse prints its usage first
    assert any(n in err for n in names), f"{names} not named in {err!r}"


SCENARIOS = list(scenario_cases())
WFFORMAT = list(wfformat_cases())
SWF = list(swf_cases())
LWFS = list(lwf_cases())


def test_the_corpus_has_hundreds_of_inputs():
    assert len(SCENARIOS) + len(SWF) + len(LWFS) + len(CLI_CASES) >= 300     # WfFormat's need ../shared


@pytest.mark.parametrize("kind", sorted(BASES))
def test_the_base_scenarios_are_valid(kind, tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(BASES[kind]))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0, capsys.readouterr().err


def test_the_base_swf_line_and_lease_file_are_valid(tmp_path, capsys):
    trace = tmp_path / "t.swf"
    trace.write_text(SWF_LINE + "\n")
    assert main(["workload", "stats", str(trace)]) == 0
    lwf = tmp_path / "l.lwf"
    lwf.write_text(LWF.format(**LWF_GOOD))
    scenario = put(LEASES, ("leases",), {"lwf": str(lwf), "strict": True})
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("case", range(len(SCENARIOS)), ids=[name for name, _ in SCENARIOS])
def test_a_bad_scenario_value_is_refused_naming_the_file(case, tmp_path, capsys):
    _, doc = SCENARIOS[case]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))
    code, err = refused(["validate", str(path)], capsys)
    assert_one_clear_line(code, err, str(path), "s.yaml")


@pytest.mark.parametrize("case", range(len(SWF)), ids=[name for name, _ in SWF])
def test_a_bad_swf_line_is_refused_naming_file_and_line(case, tmp_path, capsys):
    _, line = SWF[case]
    trace = tmp_path / "t.swf"
    trace.write_text(SWF_LINE + "\n" + line + "\n")
    code, err = refused(["workload", "stats", str(trace)], capsys)
    assert_one_clear_line(code, err, f"{trace}:2", f"{trace}:3")
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({"name": "t", "datacenter": {"hosts": 4}, "workload": {"trace": str(trace)}}))
    code, err = refused(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert_one_clear_line(code, err, f"{trace}:2", f"{trace}:3")


@pytest.mark.parametrize("case", range(len(LWFS)), ids=[name for name, _ in LWFS])
def test_a_bad_lease_file_is_refused_naming_it(case, tmp_path, capsys):
    _, text = LWFS[case]
    lwf = tmp_path / "l.lwf"
    lwf.write_text(text)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(put(LEASES, ("leases",), {"lwf": str(lwf), "strict": True})))
    code, err = refused(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert_one_clear_line(code, err, str(lwf))


@pytest.mark.parametrize("name, argv", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_a_bad_command_line_is_refused(name, argv, tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(DATACENTER))
    argv = [a.format(scenario=path, tmp=tmp_path) for a in argv]
    code, err = refused(argv + (["--out", str(tmp_path / "out")] if argv[0] == "run" else []), capsys)
    assert_one_clear_line(code, err, *[a for a in argv[1:] if a.startswith(("/", "-")) or "=" in a] or ["error"])


def workflow_scenario(doc: dict | str, tmp_path, name: str = "w.json") -> tuple[str, str]:
    """``(scenario, workflow file)``: ``doc`` written as a workflow file (a WfFormat document, or
    a file's text), and a DAG scenario that reads it."""
    wf = tmp_path / name
    wf.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(put(DAGS, ("dags",), {"workflows": [str(wf)]})))
    return str(path), str(wf)


@pytest.mark.skipif(WORKFLOW is None, reason="the shared workflows are missing ($CLOUDSIM_PY_WORKFLOWS)")
@pytest.mark.parametrize("case", range(max(len(WFFORMAT), 1)), ids=[name for name, _ in WFFORMAT] or ["none"])
def test_a_bad_workflow_file_is_refused_naming_it(case, tmp_path, capsys):
    scenario, wf = workflow_scenario(WFFORMAT[case][1], tmp_path)
    code, err = refused(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert_one_clear_line(code, err, wf)


LEGACY = list(legacy_wfformat_cases())


@pytest.mark.parametrize("case", range(len(LEGACY)), ids=[name for name, _ in LEGACY])
def test_a_bad_1_4_or_1_3_workflow_file_is_refused_naming_it(case, tmp_path, capsys):
    scenario, wf = workflow_scenario(LEGACY[case][1], tmp_path)
    code, err = refused(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert_one_clear_line(code, err, wf)


DAXES = list(dax_cases())


@pytest.mark.parametrize("case", range(len(DAXES)), ids=[name for name, _ in DAXES])
def test_a_bad_dax_file_is_refused_naming_it(case, tmp_path, capsys):
    scenario, wf = workflow_scenario(DAXES[case][1], tmp_path, "w.xml")
    code, err = refused(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert_one_clear_line(code, err, wf)


def test_the_base_dax_file_is_valid(tmp_path, capsys):
    scenario, _ = workflow_scenario(DAX, tmp_path, "w.xml")
    assert main(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("doc", [LEGACY14, LEGACY13], ids=["1.4", "1.3"])
def test_the_base_1_4_and_1_3_workflow_files_are_valid(doc, tmp_path, capsys):
    scenario, _ = workflow_scenario(doc, tmp_path)
    assert main(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"]) == 0, capsys.readouterr().err


@pytest.mark.skipif(WORKFLOW is None, reason="the shared workflows are missing ($CLOUDSIM_PY_WORKFLOWS)")
def test_the_base_workflow_file_is_valid(tmp_path, capsys):
    scenario, _ = workflow_scenario(WORKFLOW, tmp_path)
    assert main(["run", scenario, "--out", str(tmp_path / "out"), "--quiet"]) == 0, capsys.readouterr().err
