"""One way to name a pluggable thing: decorator for built-ins, entry points, ``module:Class``.

Brokers, workload models and interference presets all resolve through a :class:`Registry`.
Imports nothing from the package but :mod:`cloudsim_py.errors`.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Generic, Iterator, TypeVar

from .errors import PolicyError

T = TypeVar("T")


class Registry(Generic[T]):
    """Names -> objects. ``get`` accepts a registered name, an entry-point name or ``module:attr``.

    >>> r = Registry("shapes", entry_point_group=None)
    >>> @r.register("square")
    ... class Square: pass
    >>> r.get("square") is Square
    True
    """

    def __init__(self, kind: str, entry_point_group: str | None, error: type[Exception] = PolicyError):
        self.kind = kind
        self.entry_point_group = entry_point_group
        self.error = error
        self._items: dict[str, T] = {}
        self._entry_points_loaded = False

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: register ``obj`` under ``name`` (names are case-insensitive)."""

        def deco(obj: T) -> T:
            key = name.lower()
            if key in self._items and self._items[key] is not obj:
                raise self.error(f"{self.kind} {name!r} is registered twice")
            self._items[key] = obj
            return obj

        return deco

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded or self.entry_point_group is None:
            return
        self._entry_points_loaded = True
        from importlib import metadata  # imported here: it costs ~40 ms at start-up

        eps = metadata.entry_points(group=self.entry_point_group)
        for ep in eps:
            self._items.setdefault(ep.name.lower(), ep.load())

    def names(self) -> list[str]:
        self._load_entry_points()
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, T]]:
        self._load_entry_points()
        return iter(sorted(self._items.items()))

    def __contains__(self, name: str) -> bool:
        try:
            self.get(name)
        except self.error:
            return False
        return True

    def get(self, name: str) -> T:
        """Resolve ``name``; an unknown name raises with the list of known ones."""
        if not isinstance(name, str) or not name:
            raise self.error(f"{self.kind} name must be a non-empty string, got {name!r}")
        if ":" in name:
            return _import_object(name, self.kind, self.error)
        key = name.lower()
        if key not in self._items:
            self._load_entry_points()
        if key not in self._items:
            known = ", ".join(self.names())
            raise self.error(f"unknown {self.kind} {name!r}; known: {known}")
        return self._items[key]


def _import_object(spec: str, kind: str, error: type[Exception]) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise error(f"{kind} {spec!r}: cannot import module {module_name!r} ({exc})") from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise error(f"{kind} {spec!r}: module {module_name!r} has no attribute {attr!r}") from None
    return obj
