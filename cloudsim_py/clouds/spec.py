"""The options of a cloud system as attrs classes (``federation:`` in a scenario): VM types, clouds,
the execution-time matrix, message latency and the bandwidth between clouds. Checked here once
(errors are :class:`~cloudsim_py.errors.SpecError` naming the key path; the scenario loader adds
file and line); reads no YAML, imports nothing from the engine.

```yaml
federation:
  vm_types:
    small: {cpus: 1, memory_mb: 1024, disk_mb: 20000, bandwidth_mbps: 100}
    big:   {cpus: 4, memory_mb: 4096, disk_mb: 80000, bandwidth_mbps: 100, speed: 2}
  clouds:
    - {name: east, vm_type: small, vms: 100}
    - {name: west, vm_type: big, vms: 50, copy_mbps: 32}
  latency: 0.5                 # seconds per message (default 0)
  inter_cloud_mbps: 10         # data between clouds (default: the smaller VM bandwidth)
  matrix: {random: {task_types: 8}}          # Braun et al. ranges, drawn from the seed
  # or: matrix: {times: {fft: {small: 30, big: 12}, sort: {small: 8, big: 5}}}
  overheads: {preset: haizea, enactment_s: 0}   # what transfers, saves, migrations cost
```
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping

import attrs
import numpy as np

from ..errors import PlatformError, SpecError
from ..validate import boolean, check_mapping, check_number, kind, number
from .cloud import CloudSpec
from .matrix import ExecutionModel, ExecutionTimeMatrix, random_matrix
from .overheads import PRESETS, Overheads, with_preset
from .vmtypes import VM_TYPE_KEYS, VMType

CLOUD_KEYS = ("name", "vm_type", "vms", "copy_mbps")
RANDOM_KEYS = ("task_types", "seed", "task_range", "machine_range", "consistent")


def _keys(path: str, value: Any, known: tuple[str, ...]) -> dict[str, Any]:
    return check_mapping(path, value, known)


def _vm_types(value: Any) -> dict[str, VMType]:
    if isinstance(value, Mapping) and all(isinstance(v, VMType) for v in value.values()):
        return dict(value)
    if not isinstance(value, Mapping) or not value:
        raise SpecError("vm_types", f"expected a mapping of VM type names to their resources, got {kind(value)}")
    out = {}
    for name, raw in value.items():
        path = f"vm_types.{name}"
        fields = _keys(path, raw, VM_TYPE_KEYS)
        for key in VM_TYPE_KEYS[:4]:
            if key not in fields:
                raise SpecError(f"{path}.{key}", "missing")
        for key, v in fields.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise SpecError(f"{path}.{key}", f"expected a number, got {kind(v)}")
        try:
            out[str(name)] = VMType(name=str(name), **fields)
        except PlatformError as exc:
            key = next((k for k in VM_TYPE_KEYS if f"{k} =" in str(exc)), "")
            raise SpecError(f"{path}.{key}" if key else path, str(exc)) from None
    return out


@attrs.define(slots=True, frozen=True)
class MatrixSpec:
    """The execution-time matrix: ``times`` (task type -> VM type -> seconds) or ``random``
    (Braun et al. 2001 ranges: ``task_types`` a count or names, ``seed`` (default: the
    scenario's), ``task_range``, ``machine_range``, ``consistent``)."""

    times: dict[Hashable, dict[str, float]] | None = None
    random: dict[str, Any] | None = None

    def __attrs_post_init__(self) -> None:
        if (self.times is None) == (self.random is None):
            raise SpecError("", "give either times or random")
        if self.times is not None:
            if not isinstance(self.times, Mapping) or not self.times:
                raise SpecError("times", f"expected a mapping of task types to VM-type times, got {kind(self.times)}")
            for t, row in self.times.items():
                if not isinstance(row, Mapping) or not row:
                    raise SpecError(f"times.{t}", f"expected a mapping of VM types to seconds, got {kind(row)}")
                for vm, v in row.items():
                    check_number(f"times.{t}.{vm}", v, 0.0, low_open=True)
        else:
            raw = _keys("random", self.random, RANDOM_KEYS)
            if "task_types" not in raw:
                raise SpecError("random.task_types", "missing (a count or a list of names)")
            tt = raw["task_types"]
            if isinstance(tt, list):
                if not tt or len(set(map(str, tt))) != len(tt):
                    raise SpecError("random.task_types", "expected distinct names")
            elif isinstance(tt, bool) or not isinstance(tt, int) or tt < 1:
                raise SpecError("random.task_types", f"expected a count >= 1 or a list of names, got {kind(tt)}")
            if "seed" in raw and (isinstance(raw["seed"], bool) or not isinstance(raw["seed"], int) or raw["seed"] < 0):
                raise SpecError("random.seed", f"expected an integer >= 0, got {kind(raw['seed'])}")
            for key in ("task_range", "machine_range"):
                if key in raw:
                    r = raw[key]
                    if not (isinstance(r, (list, tuple)) and len(r) == 2):
                        raise SpecError(f"random.{key}", f"expected [low, high], got {kind(r)}")
                    lo = check_number(f"random.{key}.0", r[0], 0.0, low_open=True)
                    hi = check_number(f"random.{key}.1", r[1], lo)
                    raw[key] = (lo, hi)
            if "consistent" in raw and not isinstance(raw["consistent"], bool):
                raise SpecError("random.consistent", f"expected true or false, got {kind(raw['consistent'])}")

    def task_types(self) -> tuple[Hashable, ...]:
        if self.times is not None:
            return tuple(self.times)
        assert self.random is not None
        tt = self.random["task_types"]
        return tuple(tt) if isinstance(tt, list) else tuple(range(tt))

    def build(self, vm_types: tuple[str, ...], seed: int) -> ExecutionTimeMatrix:
        """The matrix over ``vm_types`` (the clouds' VM types, in the order of ``vm_types:``)."""
        if self.times is not None:
            rows = []
            for t, row in self.times.items():
                missing = [v for v in vm_types if v not in row]
                if missing:
                    raise SpecError(f"times.{t}.{missing[0]}", f"missing: every task type needs a time on "
                                                               f"every VM type ({', '.join(vm_types)})")
                extra = [v for v in row if v not in vm_types]
                if extra:
                    raise SpecError(f"times.{t}.{extra[0]}", f"unknown VM type {extra[0]!r}; known: "
                                                             f"{', '.join(vm_types)}")
                rows.append([float(row[v]) for v in vm_types])
            return ExecutionTimeMatrix(tuple(self.times), vm_types, np.array(rows))
        assert self.random is not None
        r = dict(self.random)
        rng = np.random.default_rng(r.pop("seed", seed))
        return random_matrix(rng, r.pop("task_types"), list(vm_types), **r)


def _overheads(value: Any) -> Overheads:
    """``overheads``: a mapping of :class:`~cloudsim_py.clouds.overheads.Overheads` fields, with an
    optional ``preset`` (``haizea``) whose values the other keys change."""
    if isinstance(value, Overheads):
        return value
    if value is None:
        return Overheads()
    raw = _keys("overheads", value, ("preset",) + tuple(f.name for f in attrs.fields(Overheads)))
    try:
        return Overheads(**with_preset("preset", raw.pop("preset", None), PRESETS, raw))
    except SpecError as exc:
        raise exc.within("overheads") from None


def _matrix(value: Any) -> MatrixSpec | None:
    if value is None or isinstance(value, MatrixSpec):
        return value
    raw = _keys("matrix", value, ("times", "random"))
    try:
        return MatrixSpec(**raw)
    except SpecError as exc:
        raise exc.within("matrix") from None


@attrs.define(slots=True, frozen=True)
class FederationSpec:
    """``vm_types`` (name -> resources), ``clouds`` (each a name, a VM type name, a number of VMs
    and the disk copy speed ``copy_mbps``), ``latency`` of every message (s), ``inter_cloud_mbps``
    (data between clouds; default the smaller of the two VM types' bandwidths), ``matrix`` (for
    typed tasks; tasks with runtimes need none), ``check`` (datacenter invariants after every
    timestamp), ``overheads`` (:class:`~cloudsim_py.clouds.overheads.Overheads`)."""

    vm_types: dict[str, VMType] = attrs.field(converter=_vm_types)
    clouds: tuple[Any, ...] = ()
    latency: float = attrs.field(default=0.0, validator=number(0.0))
    inter_cloud_mbps: float | None = attrs.field(default=None, validator=number(0.0, low_open=True, optional=True))
    matrix: MatrixSpec | None = attrs.field(default=None, converter=_matrix)
    check: bool = attrs.field(default=False, validator=boolean)
    #: what moving work on and off VMs costs (image transfers, saves, migrations)
    overheads: Overheads = attrs.field(factory=Overheads, converter=_overheads)

    def __attrs_post_init__(self) -> None:
        clouds = self.clouds
        if not isinstance(clouds, (list, tuple)) or not clouds:
            raise SpecError("clouds", f"expected a non-empty list of clouds, got {kind(clouds)}")
        built = []
        names: set[str] = set()
        for i, c in enumerate(clouds):
            path = f"clouds.{i}"
            if isinstance(c, CloudSpec):
                built.append(c)
                continue
            raw = _keys(path, c, CLOUD_KEYS)
            for key in ("vm_type", "vms"):
                if key not in raw:
                    raise SpecError(f"{path}.{key}", "missing")
            vm_name = raw["vm_type"]
            if vm_name not in self.vm_types:
                raise SpecError(f"{path}.vm_type", f"unknown VM type {vm_name!r}; known: {', '.join(self.vm_types)}")
            raw["vm_type"] = self.vm_types[vm_name]
            raw.setdefault("name", f"cloud{i}")
            try:
                built.append(CloudSpec(**raw))
            except SpecError as exc:
                raise exc.within(path) from None
        for i, c in enumerate(built):
            if c.name in names:
                raise SpecError(f"clouds.{i}.name", f"cloud name {c.name!r} is used twice")
            names.add(c.name)
        object.__setattr__(self, "clouds", tuple(built))
        if self.matrix is not None:
            try:
                self.matrix.build(self.vm_type_order(), 0)   # every VM type has its column
            except SpecError as exc:
                raise exc.within("matrix") from None

    def vm_type_order(self) -> tuple[str, ...]:
        """The VM types the clouds use, in the order of ``vm_types``."""
        used = {c.vm_type.name for c in self.clouds}
        return tuple(n for n in self.vm_types if n in used)

    def execution_model(self, seed: int) -> ExecutionModel:
        """Task times: the matrix (built with ``seed`` unless it has its own), else runtimes."""
        if self.matrix is None:
            return ExecutionModel()
        return ExecutionModel(self.matrix.build(self.vm_type_order(), seed))

    @property
    def vms(self) -> int:
        return sum(c.vms for c in self.clouds)

    def largest_cloud(self) -> int:
        return max(c.vms for c in self.clouds)

