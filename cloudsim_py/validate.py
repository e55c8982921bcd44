"""Validators for the option objects (attrs classes) of every layer: each raises
:class:`~cloudsim_py.errors.SpecError` naming the field, so a YAML loader can add the file, the
line and the key path above it. Imports nothing but errors."""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping, Sequence

from .errors import SpecError

Validator = Callable[[Any, Any, Any], None]


def kind(value: Any) -> str:
    """How a bad value is shown in a message."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return f"{type(value).__name__} {value!r}"


def check_keys(path: str, value: Mapping[str, Any], known: Sequence[str],
               listed: Sequence[str] | None = None) -> None:
    """Refuse the first key of ``value`` not in ``known``, naming it under ``path`` and listing
    ``listed`` (default: ``known``) as the keys one may give."""
    for key in value:
        if key not in known:
            raise SpecError(f"{path}.{key}", f"unknown key {key!r}; known keys: {', '.join(listed or known)}")


def check_mapping(path: str, value: Any, known: Sequence[str]) -> dict[str, Any]:
    """``value`` as a dict, if it is a mapping with only ``known`` keys (else a SpecError)."""
    if not isinstance(value, Mapping):
        raise SpecError(path, f"expected a mapping with keys {', '.join(known)}, got {kind(value)}")
    check_keys(path, value, known)
    return dict(value)


def check_number(path: str, value: Any, low: float | None = None, high: float | None = None, *,
                 low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a float if it is a finite real number (not a bool) within the bounds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SpecError(path, f"expected a number, got {kind(value)}")
    if not math.isfinite(value):
        raise SpecError(path, f"must be a finite number, got {value}")
    if low is not None and (value < low or (low_open and value == low)):
        raise SpecError(path, f"must be {'>' if low_open else '>='} {low:g}, got {value:g}")
    if high is not None and (value > high or (high_open and value == high)):
        raise SpecError(path, f"must be {'<' if high_open else '<='} {high:g}, got {value:g}")
    return float(value)


def number(low: float | None = None, high: float | None = None, *, low_open: bool = False,
           high_open: bool = False, optional: bool = False) -> Validator:
    """Validator: a finite real number (not a bool) in the given bounds."""

    def check(inst: Any, attribute: Any, value: Any) -> None:
        if value is None and optional:
            return
        check_number(attribute.name, value, low, high, low_open=low_open, high_open=high_open)

    return check


def integer(low: int | None = None, high: int | None = None, *, optional: bool = False) -> Validator:
    """An int (not a bool, not a float) in ``[low, high]``."""

    def check(inst: Any, attribute: Any, value: Any) -> None:
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise SpecError(attribute.name, f"expected an integer, got {kind(value)}")
        if low is not None and value < low:
            raise SpecError(attribute.name, f"must be >= {low}, got {value}")
        if high is not None and value > high:
            raise SpecError(attribute.name, f"must be <= {high:,}, got {value:,}")

    return check


def boolean(inst: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        raise SpecError(attribute.name, f"expected true or false, got {kind(value)}")


def text(optional: bool = False) -> Validator:
    """A non-empty string."""

    def check(inst: Any, attribute: Any, value: Any) -> None:
        if value is None and optional:
            return
        if not isinstance(value, str) or not value:
            raise SpecError(attribute.name, f"expected a non-empty string, got {kind(value)}")

    return check


def choice(options: Iterable[str]) -> Validator:
    """One of a fixed set of words."""
    known = tuple(options)

    def check(inst: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, str) or value not in known:
            raise SpecError(attribute.name, f"unknown value {value!r}; choose one of {', '.join(known)}")

    return check


def finite(value: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
