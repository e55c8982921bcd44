"""Efficiency models of moldable jobs: runtime at another size (imports no kernel module).

A. C. Sodan, "Adaptive scheduling for QoS virtual machines under different resource
availability - first experiences", JSSPP 2009 (seed paper 002), section 3.2: a job generated
with ``original_size`` processors and ``original_runtime`` seconds runs at ``size`` processors
with parallel efficiency ``E(size)`` (speedup over one processor divided by processors). The
work on one processor is fixed, so

    runtime(size) = original_runtime * original_size * E(original_size) / (size * E(size))

which is the paper's Theorem 2 factor ``N_J * E_{FA=1.0} / E_{FA=X}`` for ``size =
original_size / N_J`` (section 3.3, and "2 * 0.65/0.8 = 1.625" in section 3.4). Models:

- ``WC``: work-conserving, equal efficiency at every size (runtime scales as
  ``original_size / size``);
- ``E1``, ``E2``, ``E3``: piecewise-linear efficiency through one processor (efficiency 1) and
  0.5x, 1x, 2x the original size with (0.8, 0.65, 0.4), (0.75, 0.65, 0.5), (0.7, 0.65, 0.6);
- ``curve``: a user's piecewise-linear curve (:class:`PiecewiseLinear`);
- ``downey``: Downey 1997's speedup model with the average parallelism a multiple of the
  original size (:class:`DowneyEfficiency`, reusing :mod:`.models.downey97`).

Each model has a scalar path (``efficiency``, ``runtime``: plain floats, no numpy, for one job
start) and a vectorised path (``efficiencies``, ``runtimes``: numpy arrays that broadcast, for
reshaping a whole workload). Names resolve through :data:`efficiency_models`;
:func:`efficiency_model` builds a model from its scenario form. See ``docs/moldable.md``.
"""

from __future__ import annotations

import bisect
import math
from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

import attrs
import numpy as np

from ..errors import ScenarioError, SpecError
from ..registry import Registry

ArrayLike = float | int | np.ndarray


def check_positive(value: Any, key: str) -> float:
    """``value`` as a float if it is a finite number > 0; else :class:`SpecError` naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SpecError(key, f"must be a number > 0, got {value!r} ({type(value).__name__})")
    if not math.isfinite(value) or value <= 0:
        raise SpecError(key, f"must be a finite number > 0, got {value!r}")
    return float(value)


def _check_sizes(original_size: float, size: float) -> None:
    if not original_size >= 1 or not size >= 1:
        raise ValueError(f"sizes must be >= 1 processor, got original_size={original_size!r}, size={size!r}")


def _check_size_arrays(original_size: np.ndarray, size: np.ndarray) -> None:
    if original_size.size and not np.all(original_size >= 1):
        raise ValueError(f"original sizes must be >= 1 processor, smallest {original_size.min()!r}")
    if size.size and not np.all(size >= 1):
        raise ValueError(f"sizes must be >= 1 processor, smallest {size.min()!r}")


class EfficiencyModel(ABC):
    """How a moldable job's runtime follows its size. Subclass and implement ``efficiency`` and
    ``efficiencies``; ``runtime``/``runtimes`` follow from them (section 3.2 of the paper)."""

    __slots__ = ()
    name: str = "?"

    @abstractmethod
    def efficiency(self, original_size: float, size: float) -> float:
        """Parallel efficiency at ``size`` processors of a job whose original size is
        ``original_size`` (both >= 1). Only ratios matter for runtimes."""

    @abstractmethod
    def efficiencies(self, original_size: ArrayLike, size: ArrayLike) -> np.ndarray:
        """Vectorised :meth:`efficiency`: arrays broadcast against each other."""

    def runtime(self, original_runtime: float, original_size: float, size: float) -> float:
        """Runtime at ``size``: ``T0 * n0 * E(n0) / (n * E(n))``; exactly ``T0`` at ``n = n0``.

        >>> round(E1.runtime(100.0, 128, 64), 6)  # 100 * 128 * 0.65 / (64 * 0.8)
        162.5
        """
        if size == original_size:
            _check_sizes(original_size, size)
            return float(original_runtime)
        ratio = (original_size * self.efficiency(original_size, original_size)) / (
            size * self.efficiency(original_size, size))
        return float(original_runtime) * ratio

    def runtimes(self, original_runtime: ArrayLike, original_size: ArrayLike,
                 size: ArrayLike) -> np.ndarray:
        """Vectorised :meth:`runtime` (broadcasts; returns a float64 array)."""
        t0, n0, n = np.broadcast_arrays(np.asarray(original_runtime, dtype=np.float64),
                                        np.asarray(original_size, dtype=np.float64),
                                        np.asarray(size, dtype=np.float64))
        ratio = (n0 * self.efficiencies(n0, n0)) / (n * self.efficiencies(n0, n))
        return np.where(n == n0, t0, t0 * ratio)

    def __repr__(self) -> str:
        return f"<efficiency model {self.name}>"


@attrs.define(slots=True, frozen=True, repr=False)
class WorkConserving(EfficiencyModel):
    """``WC``: "equal efficiency for all resource allocations" (section 3.2); work is conserved,
    ``runtime = T0 * n0 / n``."""

    name: str = "WC"

    def efficiency(self, original_size: float, size: float) -> float:
        _check_sizes(original_size, size)
        return 1.0

    def efficiencies(self, original_size: ArrayLike, size: ArrayLike) -> np.ndarray:
        n0, n = np.broadcast_arrays(np.asarray(original_size, dtype=np.float64),
                                    np.asarray(size, dtype=np.float64))
        _check_size_arrays(n0, n)
        return np.ones(n.shape)


def _validate_points(points: Any, key: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(sizes, efficiencies) of ``points``, a sequence of ``(size, efficiency)`` pairs; sizes
    positive and strictly increasing, efficiencies positive. Errors name ``key.i.size`` etc."""
    if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Sequence) or not points:
        raise SpecError(key, f"must be a non-empty list of (size, efficiency) points, got {points!r}")
    sizes: list[float] = []
    effs: list[float] = []
    for i, point in enumerate(points):
        if isinstance(point, (str, bytes, Mapping)) or not isinstance(point, Sequence) or len(point) != 2:
            raise SpecError(f"{key}.{i}", f"must be a (size, efficiency) pair, got {point!r}")
        size = check_positive(point[0], f"{key}.{i}.size")
        eff = check_positive(point[1], f"{key}.{i}.efficiency")
        if sizes and size <= sizes[-1]:
            raise SpecError(f"{key}.{i}.size", f"sizes must increase: {size!r} follows {sizes[-1]!r}")
        sizes.append(size)
        effs.append(eff)
    return tuple(sizes), tuple(effs)


