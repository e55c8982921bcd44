"""Probes: the one way a measure reaches a run's results. A probe is a datacenter listener (the
hooks it implements, :class:`~cloudsim_py.infrastructure.listener.DatacenterListener`, and any
declared event) that also says which summary keys it adds (:meth:`Probe.columns`), gives their
values after the run (:meth:`Probe.summary`) and may write files in the run's folder
(``write_files``). The built-in per-class metrics (``metrics.classes``), the cloud systems'
measures and users' probes named in a scenario (``metrics.probes``) all go through it, so a
user's measure lands in ``summary.json`` and in a sweep's results table like a built-in one.

Imports the listener base, the registry and the errors only (no brokers, no scenario).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from numbers import Real
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import attrs

from .errors import PolicyError
from .infrastructure.listener import DatacenterListener
from .registry import Registry


@runtime_checkable
class Probe(Protocol):
    """A listener of a run that adds summary keys. Subscribed to every datacenter of the run
    (one fresh probe per run); ``summary()`` is asked once, after the run."""

    def columns(self) -> Sequence[str]:
        """The summary keys the probe adds (known before the run: they are checked against the
        built-in keys and the other probes' when the scenario is loaded)."""
        ...

    def summary(self) -> Mapping[str, Any]:
        """The value of every key of :meth:`columns` (numbers, strings or ``None``: what a
        results table can hold), after the run."""
        ...


class FileProbe(Probe, Protocol):
    """A probe that also writes files in the run's folder."""

    def write_files(self, folder: str) -> list[str]:
        """Write its files (atomically) into ``folder``; returns their names."""
        ...


class ProbeBase(DatacenterListener, ABC):
    """A convenient base for a probe: override the hooks you need, :meth:`columns` and
    :meth:`summary` (and :meth:`write_files` for files); a subclass without the two cannot be
    made (abstract methods). Not required: any object with ``columns`` and ``summary`` is a
    probe."""

    __slots__ = ()

    @abstractmethod
    def columns(self) -> Sequence[str]:
        """The summary keys the probe adds."""

    @abstractmethod
    def summary(self) -> Mapping[str, Any]:
        """The value of every key of :meth:`columns`, after the run."""

    def write_files(self, folder: str) -> list[str]:
        return []


#: probes named in a scenario: ``metrics: {probes: [name]}``; plugins register theirs with
#: ``@probe_registry.register("name")`` (or a ``cloudsim_py.probes`` entry point)
probe_registry: Registry[Callable[..., Any]] = Registry("probe", "cloudsim_py.probes")


def check_probe(probe: Any, name: str) -> tuple[str, ...]:
    """``probe``'s columns, checked to be a probe: ``columns`` and ``summary`` methods, the
    columns distinct non-empty strings (errors name the probe)."""
    if not isinstance(probe, Probe):
        missing = [m for m in ("columns", "summary") if not callable(getattr(probe, m, None))]
        raise PolicyError(f"probe {name!r}: {type(probe).__name__} is not a probe: it has no "
                          f"{' and no '.join(missing)} method (docs/metrics.md)")
    cols = probe.columns()
    if isinstance(cols, str) or not all(isinstance(c, str) and c for c in cols):
        raise PolicyError(f"probe {name!r}: columns() must give the summary keys as a list of "
                          f"non-empty strings, got {cols!r}")
    out = tuple(cols)
    twice = sorted({c for c in out if out.count(c) > 1})
    if twice:
        raise PolicyError(f"probe {name!r}: columns() names {', '.join(twice)} twice")
    return out


def probe_summary(probe: Any, name: str, summary: dict[str, Any]) -> None:
    """Add ``probe.summary()`` to a run's ``summary``: exactly the keys of its columns, none
    already there, each a number, a string, a bool or ``None`` (numpy scalars become Python
    ones). Errors name the probe and the key."""
    cols = check_probe(probe, name)
    values = dict(probe.summary())
    missing = [c for c in cols if c not in values]
    extra = [k for k in values if k not in cols]
    if missing or extra:
        what = "; ".join(s for s in (f"missing {', '.join(missing)}" if missing else "",
                                     f"not in its columns(): {', '.join(map(str, extra))}" if extra else "") if s)
        raise PolicyError(f"probe {name!r}: summary() must give exactly the keys of columns(): {what}")
    for key in cols:
        if key in summary:
            raise PolicyError(f"probe {name!r}: summary key {key!r} is already in the run's summary "
                              "(a built-in measure or another probe's); rename it")
        value = values[key]
        item = getattr(value, "item", None)
        if callable(item) and not isinstance(value, (str, bytes)):
            value = item()
        if value is not None and not isinstance(value, (Real, str)):
            raise PolicyError(f"probe {name!r}: summary key {key!r}: expected a number, a string or "
                              f"None, got {type(value).__name__}")
        summary[key] = value


@attrs.define(slots=True, frozen=True)
class ProbeSpec:
    """One entry of ``metrics.probes``: how it was named (``name``: a registered name,
    ``module:Class`` of a plugin or ``./file.py:Class``), its parameters (``params``, passed as
    keywords) and what makes it (``factory``, resolved when the scenario is loaded)."""

    name: str
    factory: Callable[..., Any] = attrs.field(eq=False, repr=False)
    params: Mapping[str, Any] = attrs.field(factory=dict)

    def make(self) -> Any:
        """A fresh probe (one per run)."""
        return self.factory(**dict(self.params))
