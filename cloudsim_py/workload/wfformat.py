"""Real workflows in WfFormat (WfCommons JSON, schema 1.5 and 1.6; 1.0-1.4 in
:mod:`~cloudsim_py.workload.wfformat_legacy`) read into a
:class:`~cloudsim_py.workload.dag.DagJob`, with the machines they ran on and their measured
makespan. Imports nothing from the engine; needs no ``wfcommons`` package.

Schema (github.com/wfcommons/WfFormat): ``workflow.specification.tasks`` (``id``, ``name``,
``parents``, ``children``, ``inputFiles``, ``outputFiles``), ``workflow.specification.files``
(``id``, ``sizeInBytes``), ``workflow.execution`` (``makespanInSeconds``, ``tasks`` with
``id``, ``runtimeInSeconds``, optional ``coreCount``, ``memoryInBytes``, ``command.program``,
``machines``; and ``machines`` with ``nodeName``, ``cpu.coreCount``, ``cpu.speedInMHz``,
``memoryInBytes``).

Readings:

- task fields: ``runtime`` = ``runtimeInSeconds`` (seconds on the machine it ran on, i.e. speed 1);
  ``type`` = ``command.program`` (else the task ``name``); ``cpus`` = ``coreCount`` when given;
  ``memory_mb`` = ``memoryInBytes / 10**6`` when given; ``name`` = the task name;
- an edge's ``data_mb`` = the total size of the files the parent writes and the child reads
  (``outputFiles`` of the parent that are ``inputFiles`` of the child), in 10**6 bytes;
- 1 MB = 10**6 bytes throughout (as for bandwidths in MB/s).

Errors (:class:`~cloudsim_py.errors.TraceError` naming the file, the task and the key): parents and
children that disagree, a parent/child/file/machine id that is not declared, a duplicate task id,
a task without execution entry or runtime, an execution entry for an unknown task, a cycle, an
unsupported ``schemaVersion``; a number that is not finite (``1e400``, a 5,000-digit integer,
``NaN``, ``Infinity``) or negative where it is read. A file that is not UTF-8 text (empty, gzip,
binary, another encoding) or JSON nested too deeply for Python's parser is a TraceError naming
the file and the line. The ``wfcommons`` package (optional, not needed here) generates
larger synthetic instances of the same applications in this format.
"""

from __future__ import annotations

import json
import math
import os
import re
# collections.abc's Mapping: isinstance against typing's alias runs typing's Python checks
# (about 5 us a call), against the ABC its C cache: the reader asks it of every task's dicts
from collections.abc import Mapping
from typing import Any, Container, Hashable, Iterable

import attrs
import networkx as nx

from ..errors import DAGError, TraceError
from .dag import DagJob
from .lwf import read_text_file

SCHEMA_VERSIONS = ("1.5", "1.6")
BYTES_PER_MB = 1_000_000


@attrs.frozen(slots=True)
class Machine:
    """A machine of ``workflow.execution.machines`` (fields None when the file omits them)."""

    name: str
    cores: int | None = None
    speed_mhz: float | None = None
    memory_mb: float | None = None


@attrs.frozen(slots=True)
class Workflow:
    """A workflow file read (WfFormat, or a DAX: :mod:`~cloudsim_py.workload.dax`): the job, its
    machines, its measured makespan and where each task ran."""

    name: str
    job: DagJob
    machines: tuple[Machine, ...]
    #: the measured makespan (s); None when the file has none (a DAX workflow)
    makespan_s: float | None
    task_machines: Mapping[str, tuple[str, ...]] = attrs.field(repr=False)
    schema_version: str = "1.5"
    source: str = "<memory>"


class _OutOfRange:
    """A JSON number no float can hold (``1e400``, a 5,000-digit integer) or a constant JSON does
    not have (``NaN``, ``Infinity``), kept as its text in place of a value: the key it is under
    is named when it is read (Python would make ``1e400`` infinity silently and refuse a
    5,000-digit integer with a ValueError naming nothing)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        if len(self.text) <= 40:
            return self.text
        digits = len(self.text.lstrip("-"))
        return f"a {digits:,}-digit number" if self.text.lstrip("-").isdigit() else \
            f"a {len(self.text):,}-character number"

    def problem(self) -> str:
        if self.text in ("NaN", "Infinity", "-Infinity"):
            return f"= {self!r} is not a finite number"
        return f"= {self!r} is too large (beyond the largest float, about 1.8e308)"


def _parse_int(text: str) -> int | _OutOfRange:
    # beyond 309 digits no float holds it (and beyond 4,300 Python will not convert it)
    if len(text) > 300 and math.isinf(float(text)):
        return _OutOfRange(text)
    return int(text)


def _parse_float(text: str) -> float | _OutOfRange:
    value = float(text)
    return value if math.isfinite(value) else _OutOfRange(text)


def _shown(value: Any) -> str:
    """A value for a message: an integer of hundreds of digits is not written out (and Python
    refuses to write one of more than 4,300)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an integer of about {int(value.bit_length() * math.log10(2)):,} digits"
    return repr(value)


