"""The policy interface. Subclass :class:`Broker`, register it, name it in YAML.

A broker reads ``self.dc`` (idle slots per tier, running jobs) and acts only through the
datacenter's checked actions. It sees job size, submit time, the runtime *estimate* and the CPU
usage *estimate*; never the true runtime. Must not import scenarios or the CLI."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, TypeVar

from ..errors import PolicyError
from ..registry import Registry

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter
    from ..workload.job import Job


class Broker(ABC):
    """Base class of every scheduling policy.

    Hooks (all optional but :meth:`schedule`): ``on_submit`` (default: append to
    ``self.queue``), ``on_finish`` (after the datacenter released the job), ``on_timer``
    (a wake-up asked for with ``self.dc.wake_at``) and ``schedule(now)``, the decision pass,
    called once per timestamp after every event of that time.
    """

    #: registry name used in YAML (set by :func:`register_broker`)
    name: ClassVar[str] = ""
    #: one line for ``cloudsim-py policies``
    description: ClassVar[str] = ""
    #: the least number of tiers the policy needs; checked when attached
    min_tiers: ClassVar[int] = 1
    #: the most tiers the policy can use (``None``: any)
    max_tiers: ClassVar[int | None] = None

    dc: "Datacenter"
    queue: list["Job"]

    def bind(self, dc: "Datacenter") -> None:
        """Called by ``Datacenter.attach``; sets ``self.dc`` and an empty ``self.queue``."""
        self.dc = dc
        self.queue = []

    def on_submit(self, job: "Job") -> None:
        self.queue.append(job)

    def on_finish(self, job: "Job") -> None:
        pass

    def on_timer(self, token: Any) -> None:
        pass

    @abstractmethod
    def schedule(self, now: float) -> None:
        """Decide what starts (and what is killed, suspended, resumed or swapped) now."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


broker_registry: Registry[type[Broker]] = Registry("policy", entry_point_group="cloudsim_py.brokers")

B = TypeVar("B", bound=type[Broker])


def register_broker(name: str, description: str | None = None) -> Callable[[B], B]:
    """Class decorator: register a built-in (or your own) broker under ``name``."""

    def deco(cls: B) -> B:
        if not (isinstance(cls, type) and issubclass(cls, Broker)):
            raise PolicyError(f"{cls!r} is not a Broker subclass")
        cls.name = name
        if description is not None:
            cls.description = description
        return broker_registry.register(name)(cls)

    return deco


def make_broker(policy: str, params: dict[str, Any] | None = None, where: str = "broker") -> Broker:
    """Resolve ``policy`` (registry name, entry point or ``module:Class``) and instantiate it
    with ``params``; unknown parameters are errors naming ``where.params.<key>``."""
    cls = broker_registry.get(policy)
    if not (isinstance(cls, type) and issubclass(cls, Broker)):
        raise PolicyError(f"{where}.policy: {policy!r} is not a Broker subclass")
    import inspect  # only when a broker is made, not at import

    params = dict(params or {})
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):  # pragma: no cover - exotic classes
        sig = inspect.Signature()
    accepts_any = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    known = [n for n, p in sig.parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if not accepts_any:
        for key in params:
            if key not in known:
                raise PolicyError(f"{where}.params.{key}: unknown parameter of policy {policy!r}; "
                                  f"known: {', '.join(known) or '(none)'}")
    try:
        broker = cls(**params)
    except (TypeError, ValueError) as exc:
        raise PolicyError(f"{where}.params: policy {policy!r}: {exc}") from exc
    if not broker.name:
        broker.name = policy
    return broker
