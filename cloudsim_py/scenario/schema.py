"""The scenario schema as attrs classes, and the builders that turn a plain mapping (with the
YAML line of every key) into them, with errors naming file, line and key path.

Imports nothing from brokers or the engine except to validate names against registries."""

from __future__ import annotations

import math
import os
import re
from typing import Any, Mapping

import attrs

from ..errors import ScenarioError

# --------------------------------------------------------------------------------- classes


@attrs.define(slots=True, frozen=True)
class InterferenceSpec:
    """A preset name plus any overridden numbers (see ``execution.interference``)."""

    preset: str = "liu2015"
    overrides: dict = attrs.field(factory=dict)


@attrs.define(slots=True, frozen=True)
class DatacenterSpec:
    hosts: int | None = None            #: processors; ``None``: the trace header's MaxProcs
    tiers: int = 1
    interference: InterferenceSpec | None = None
    threshold: float | None = None      #: shortcut for interference.threshold
    migration_cost: float = 20.0
    fidelity: str = "event"
    slice_s: float = 60.0
    check: bool = False


@attrs.define(slots=True, frozen=True)
class CpuUsageSpec:
    model: str = "paper"                #: paper | full
    low: float = 0.4
    high: float = 1.0
    single: float = 1.0
    mean: float | None = None


@attrs.define(slots=True, frozen=True)
class CpuEstimateSpec:
    kind: str = "exact"                 #: exact | error | unknown | full
    error: float = 0.0


@attrs.define(slots=True, frozen=True)
class WorkloadSpec:
    trace: str | None = None            #: SWF path (resolved against the scenario's folder)
    model: dict | None = None           #: {name: ..., jobs: ..., ...} for a generator
    jobs: tuple | None = None           #: inline jobs: mappings with submit, procs, runtime, ...
    strict: bool = False
    runtime_estimate: str = "trace"
    cpu_usage: CpuUsageSpec = CpuUsageSpec()
    cpu_estimate: CpuEstimateSpec = CpuEstimateSpec()
    limit: int | None = None            #: keep only the first N jobs (after cleaning)


@attrs.define(slots=True, frozen=True)
class BrokerSpec:
    policy: str = "fcfs"
    params: dict = attrs.field(factory=dict)


@attrs.define(slots=True, frozen=True)
class MetricsSpec:
    tau: float = 10.0
    warmup: float = 0.0


@attrs.define(slots=True, frozen=True)
class OutputSpec:
    dir: str | None = None              #: relative to the working directory
    swf: bool = False                   #: also write the schedule as an SWF file


@attrs.define(slots=True, frozen=True)
class Scenario:
    """A whole experiment: one workload on one datacenter under one or more brokers."""

    name: str
    seed: int = 0
    datacenter: DatacenterSpec = DatacenterSpec()
    workload: WorkloadSpec = WorkloadSpec()
    brokers: tuple[BrokerSpec, ...] = (BrokerSpec(),)
    metrics: MetricsSpec = MetricsSpec()
    output: OutputSpec = OutputSpec()
    source: str = "<mapping>"           #: file the scenario came from
    base_dir: str = "."                 #: folder relative input paths resolve against


# --------------------------------------------------------------------------------- builders


class _Ctx:
    """Where values came from: file name and the YAML line of each key path."""

    def __init__(self, source: str, lines: Mapping[str, int]):
        self.source = source
        self.lines = lines

    def error(self, path: str, message: str) -> ScenarioError:
        line = self.lines.get(path)
        probe = path
        while line is None and "." in probe:
            probe = probe.rsplit(".", 1)[0]
            line = self.lines.get(probe)
        where = f"{self.source}:{line}" if line is not None else self.source
        return ScenarioError(f"{where}: {path}: {message}")


def _keys(ctx: _Ctx, value: Any, path: str, known: tuple[str, ...]) -> dict:
    if not isinstance(value, Mapping):
        raise ctx.error(path, f"expected a mapping with keys {', '.join(known)}, got {_kind(value)}")
    for key in value:
        if key not in known:
            sub = f"{path}.{key}" if path else str(key)
            raise ctx.error(sub, f"unknown key {key!r}; known keys: {', '.join(known)}")
    return dict(value)


def _kind(value: Any) -> str:
    return f"{type(value).__name__} {value!r}" if not isinstance(value, Mapping) else "a mapping"


