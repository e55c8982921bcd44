"""WfFormat instances of schema 1.0-1.4 (before the specification/execution split of 1.5) read
into the same :class:`~cloudsim_py.workload.wfformat.Workflow` as a 1.5 file.

Most published instances are in these versions: the WfCommons repositories of Pegasus and
Makeflow runs (github.com/wfcommons/pegasus-instances, makeflow-instances) hold schema 1.4, and
older copies of the same runs 1.0-1.3. The readings follow WfCommons' own migration tool
(WfFormat's ``tools/wfcommons-migrate-instance.py``), so a 1.4 file reads as the 1.5 file that
tool makes of it (checked on the shared 1000genome, epigenomics, montage, seismology, soykb and
srasearch instances: docs/dag-and-leases.md):

- tasks: ``workflow.tasks`` (1.3, 1.4) or ``workflow.jobs`` (1.0-1.2); a task is named by its
  ``name`` (the graph's node), and ``parents`` and ``children`` name other tasks (by ``name``, or
  by the ``id`` of 1.2-1.4 when no task has that name). Either end may declare a link (one is
  enough, and they need not repeat each other). A task that has no parent at all this way gets
  as parents the tasks that write its input files, as the migration does;
- ``runtime`` = ``runtimeInSeconds`` (1.4) or ``runtime`` (1.0-1.3), seconds on the machine it
  ran on; ``cpus`` = ``cores``; ``memory_mb`` = ``memoryInBytes / 10**6`` (1.4) or ``memory``
  (kilobytes, 1.0-1.3) ``/ 1000``; ``type`` = ``command.program`` (1.2-1.4), else
  ``category``, else (1.0, 1.1) the name before ``_ID`` or the first ``_`` (the migration's
  category), else the name;
- files are declared per task (``files``: ``name``, optional ``path``, ``link`` input or
  output, ``sizeInBytes`` (1.4) or ``size`` (1.0-1.3)); a file is its ``path`` + ``name``, and
  its size is the first one declared. ``size`` is read as bytes, as the migration reads it (the
  1.0-1.3 schema's text says kilobytes; the Pegasus instances carry the same numbers under
  ``size`` in 1.3 and ``sizeInBytes`` in 1.4). An edge's ``data_mb`` is the total size of the
  files the parent writes and the child reads, in 10**6 bytes, as for 1.5;
- machines: ``workflow.machines`` (``nodeName``, ``cpu.count``, ``cpu.speed`` in MHz,
  ``memoryInBytes`` or ``memory`` in kilobytes); a task's ``machine`` names one of them;
- ``makespanInSeconds`` (1.4) or ``makespan`` (1.0-1.3).

Errors are :class:`~cloudsim_py.errors.TraceError` naming the file, the task and the key, as for
1.5: a missing or duplicate task name, a parent or child that names no task, a missing runtime, a
negative or non-finite number, a task's unknown machine, a cycle."""

from __future__ import annotations

import os
from typing import Any, Hashable, Mapping

import networkx as nx

from ..errors import DAGError, TraceError
from .dag import DagJob
from .wfformat import BYTES_PER_MB, Machine, Workflow, _get, _number, read_machines, shared_data_mb

LEGACY_VERSIONS = ("1.0", "1.1", "1.2", "1.3", "1.4")