_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _too_deep(text: str, limit: int = 100) -> tuple[int, int]:
    """``(depth, line)`` where JSON ``text`` first nests more than ``limit`` levels deep (brackets
    inside strings do not count), else its deepest point. Only called on a document Python's
    parser could not read for its depth, to say where; stops at the first such point."""
    depth = deepest = offset = 0
    for m in _JSON_TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest, offset = depth, m.start()
                if depth > limit:
                    break
        elif c in "]}":
            depth -= 1
    return deepest, text.count("\n", 0, offset) + 1


def _load_json(path: str, text: str) -> Any:
    """``text`` (of ``path``) parsed; TraceErrors name the file and the line (numbers no float
    holds kept as :class:`_OutOfRange`, named when read)."""
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_OutOfRange)
    except json.JSONDecodeError as err:
        hint = ("; it is XML: a Pegasus DAX workflow is read by read_dax or read_workflow"
                if text.lstrip().startswith("<") else "")
        raise TraceError(f"{path}:{err.lineno}: invalid JSON ({err.msg}, column {err.colno}){hint}") from None
    except RecursionError:
        depth, line = _too_deep(text)
        raise TraceError(f"{path}:{line}: JSON nested too deeply to read (more than {depth - 1} levels "
                         "here; a WfFormat document needs 6)") from None