def _serial(value: Any) -> float | None:
    return None if value is None else check_positive(value, "serial_efficiency")


@attrs.define(slots=True, frozen=True, repr=False, init=False)
class PiecewiseLinear(EfficiencyModel):
    """Efficiency linear between anchor points (section 3.2, "phase-wise linear approximation
    between pairs of 4 sizes: a) 1, b) 0.5 * original size, c) original size, d) 2 * original").

    ``points`` are ``(size, efficiency)`` with ``size`` a multiple of the job's original size;
    ``serial_efficiency`` (default 1, ``None`` for none) anchors the curve at one processor, the
    paper's point a). Reading of the paper, for small jobs: the one-processor anchor wins where
    a relative point falls on or below one processor (a 2-processor job under ``E1`` has
    efficiency 1 on one processor, not 0.8; a serial job's own efficiency is 1). Outside the
    anchors the efficiency is held at the nearest anchor's value (beyond 2x the original size
    for the paper's curves; the paper's factors, at most 1.5, never go there for jobs of 2 or
    more processors).

    >>> E1.efficiency(128, 64), round(E1.efficiency(128, 96), 9)  # 0.8; halfway to 0.65
    (0.8, 0.725)
    """

    sizes: tuple[float, ...]
    values: tuple[float, ...]
    serial_efficiency: float | None
    name: str
    _p: np.ndarray = attrs.field(eq=False, hash=False)   # sizes and values as arrays, for
    _e: np.ndarray = attrs.field(eq=False, hash=False)   # the vectorised path

    def __init__(self, points: Sequence[tuple[float, float]], serial_efficiency: float | None = 1.0,
                 name: str = "curve") -> None:
        sizes, values = _validate_points(points, "points")
        self.__attrs_init__(sizes, values, _serial(serial_efficiency), name,
                            np.asarray(sizes), np.asarray(values))

    @property
    def points(self) -> tuple[tuple[float, float], ...]:
        return tuple(zip(self.sizes, self.values))

    def efficiency(self, original_size: float, size: float) -> float:
        _check_sizes(original_size, size)
        p, e, s = self.sizes, self.values, self.serial_efficiency
        if s is not None:
            j = 0  # first relative anchor strictly above one processor
            while j < len(p) and p[j] * original_size <= 1.0:
                j += 1
            if j == len(p):
                return s
            top = p[j] * original_size
            if size <= top:
                return s + (e[j] - s) * (size - 1.0) / (top - 1.0)
        x = size / original_size
        if x <= p[0]:
            return e[0]
        if x >= p[-1]:
            return e[-1]
        i = bisect.bisect_right(p, x) - 1
        return e[i] + (e[i + 1] - e[i]) * (x - p[i]) / (p[i + 1] - p[i])

    def efficiencies(self, original_size: ArrayLike, size: ArrayLike) -> np.ndarray:
        n0, n = np.broadcast_arrays(np.asarray(original_size, dtype=np.float64),
                                    np.asarray(size, dtype=np.float64))
        _check_size_arrays(n0, n)
        p, e, s = self._p, self._e, self.serial_efficiency
        out = np.interp(n / n0, p, e)
        if s is None:
            return out
        j = np.sum(p * n0[..., None] <= 1.0, axis=-1)
        has_next = j < p.size
        jj = np.minimum(j, p.size - 1)
        top = p[jj] * n0
        with np.errstate(divide="ignore", invalid="ignore"):
            serial_segment = s + (e[jj] - s) * (n - 1.0) / (top - 1.0)
        return np.where(has_next, np.where(n <= top, serial_segment, out), s)

    def __repr__(self) -> str:
        return f"PiecewiseLinear({list(self.points)!r}, serial_efficiency={self.serial_efficiency!r}, name={self.name!r})"


