"""Pegasus DAX workflows (the XML ``<adag>`` of Pegasus 2.x and 3.x, and of the workflows that
WorkflowSim and the Pegasus workflow generator distribute: Montage, CyberShake, Epigenomics,
Inspiral, SIPHT) read into a :class:`~cloudsim_py.workload.wfformat.Workflow`, like a WfFormat
file.

Readings:

- each ``<job>`` is a task named by its ``id`` (unique); ``runtime`` (seconds on the machine it
  was measured on, speed 1: an attribute the workflow generator and WorkflowSim write) is
  required, finite and >= 0; ``type`` = the job's ``name`` (its transformation, e.g.
  ``mProjectPP``), else its id; ``cpus`` = ``cores`` where a job has that attribute (some
  hand-written DAX files do; > 0), else the task takes one CPU;
- ``<child ref=C>`` with ``<parent ref=P/>`` is the edge P -> C (both ids declared);
- files are the job's ``<uses>`` (``file=`` in DAX 2.x, ``name=`` in 3.x; ``link`` input,
  output or inout, ``size`` in bytes; the first size given for a file counts, a file without one
  weighs 0); an edge's ``data_mb`` is the total size of the files the parent writes and the
  child reads, in 10**6 bytes, as for WfFormat;
- elements that describe no task (``<file>``, ``<executable>``, ``<transformation>``,
  ``<metadata>``, a job's ``<argument>``, ``<profile>``, ``<stdout>``...) are not read; a
  sub-workflow job (``<dax>``, ``<dag>``) is an error: expand it first;
- the machines and the measured makespan are unknown (empty, None): a DAX has neither.

Errors are :class:`~cloudsim_py.errors.TraceError` naming the file, the line, the element and
the attribute; the XML is read as the lease files are (:mod:`~cloudsim_py.workload.xml_tree`:
bounded depth, no entity declarations, the file checked to be UTF-8 text first)."""

from __future__ import annotations

import math
import os
from typing import Any, Hashable

from ..errors import DAGError, TraceError
from .dag import DagJob
from .lwf import read_text_file
from .wfformat import Workflow, shared_data_mb
from .xml_tree import Element, Located, parse_xml

def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("not a number") from None
    if not (math.isfinite(value) and value >= 0):
        raise ValueError("must be a finite number >= 0")
    return value


def _positive(text: str) -> float:
    value = _non_negative(text)
    if value == 0:
        raise ValueError("must be > 0")
    return value


def read_dax(path: str | os.PathLike, job_id: Hashable | None = None, submit_time: float = 0.0,
             cloud: int | None = None, text: str | None = None) -> Workflow:
    """Read a DAX file (``text``: its content, when already read); the job's id is ``job_id``
    (default: the file name without its extension). O(size of the file)."""
    path = os.fspath(path)
    if text is None:
        text = read_text_file(path)
    root = parse_xml(path, text, document="a DAX workflow", needs=3)
    at = Located(path)
    if root.tag != "adag":
        raise at.error(root, "not a DAX workflow (its root element is <adag>)")
    runtimes: dict[str, float] = {}
    cores: dict[str, float] = {}
    types: dict[str, str] = {}
    elements: dict[str, Element] = {}
    reads: dict[str, list[str]] = {}
    writes: dict[str, set[str]] = {}
    sizes: dict[str, float] = {}
    edges: list[tuple[str, str, Element, Element]] = []      # parent, child, their elements
    for el in root.children:
        if el.tag == "job":
            tid = at.attr(el, "id", str)
            if tid in elements:
                raise at.error(el, f"job id {tid!r} is declared twice (first at line {elements[tid].line})")
            elements[tid] = el
            runtimes[tid] = at.attr(el, "runtime", _non_negative)
            types[tid] = el.attrib.get("name") or tid
            c = at.optional(el, "cores", _positive)
            if c is not None:
                cores[tid] = c
            ins: list[str] = []
            outs: set[str] = set()
            for use in el.findall("uses"):
                fid = use.attrib.get("file", use.attrib.get("name"))
                if not fid:
                    raise at.error(use, "attribute 'file' (DAX 2) or 'name' (DAX 3) is missing")
                size = at.optional(use, "size", _non_negative)
                if size is not None:
                    sizes.setdefault(fid, size)
                link = use.attrib.get("link", "").lower()
                if link not in ("input", "output", "inout"):
                    raise at.error(use, f"attribute 'link' = {use.attrib.get('link')!r} must be input, "
                                        "output or inout")
                if link != "output":
                    ins.append(fid)          # a file named twice counts once (shared_data_mb)
                if link != "input":
                    outs.add(fid)
            reads[tid], writes[tid] = ins, outs
        elif el.tag == "child":
            child = at.attr(el, "ref", str)
            for ref in el.findall("parent"):
                edges.append((at.attr(ref, "ref", str), child, ref, el))
        elif el.tag in ("dax", "dag"):
            raise at.error(el, f"a sub-workflow job (<{el.tag}>) is not read here: expand it into its jobs first")
    if not elements:
        raise at.error(root, "no <job> element: a DAX workflow has at least one")
    for parent, child, parent_el, child_el in edges:
        if child not in elements:
            raise at.error(child_el, f"attribute 'ref' names unknown job {child!r}")
        if parent not in elements:
            raise at.error(parent_el, f"attribute 'ref' names unknown job {parent!r}")

    import networkx as nx

    g: Any = nx.DiGraph()
    for tid in elements:
        g.add_node(tid, runtime=runtimes[tid], type=types[tid], name=tid)
        if tid in cores:
            g.nodes[tid]["cpus"] = cores[tid]
    for parent, child, _, _ in edges:
        g.add_edge(parent, child, data_mb=shared_data_mb(reads[child], writes[parent], sizes))
    stem = os.path.splitext(os.path.basename(path))[0]
    name = root.attrib.get("name") or stem
    if job_id is None:
        job_id = stem
    try:
        job = DagJob(id=job_id, graph=g, submit_time=submit_time, cloud=cloud)
    except DAGError as err:
        raise TraceError(f"{path}: {err}") from err
    return Workflow(name=name, job=job, machines=(), makespan_s=None,
                    task_machines={tid: () for tid in elements},
                    schema_version=f"DAX {root.attrib.get('version', '?')}", source=path)
