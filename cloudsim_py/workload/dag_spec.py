"""The DAG workload's options as one attrs class (``dags:`` in a scenario): Li et al.'s random
jobs (``model``), real workflows in WfFormat or Pegasus DAX (``workflows``) or jobs written inline (``jobs``).
Checked here once (errors are :class:`~cloudsim_py.errors.SpecError` naming the key path, the
job and the task); reads no YAML, imports nothing from the engine; files are read when the
workload is made. Job ids (``id``: a string or an integer, else the position in the list) differ
within ``jobs`` and within ``workflows``; a repeated id names both entries.

```yaml
dags:
  model: {name: li, jobs: 64, arrivals: tight}     # any LiDagModel field
  # or: workflows: [montage.json, {path: epigenomics.json, submit: 600, cloud: 1}]
  # or: jobs:
  #   - {id: j1, submit: 0, cloud: 0, mode: ar, start: 0,
  #      tasks: {a: {type: 0, cpus: 2}, b: {runtime: 30}}, edges: [[a, b, 10]]}
  limit: 10                                        # keep the first 10 jobs
```
"""

from __future__ import annotations

import math
import os
import re
from typing import Any, Hashable, Iterable, Mapping

import attrs
import numpy as np

from ..errors import DAGError, ScenarioError, SpecError
from ..validate import check_keys, check_mapping, check_number, integer, kind
from .dag import TASK_FIELDS, DagJob, build_dag_job, repeated_id
from .lease import LeaseMode

JOB_KEYS = ("id", "submit", "cloud", "mode", "start", "tasks", "edges")
WORKFLOW_KEYS = ("path", "submit", "cloud", "id")
MODES = {"ar": LeaseMode.AR, "best-effort": LeaseMode.BEST_EFFORT}


def _li_fields() -> tuple[str, ...]:
    from .models.dag_li import LiDagModel

    return tuple(f.name for f in attrs.fields(LiDagModel))