def legacy_workflow_from_dict(doc: Mapping[str, Any], version: str, where: str, job_id: Hashable | None,
                              submit_time: float, cloud: int | None) -> Workflow:
    """A schema 1.0-1.4 document (``version``) as a :class:`Workflow`; ``where`` names it in
    errors. O(tasks + links + files)."""
    workflow = _get(where, doc, "workflow", Mapping, "")
    list_key = "jobs" if "tasks" not in workflow and "jobs" in workflow else "tasks"
    tasks = _get(where, workflow, list_key, list, "workflow")
    if not tasks:
        raise TraceError(f"{where}: key workflow.{list_key} is empty")
    keys: list[str] = []
    names: dict[str, int] = {}
    ids: dict[str, int | None] = {}            # an old id named by two tasks is ambiguous: None
    for i, task in enumerate(tasks):
        key = f"workflow.{list_key}[{i}]"
        name = _get(where, task, "name", str, key)
        if name in names:
            raise TraceError(f"{where}: {key}: task name {name!r} is declared twice "
                             f"(first at workflow.{list_key}[{names[name]}])")
        names[name] = i
        keys.append(key)
        old_id = task.get("id")
        if isinstance(old_id, str):
            ids[old_id] = None if old_id in ids else i
    order = list(names)

    def named(i: int, field: str, ref: Any) -> str:
        if isinstance(ref, str):
            if ref in names:
                return ref
            j = ids.get(ref)
            if j is not None:
                return order[j]
        raise TraceError(f"{where}: task {order[i]!r}: key {keys[i]}.{field} names unknown task {ref!r}")

    parents: list[dict[str, None]] = [{} for _ in tasks]    # insertion-ordered sets
    for i, task in enumerate(tasks):
        for field in ("parents", "children"):
            refs = task.get(field)
            if refs is None:
                continue
            if not isinstance(refs, list):
                raise TraceError(f"{where}: task {order[i]!r}: key {keys[i]}.{field} must be a list")
            for ref in refs:
                other = named(i, field, ref)
                if field == "parents":
                    parents[i][other] = None
                else:
                    parents[names[other]][order[i]] = None

    sizes: dict[str, float] = {}
    reads: list[list[str]] = []
    writes: list[set[str]] = []
    producer: dict[str, str] = {}
    for i, task in enumerate(tasks):
        files = task.get("files") or []
        if not isinstance(files, list):
            raise TraceError(f"{where}: task {order[i]!r}: key {keys[i]}.files must be a list")
        ins: list[str] = []
        outs: set[str] = set()
        for j, f in enumerate(files):
            fkey = f"{keys[i]}.files[{j}]"
            fid = _get(where, f, "name", str, fkey)
            path = f.get("path")
            if isinstance(path, str):
                fid = path + fid
            size_key = "sizeInBytes" if "sizeInBytes" in f else "size"
            size = _number(where, f, size_key, fkey)
            sizes.setdefault(fid, size)
            if str(f.get("link", "")).lower() == "input":
                ins.append(fid)              # a file named twice counts once (shared_data_mb)
            else:
                outs.add(fid)
                producer.setdefault(fid, order[i])
        reads.append(ins)
        writes.append(outs)
    for i in range(len(tasks)):
        if not parents[i]:                    # no declared link: the writers of its inputs
            for fid in reads[i]:
                p = producer.get(fid)
                if p is not None and p != order[i]:
                    parents[i][p] = None

    machines = _machines(where, workflow)
    machine_names = {m.name for m in machines}
    g: nx.DiGraph = nx.DiGraph()
    task_machines: dict[str, tuple[str, ...]] = {}
    for i, task in enumerate(tasks):
        key, name = keys[i], order[i]
        runtime_key = "runtimeInSeconds" if "runtimeInSeconds" in task else "runtime"
        fields: dict[str, Any] = {"runtime": _number(where, task, runtime_key, key),
                                  "type": _task_type(task, version, name), "name": name}
        if task.get("cores") is not None:
            cores = _number(where, task, "cores", key)
            if cores <= 0:
                raise TraceError(f"{where}: key {key}.cores = {cores!r} must be > 0")
            fields["cpus"] = cores
        if task.get("memoryInBytes") is not None:
            fields["memory_mb"] = _number(where, task, "memoryInBytes", key) / BYTES_PER_MB
        elif task.get("memory") is not None:
            fields["memory_mb"] = _number(where, task, "memory", key) * 1000 / BYTES_PER_MB
        ran_on: tuple[str, ...] = ()
        if task.get("machine") is not None:
            m = _get(where, task, "machine", str, key)
            if machines and m not in machine_names:
                raise TraceError(f"{where}: task {name!r}: key {key}.machine names unknown machine {m!r}")
            ran_on = (m,)
        task_machines[name] = ran_on
        g.add_node(name, **fields)
    for i in range(len(tasks)):
        child = order[i]
        for parent in parents[i]:
            g.add_edge(parent, child, data_mb=shared_data_mb(reads[i], writes[names[parent]], sizes))

    name = str(doc.get("name", os.path.basename(where)))
    try:
        job = DagJob(id=name if job_id is None else job_id, graph=g, submit_time=submit_time, cloud=cloud)
    except DAGError as err:
        raise TraceError(f"{where}: {err}") from err
    makespan_key = "makespanInSeconds" if "makespanInSeconds" in workflow else "makespan"
    makespan = _number(where, workflow, makespan_key, "workflow")
    return Workflow(name=name, job=job, machines=machines, makespan_s=makespan, task_machines=task_machines,
                    schema_version=version, source=where)


def _task_type(task: Mapping[str, Any], version: str, name: str) -> str:
    command = task.get("command")
    program = command.get("program") if isinstance(command, Mapping) else None
    if isinstance(program, str) and program:
        return program
    category = task.get("category")
    if isinstance(category, str) and category:
        return category
    if version in ("1.0", "1.1"):             # the migration's category: the name's prefix
        prefix = name.split("_ID")[0] if "_ID" in name else name.split("_")[0]
        if prefix:
            return prefix
    return name


def _machines(where: str, workflow: Mapping[str, Any]) -> tuple[Machine, ...]:
    """``workflow.machines`` of 1.0-1.4 (:func:`~cloudsim_py.workload.wfformat.read_machines`)."""
    return read_machines(where, workflow.get("machines"), "workflow.machines", "count", "speed", kilobytes=True)
