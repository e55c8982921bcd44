"""The workload's options as one attrs class (``workload:`` in a scenario): where jobs come from
(a trace, a model, inline jobs), cleaning, runtime estimates, CPU usage and its estimate.
Checked here once, whoever builds it; reads no YAML (the loader resolves paths and ``${ENV}``)."""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

import attrs

from ..errors import ScenarioError, SpecError
from ..validate import boolean, check_keys, check_mapping, check_number, integer, kind, text
from .cpu import CpuEstimateModel, CpuUsageModel
from .description import MAX_JOB_ID
from .swf import MAX_TIME   # a double keeps such times to 0.2 ms

#: one job cannot ask for more processors than this (a typing error, not a job)
MAX_PROCS = 10_000_000
_JOB_KEYS = ("id", "submit", "procs", "runtime", "estimate", "cpu")


def cpu_usage_model(value: Any) -> CpuUsageModel:
    """``paper`` / ``full``, or ``{model, low, high, single, mean}``, or a model."""
    if isinstance(value, CpuUsageModel):
        return value
    if isinstance(value, str):
        value = {"model": value}
    if not isinstance(value, Mapping):
        raise SpecError("cpu_usage", f"expected paper, full or a mapping, got {kind(value)}")
    check_keys("cpu_usage", value, ("model", "low", "high", "single", "mean"))
    raw = dict(value)
    model = raw.pop("model", "paper")
    mean = raw.pop("mean", None)
    try:
        if mean is not None:
            if "low" in raw:
                raise SpecError("mean", "give either mean or low, not both")
            if model != "paper":
                raise SpecError("mean", "a mean needs model: paper")
            high = check_number("high", raw.get("high", 1.0), 0.0, 1.0, low_open=True)
            base = CpuUsageModel.with_mean(mean, high)
            return attrs.evolve(base, **{k: v for k, v in raw.items() if k != "high"})
        return CpuUsageModel(model, **raw)
    except SpecError as exc:
        raise SpecError(f"cpu_usage.{'model' if exc.path == 'kind' else exc.path}", exc.message) from None


def cpu_estimate_model(value: Any) -> CpuEstimateModel:
    """``exact`` / ``unknown`` / ``full``, or ``{error: r}``, or a model."""
    if isinstance(value, CpuEstimateModel):
        return value
    try:
        if isinstance(value, str):
            if value == "error":
                raise SpecError("kind", "give the error as {error: r}")
            return CpuEstimateModel(value)
        if isinstance(value, Mapping):
            for key in value:
                if key != "error":
                    raise SpecError(key, f"unknown key {key!r}; expected exact, unknown, full or {{error: r}}")
            if "error" not in value:
                raise SpecError("error", "expected exact, unknown, full or {error: r}")
            return CpuEstimateModel("error", value["error"])
    except SpecError as exc:
        raise SpecError("cpu_estimate" if exc.path == "kind" else f"cpu_estimate.{exc.path}",
                        exc.message) from None
    raise SpecError("cpu_estimate", f"expected exact, unknown, full or {{error: r}}, got {kind(value)}")