def paper_curve(name: str, half: float, original: float, double: float) -> PiecewiseLinear:
    """A curve of the paper's form: efficiency 1 on one processor, ``half``, ``original``,
    ``double`` at 0.5x, 1x, 2x the original size."""
    return PiecewiseLinear(((0.5, half), (1.0, original), (2.0, double)), serial_efficiency=1.0, name=name)


#: Section 3.2's curves (efficiencies at 1, 0.5x, 1x, 2x the original size).
WC = WorkConserving()
E1 = paper_curve("E1", 0.8, 0.65, 0.4)
E2 = paper_curve("E2", 0.75, 0.65, 0.5)
E3 = paper_curve("E3", 0.7, 0.65, 0.6)


@attrs.define(slots=True, frozen=True, repr=True)
class DowneyEfficiency(EfficiencyModel):
    """Downey 1997's speedup model (the paper's reference [4], used by [3] and [22]):
    ``E(n) = S(n) / n`` with average parallelism ``A = max(1, parallelism * original_size)`` and
    variance ``sigma`` (:func:`~cloudsim_py.workload.models.downey97.downey_speedup`).

    With the defaults (``A`` = the original size, ``sigma`` = 1) a large job has efficiency
    about 0.8, 0.67 and 0.5 at 0.5x, 1x and 2x its size - close to ``E1``/``E2``.
    """

    sigma: float = attrs.field(default=1.0)
    parallelism: float = attrs.field(default=1.0)
    name: str = "downey"

    def __attrs_post_init__(self) -> None:
        if isinstance(self.sigma, bool) or not isinstance(self.sigma, (int, float)) \
                or not math.isfinite(self.sigma) or self.sigma < 0:
            raise SpecError("sigma", f"must be a finite number >= 0, got {self.sigma!r}")
        check_positive(self.parallelism, "parallelism")

    def _A(self, original_size: ArrayLike) -> Any:
        return np.maximum(1.0, self.parallelism * np.asarray(original_size, dtype=np.float64))

    def efficiency(self, original_size: float, size: float) -> float:
        _check_sizes(original_size, size)
        from .models.downey97 import downey_speedup   # the models package: on first use

        return float(downey_speedup(size, self._A(original_size), self.sigma)) / size

    def efficiencies(self, original_size: ArrayLike, size: ArrayLike) -> np.ndarray:
        n0, n = np.broadcast_arrays(np.asarray(original_size, dtype=np.float64),
                                    np.asarray(size, dtype=np.float64))
        _check_size_arrays(n0, n)
        if n.size == 0:
            return np.empty(n.shape)
        from .models.downey97 import downey_speedup

        return np.asarray(downey_speedup(n, self._A(n0), self.sigma), dtype=np.float64).reshape(n.shape) / n