#: sizes a scenario may ask for (docs/scenarios.md, Limits): beyond them memory runs out
#: before anything useful happens
MAX_HOSTS = 10_000_000
MAX_TIERS = 16
MAX_JOB_ID = 2**53 - 1      # ids are kept in float64 columns: exact up to 2**53


def _int(ctx: _Ctx, value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.error(path, f"expected an integer, got {_kind(value)}")
    if low is not None and value < low:
        raise ctx.error(path, f"must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ctx.error(path, f"must be <= {high:,}, got {value:,}")
    return value


def _float(ctx: _Ctx, value: Any, path: str, low: float | None = None, high: float | None = None,
           low_open: bool = False, high_open: bool = False) -> float:
    """A finite number (NaN and infinities are refused everywhere) within the bounds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ctx.error(path, f"expected a number, got {_kind(value)}")
    try:
        v = float(value)
    except OverflowError:
        raise ctx.error(path, f"must be a finite number, got an integer of {len(str(value))} digits") from None
    if not math.isfinite(v):
        raise ctx.error(path, f"must be a finite number, got {v}")
    if low is not None and (v < low or (low_open and v == low)):
        raise ctx.error(path, f"must be {'>' if low_open else '>='} {low:g}, got {v:g}")
    if high is not None and (v > high or (high_open and v == high)):
        raise ctx.error(path, f"must be {'<' if high_open else '<='} {high:g}, got {v:g}")
    return v


def _str(ctx: _Ctx, value: Any, path: str) -> str:
    if not isinstance(value, str) or not value:
        raise ctx.error(path, f"expected a non-empty string, got {_kind(value)}")
    return value


def _bool(ctx: _Ctx, value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ctx.error(path, f"expected true or false, got {_kind(value)}")
    return value


def _choice(ctx: _Ctx, value: Any, path: str, choices: tuple[str, ...]) -> str:
    v = _str(ctx, value, path)
    if v not in choices:
        raise ctx.error(path, f"unknown value {v!r}; choose one of {', '.join(choices)}")
    return v


_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand_env(ctx: _Ctx, text: str, path: str, env: Mapping[str, str]) -> str:
    """``${VAR}`` and ``${VAR:-default}``; an unset variable without default is an error."""

    def sub(m: re.Match) -> str:
        name, default = m.group(1), m.group(2)
        if name in env and env[name] != "":
            return env[name]
        if default is not None:
            return default
        raise ctx.error(path, f"environment variable {name} is not set (write ${{{name}:-default}} "
                              "to give a default)")

    return _ENV.sub(sub, text)


def _interference(ctx: _Ctx, value: Any, path: str) -> InterferenceSpec:
    from ..execution.interference import InterferenceModel, presets

    if isinstance(value, str):
        if value not in presets:
            raise ctx.error(path, f"unknown interference preset {value!r}; known: {', '.join(presets.names())}")
        return InterferenceSpec(value)
    numbers = tuple(f.name for f in attrs.fields(InterferenceModel) if f.name != "name")
    raw = _keys(ctx, value, path, ("preset",) + numbers)
    preset = raw.pop("preset", "liu2015")
    if not isinstance(preset, str) or preset not in presets:
        raise ctx.error(f"{path}.preset", f"unknown interference preset {preset!r}; known: {', '.join(presets.names())}")
    overrides = {k: _float(ctx, v, f"{path}.{k}") for k, v in raw.items()}
    try:
        attrs.evolve(presets.get(preset), **overrides)
    except ValueError as exc:
        key = next((k for k in overrides if k in str(exc)), None)
        raise ctx.error(f"{path}.{key}" if key else path, str(exc)) from None
    return InterferenceSpec(preset, overrides)


def _datacenter(ctx: _Ctx, value: Any, path: str) -> DatacenterSpec:
    raw = _keys(ctx, value, path, ("hosts", "tiers", "interference", "threshold", "migration_cost",
                                   "fidelity", "slice_s", "check"))
    out: dict[str, Any] = {}
    if "hosts" in raw:
        out["hosts"] = _int(ctx, raw["hosts"], f"{path}.hosts", 1, MAX_HOSTS)
    if "tiers" in raw:
        out["tiers"] = _int(ctx, raw["tiers"], f"{path}.tiers", 1, MAX_TIERS)
    if "interference" in raw:
        out["interference"] = _interference(ctx, raw["interference"], f"{path}.interference")
    if "threshold" in raw:
        out["threshold"] = _float(ctx, raw["threshold"], f"{path}.threshold", 0.0, 1.0, low_open=True)
    if "migration_cost" in raw:
        out["migration_cost"] = _float(ctx, raw["migration_cost"], f"{path}.migration_cost", 0.0)
    if "fidelity" in raw:
        out["fidelity"] = _choice(ctx, raw["fidelity"], f"{path}.fidelity", ("event", "slice"))
    if "slice_s" in raw:
        out["slice_s"] = _float(ctx, raw["slice_s"], f"{path}.slice_s", 0.0, low_open=True)
    if "check" in raw:
        out["check"] = _bool(ctx, raw["check"], f"{path}.check")
    return DatacenterSpec(**out)


def _cpu_usage(ctx: _Ctx, value: Any, path: str) -> CpuUsageSpec:
    if isinstance(value, str):
        return CpuUsageSpec(model=_choice(ctx, value, path, ("paper", "full")))
    raw = _keys(ctx, value, path, ("model", "low", "high", "single", "mean"))
    out: dict[str, Any] = {}
    if "model" in raw:
        out["model"] = _choice(ctx, raw["model"], f"{path}.model", ("paper", "full"))
    for key in ("low", "high", "single", "mean"):
        if key in raw:
            out[key] = _float(ctx, raw[key], f"{path}.{key}", 0.0, 1.0, low_open=True)
    spec = CpuUsageSpec(**out)
    if spec.mean is not None and "low" in raw:
        raise ctx.error(f"{path}.mean", "give either mean or low, not both")
    try:
        cpu_usage_model(spec)
    except ValueError as exc:
        raise ctx.error(path, str(exc)) from None
    return spec


def _cpu_estimate(ctx: _Ctx, value: Any, path: str) -> CpuEstimateSpec:
    if isinstance(value, str):
        kind = _choice(ctx, value, path, ("exact", "unknown", "full"))
        return CpuEstimateSpec(kind)
    raw = _keys(ctx, value, path, ("error",))
    if "error" not in raw:
        raise ctx.error(path, "expected exact, unknown, full or {error: r}")
    return CpuEstimateSpec("error", _float(ctx, raw["error"], f"{path}.error", 0.0, 1.0,
                                           low_open=True, high_open=True))


_JOB_KEYS = ("id", "submit", "procs", "runtime", "estimate", "cpu")


def _inline_jobs(ctx: _Ctx, value: Any, path: str) -> tuple:
    if not isinstance(value, list) or not value:
        raise ctx.error(path, "expected a non-empty list of jobs")
    jobs = []
    for i, item in enumerate(value):
        p = f"{path}.{i}"
        raw = _keys(ctx, item, p, _JOB_KEYS)
        for key in ("submit", "procs", "runtime"):
            if key not in raw:
                raise ctx.error(p, f"job needs {key!r}")
        job = {
            "id": _int(ctx, raw.get("id", i + 1), f"{p}.id", -MAX_JOB_ID, MAX_JOB_ID),
            "submit": _float(ctx, raw["submit"], f"{p}.submit", 0.0),
            "procs": _int(ctx, raw["procs"], f"{p}.procs", 1, MAX_HOSTS),
            "runtime": _float(ctx, raw["runtime"], f"{p}.runtime", 0.0, low_open=True),
        }
        if "estimate" in raw:
            job["estimate"] = _float(ctx, raw["estimate"], f"{p}.estimate", 0.0, low_open=True)
        if "cpu" in raw:
            cpu = raw["cpu"]
            if isinstance(cpu, list):
                if len(cpu) != job["procs"]:
                    raise ctx.error(f"{p}.cpu", f"{len(cpu)} values for {job['procs']} processes")
                job["cpu"] = tuple(_float(ctx, c, f"{p}.cpu.{k}", 0.0, 1.0, low_open=True)
                                   for k, c in enumerate(cpu))
            else:
                c = _float(ctx, cpu, f"{p}.cpu", 0.0, 1.0, low_open=True)
                job["cpu"] = (c,) * job["procs"]
        jobs.append(job)
    return tuple(jobs)


def _workload(ctx: _Ctx, value: Any, path: str, base_dir: str, env: Mapping[str, str]) -> WorkloadSpec:
    from ..workload.table import estimate_modes

    raw = _keys(ctx, value, path, ("trace", "model", "jobs", "strict", "runtime_estimate",
                                   "cpu_usage", "cpu_estimate", "limit"))
    sources = [k for k in ("trace", "model", "jobs") if k in raw]
    if len(sources) != 1:
        raise ctx.error(path, "give exactly one of trace, model or jobs"
                        + (f" (found {', '.join(sources)})" if sources else ""))
    out: dict[str, Any] = {}
    if "trace" in raw:
        text = expand_env(ctx, _str(ctx, raw["trace"], f"{path}.trace"), f"{path}.trace", env)
        full = os.path.normpath(os.path.join(base_dir, os.path.expanduser(text)))
        if not os.path.isfile(full):
            raise ctx.error(f"{path}.trace", f"no such file: {full}")
        out["trace"] = full
    if "model" in raw:
        model = raw["model"]
        if not isinstance(model, Mapping) or "name" not in model:
            raise ctx.error(f"{path}.model", "expected a mapping with at least a 'name'")
        out["model"] = dict(model)
    if "jobs" in raw:
        out["jobs"] = _inline_jobs(ctx, raw["jobs"], f"{path}.jobs")
    if "strict" in raw:
        out["strict"] = _bool(ctx, raw["strict"], f"{path}.strict")
    if "runtime_estimate" in raw:
        mode = _str(ctx, raw["runtime_estimate"], f"{path}.runtime_estimate")
        if mode not in estimate_modes:
            raise ctx.error(f"{path}.runtime_estimate",
                            f"unknown runtime estimate mode {mode!r}; known: {', '.join(estimate_modes.names())}")
        out["runtime_estimate"] = mode
    if "cpu_usage" in raw:
        out["cpu_usage"] = _cpu_usage(ctx, raw["cpu_usage"], f"{path}.cpu_usage")
    if "cpu_estimate" in raw:
        out["cpu_estimate"] = _cpu_estimate(ctx, raw["cpu_estimate"], f"{path}.cpu_estimate")
    if "limit" in raw:
        out["limit"] = _int(ctx, raw["limit"], f"{path}.limit", 1)
    return WorkloadSpec(**out)


def _broker(ctx: _Ctx, value: Any, path: str) -> BrokerSpec:
    from ..brokers.base import make_broker
    from ..errors import PolicyError

    if isinstance(value, str):
        value = {"policy": value}
    raw = _keys(ctx, value, path, ("policy", "params"))
    policy = _str(ctx, raw.get("policy", "fcfs"), f"{path}.policy")
    params = raw.get("params", {}) or {}
    if not isinstance(params, Mapping):
        raise ctx.error(f"{path}.params", f"expected a mapping, got {_kind(params)}")
    try:
        make_broker(policy, dict(params), where=path)
    except PolicyError as exc:
        msg = str(exc)
        key = f"{path}.policy"
        m = re.match(rf"({re.escape(path)}\.params\.\w+)", msg)
        if m:
            key = m.group(1)
            msg = msg[len(m.group(1)) + 2:]
        elif msg.startswith(f"{path}."):
            key, _, msg = msg.partition(": ")
        raise ctx.error(key, msg) from None
    return BrokerSpec(policy, dict(params))


def _metrics(ctx: _Ctx, value: Any, path: str) -> MetricsSpec:
    raw = _keys(ctx, value, path, ("tau", "warmup"))
    out: dict[str, Any] = {}
    if "tau" in raw:
        out["tau"] = _float(ctx, raw["tau"], f"{path}.tau", 0.0, low_open=True)
    if "warmup" in raw:
        out["warmup"] = _float(ctx, raw["warmup"], f"{path}.warmup", 0.0, 1.0, high_open=True)
    return MetricsSpec(**out)


def _output(ctx: _Ctx, value: Any, path: str, env: Mapping[str, str]) -> OutputSpec:
    raw = _keys(ctx, value, path, ("dir", "swf"))
    out: dict[str, Any] = {}
    if "dir" in raw:
        out["dir"] = expand_env(ctx, _str(ctx, raw["dir"], f"{path}.dir"), f"{path}.dir", env)
    if "swf" in raw:
        out["swf"] = _bool(ctx, raw["swf"], f"{path}.swf")
    return OutputSpec(**out)


TOP_KEYS = ("name", "seed", "datacenter", "workload", "broker", "metrics", "output")


def build_scenario(data: Any, *, source: str = "<mapping>", lines: Mapping[str, int] | None = None,
                   base_dir: str = ".", env: Mapping[str, str] | None = None) -> Scenario:
    """Validate a plain mapping and build a :class:`Scenario` (errors name file, line, key)."""
    ctx = _Ctx(source, lines or {})
    env = os.environ if env is None else env
    raw = _keys(ctx, data, "", TOP_KEYS)
    if "workload" not in raw:
        raise ctx.error("workload", "a scenario needs a workload (trace, model or jobs)")
    name = _str(ctx, raw.get("name", os.path.splitext(os.path.basename(source))[0] or "scenario"), "name")
    seed = _int(ctx, raw.get("seed", 0), "seed", 0)
    dc = _datacenter(ctx, raw.get("datacenter", {}), "datacenter")
    workload = _workload(ctx, raw["workload"], "workload", base_dir, env)
    broker_raw = raw.get("broker", {"policy": "fcfs"})
    if isinstance(broker_raw, list):
        if not broker_raw:
            raise ctx.error("broker", "an empty list of brokers")
        brokers = tuple(_broker(ctx, b, f"broker.{i}") for i, b in enumerate(broker_raw))
    else:
        brokers = (_broker(ctx, broker_raw, "broker"),)
    _check_tiers(ctx, dc, brokers, isinstance(broker_raw, list))
    if workload.model is not None:
        _check_model(ctx, workload.model)
    metrics = _metrics(ctx, raw.get("metrics", {}), "metrics")
    output = _output(ctx, raw.get("output", {}), "output", env)
    return Scenario(name=name, seed=seed, datacenter=dc, workload=workload, brokers=brokers,
                    metrics=metrics, output=output, source=source, base_dir=base_dir)


def _check_tiers(ctx: _Ctx, dc: DatacenterSpec, brokers: tuple[BrokerSpec, ...], listed: bool) -> None:
    from ..brokers.base import broker_registry

    for i, spec in enumerate(brokers):
        cls = broker_registry.get(spec.policy)
        path = f"broker.{i}.policy" if listed else "broker.policy"
        if getattr(cls, "min_tiers", 1) > dc.tiers:
            raise ctx.error(path, f"policy {spec.policy!r} needs at least {cls.min_tiers} tiers; "
                                  f"datacenter.tiers is {dc.tiers}")
        most = getattr(cls, "max_tiers", None)
        if most is not None and dc.tiers > most:
            raise ctx.error(path, f"policy {spec.policy!r} uses at most {most} tiers; "
                                  f"datacenter.tiers is {dc.tiers}")


def _check_model(ctx: _Ctx, model: dict) -> None:
    """Validate a generator spec now, not mid-run (the models package does the checking)."""
    try:
        from ..workload import models
    except ImportError:  # pragma: no cover - models package not available
        raise ctx.error("workload.model", "workload models are not available in this installation")
    from ..errors import ScenarioError as _SE

    validate = getattr(models, "validate_spec", None)
    if validate is None:
        return
    try:
        validate(model, where="workload.model")
    except _SE as exc:
        msg = str(exc)
        m = re.match(r"(workload\.model(?:\.\w+)*): (.*)", msg, re.S)
        if m:
            raise ctx.error(m.group(1), m.group(2)) from None
        raise ctx.error("workload.model", msg) from None


def cpu_usage_model(spec: CpuUsageSpec):
    from ..workload.cpu import CpuUsageModel

    if spec.model == "full":
        return CpuUsageModel("full")
    if spec.mean is not None:
        return CpuUsageModel.with_mean(spec.mean, spec.high)
    return CpuUsageModel("paper", low=spec.low, high=spec.high, single=spec.single)


def cpu_estimate_model(spec: CpuEstimateSpec):
    from ..workload.cpu import CpuEstimateModel

    return CpuEstimateModel(spec.kind, spec.error)


def interference_model(dc: DatacenterSpec):
    from ..execution.interference import presets

    spec = dc.interference or InterferenceSpec("liu2015" if dc.tiers > 1 else "none")
    model = attrs.evolve(presets.get(spec.preset), **spec.overrides)
    if dc.threshold is not None:
        model = attrs.evolve(model, threshold=dc.threshold)
    return model