def _inline_jobs(value: Any) -> tuple[dict[str, Any], ...] | None:
    """Inline jobs: mappings with submit, procs, runtime and optionally id, estimate, cpu."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not value:
        raise SpecError("jobs", "expected a non-empty list of jobs")
    jobs = []
    seen: dict[int, int] = {}
    for i, item in enumerate(value):
        p = f"jobs.{i}"
        item = check_mapping(p, item, _JOB_KEYS)
        for key in ("submit", "procs", "runtime"):
            if key not in item:
                raise SpecError(p, f"job needs {key!r}")
        job: dict[str, Any] = {
            "id": _int(item.get("id", i + 1), f"{p}.id", -MAX_JOB_ID, MAX_JOB_ID),
            "submit": check_number(f"{p}.submit", item["submit"], 0.0, MAX_TIME),
            "procs": _int(item["procs"], f"{p}.procs", 1, MAX_PROCS),
            "runtime": check_number(f"{p}.runtime", item["runtime"], 0.0, MAX_TIME, low_open=True),
        }
        first = seen.setdefault(job["id"], i)
        if first != i:
            note = "" if "id" in item and "id" in value[first] else " (a job without id is numbered by its position)"
            raise SpecError(f"{p}.id", f"job id {job['id']} is used twice: jobs.{first} and jobs.{i}{note}")
        if "estimate" in item:
            job["estimate"] = check_number(f"{p}.estimate", item["estimate"], 0.0, MAX_TIME, low_open=True)
        if "cpu" in item:
            cpu = item["cpu"]
            if isinstance(cpu, (list, tuple)):
                if len(cpu) != job["procs"]:
                    raise SpecError(f"{p}.cpu", f"{len(cpu)} values for {job['procs']} processes")
                job["cpu"] = tuple(check_number(f"{p}.cpu.{k}", c, 0.0, 1.0, low_open=True)
                                   for k, c in enumerate(cpu))
            else:
                c = check_number(f"{p}.cpu", cpu, 0.0, 1.0, low_open=True)
                job["cpu"] = (c,) * job["procs"]
        jobs.append(job)
    return tuple(jobs)


def _int(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(path, f"expected an integer, got {kind(value)}")
    if value < low:
        raise SpecError(path, f"must be >= {low:,}, got {value:,}")
    if value > high:
        raise SpecError(path, f"must be <= {high:,}, got {value:,}")
    return value


def _model(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or "name" not in value:
        raise SpecError("model", "expected a mapping with at least a 'name'")
    from . import models

    try:
        models.validate_spec(value, where="model")
    except ScenarioError as exc:
        m = re.match(r"(model(?:\.\w+)*): (.*)", str(exc), re.S)
        if m:
            raise SpecError(m.group(1), m.group(2)) from None
        raise SpecError("model", str(exc)) from None
    return dict(value)


def _trace(inst: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    text()(inst, attribute, value)
    if not os.path.isfile(value):
        raise SpecError("trace", f"no such file: {value}")


def _estimate_mode(inst: Any, attribute: Any, value: Any) -> None:
    from .table import estimate_modes

    text()(inst, attribute, value)
    if value not in estimate_modes:
        raise SpecError("runtime_estimate", f"unknown runtime estimate mode {value!r}; "
                                            f"known: {', '.join(estimate_modes.names())}")


@attrs.define(slots=True, frozen=True)
class WorkloadSpec:
    """Exactly one source: ``trace`` (an SWF path), ``model`` (a generator spec ``{name, jobs,
    ...}``) or ``jobs`` (inline). ``strict``: malformed trace lines are errors rather than
    counted skips; ``runtime_estimate``: ``actual``, ``trace`` or ``tsafrir05``; ``cpu_usage``
    and ``cpu_estimate``: the models (or their names); ``limit``: keep the first N jobs."""

    trace: str | None = attrs.field(default=None, validator=_trace)
    model: dict[str, Any] | None = attrs.field(default=None, converter=_model)
    jobs: tuple[dict[str, Any], ...] | None = attrs.field(default=None, converter=_inline_jobs)
    strict: bool = attrs.field(default=False, validator=boolean)
    runtime_estimate: str = attrs.field(default="trace", validator=_estimate_mode)
    cpu_usage: CpuUsageModel = attrs.field(factory=CpuUsageModel, converter=cpu_usage_model)
    cpu_estimate: CpuEstimateModel = attrs.field(factory=CpuEstimateModel, converter=cpu_estimate_model)
    limit: int | None = attrs.field(default=None, validator=integer(1, optional=True))

    def __attrs_post_init__(self) -> None:
        sources = [k for k in ("trace", "model", "jobs") if getattr(self, k) is not None]
        if len(sources) != 1:
            raise SpecError("", "give exactly one of trace, model or jobs"
                            + (f" (found {', '.join(sources)})" if sources else ""))
