"""Reshaping moldable jobs when a broker starts them: static (``AllA``) or load-adaptive
(``LoadA``), with or without reshaping backfilled jobs (``_noB``). A helper any broker can use
(``prio`` and ``pect`` take it as their ``reshape`` parameter); imports only the workload layer's
reshaping functions and errors.

Sodan 2009 (seed paper 002), section 4.1 and Fig. 6:

1. "The resource needs are calculated as the sum of the sizes of all waiting jobs"; the factor
   is ``F_dyn = min(F_max, max(F_min, F_try))`` (our reading of the garbled eq. (6)), with
   ``F_try = free / needs``: the free processors the scheduler is filling divided by the
   needs of the waiting jobs of the class, so that ideally all of them fit. Per runtime class
   ("applied separately and independently per job type M and L"); S jobs keep their size.
2. Jobs "relatively long-running in their own class" (original runtime estimate > 45 min for M,
   > 7 h for L) are reshaped by ``F_min``.

``AllA`` reshapes every job by a static factor (0.5) at its start; ``_noB`` keeps backfilled jobs
(those starting while an earlier job of the order still waits) at the size they ask for.
Reshaping applies to moldable descriptions (``original_procs``); a rigid job keeps its size.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs

from ..errors import SpecError
from ..validate import boolean, choice, kind
from ..workload.efficiency import check_positive
from ..workload.moldable import is_moldable, original_estimate
from ..workload.reshape import CLASS_NAMES, reshape_size

#: the variants of Fig. 6 by name
PRESETS: dict[str, dict[str, Any]] = {
    "LoadA": {"mode": "load", "backfilled": True},
    "LoadA_noB": {"mode": "load", "backfilled": False},
    "AllA": {"mode": "static", "backfilled": True},
    "AllA_noB": {"mode": "static", "backfilled": False},
}


def _positive(inst: Any, attribute: Any, value: Any) -> None:
    check_positive(value, attribute.name)


def _long(value: Any) -> tuple[float, float, float]:
    """``{M: 2700, L: 25200}`` -> limits per class index (S: never long)."""
    if isinstance(value, tuple) and len(value) == 3:
        return value
    if not isinstance(value, Mapping):
        raise SpecError("long", f"expected a mapping like {{M: 2700, L: 25200}}, got {kind(value)}")
    out = [math.inf, 2700.0, 25200.0]
    for key, limit in value.items():
        if key not in CLASS_NAMES:
            raise SpecError(f"long.{key}", f"unknown class {key!r}; known: {', '.join(CLASS_NAMES)}")
        out[CLASS_NAMES.index(key)] = check_positive(limit, f"long.{key}")
    return (out[0], out[1], out[2])


def _classes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise SpecError("classes", f"expected a list of runtime classes like [M, L], got {kind(value)}")
    for i, name in enumerate(value):
        if name not in CLASS_NAMES:
            raise SpecError(f"classes.{i}", f"unknown class {name!r}; known: {', '.join(CLASS_NAMES)}")
    return tuple(value)


def _default_classes(spec: Any) -> tuple[str, ...]:
    return ("M", "L") if spec.mode == "load" else CLASS_NAMES


@attrs.define(slots=True, frozen=True)
class ReshapeSpec:
    """How a broker reshapes moldable jobs at start.

    ``mode``: ``load`` (F_dyn between ``min`` and ``max``) or ``static`` (``factor``);
    ``backfilled``: also reshape backfilled jobs (``LoadA``, ``AllA``) or keep their asked size
    (``LoadA_noB``, ``AllA_noB``); ``long``: original-estimate limits (s) above which a job of
    the class is reshaped by ``min`` (load mode); ``classes``: the classes reshaped (default
    ``[M, L]`` for load, every class for static). Factors must be > 0 and ``min <= max``.
    """

    mode: str = attrs.field(default="load", validator=choice(("load", "static")))
    factor: float = attrs.field(default=0.5, validator=_positive)
    min: float = attrs.field(default=0.5, validator=_positive)
    max: float = attrs.field(default=1.0, validator=_positive)
    long: tuple[float, float, float] = attrs.field(default=(math.inf, 2700.0, 25200.0), converter=_long)
    backfilled: bool = attrs.field(default=True, validator=boolean)
    classes: tuple[str, ...] = attrs.field(default=attrs.Factory(_default_classes, takes_self=True),
                                           converter=_classes)

    def __attrs_post_init__(self) -> None:
        if self.max < self.min:
            raise SpecError("max", f"must be >= min ({self.min!r}), got {self.max!r}")


def reshape_spec(value: Any) -> ReshapeSpec | None:
    """A broker's ``reshape`` parameter: ``None``, a preset name (``LoadA``, ``LoadA_noB``,
    ``AllA``, ``AllA_noB``), a mapping of :class:`ReshapeSpec` fields, optionally with
    ``preset``, or a spec. Errors name the key under ``reshape``."""
    if value is None or isinstance(value, ReshapeSpec):
        return value
    preset_key = "reshape" if isinstance(value, str) else "reshape.preset"
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, Mapping):
        raise SpecError("reshape", f"expected a preset name ({', '.join(PRESETS)}) or a mapping, got {kind(value)}")
    raw = dict(value)
    fields = [f.name for f in attrs.fields(ReshapeSpec)]
    preset = raw.pop("preset", None)
    if preset is not None:
        if preset not in PRESETS:
            raise SpecError(preset_key, f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        raw = {**PRESETS[preset], **raw}
    for key in raw:
        if key not in fields:
            raise SpecError(f"reshape.{key}", f"unknown key {key!r}; known keys: preset, {', '.join(fields)}")
    try:
        return ReshapeSpec(**raw)
    except SpecError as exc:
        raise exc.within("reshape") from None


class Reshaper:
    """Sizes for one broker on a machine of ``machine`` processors (``spec`` as above)."""

    __slots__ = ("spec", "machine", "reshaped")

    def __init__(self, spec: ReshapeSpec, machine: int) -> None:
        self.spec = spec
        self.machine = machine
        self.reshaped = tuple(name in spec.classes for name in CLASS_NAMES)

    def factor(self, free: int, needs: int) -> float:
        """F_dyn of a class whose waiting jobs ask ``needs`` processors in all, with ``free``
        processors to fill (load mode); the static factor otherwise.

        >>> r = Reshaper(ReshapeSpec(), 128)
        >>> r.factor(32, 128), r.factor(100, 128), r.factor(200, 128), r.factor(5, 0)
        (0.5, 0.78125, 1.0, 1.0)
        """
        s = self.spec
        if s.mode == "static":
            return s.factor
        if needs <= 0:
            return s.max
        return min(s.max, max(s.min, free / needs))

    def size(self, job: Any, cls: int, factor: float, backfill: bool) -> int:
        """The size to start ``job`` (of runtime class index ``cls``) with: its asked size
        reshaped by ``factor`` (``min`` if it is long in its class), or the asked size for a
        rigid job, an unreshaped class, or a backfilled job under ``_noB``."""
        desc = job.desc
        if not is_moldable(desc) or not self.reshaped[cls] or (backfill and not self.spec.backfilled):
            return min(desc.procs, self.machine)
        if self.spec.mode == "load" and original_estimate(desc) > self.spec.long[cls]:
            factor = self.spec.min
        return reshape_size(desc.procs, factor, self.machine)
