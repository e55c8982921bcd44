"""One way to name a pluggable thing: decorator for built-ins, entry points, and (for the
registries that allow it: policies) ``module:Class``; plus the explicit import of plugins.

Brokers, workload models and interference presets all resolve through a :class:`Registry`.
Nothing is ever imported from the current folder implicitly: imports here leave out the
working directory that ``python -m`` / ``python -c`` put on ``sys.path`` (a folder named in
``PYTHONPATH`` stays). Imports nothing from the package but :mod:`cloudsim_py.errors`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any, Callable, Generic, Iterator, TypeVar

from .errors import PolicyError

T = TypeVar("T")


class Registry(Generic[T]):
    """Names -> objects. ``get`` accepts a registered name, an entry-point name, and, when the
    registry is made with ``imports=True`` (policies only), ``module:attr``.

    >>> r = Registry("shapes", entry_point_group=None)
    >>> @r.register("square")
    ... class Square: pass
    >>> r.get("square") is Square
    True
    """

    def __init__(self, kind: str, entry_point_group: str | None, error: type[Exception] = PolicyError,
                 imports: bool = False):
        self.kind = kind
        self.imports = imports
        self.entry_point_group = entry_point_group
        self.error = error
        self._items: dict[str, T] = {}
        self._lazy: dict[str, str] = {}         # name -> module that registers it when imported
        self._entry_points_loaded = False

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: register ``obj`` under ``name`` (names are case-insensitive)."""

        def deco(obj: T) -> T:
            key = name.lower()
            if key in self._items and self._items[key] is not obj:
                raise self.error(f"{self.kind} {name!r} is registered twice")
            lazy = self._lazy.get(key)
            if lazy is not None:
                # a built-in registered by name, its module not imported yet: only that module
                # may take the name (else the built-in would fail later, when it is imported)
                module = str(getattr(obj, "__module__", ""))
                if module != lazy and not module.startswith(lazy + "."):
                    raise self.error(f"{self.kind} {name!r} is registered twice: it is the name of a "
                                     f"built-in {self.kind} ({lazy})")
            self._items[key] = obj
            return obj

        return deco

    def register_lazy(self, name: str, module: str) -> None:
        """``name`` is registered by importing ``module`` (a built-in whose module is costly to
        import and not needed by most runs): imported when ``name`` is asked for, or when all
        names are listed."""
        self._lazy[name.lower()] = module

    def _load_lazy(self, key: str | None = None) -> None:
        if key is None:
            modules = list(dict.fromkeys(self._lazy.values()))
            self._lazy.clear()
        else:
            modules = [self._lazy.pop(key)]
        for module in modules:
            importlib.import_module(module)

    def unregister(self, name: str) -> None:
        """Forget ``name`` (a test's or a reloaded plugin's registration); unknown names are
        ignored."""
        self._items.pop(name.lower(), None)
        self._lazy.pop(name.lower(), None)

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded or self.entry_point_group is None:
            return
        self._entry_points_loaded = True
        from importlib import metadata  # imported here: it costs ~40 ms at start-up

        eps = metadata.entry_points(group=self.entry_point_group)
        for ep in eps:
            try:
                item = ep.load()
            except KeyboardInterrupt:
                raise
            except BaseException as exc:     # ImportError, its own errors, a sys.exit() on import
                raise self.error(f"{self.kind} {ep.name!r} of an installed package ({ep.value}, entry point "
                                 f"group {self.entry_point_group}) cannot be loaded: "
                                 f"{type(exc).__name__}: {exc}") from None
            self._items.setdefault(ep.name.lower(), item)

    def names(self) -> list[str]:
        self._load_lazy()
        self._load_entry_points()
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, T]]:
        self._load_lazy()
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
            if not self.imports:
                raise self.error(f"unknown {self.kind} {name!r}: 'module:attr' names are accepted for "
                                 f"policies only (register a {self.kind} in a plugin instead); "
                                 f"known: {', '.join(self.names())}")
            return _import_object(name, self.kind, self.error)
        key = name.lower()
        if key not in self._items and key in self._lazy:
            self._load_lazy(key)
        if key not in self._items:
            self._load_entry_points()
        if key not in self._items:
            known = ", ".join(self.names())
            raise self.error(f"unknown {self.kind} {name!r}; known: {known}")
        return self._items[key]


def _implicit_entries() -> set[str]:
    """``sys.path`` entries that stand for the working directory without the user asking:
    ``''`` and ``'.'``, and the working directory itself unless ``PYTHONPATH`` names it."""
    cwd = os.path.realpath(os.getcwd())
    explicit = {os.path.realpath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    out = {"", "."}
    if cwd not in explicit:
        out |= {p for p in sys.path if p and os.path.realpath(p) == cwd}
    return out


def import_module(name: str) -> Any:
    """``importlib.import_module`` without the implicit working-directory entries of
    ``sys.path`` (a module already imported is returned as it is)."""
    if name in sys.modules:
        return sys.modules[name]
    saved = list(sys.path)
    drop = _implicit_entries()
    sys.path[:] = [p for p in saved if p not in drop]
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = saved


def load_plugin(entry: str, base_dir: str = ".") -> str:
    """Import a plugin: a module name (installed, or on ``PYTHONPATH``) or a ``.py`` file
    (relative to ``base_dir``); returns the module's name (a file ``x/mine.py`` is module
    ``mine``). Raises :class:`ImportError`/``OSError`` as the import does."""
    if entry.endswith(".py") or "/" in entry or os.sep in entry:
        path = os.path.normpath(os.path.join(base_dir, os.path.expanduser(entry)))
        if not os.path.isfile(path):
            raise ImportError(f"no such file: {path}")
        name = os.path.splitext(os.path.basename(path))[0]
        known = sys.modules.get(name)
        if known is not None:
            if os.path.realpath(getattr(known, "__file__", "") or "") == os.path.realpath(path):
                return name
            raise ImportError(f"{path}: a module named {name!r} is already imported from elsewhere; "
                              "rename the file")
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path} as a module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return name
    import_module(entry)
    return entry


def _import_object(spec: str, kind: str, error: type[Exception]) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        module = import_module(module_name)
    except ImportError as exc:
        raise error(f"{kind} {spec!r}: cannot import module {module_name!r} ({exc})") from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise error(f"{kind} {spec!r}: module {module_name!r} has no attribute {attr!r}") from None
    return obj
