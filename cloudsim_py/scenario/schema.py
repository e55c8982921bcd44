"""The scenario: the option objects of every layer (datacenter, workload, brokers, metrics)
plus the output, and the builder that turns a plain mapping (with the YAML line of every key)
into them. The checks live in the option classes; this module adds the file, the line and the
key path to their errors, resolves paths and ``${ENV}``, and checks what spans sections."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Mapping

import attrs

from ..brokers.spec import BrokerSpec
from ..errors import PolicyError, ScenarioError, SpecError
from ..infrastructure.spec import DatacenterSpec
from ..metrics import SUMMARY_KEYS, MetricsSpec
from ..validate import boolean, integer, kind, text
from ..workload.spec import WorkloadSpec
from ..systems.datacenter import DatacenterSystem

if TYPE_CHECKING:  # pragma: no cover
    from ..class_metrics import ClassesSpec
    from ..probes import ProbeSpec            # imported when a scenario has metrics.probes
    from ..clouds.spec import FederationSpec
    from ..systems import DagCloudSystem, LeaseCloudSystem, System
    from ..workload.dag_spec import DagWorkloadSpec
    from ..workload.lease_spec import LeaseWorkloadSpec
    from ..workload.moldable import MoldableSpec


def __getattr__(name: str) -> Any:
    # the cloud sections' classes, re-exported here, are imported when first asked for: a
    # datacenter scenario does not need them (nor the cloud brokers they import)
    if name == "FederationSpec":
        from ..clouds.spec import FederationSpec
        return FederationSpec
    if name == "DagWorkloadSpec":
        from ..workload.dag_spec import DagWorkloadSpec
        return DagWorkloadSpec
    if name == "LeaseWorkloadSpec":
        from ..workload.lease_spec import LeaseWorkloadSpec
        return LeaseWorkloadSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["BrokerSpec", "DagWorkloadSpec", "DatacenterSpec", "FederationSpec", "LeaseWorkloadSpec",
           "MetricsSpec", "OutputSpec", "Scenario", "WorkloadSpec", "build_scenario", "expand_env"]


@attrs.define(slots=True, frozen=True)
class OutputSpec:
    """``dir``: where ``summary.json`` and ``jobs.csv`` go (relative to the working
    directory); ``swf``: also write the schedule as an SWF file (a datacenter's);
    ``schedule``: also write ``schedule.csv`` (every action of every datacenter, the rows of a
    Gantt chart); ``timeline``: also write ``timeline.csv`` (running, queued and suspended jobs
    and busy processors per tier, as step changes). Both for every kind of system; both need
    an output folder."""

    dir: str | None = attrs.field(default=None, validator=text(optional=True))
    swf: bool = attrs.field(default=False, validator=boolean)
    schedule: bool = attrs.field(default=False, validator=boolean)
    timeline: bool = attrs.field(default=False, validator=boolean)


@attrs.define(slots=True, frozen=True)
class Scenario:
    """A whole experiment: one system (a datacenter running a workload, or a cloud system running
    leases or DAG jobs; :mod:`cloudsim_py.systems`) under one or more brokers, with the metrics'
    options and where the outputs go."""

    name: str = attrs.field(validator=text())
    system: System
    seed: int = attrs.field(default=0, validator=integer(0, 2**63 - 1))
    brokers: tuple[BrokerSpec, ...] = (BrokerSpec(),)
    metrics: MetricsSpec = MetricsSpec()
    output: OutputSpec = OutputSpec()
    source: str = "<mapping>"           #: file the scenario came from
    base_dir: str = "."                 #: folder relative input paths resolve against
    #: ``metrics.classes``: per-runtime-class metrics (S, M, L, all) in the summary
    classes: ClassesSpec | None = None
    #: modules (or ``.py`` files) imported before the brokers are made: the only user code a
    #: scenario may run (their policies by registered name, or ``module:Class`` of one of them)
    plugins: tuple[str, ...] = ()
    #: ``metrics.probes``: the probes each run gets (fresh ones per run), in order
    probes: tuple[ProbeSpec, ...] = ()
    overrides: tuple[str, ...] = ()     #: the ``--set`` overrides applied, in order

    @property
    def labels(self) -> tuple[str, ...]:
        """How results name each broker (unique: checked when the scenario is built)."""
        return tuple(b.name for b in self.brokers)


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

    def spec(self, cls: Any, raw: Mapping[str, Any], path: str) -> Any:
        """``cls(**raw)``; its :class:`SpecError` becomes a ScenarioError at ``path``."""
        try:
            return cls(**raw)
        except SpecError as exc:
            err = exc.within(path)
            raise self.error(err.path, err.message) from None


def _keys(ctx: _Ctx, value: Any, path: str, known: tuple[str, ...]) -> dict:
    if not isinstance(value, Mapping):
        raise ctx.error(path, f"expected a mapping with keys {', '.join(known)}, got {kind(value)}")
    for key in value:
        if key not in known:
            sub = f"{path}.{key}" if path else str(key)
            raise ctx.error(sub, f"unknown key {key!r}; known keys: {', '.join(known)}")
    return dict(value)


def _fields(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))


_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand_env(ctx: _Ctx, value: Any, path: str, env: Mapping[str, str]) -> Any:
    """``${VAR}`` and ``${VAR:-default}`` in a string; an unset variable without default is an
    error. Anything but a string is returned as it is (the option class checks its type)."""
    if not isinstance(value, str):
        return value

    def sub(m: re.Match) -> str:
        name, default = m.group(1), m.group(2)
        if name in env and env[name] != "":
            return env[name]
        if default is not None:
            return default
        raise ctx.error(path, f"environment variable {name} is not set (write ${{{name}:-default}} "
                              "to give a default)")

    return _ENV.sub(sub, value)


def _workload(ctx: _Ctx, value: Any, base_dir: str, env: Mapping[str, str]) -> WorkloadSpec:
    raw = _keys(ctx, value, "workload", _fields(WorkloadSpec) + ("moldable",))
    raw.pop("moldable", None)           # its own option class (_moldable)
    if isinstance(raw.get("trace"), str) and raw["trace"]:
        text_ = expand_env(ctx, raw["trace"], "workload.trace", env)
        raw["trace"] = os.path.normpath(os.path.join(base_dir, os.path.expanduser(text_)))
    return ctx.spec(WorkloadSpec, raw, "workload")


def _moldable(ctx: _Ctx, value: Any) -> MoldableSpec | None:
    """``workload.moldable`` (a mapping; ``null`` or absent: rigid jobs)."""
    if not isinstance(value, Mapping) or value.get("moldable") is None:
        return None
    from ..workload.moldable import MoldableSpec      # the moldable-job modules, when asked for
    raw = _keys(ctx, value["moldable"], "workload.moldable", _fields(MoldableSpec))
    return ctx.spec(MoldableSpec, raw, "workload.moldable")


def _classes(ctx: _Ctx, value: Any) -> ClassesSpec | None:
    """``metrics.classes``: a mapping ``{S: 600, M: 10800}`` (either key may be left out),
    ``true`` (the paper's limits), or ``false`` / ``null`` / absent (no per-class metrics)."""
    if value is None or value is False:
        return None
    if value is True:
        value = {}
    from ..class_metrics import ClassesSpec           # with the moldable-job modules: when asked for
    raw = _keys(ctx, value, "metrics.classes", ("S", "M"))
    return ctx.spec(ClassesSpec, raw, "metrics.classes")


def _probe_factory(ctx: _Ctx, name: str, path: str, base_dir: str, modules: dict[str, str]) -> Any:
    """What a probe's name gives: a registered name, ``module:Class`` of a module listed under
    ``plugins``, or ``./file.py:Class`` (the file imported as a plugin would be)."""
    from ..probes import probe_registry
    from ..registry import import_module, load_plugin

    if ":" not in name:
        try:
            return probe_registry.get(name)
        except PolicyError as exc:
            raise ctx.error(path, f"{exc}; or name a class: module:Class (its module listed under "
                                  "plugins) or ./file.py:Class") from None
    module, _, attr = name.rpartition(":")
    if not module or not attr:
        raise ctx.error(path, f"{name!r}: expected module:Class or ./file.py:Class")
    if module.endswith(".py") or "/" in module or os.sep in module:
        try:
            module = load_plugin(module, base_dir)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - as a plugin's import (_plugins)
            raise ctx.error(path, f"cannot import {name.rpartition(':')[0]!r}: {_failure(exc)}") from None
    elif module not in modules:
        raise ctx.error(path, f"{name!r} names user code: list its module under plugins "
                              f"(plugins: [{module}]) to import it")
    obj: Any = import_module(module)
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ctx.error(path, f"{name!r}: module {module!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ctx.error(path, f"{name!r}: expected a class (or a function making a probe), got {kind(obj)}")
    return obj


def _probes(ctx: _Ctx, value: Any, base_dir: str, modules: dict[str, str],
            taken: tuple[str, ...]) -> tuple[ProbeSpec, ...]:
    """``metrics.probes``: a list of names, or of ``{name: ..., params: {...}}``. Each is made
    once here, so that a bad name, bad parameters or a summary key that another measure already
    gives fail when the scenario is loaded, naming the entry."""
    if value is None:
        return ()
    from ..probes import ProbeSpec, check_probe

    if not isinstance(value, list):
        raise ctx.error("metrics.probes", f"expected a list of probes (names, module:Class, "
                                          f"./file.py:Class, or {{name: ..., params: {{...}}}}), got {kind(value)}")
    out = []
    seen = {key: "a built-in measure" for key in taken}
    for i, entry in enumerate(value):
        path = f"metrics.probes.{i}"
        if isinstance(entry, str):
            entry = {"name": entry}
        raw = _keys(ctx, entry, path, ("name", "params"))
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise ctx.error(f"{path}.name", f"expected the probe's name, got {kind(name)}")
        params = raw.get("params") or {}
        if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
            raise ctx.error(f"{path}.params", f"expected a mapping of keyword parameters, got {kind(params)}")
        spec = ProbeSpec(name, _probe_factory(ctx, name, f"{path}.name", base_dir, modules), dict(params))
        try:
            probe = spec.make()
        except (TypeError, ValueError, SpecError) as exc:
            raise ctx.error(f"{path}.params", f"probe {name!r}: {exc}") from None
        try:
            cols = check_probe(probe, name)
        except PolicyError as exc:
            raise ctx.error(path, str(exc)) from None
        for col in cols:
            if col in seen:
                raise ctx.error(path, f"probe {name!r}: summary key {col!r} is already given by {seen[col]}; "
                                      "rename it")
            seen[col] = f"probe {name!r}"
        out.append(spec)
    return tuple(out)


def _broker_params(ctx: _Ctx, raw: Mapping[str, Any], path: str) -> None:
    """A policy with a ``params_spec`` option class has its parameters checked by it here, so
    that an error names the key (``broker.params.shares``)."""
    from ..brokers.base import broker_registry

    policy = raw.get("policy", "fcfs")
    try:
        cls = broker_registry.get(policy) if isinstance(policy, str) else None
    except PolicyError:                 # an unknown policy is reported by BrokerSpec below
        return
    spec_cls = getattr(cls, "params_spec", None)
    if spec_cls is None or not isinstance(raw.get("params", {}), Mapping):
        return
    params = _keys(ctx, raw.get("params") or {}, f"{path}.params", _fields(spec_cls))
    ctx.spec(spec_cls, params, f"{path}.params")


def _broker(ctx: _Ctx, value: Any, path: str, modules: dict[str, str]) -> BrokerSpec:
    if isinstance(value, str):
        value = {"policy": value}
    raw = _keys(ctx, value, path, _fields(BrokerSpec))
    policy = raw.get("policy")
    if isinstance(policy, str) and ":" in policy:
        module = policy.partition(":")[0]
        if module not in modules:
            raise ctx.error(f"{path}.policy", f"{policy!r} names user code: list its module under "
                                              f"plugins (plugins: [{module}]) to import it")
    _broker_params(ctx, raw, path)      # after the plugin check: looking a policy up may import
    return ctx.spec(BrokerSpec, raw, path)


def _plugins(ctx: _Ctx, value: Any, base_dir: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Import the listed plugins (module names or ``.py`` files, in order); returns them and a
    map module name -> entry."""
    from ..registry import load_plugin

    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ctx.error("plugins", f"expected a list of module names or .py files, got {kind(value)}")
    modules: dict[str, str] = {}
    for i, entry in enumerate(value):
        try:
            modules[load_plugin(entry, base_dir)] = entry
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - any failure of user code is the plugin's,
            # sys.exit() too: it would end the program with that code and no results
            raise ctx.error(f"plugins.{i}", f"cannot import plugin {entry!r}: {_failure(exc)}") from None
    return tuple(value), modules


def _failure(exc: BaseException) -> str:
    """How a plugin's import failed, for the error naming it."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while being imported"
    return f"{type(exc).__name__}: {exc}"


def _unique_labels(ctx: _Ctx, brokers: tuple[BrokerSpec, ...]) -> None:
    """Results are named by label: two brokers with one label (or labels that give one folder
    name) would overwrite each other."""
    seen: dict[str, int] = {}
    for i, b in enumerate(brokers):
        key = slug(b.name)
        if key in seen:
            j = seen[key]
            other = brokers[j].name
            same = "the same label" if other == b.name else f"label {other!r}, the same folder name"
            raise ctx.error(f"broker.{i}" + (".label" if b.label else ""),
                            f"label {b.name!r}: broker.{j} has {same}; give each entry its own "
                            "label (broker: [{policy: ..., params: ..., label: ...}])")
        seen[key] = i


def slug(label: str) -> str:
    """A label as a folder name: letters, digits, ``-`` and ``_``; anything else becomes ``_``."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label)


TOP_KEYS = ("name", "seed", "plugins", "datacenter", "workload", "broker", "metrics", "output",
            "federation", "dags", "leases")


def build_scenario(data: Any, *, source: str = "<mapping>", lines: Mapping[str, int] | None = None,
                   base_dir: str = ".", env: Mapping[str, str] | None = None,
                   overrides: tuple[str, ...] = ()) -> Scenario:
    """Validate a plain mapping and build a :class:`Scenario` (errors name file, line, key).
    ``plugins`` are imported first (the only user code a scenario imports)."""
    ctx = _Ctx(source, lines or {})
    env = os.environ if env is None else env
    raw = _keys(ctx, data, "", TOP_KEYS)
    plugins, modules = _plugins(ctx, raw.get("plugins", []), base_dir)
    name = raw.get("name", os.path.splitext(os.path.basename(source))[0] or "scenario")
    seed = raw.get("seed", 0)
    metrics_raw = _keys(ctx, raw.get("metrics", {}), "metrics", _fields(MetricsSpec) + ("classes", "probes"))
    classes = _classes(ctx, metrics_raw.pop("classes", None))
    probes_raw = metrics_raw.pop("probes", None)
    metrics = ctx.spec(MetricsSpec, metrics_raw, "metrics")
    out_raw = _keys(ctx, raw.get("output", {}), "output", _fields(OutputSpec))
    if "dir" in out_raw:
        out_raw["dir"] = expand_env(ctx, out_raw["dir"], "output.dir", env)
    output = ctx.spec(OutputSpec, out_raw, "output")
    system: System
    if any(k in raw for k in ("federation", "dags", "leases")):
        system, brokers = _cloud_system(ctx, raw, base_dir, env, modules, output)
    else:
        system, brokers = _datacenter_system(ctx, raw, base_dir, env, modules, output)
    _unique_labels(ctx, brokers)
    taken: tuple[str, ...] = SUMMARY_KEYS
    if classes is not None:
        from ..class_metrics import class_columns      # per-class metrics: imported when asked for
        taken += class_columns(classes)
    probes = _probes(ctx, probes_raw, base_dir, modules, taken)
    return ctx.spec(Scenario, dict(name=name, seed=seed, system=system, brokers=brokers, metrics=metrics,
                                   output=output, source=source, base_dir=base_dir, classes=classes,
                                   plugins=plugins, probes=probes, overrides=tuple(overrides)), "")


def _brokers(ctx: _Ctx, raw: dict, default: str, modules: dict[str, str]) -> tuple[tuple[BrokerSpec, ...], bool]:
    """The ``broker`` section (one mapping or a list of them) and whether it was a list."""
    broker_raw = raw.get("broker", {"policy": default})
    if isinstance(broker_raw, list):
        if not broker_raw:
            raise ctx.error("broker", "an empty list of brokers")
        return tuple(_broker(ctx, b, f"broker.{i}", modules) for i, b in enumerate(broker_raw)), True
    return (_broker(ctx, broker_raw, "broker", modules),), False


def _datacenter_system(ctx: _Ctx, raw: dict, base_dir: str, env: Mapping[str, str], modules: dict[str, str],
                       output: OutputSpec) -> tuple[DatacenterSystem, tuple[BrokerSpec, ...]]:
    """A datacenter (``datacenter``) running a ``workload``, and its brokers."""
    if "workload" not in raw:
        raise ctx.error("workload", "a scenario needs a workload (trace, model or jobs), or a federation "
                                    "with dags or leases")
    dc = ctx.spec(DatacenterSpec, _keys(ctx, raw.get("datacenter", {}), "datacenter",
                                        _fields(DatacenterSpec)), "datacenter")
    workload = _workload(ctx, raw["workload"], base_dir, env)
    brokers, listed = _brokers(ctx, raw, "fcfs", modules)
    _check_tiers(ctx, dc, brokers, listed)
    moldable = _moldable(ctx, raw["workload"])
    if moldable is not None and moldable.vm_factor != 1.0 and dc.groups:
        raise ctx.error("workload.moldable.vm_factor", "a datacenter given as host groups cannot be "
                                                       "resized; give datacenter.hosts")
    return DatacenterSystem(workload=workload, datacenter=dc, moldable=moldable, swf=output.swf), brokers


def _check_tiers(ctx: _Ctx, dc: DatacenterSpec, brokers: tuple[BrokerSpec, ...], listed: bool) -> None:
    from ..brokers.base import broker_registry

    for i, spec in enumerate(brokers):
        cls = broker_registry.get(spec.policy)
        path = f"broker.{i}.policy" if listed else "broker.policy"
        if getattr(cls, "cloud_system", False):
            raise ctx.error(path, f"policy {spec.policy!r} runs a cloud system, not a datacenter's jobs: "
                                  "give federation with dags or leases (docs/federation.md)")
        if getattr(cls, "min_tiers", 1) > dc.tiers:
            raise ctx.error(path, f"policy {spec.policy!r} needs at least {cls.min_tiers} tiers; "
                                  f"datacenter.tiers is {dc.tiers}")
        most = getattr(cls, "max_tiers", None)
        if most is not None and dc.tiers > most:
            raise ctx.error(path, f"policy {spec.policy!r} uses at most {most} tiers; "
                                  f"datacenter.tiers is {dc.tiers}")


def _path(ctx: _Ctx, value: Any, path: str, base_dir: str, env: Mapping[str, str]) -> Any:
    if not isinstance(value, str) or not value:
        return value
    return os.path.normpath(os.path.join(base_dir, os.path.expanduser(expand_env(ctx, value, path, env))))


def _cloud_system(ctx: _Ctx, raw: dict, base_dir: str, env: Mapping[str, str], modules: dict[str, str],
                  output: OutputSpec) -> tuple[LeaseCloudSystem | DagCloudSystem, tuple[BrokerSpec, ...]]:
    """A cloud system (``federation``) running ``dags`` or ``leases`` (docs/federation.md): the
    sections, then what spans them (policies, task types, sizes)."""
    from ..brokers.base import broker_registry
    from ..clouds.spec import FederationSpec
    from ..systems.clouds import DagCloudSystem, LeaseCloudSystem
    from ..workload.dag_spec import DagWorkloadSpec
    from ..workload.lease_spec import LeaseWorkloadSpec
    from ..brokers.dags import DagScheduler
    from ..brokers.leases import CloudScheduler

    if "federation" not in raw:
        raise ctx.error("federation", "dags and leases run on clouds: give federation (vm_types, clouds)")
    if "workload" in raw:
        raise ctx.error("workload", "a cloud system runs dags or leases, not workload")
    if "datacenter" in raw:
        raise ctx.error("datacenter", "a cloud system's datacenters are its federation.clouds")
    if ("dags" in raw) == ("leases" in raw):
        raise ctx.error("dags" if "dags" in raw else "federation",
                        "give exactly one of dags or leases for the clouds to run")
    if output.swf:
        raise ctx.error("output.swf", "schedule.swf is a datacenter's schedule; a cloud system writes "
                                      "intervals.csv (every transfer, run, save, reload and migration)")
    fed = ctx.spec(FederationSpec, _keys(ctx, raw["federation"], "federation", _fields(FederationSpec)),
                   "federation")
    system: LeaseCloudSystem | DagCloudSystem
    if "dags" in raw:
        d = _keys(ctx, raw["dags"], "dags", _fields(DagWorkloadSpec))
        if isinstance(d.get("workflows"), list):
            d["workflows"] = [_path(ctx, w, f"dags.workflows.{i}", base_dir, env) if isinstance(w, str) else
                              {**w, "path": _path(ctx, w.get("path"), f"dags.workflows.{i}.path", base_dir, env)}
                              if isinstance(w, Mapping) else w for i, w in enumerate(d["workflows"])]
        dags = ctx.spec(DagWorkloadSpec, d, "dags")
        types = fed.matrix.task_types() if fed.matrix is not None else None
        try:
            dags.check_platform(types, len(fed.clouds), max(c.vms * c.vm_type.cpus for c in fed.clouds))
        except SpecError as exc:
            err = exc.within("dags")
            raise ctx.error(err.path, err.message) from None
        system = DagCloudSystem(fed, dags)
        base: type = DagScheduler
        default, what = "fdls", "a cloud-system policy (fdls, fdmms)"
    else:
        lr = _keys(ctx, raw["leases"], "leases", _fields(LeaseWorkloadSpec))
        for key in ("lwf", "swf", "injected"):
            if key in lr:
                lr[key] = _path(ctx, lr[key], f"leases.{key}", base_dir, env)
        leases = ctx.spec(LeaseWorkloadSpec, lr, "leases")
        if len(fed.clouds) != 1:
            raise ctx.error("federation.clouds", f"a lease workload runs on one cloud; {len(fed.clouds)} are given")
        cloud = fed.clouds[0]
        for i, lease in enumerate(leases.requests or ()):
            vms = lease.nodes * cloud.vm_type.vms_for(lease.cpus_per_node)
            if vms > cloud.vms:
                raise ctx.error(f"leases.requests.{i}.nodes", f"lease {lease.id} asks {vms} VMs, more than cloud "
                                                              f"{cloud.name!r} has ({cloud.vms})")
        system = LeaseCloudSystem(fed, leases)
        base = CloudScheduler
        default, what = "leases", "a lease scheduler (leases)"
    brokers, listed = _brokers(ctx, raw, default, modules)
    for i, spec in enumerate(brokers):
        cls = broker_registry.get(spec.policy)
        ok = isinstance(cls, type) and issubclass(cls, base)
        if base is CloudScheduler and ok and issubclass(cls, DagScheduler):
            ok = False
        if not ok:
            raise ctx.error(f"broker.{i}.policy" if listed else "broker.policy",
                            f"policy {spec.policy!r} cannot run {'dags' if 'dags' in raw else 'leases'}: give {what}")
    return system, brokers
