"""The datacenter's options as one attrs class: defaults and checks live here once, whether
the values come from YAML (the scenario loader adds file and line), from ``simulate(...)``
keywords or from Python. Imports nothing from brokers, workloads or scenarios."""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from ..errors import CloudSimError, SpecError
from ..execution.interference import EFF_DRAWS, JOB_PROGRESS, InterferenceModel, presets
from ..memory import over_limit
from ..validate import boolean, check_keys, check_number, choice, integer, kind, number, text

#: more hosts than this is a typing error, not a machine (and would exhaust memory)
MAX_HOSTS = 10_000_000
MAX_TIERS = 16
#: the slowest host speed (work seconds per second): a host a million times slower than the
#: reference still runs a 10-day job in 1e12 s, where float64 times keep a resolution of about
#: 0.1 ms; a smaller (or subnormal) speed makes durations overflow to infinity and the run stick
MIN_SPEED = 1e-6
#: shortest ``slice_s``: a millisecond (trace times are whole seconds; a shorter slice only
#: multiplies the events, and 1e-300 s never lets the clock move)
MIN_SLICE_S = 0.001
#: which estimated load the threshold reads for a lower tier (docs/progress.md, Placement rules):
#: ``foreground``, the top tier's alone (Sindhuja and Santhosh, KTCBF ``dispatch``: a Low, Medium
#: or High process is placed "if pi below the utilization threshold", the nodes' utilization
#: being the one "caused by the VeryHigh_CPU load"); ``stacked``, the sum of every busy tier
#: above (Liu 2013's two-tier rule applied tier by tier). Both are the same with two tiers.
TIER_THRESHOLDS = ("foreground", "stacked")
#: most time slices one run may take (``fidelity: slice``): about 8 us each with a few jobs
#: running (more with many), so under a minute of them; 60 s slices over three years of trace
#: are 1.6 million
MAX_SLICES = 5_000_000
#: bytes of a built datacenter per host, and per tier of every host (measured: 440 B a host at one
#: tier, 4.8 KB at 16); what :func:`hosts_memory` estimates before the hosts are built
HOST_BYTES = 160
TIER_BYTES = 300


def hosts_memory(hosts: int, tiers: int) -> int:
    """Estimated bytes of a datacenter of ``hosts`` hosts of ``tiers`` VM tiers."""
    return hosts * (HOST_BYTES + TIER_BYTES * tiers)


def hosts_over_limit(hosts: int, tiers: int) -> str | None:
    """``None`` if such a datacenter fits in memory (:mod:`cloudsim_py.memory`), else why not:
    ``10,000,000 hosts of 2 tiers need about 7.08 GiB of memory, more than ...``."""
    why = over_limit(hosts_memory(hosts, tiers))
    return None if why is None else f"{hosts:,} hosts of {tiers} tier{'s' if tiers > 1 else ''} need {why}"


def _interference(value: Any) -> InterferenceModel | None:
    """A preset name, a preset with overridden numbers (``{preset: liu2015, loss_high: 0.05}``),
    or a model; ``None``: the default for the tier count. A ``job_progress`` other than
    ``barriers`` drops the preset's ``barrier_work`` (``{preset: liu2015, job_progress:
    lockstep}`` is the preset with lockstep progress)."""
    if value is None or isinstance(value, InterferenceModel):
        return value
    if isinstance(value, str):
        if value not in presets:
            raise SpecError("interference", f"unknown interference preset {value!r}; "
                                            f"known: {', '.join(presets.names())}")
        return presets.get(value)
    if not isinstance(value, Mapping):
        raise SpecError("interference", f"expected a preset name or a mapping, got {kind(value)}")
    raw = dict(value)
    preset = raw.pop("preset", "liu2015")
    if not isinstance(preset, str) or preset not in presets:
        raise SpecError("interference.preset", f"unknown interference preset {preset!r}; "
                                               f"known: {', '.join(presets.names())}")
    words = {"eff_draw": (EFF_DRAWS, "when the background efficiency is drawn"),
             "job_progress": (JOB_PROGRESS, "how a job advances from its processes' speeds")}
    numbers = [f.name for f in attrs.fields(InterferenceModel) if f.name != "name" and f.name not in words]
    for key, v in raw.items():
        if key in words:
            allowed, what = words[key]
            if not isinstance(v, str) or v not in allowed:
                raise SpecError(f"interference.{key}",
                                f"expected one of {', '.join(allowed)} ({what}), got {v!r}")
            continue
        if key not in numbers:
            raise SpecError(f"interference.{key}", f"unknown key {key!r}; known keys: "
                                                   f"{', '.join(['preset'] + numbers + list(words))}")
        raw[key] = check_number(f"interference.{key}", v)
    if raw.get("job_progress", "barriers") != "barriers" and "barrier_work" not in raw:
        raw["barrier_work"] = 0.0     # another reading than the preset's barriers: no step
    try:
        return attrs.evolve(presets.get(preset), **raw)
    except ValueError as exc:
        key = next((k for k in raw if k in str(exc)), None)
        raise SpecError(f"interference.{key}" if key else "interference", str(exc)) from None