def _model(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise SpecError("model", f"expected a mapping with name and jobs, got {kind(value)}")
    raw = dict(value)
    name = raw.pop("name", None)
    if name != "li":
        raise SpecError("model.name", f"unknown DAG model {name!r}; known: li")
    known = ("name", "jobs") + _li_fields()
    check_keys("model", raw, known)
    if "jobs" not in raw:
        raise SpecError("model.jobs", "missing (the number of jobs)")
    jobs = raw.pop("jobs")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise SpecError("model.jobs", f"expected an integer >= 0, got {kind(jobs)}")
    for key in ("cpus", "image_mb", "memory_mb", "data_mb", "ar_notice_s"):
        if isinstance(raw.get(key), list):
            raw[key] = tuple(raw[key])
    from .models.dag_li import LiDagModel

    try:
        LiDagModel(**raw)
    except ScenarioError as exc:
        m = re.match(r"dag_li: (\w+)", str(exc))
        key = m.group(1) if m and m.group(1) in known else ""
        raise SpecError(f"model.{key}" if key else "model", str(exc)) from None
    except TypeError as exc:
        raise SpecError("model", str(exc)) from None
    return {"name": name, "jobs": jobs, **raw}


def _workflows(value: Any) -> tuple[dict[str, Any], ...] | None:
    if value is None:
        return None
    if isinstance(value, tuple) and all(isinstance(v, dict) for v in value):
        _check_distinct(*_entry_ids(value), "workflows")
        return value
    if not isinstance(value, (list, tuple)) or not value:
        raise SpecError("workflows", "expected a non-empty list of workflow files (WfFormat or DAX)")
    out = []
    for i, item in enumerate(value):
        p = f"workflows.{i}"
        if isinstance(item, str):
            item = {"path": item}
        if not isinstance(item, Mapping):
            raise SpecError(p, f"expected a path or a mapping with keys {', '.join(WORKFLOW_KEYS)}, got {kind(item)}")
        check_keys(p, item, WORKFLOW_KEYS)
        path = item.get("path")
        if not isinstance(path, str) or not path:
            raise SpecError(f"{p}.path", f"expected a file path, got {kind(path)}")
        if not os.path.isfile(path):
            raise SpecError(f"{p}.path", f"no such file: {path}")
        entry = {"path": path, "submit": check_number(f"{p}.submit", item.get("submit", 0.0), 0.0)}
        if "cloud" in item:
            entry["cloud"] = _index(item["cloud"], f"{p}.cloud")
        if "id" in item:
            entry["id"] = _job_id(item["id"], f"{p}.id")
        out.append(entry)
    _check_distinct(*_entry_ids(out), "workflows")
    return tuple(out)


def _job_id(value: Any, path: str) -> str | int:
    """A job id given in a scenario: a string or an integer (something two jobs can be told
    apart by, and that outputs can print)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SpecError(path, f"expected a job id (a string or an integer), got {kind(value)}")
    return value


def _entry_ids(entries: Iterable[Mapping[str, Any]]) -> tuple[list[Hashable], list[bool]]:
    """The job id of each entry of a list (its ``id``, else its position) and whether it is given."""
    entries = list(entries)
    return [e.get("id", i) for i, e in enumerate(entries)], ["id" in e for e in entries]


def _check_distinct(ids: list[Hashable], given: list[bool], key: str) -> None:
    """A SpecError at ``{key}.{j}.id`` naming the id and both entries when two jobs share an id
    (a job without ``id`` is numbered by its position, which another's ``id`` may repeat)."""
    found = repeated_id(ids)
    if found is None:
        return
    i, j = found
    note = "" if given[i] and given[j] else " (an entry without id is numbered by its position)"
    raise SpecError(f"{key}.{j}.id", f"job id {ids[j]!r} is used twice: {key}.{i} and {key}.{j}{note}")


def _index(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SpecError(path, f"expected a cloud index >= 0, got {kind(value)}")
    return value


def _inline_jobs(value: Any) -> tuple[DagJob, ...] | None:
    if value is None:
        return None
    if isinstance(value, tuple) and all(isinstance(v, DagJob) for v in value):
        _check_distinct([job.id for job in value], [True] * len(value), "jobs")
        return value
    if not isinstance(value, (list, tuple)) or not value:
        raise SpecError("jobs", "expected a non-empty list of DAG jobs")
    out = []
    for i, item in enumerate(value):
        out.append(_inline_job(item, f"jobs.{i}", i))
    _check_distinct(*_entry_ids(value), "jobs")
    return tuple(out)


def _inline_job(item: Any, p: str, i: int) -> DagJob:
    item = check_mapping(p, item, JOB_KEYS)
    job_id = _job_id(item["id"], f"{p}.id") if "id" in item else i
    tasks = item.get("tasks")
    if not isinstance(tasks, Mapping) or not tasks:
        raise SpecError(f"{p}.tasks", f"job {job_id}: expected a mapping of task names to their fields, "
                                      f"got {kind(tasks)}")
    for name, fields in tasks.items():
        if not isinstance(fields, Mapping):
            raise SpecError(f"{p}.tasks.{name}", f"job {job_id}, task {name!r}: expected a mapping with keys "
                                                 f"{', '.join(TASK_FIELDS)}, got {kind(fields)}")
        for key in fields:
            if key not in TASK_FIELDS:
                raise SpecError(f"{p}.tasks.{name}.{key}", f"job {job_id}, task {name!r}: unknown field {key!r} "
                                                           f"(known: {', '.join(TASK_FIELDS)})")
    edges = item.get("edges", [])
    if not isinstance(edges, list):
        raise SpecError(f"{p}.edges", f"job {job_id}: expected a list of [parent, child] or [parent, child, "
                                      f"data_mb], got {kind(edges)}")
    for k, e in enumerate(edges):
        if not isinstance(e, (list, tuple)) or len(e) not in (2, 3):
            raise SpecError(f"{p}.edges.{k}", f"job {job_id}: expected [parent, child] or [parent, child, "
                                              f"data_mb], got {kind(e)}")
    mode_name = item.get("mode", "best-effort")
    if mode_name not in MODES:
        raise SpecError(f"{p}.mode", f"job {job_id}: unknown mode {mode_name!r}; choose one of {', '.join(MODES)}")
    mode = MODES[mode_name]
    submit = check_number(f"{p}.submit", item.get("submit", 0.0), 0.0)
    start = item.get("start")
    if start is not None:
        start = check_number(f"{p}.start", start)
    if mode is LeaseMode.AR and start is None:
        start = submit
    cloud = _index(item["cloud"], f"{p}.cloud") if "cloud" in item else None
    try:
        return build_dag_job(job_id, tasks, [tuple(e) for e in edges], submit_time=submit, cloud=cloud,
                             mode=mode, start=start)
    except DAGError as exc:
        msg = str(exc)
        if "cycle" in msg or "edge" in msg:
            key = "edges"
        elif "advance-reservation" in msg or "given for a" in msg:
            key = "start"
        elif "submit_time" in msg:
            key = "submit"
        else:
            m = re.search(r"task '([^']*)'", msg)
            key = f"tasks.{m.group(1)}" if m else "tasks"
        raise SpecError(f"{p}.{key}", msg) from None


@attrs.define(slots=True, frozen=True)
class DagWorkloadSpec:
    """Exactly one source: ``model`` (``{name: li, jobs: N, ...}``, Li et al.'s generator with any
    of its fields), ``workflows`` (WfFormat or DAX files: a path or ``{path, submit, cloud, id}``) or
    ``jobs`` (inline). ``limit``: keep the first N jobs."""

    model: dict[str, Any] | None = attrs.field(default=None, converter=_model)
    workflows: tuple[dict[str, Any], ...] | None = attrs.field(default=None, converter=_workflows)
    jobs: tuple[DagJob, ...] | None = attrs.field(default=None, converter=_inline_jobs)
    limit: int | None = attrs.field(default=None, validator=integer(1, optional=True))

    def __attrs_post_init__(self) -> None:
        sources = [k for k in ("model", "workflows", "jobs") if getattr(self, k) is not None]
        if len(sources) != 1:
            raise SpecError("", "give exactly one of model, workflows or jobs"
                            + (f" (found {', '.join(sources)})" if sources else ""))

    def check_platform(self, task_types: Iterable[Hashable] | None, clouds: int, max_cpus: float = math.inf) -> None:
        """Task types must be rows of the matrix (``None``: there is no matrix, so every task needs
        a runtime), clouds must exist and some cloud must hold every task (``max_cpus``: the most
        CPUs of one cloud): SpecError naming the job, the task and the key."""
        known = None if task_types is None else set(task_types)
        if self.model is not None:
            cpus = self.model.get("cpus", (1, 16))
            top = max(cpus) if isinstance(cpus, (tuple, list)) else cpus
            if top > max_cpus:
                raise SpecError("model.cpus", f"tasks ask up to {top:g} CPUs, more than any cloud has ({max_cpus:g})")
            types = self.model.get("task_types", 8)
            if known is None:
                raise SpecError("model", "Li et al.'s jobs have typed tasks: federation.matrix is needed")
            missing = [t for t in range(types) if t not in known]
            if missing:
                raise SpecError("model.task_types", f"task type {missing[0]!r} is not in the execution-time matrix "
                                                    f"(types: {', '.join(map(repr, sorted(known, key=str)))})")
            n = self.model.get("clouds", clouds)
            if n > clouds:
                raise SpecError("model.clouds", f"jobs go to {n} clouds, the system has {clouds}")
            return
        if self.jobs is not None:
            for i, job in enumerate(self.jobs):
                if job.cloud is not None and job.cloud >= clouds:
                    raise SpecError(f"jobs.{i}.cloud", f"job {job.id}: cloud {job.cloud}, the system has {clouds}")
                for task, data in job.graph.nodes(data=True):
                    if data.get("cpus", 1) > max_cpus:
                        raise SpecError(f"jobs.{i}.tasks.{task}.cpus",
                                        f"job {job.id}, task {task!r}: needs {data['cpus']:g} CPUs, more than any "
                                        f"cloud has ({max_cpus:g})")
                    if "runtime" in data:
                        continue
                    if known is None or data["type"] not in known:
                        where = ("there is no federation.matrix" if known is None else
                                 f"types: {', '.join(map(repr, sorted(known, key=str)))}")
                        raise SpecError(f"jobs.{i}.tasks.{task}.type",
                                        f"job {job.id}, task {task!r}: task type {data['type']!r} is not in the "
                                        f"execution-time matrix ({where})")
        if self.workflows is not None:
            for i, w in enumerate(self.workflows):
                if w.get("cloud", 0) >= clouds:
                    raise SpecError(f"workflows.{i}.cloud", f"cloud {w['cloud']}, the system has {clouds}")

    def make(self, seed: int, clouds: int) -> list[DagJob]:
        """The jobs, sorted by submit time (files read now: TraceError names file, task, key)."""
        if self.model is not None:
            from ..engine import RandomStreams
            from .models.dag_li import LiDagModel

            fields = {k: v for k, v in self.model.items() if k not in ("name", "jobs")}
            fields.setdefault("clouds", clouds)
            rng: np.random.Generator = RandomStreams(seed)["workload"]
            jobs = LiDagModel(**fields).generate(self.model["jobs"], rng)
        elif self.workflows is not None:
            from .workflow_file import read_workflow

            jobs = [read_workflow(w["path"], job_id=w.get("id", i), submit_time=w["submit"],
                                  cloud=w.get("cloud")).job for i, w in enumerate(self.workflows)]
        else:
            assert self.jobs is not None
            jobs = list(self.jobs)
        jobs.sort(key=lambda j: j.submit_time)
        if self.limit is not None:
            jobs = jobs[: self.limit]
        return jobs