#: Efficiency models by name (case-insensitive; entry point group
#: ``cloudsim_py.efficiency_models``; ``module:attr`` for a user's own). An entry is either a
#: ready model (``wc``, ``e1``, ``e2``, ``e3``) or a class/factory called with the spec's
#: parameters (``curve``, ``downey``). ``module:attr`` is for Python callers (docs/moldable.md): no
#: scenario key reaches this registry with one, and ``predict --efficiency`` takes one only for a
#: module given with ``--plugin``; a new caller must check the module the same way.
efficiency_models: Registry[Any] = Registry("efficiency model", entry_point_group="cloudsim_py.efficiency_models",
                                            error=ScenarioError, imports=True)
efficiency_models.register("wc")(WC)
efficiency_models.register("e1")(E1)
efficiency_models.register("e2")(E2)
efficiency_models.register("e3")(E3)
efficiency_models.register("downey")(DowneyEfficiency)


@efficiency_models.register("curve")
def curve(points: Any, serial_efficiency: Any = 1.0) -> PiecewiseLinear:
    """A user's curve from plain data: ``points`` a list of ``{size, efficiency}`` mappings
    (size as a multiple of the original size) or ``(size, efficiency)`` pairs."""
    if isinstance(points, Sequence) and not isinstance(points, (str, bytes)):
        pairs: list[Any] = []
        for i, point in enumerate(points):
            if isinstance(point, Mapping):
                for k in point:
                    if k not in ("size", "efficiency"):
                        raise SpecError(f"points.{i}.{k}", "unknown key; known keys: size, efficiency")
                for k in ("size", "efficiency"):
                    if k not in point:
                        raise SpecError(f"points.{i}.{k}", "missing")
                pairs.append((point["size"], point["efficiency"]))
            else:
                pairs.append(point)
        points = pairs
    return PiecewiseLinear(points, serial_efficiency=serial_efficiency)


def efficiency_model(spec: Any, where: str = "workload.moldable.efficiency") -> EfficiencyModel:
    """The model a scenario names: a name (``"E1"``), a mapping ``{name: ..., <parameters>}``
    (``{name: curve, points: [{size: 0.5, efficiency: 0.9}, ...]}``, ``{name: downey, sigma:
    0.5}``) or a model itself. Errors are :class:`SpecError` naming the key under ``where``
    (``workload.moldable.efficiency.points.2.efficiency: must be a finite number > 0, got -0.1``).
    """
    if isinstance(spec, EfficiencyModel):
        return spec
    if isinstance(spec, str):
        name, params = spec, {}
    elif isinstance(spec, Mapping):
        if "name" not in spec:
            raise SpecError(f"{where}.name", f"missing; known: {', '.join(efficiency_models.names())}")
        name, params = spec["name"], {k: v for k, v in spec.items() if k != "name"}
    else:
        raise SpecError(where, f"expected a model name or a mapping with 'name', got {spec!r}")
    key = f"{where}.name" if isinstance(spec, Mapping) else where
    try:
        entry = efficiency_models.get(name)
    except ScenarioError as exc:
        raise SpecError(key, str(exc)) from None
    if isinstance(entry, EfficiencyModel):
        if params:
            raise SpecError(f"{where}.{next(iter(params))}", f"efficiency model {name!r} takes no parameters")
        return entry
    try:
        model = entry(**params)
    except SpecError as exc:
        raise SpecError(f"{where}.{exc.path}", exc.message) from None
    except TypeError as exc:
        raise SpecError(where, f"bad parameters for efficiency model {name!r}: {exc}") from None
    if not isinstance(model, EfficiencyModel):
        raise SpecError(key, f"{name!r} gave {type(model).__name__}, not an EfficiencyModel")
    return model


def efficiency_options(model: EfficiencyModel) -> Any:
    """A model as the plain data :func:`efficiency_model` accepts again (for a run's rerun
    record): the registered name of a built-in one, else ``{name: curve | downey, ...}``."""
    for name in ("WC", "E1", "E2", "E3"):
        if model == efficiency_models.get(name):
            return name
    if isinstance(model, PiecewiseLinear):
        return {"name": "curve", "points": [{"size": p, "efficiency": e} for p, e in model.points],
                "serial_efficiency": model.serial_efficiency}
    if isinstance(model, DowneyEfficiency):
        return {"name": "downey", "sigma": model.sigma, "parallelism": model.parallelism}
    return model.name