@attrs.define(slots=True, frozen=True)
class HostGroup:
    """``count`` hosts of one speed (work seconds per second) and type (heterogeneous VMs)."""

    count: int = attrs.field(validator=integer(1, MAX_HOSTS))
    speed: float = attrs.field(default=1.0, validator=number(MIN_SPEED))
    type: str = attrs.field(default="default", validator=text())


def _groups(value: Any) -> tuple[HostGroup, ...]:
    if isinstance(value, tuple) and all(isinstance(g, HostGroup) for g in value):
        return value
    if not isinstance(value, (list, tuple)):
        raise SpecError("groups", f"expected a list of host groups, got {kind(value)}")
    out = []
    for i, g in enumerate(value):
        if isinstance(g, HostGroup):
            out.append(g)
            continue
        if not isinstance(g, Mapping):
            raise SpecError(f"groups.{i}", f"expected a mapping (count, speed, type), got {kind(g)}")
        check_keys(f"groups.{i}", g, [f.name for f in attrs.fields(HostGroup)])
        if "count" not in g:
            raise SpecError(f"groups.{i}.count", "missing")
        try:
            out.append(HostGroup(**g))
        except SpecError as exc:
            raise exc.within(f"groups.{i}") from None
    return tuple(out)


@attrs.define(slots=True, frozen=True)
class DatacenterSpec:
    """Options of one datacenter (``datacenter:`` in a scenario).

    ``hosts``: processors (``None``: the trace header's MaxProcs, resolved by the scenario
    runner); ``groups``: hosts of other speeds or types instead of ``hosts`` identical ones
    of ``speed``; ``tiers``: VM tier slots per host; ``interference``: a preset name, a preset
    with overrides, or a model (default: ``liu2015`` with tiers, ``none`` without);
    ``threshold``: shortcut for ``interference.threshold``; ``migration_cost``: seconds before a
    job resumed elsewhere progresses; ``fidelity``: ``event`` (factors drawn per placement,
    ``eff`` as ``interference.eff_draw`` says) or ``slice`` (redrawn every ``slice_s``);
    ``check``: verify invariants after every timestamp; ``tier_threshold``: the load the
    threshold reads for a lower tier, ``foreground`` (the top tier's, paper 004's KTCBF) or
    ``stacked`` (every tier above); the same with two tiers.
    """

    hosts: int | None = attrs.field(default=None, validator=integer(1, MAX_HOSTS, optional=True))
    tiers: int = attrs.field(default=1, validator=integer(1, MAX_TIERS))
    interference: InterferenceModel | None = attrs.field(default=None, converter=_interference)
    threshold: float | None = attrs.field(default=None, validator=number(0.0, 1.0, low_open=True,
                                                                         optional=True))
    migration_cost: float = attrs.field(default=20.0, validator=number(0.0))
    fidelity: str = attrs.field(default="event", validator=choice(("event", "slice")))
    slice_s: float = attrs.field(default=60.0, validator=number(MIN_SLICE_S))
    check: bool = attrs.field(default=False, validator=boolean)
    speed: float = attrs.field(default=1.0, validator=number(MIN_SPEED))
    groups: tuple[HostGroup, ...] = attrs.field(default=(), converter=_groups)
    name: str = attrs.field(default="dc", validator=text())
    tier_threshold: str = attrs.field(default="foreground", validator=choice(TIER_THRESHOLDS))

    def __attrs_post_init__(self) -> None:
        if self.groups:
            total = sum(g.count for g in self.groups)
            if total > MAX_HOSTS:
                raise SpecError("groups", f"{total:,} hosts in all; at most {MAX_HOSTS:,}")
            if self.hosts is not None and self.hosts != total:
                raise SpecError("hosts", f"{self.hosts} hosts but the groups hold {total}")
            if self.speed != 1.0:
                raise SpecError("speed", "give the speed per group when groups are given")
        if self.hosts is not None or self.groups:
            why = hosts_over_limit(self.host_count, self.tiers)
            if why is not None:
                raise SpecError("groups" if self.groups else "hosts", why)
        model = self.interference
        if model is not None and model.job_progress == "per_process_all_idle" and self.tiers > 2:
            raise SpecError("interference.job_progress",
                            f"per_process_all_idle reads Liu 2015's two-tier equations: it needs tiers: 2 "
                            f"(or 1, where it has no effect), not {self.tiers}")

    @property
    def host_count(self) -> int:
        if self.groups:
            return sum(g.count for g in self.groups)
        if self.hosts is None:
            raise CloudSimError("datacenter.hosts is not set (and no trace header gave MaxProcs)")
        return self.hosts

    def host_groups(self) -> tuple[HostGroup, ...]:
        """The hosts as groups, in host-id order."""
        return self.groups or (HostGroup(self.host_count, self.speed),)

    def interference_model(self) -> InterferenceModel:
        """The interference numbers in force: the model or preset given, else ``liu2015`` with
        tiers and ``none`` without; ``threshold`` overrides the model's."""
        model = self.interference or presets.get("liu2015" if self.tiers > 1 else "none")
        if self.threshold is not None and self.threshold != model.threshold:
            model = attrs.evolve(model, threshold=self.threshold)
        return model
