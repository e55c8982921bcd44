"""Parameter checking shared by the workload generators.

Every generator is an attrs class whose fields are its model parameters. A wrong type or a value
out of range raises :class:`ParameterError` (a :class:`ValueError`) whose message starts with the
parameter's name, so that :func:`cloudsim_py.workload.models.generate_from_spec` can turn it into
a :class:`~cloudsim_py.errors.ScenarioError` naming the full key path
(``workload.model.batch.serial_prob: ...``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import attrs


class ParameterError(ValueError):
    """A model parameter of the wrong type or out of range. ``param`` is its (dotted) name."""

    def __init__(self, param: str, detail: str) -> None:
        super().__init__(f"{param}: {detail}")
        self.param = param
        self.detail = detail

    def within(self, prefix: str) -> "ParameterError":
        """The same error one level down, e.g. ``serial_prob`` -> ``batch.serial_prob``."""
        return ParameterError(f"{prefix}.{self.param}", self.detail)


Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def real(lo: float | None = None, hi: float | None = None, *, lo_open: bool = False,
         hi_open: bool = False, optional: bool = False) -> Validator:
    """A finite real number in ``[lo, hi]`` (``(`` / ``)`` when open); ``None`` if ``optional``."""

    def check(_inst: Any, attr: "attrs.Attribute[Any]", value: Any) -> None:
        check_real(attr.name, value, lo, hi, lo_open=lo_open, hi_open=hi_open, optional=optional)

    return check


def check_real(name: str, value: Any, lo: float | None = None, hi: float | None = None, *,
               lo_open: bool = False, hi_open: bool = False, optional: bool = False) -> None:
    """Function form of :func:`real` (for values checked outside attrs validators)."""
    if value is None and optional:
        return
    if not _is_real(value):
        raise ParameterError(name, f"must be a number, got {value!r} ({type(value).__name__})")
    if not math.isfinite(value):
        raise ParameterError(name, f"must be finite, got {value!r}")
    if lo is not None and (value < lo or (lo_open and value == lo)):
        raise ParameterError(name, f"must be {'>' if lo_open else '>='} {lo:g}, got {value!r}")
    if hi is not None and (value > hi or (hi_open and value == hi)):
        raise ParameterError(name, f"must be {'<' if hi_open else '<='} {hi:g}, got {value!r}")


def integer(lo: int | None = None, hi: int | None = None, *, optional: bool = False) -> Validator:
    """An integer (not a bool, not a float) in ``[lo, hi]``; ``None`` if ``optional``."""

    def check(_inst: Any, attr: "attrs.Attribute[Any]", value: Any) -> None:
        check_integer(attr.name, value, lo, hi, optional=optional)

    return check


def check_integer(name: str, value: Any, lo: int | None = None, hi: int | None = None, *,
                  optional: bool = False) -> None:
    """Function form of :func:`integer`."""
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(name, f"must be an integer, got {value!r} ({type(value).__name__})")
    if lo is not None and value < lo:
        raise ParameterError(name, f"must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise ParameterError(name, f"must be <= {hi}, got {value}")


def boolean() -> Validator:
    """``True`` or ``False`` (not 0/1, not a string)."""

    def check(_inst: Any, attr: "attrs.Attribute[Any]", value: Any) -> None:
        if not isinstance(value, bool):
            raise ParameterError(attr.name, f"must be true or false, got {value!r}")

    return check


def choice(*options: str) -> Validator:
    """One of ``options`` (case-sensitive strings)."""

    def check(_inst: Any, attr: "attrs.Attribute[Any]", value: Any) -> None:
        if value not in options:
            raise ParameterError(attr.name, f"must be one of {', '.join(options)}; got {value!r}")

    return check


def target_load() -> Validator:
    """The target offered load: ``None`` (the model's own arrival rate) or a number in (0, 1.5]."""
    return real(0.0, 1.5, lo_open=True, optional=True)


def machine_procs(optional: bool = False) -> Validator:
    """A machine size in processors (at least 1)."""
    return integer(1, 10_000_000, optional=optional)