def _get(where: str, obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise TraceError(f"{where}: key {path}.{key} is missing")
    value = obj[key]
    if isinstance(value, _OutOfRange):
        raise TraceError(f"{where}: key {path}.{key} {value.problem()}")
    if not isinstance(value, kind) or isinstance(value, bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise TraceError(f"{where}: key {path}.{key} must be a {names}, not {type(value).__name__}")
    return value


def _number(where: str, obj: Mapping[str, Any], key: str, path: str) -> float:
    """A finite number >= 0 (an int too large for a float, from a dict built in Python, too)."""
    value = _get(where, obj, key, (int, float), path)
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not (math.isfinite(number) and number >= 0):
        raise TraceError(f"{where}: key {path}.{key} = {_shown(value)} must be a finite number >= 0")
    return number


def _optional_number(where: str, obj: Mapping[str, Any], key: str, path: str) -> float | None:
    """:func:`_number`, or None when the key is absent or null."""
    return None if obj.get(key) is None else _number(where, obj, key, path)


def read_wfformat(path: str | os.PathLike, job_id: Hashable | None = None, submit_time: float = 0.0,
                  cloud: int | None = None, text: str | None = None) -> Workflow:
    """Read a WfFormat file (``text``: its content, when already read); the job's id is
    ``job_id`` (default: the file name without ``.json``)."""
    path = os.fspath(path)
    doc = _load_json(path, read_text_file(path) if text is None else text)
    if job_id is None:
        job_id = os.path.splitext(os.path.basename(path))[0]
    return workflow_from_dict(doc, source=path, job_id=job_id, submit_time=submit_time, cloud=cloud)


def workflow_from_dict(doc: Mapping[str, Any], source: str = "<memory>", job_id: Hashable | None = None,
                       submit_time: float = 0.0, cloud: int | None = None) -> Workflow:
    """The same from an already parsed document (``source`` names it in errors; the job's id
    defaults to the instance ``name``)."""
    where = source
    if not isinstance(doc, Mapping):
        raise TraceError(f"{where}: the document must be a JSON object")
    version = str(doc.get("schemaVersion"))
    if version not in SCHEMA_VERSIONS:
        from .wfformat_legacy import LEGACY_VERSIONS, legacy_workflow_from_dict

        if version in LEGACY_VERSIONS:
            return legacy_workflow_from_dict(doc, version, where, job_id, submit_time, cloud)
        raise TraceError(f"{where}: key schemaVersion = {doc.get('schemaVersion')!r} is not supported "
                         f"(supported: {', '.join(LEGACY_VERSIONS + SCHEMA_VERSIONS)})")
    workflow = _get(where, doc, "workflow", Mapping, "")
    spec = _get(where, workflow, "specification", Mapping, "workflow")
    execution = _get(where, workflow, "execution", Mapping, "workflow")
    spec_tasks = _get(where, spec, "tasks", list, "workflow.specification")
    if not spec_tasks:
        raise TraceError(f"{where}: key workflow.specification.tasks is empty")
    sizes = _file_sizes(where, spec)

    byid: dict[str, Mapping[str, Any]] = {}
    for i, task in enumerate(spec_tasks):
        key = f"workflow.specification.tasks[{i}]"
        tid = _get(where, task, "id", str, key)
        if tid in byid:
            raise TraceError(f"{where}: {key}: task id {tid!r} is declared twice")
        for k in ("parents", "children"):
            _get(where, task, k, list, key)
        byid[tid] = task
    index = {tid: i for i, tid in enumerate(byid)}
    _check_links(where, byid, index)
    _check_files(where, byid, index, sizes)

    exec_tasks = _get(where, execution, "tasks", list, "workflow.execution")
    runs: dict[str, Mapping[str, Any]] = {}
    for i, entry in enumerate(exec_tasks):
        key = f"workflow.execution.tasks[{i}]"
        tid = _get(where, entry, "id", str, key)
        if tid not in byid:
            raise TraceError(f"{where}: {key}: execution entry for unknown task {tid!r}")
        runs[tid] = entry
    machines = _machines(where, execution)
    machine_names = {m.name for m in machines}

    g: nx.DiGraph = nx.DiGraph()
    task_machines: dict[str, tuple[str, ...]] = {}
    for tid, task in byid.items():
        if tid not in runs:
            raise TraceError(f"{where}: task {tid!r}: no entry in workflow.execution.tasks (missing runtime)")
        entry = runs[tid]
        key = f"workflow.execution.tasks[{tid}]"
        fields: dict[str, Any] = {"runtime": _number(where, entry, "runtimeInSeconds", key)}
        program = entry.get("command", {}).get("program") if isinstance(entry.get("command"), Mapping) else None
        fields["type"] = program if isinstance(program, str) and program else task.get("name", tid)
        if "name" in task:
            fields["name"] = str(task["name"])
        if "coreCount" in entry:
            cores = _number(where, entry, "coreCount", key)
            if cores <= 0:
                raise TraceError(f"{where}: key {key}.coreCount = {cores!r} must be > 0")
            fields["cpus"] = cores
        if "memoryInBytes" in entry:
            fields["memory_mb"] = _number(where, entry, "memoryInBytes", key) / BYTES_PER_MB
        ran_on = tuple(entry.get("machines", ()) or ())
        for m in ran_on:
            if machines and m not in machine_names:
                raise TraceError(f"{where}: task {tid!r}: key {key}.machines names unknown machine {m!r}")
        task_machines[tid] = ran_on
        g.add_node(tid, **fields)
    for tid, task in byid.items():
        for child in task["children"]:
            g.add_edge(tid, child, data_mb=_edge_data(task, byid[child], sizes))

    name = str(doc.get("name", os.path.basename(where)))
    try:
        job = DagJob(id=name if job_id is None else job_id, graph=g, submit_time=submit_time, cloud=cloud)
    except DAGError as err:
        raise TraceError(f"{where}: {err}") from err
    makespan = _number(where, execution, "makespanInSeconds", "workflow.execution")
    return Workflow(name=name, job=job, machines=machines, makespan_s=makespan, task_machines=task_machines,
                    schema_version=version, source=source)


def _file_sizes(where: str, spec: Mapping[str, Any]) -> dict[str, float] | None:
    if "files" not in spec:
        return None
    sizes: dict[str, float] = {}
    for i, f in enumerate(_get(where, spec, "files", list, "workflow.specification")):
        key = f"workflow.specification.files[{i}]"
        sizes[_get(where, f, "id", str, key)] = _number(where, f, "sizeInBytes", key)
    return sizes


def _check_links(where: str, byid: Mapping[str, Mapping[str, Any]], index: Mapping[str, int]) -> None:
    """Every parent/child is declared, and parents and children describe the same edges."""
    for tid, task in byid.items():
        key = f"workflow.specification.tasks[{index[tid]}]"
        for k, back in (("children", "parents"), ("parents", "children")):
            for other in task[k]:
                if other not in byid:
                    raise TraceError(f"{where}: task {tid!r}: key {key}.{k} names unknown task {other!r}")
                if tid not in byid[other][back]:
                    okey = f"workflow.specification.tasks[{index[other]}].{back}"
                    raise TraceError(f"{where}: task {tid!r} lists {other!r} in {key}.{k}, but {other!r} "
                                     f"does not list {tid!r} in {okey} (parents and children disagree)")


def _check_files(where: str, byid: Mapping[str, Mapping[str, Any]], index: Mapping[str, int],
                 sizes: Mapping[str, float] | None) -> None:
    """Every input and output file of a task is declared in ``specification.files``."""
    for tid, task in byid.items():
        key = f"workflow.specification.tasks[{index[tid]}]"
        for k in ("inputFiles", "outputFiles"):
            files = task.get(k, []) or []
            if not isinstance(files, list):
                raise TraceError(f"{where}: task {tid!r}: key {key}.{k} must be a list")
            if sizes is None:
                continue
            for f in files:
                if f not in sizes:
                    raise TraceError(f"{where}: task {tid!r}: key {key}.{k} names undeclared file {f!r}")


def _edge_data(parent: Mapping[str, Any], child: Mapping[str, Any], sizes: Mapping[str, float] | None) -> float:
    """Total size (MB) of the files the parent writes and the child reads."""
    if sizes is None:
        return 0.0
    return shared_data_mb(child.get("inputFiles", []) or [], set(parent.get("outputFiles", []) or []), sizes)


def shared_data_mb(reads: Iterable[str], writes: Container[str], sizes: Mapping[str, float]) -> float:
    """An edge's data: the total size (MB, 10**6 bytes) of the files of ``reads`` (the child's
    inputs) that are in ``writes`` (the parent's outputs), each file once, a file without a
    size weighing 0. Summed in the child's order, not a set's: a set of strings iterates in an
    order that follows the string hashes, which change from process to process, and a sum of
    fractional sizes would change with it. The rule of every workflow reader (WfFormat of any
    schema, DAX)."""
    return sum(sizes.get(f, 0.0) for f in dict.fromkeys(reads) if f in writes) / BYTES_PER_MB


def _machines(where: str, execution: Mapping[str, Any]) -> tuple[Machine, ...]:
    """``workflow.execution.machines`` of 1.5 and 1.6 (:func:`read_machines`)."""
    return read_machines(where, execution.get("machines"), "workflow.execution.machines",
                         "coreCount", "speedInMHz")


def read_machines(where: str, machines: Any, key: str, cores: str, speed: str,
                  kilobytes: bool = False) -> tuple[Machine, ...]:
    """The machines of the list ``machines`` (``key`` names it in errors; absent or null: none):
    ``nodeName``, ``cpu.<cores>``, ``cpu.<speed>`` (MHz) and ``memoryInBytes``, or with
    ``kilobytes`` (1.0-1.3) ``memory`` in kilobytes when that is absent. A field that is given
    must be a finite number >= 0 (cores a whole one)."""
    machines = machines or []
    if not isinstance(machines, list):
        raise TraceError(f"{where}: key {key} must be a list")
    out = []
    for i, m in enumerate(machines):
        mkey = f"{key}[{i}]"
        name = _get(where, m, "nodeName", str, mkey)
        cpu = m.get("cpu") or {}
        if not isinstance(cpu, Mapping):
            raise TraceError(f"{where}: key {mkey}.cpu must be a mapping")
        count = _optional_number(where, cpu, cores, f"{mkey}.cpu")
        if count is not None and not count.is_integer():
            raise TraceError(f"{where}: key {mkey}.cpu.{cores} = {count!r} must be a whole number")
        if m.get("memoryInBytes") is not None:
            memory: float | None = _number(where, m, "memoryInBytes", mkey) / BYTES_PER_MB
        else:
            kb = _optional_number(where, m, "memory", mkey) if kilobytes else None
            memory = None if kb is None else kb * 1000 / BYTES_PER_MB
        out.append(Machine(name=name, cores=None if count is None else int(count),
                           speed_mhz=_optional_number(where, cpu, speed, f"{mkey}.cpu"), memory_mb=memory))
    return tuple(out)
