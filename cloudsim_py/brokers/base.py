"""The policy interface. Subclass :class:`Broker`, register it, name it in YAML.

A broker reads ``self.dc`` (idle slots per tier, running jobs) and acts only through the
datacenter's checked actions. It sees job size, submit time, the runtime *estimate* and the CPU
usage *estimate*; never the true runtime. Must not import scenarios or the CLI."""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, TypeVar

from ..errors import PolicyError, PolicySpecError
from ..infrastructure.listener import DatacenterListener
from ..infrastructure.phases import MESSAGE
from ..registry import Registry
from .queues import FifoQueue, JobQueue

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Message
    from ..infrastructure.datacenter import Datacenter
    from ..infrastructure.placement import Placement
    from ..workload.job import Job


class Broker(DatacenterListener, ABC):
    """Base class of every scheduling policy: a listener of its datacenter, subscribed first.

    Hooks (all optional but :meth:`schedule`): ``on_submit`` (default: add to ``self.queue``),
    ``on_start``, ``on_finish`` (after the datacenter released the job), ``on_kill``,
    ``on_suspend``, ``on_resume``, ``on_swap``, ``on_reject`` (see
    :class:`~cloudsim_py.infrastructure.listener.DatacenterListener`), ``on_timer`` (a wake-up
    asked for with ``self.dc.wake_at``), ``on_message`` (a message from another entity) and
    ``schedule(now)``, the decision pass, called once per timestamp in which something
    happened to its datacenter, after every event of that time.

    ``queue_type``: the waiting queue the broker keeps (made once in :meth:`bind`, never
    rebound); ``placement``: the placement strategy the datacenter uses for it when no hosts
    are named (``None``: JobDispatch).
    """

    #: registry name used in YAML (set by :func:`register_broker`)
    name: ClassVar[str] = ""
    #: one line for ``cloudsim-py policies``
    description: ClassVar[str] = ""
    #: the least number of tiers the policy needs; checked when attached
    min_tiers: ClassVar[int] = 1
    #: the most tiers the policy can use (``None``: any)
    max_tiers: ClassVar[int | None] = None
    #: the kind of waiting queue (see ``brokers.queues``)
    queue_type: ClassVar[type[JobQueue]] = FifoQueue
    #: how the datacenter places this broker's jobs when it names no hosts
    placement: ClassVar["Placement | None"] = None
    #: runs only inside a cloud system built for it (leases, DAG tasks over several clouds),
    #: not on a plain datacenter's rigid jobs; a scenario checks it
    cloud_system: ClassVar[bool] = False

    dc: "Datacenter"
    queue: Any
    #: the constructor's positional and keyword arguments (kept by ``__new__``, for the label)
    _arguments: tuple[tuple[Any, ...], dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> "Broker":
        # keep the constructor's arguments, for the label (once per broker, not per event)
        self = super().__new__(cls)
        self._arguments = (args, kwargs)
        return self

    @property
    def label(self) -> str:
        """How results name this broker: its policy name and the arguments it was made with,
        ``easy`` or ``ktcbf(aggressive=True, ...)`` (keywords sorted, values in ``repr``), the
        same text as :class:`~cloudsim_py.brokers.spec.BrokerSpec`'s default label, so that a
        broker made by hand with parameters is not named like one without. Setting
        ``broker.label = "mine"`` gives it its own (a broker that keeps a ``label`` attribute
        of its own goes on working)."""
        given = self.__dict__.get("_label")
        if given is not None:
            return given
        from .spec import default_label

        args, kwargs = getattr(self, "_arguments", ((), {}))
        params = dict(kwargs)
        if args:
            params.update(_positional(type(self), args))
        return default_label(self.name or type(self).__name__, params)

    @label.setter
    def label(self, value: str) -> None:
        self.__dict__["_label"] = value

    def bind(self, dc: "Datacenter") -> None:
        """Called by ``Datacenter.attach``: sets ``self.dc`` and makes ``self.queue``."""
        self.dc = dc
        self.queue = self.queue_type()
        if type(self).on_submit is Broker.on_submit:
            # the default hook is the queue's own add (for a FIFO, the list's append in C):
            # no Python call per arrival
            setattr(self, "on_submit", self.queue.add)

    def on_submit(self, job: "Job") -> None:
        self.queue.add(job)

    def on_timer(self, token: Any) -> None:
        """A wake-up asked for with ``self.dc.wake_at(t, token)``."""

    def on_message(self, message: "Message") -> None:
        """A message sent to this broker (or to its datacenter) by another entity."""
        raise PolicyError(f"t={self.dc.now}: policy {self.name!r} got a message it does not "
                          f"handle: {message.payload!r}")

    def receive(self, message: "Message") -> None:
        """Delivery of a message addressed to this broker: ``on_message``, then a pass."""
        self.dc.request_pass()
        self.on_message(message)

    def send(self, dest: Any, payload: Any, delay: float | None = None) -> Any:
        """Send ``payload`` to another broker or datacenter (default delay: the simulation's
        latency)."""
        return self.dc.sim.send(dest, payload, delay, sender=self, phase=MESSAGE)

    @abstractmethod
    def schedule(self, now: float) -> None:
        """Decide what starts (and what is killed, suspended, resumed or swapped) now."""

    def counters(self) -> Mapping[str, float]:
        """What the policy counts beyond the datacenter's own counters (ARs accepted and
        refused, leases preempted, rounds of messages...), by name: a run's summary adds them up
        over its brokers. Default: nothing."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label!r}>"


broker_registry: Registry[type[Broker]] = Registry("policy", entry_point_group="cloudsim_py.brokers",
                                                      imports=True)

B = TypeVar("B", bound=type[Broker])


def register_broker(name: str, description: str | None = None) -> Callable[[B], B]:
    """Class decorator: register a built-in (or your own) broker under ``name``."""

    def deco(cls: B) -> B:
        if not (isinstance(cls, type) and issubclass(cls, Broker)):
            raise PolicyError(f"{cls!r} is not a Broker subclass")
        cls.name = name
        if description is not None:
            cls.description = description
        broker_registry.register(name)(cls)
        return cls

    return deco


def make_broker(policy: str, params: Mapping[str, Any] | None = None, where: str = "broker") -> Broker:
    """Resolve ``policy`` (registry name, entry point or ``module:Class``) and instantiate it
    with ``params``; an unknown policy or parameter is a :class:`PolicySpecError` naming
    ``where.policy`` or ``where.params.<key>``."""
    try:
        return _make(policy, dict(params or {}))
    except PolicySpecError as exc:
        raise exc.within(where) from None


@functools.lru_cache(maxsize=None)
def _parameters(cls: type) -> tuple[bool, tuple[str, ...]]:
    """Whether a broker class's constructor takes any keyword, and the keywords it names; once
    per class. A class with object's constructor takes none (no signature to parse: parsing
    object's text signature cost 15 ms at the first broker of a process)."""
    own_new = cls.__new__ not in (object.__new__, Broker.__new__)
    init = getattr(cls, "__init__")
    if init is object.__init__ and not own_new:
        return False, ()
    import inspect  # only when a broker is made, not at import

    try:
        # Broker.__new__ takes anything (it keeps the arguments): the constructor says what
        sig = inspect.signature(cls if own_new else init)
        if not own_new:
            sig = sig.replace(parameters=list(sig.parameters.values())[1:])   # self
    except (TypeError, ValueError):  # pragma: no cover - exotic classes
        sig = inspect.Signature()
    accepts_any = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    known = tuple(n for n, p in sig.parameters.items()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    return accepts_any, known


def _positional(cls: type, args: tuple) -> dict[str, Any]:
    """Positional constructor arguments by their parameter's name (``arg0``... where the
    constructor does not name them)."""
    _, known = _parameters(cls)
    return {known[i] if i < len(known) else f"arg{i}": value for i, value in enumerate(args)}


def _make(policy: str, params: dict[str, Any]) -> Broker:
    try:
        cls = broker_registry.get(policy)
    except PolicyError as exc:
        raise PolicySpecError("policy", str(exc)) from None
    if not (isinstance(cls, type) and issubclass(cls, Broker)):
        raise PolicySpecError("policy", f"{policy!r} is not a Broker subclass")
    accepts_any, known = _parameters(cls)
    if not accepts_any:
        for key in params:
            if key not in known:
                raise PolicySpecError(f"params.{key}", f"unknown parameter of policy {policy!r}; "
                                                       f"known: {', '.join(known) or '(none)'}")
    try:
        broker = cls(**params)
    except PolicySpecError as exc:      # the constructor named the parameter it refuses
        raise exc.within("params") from None
    except (TypeError, ValueError) as exc:
        raise PolicySpecError("params", f"policy {policy!r}: {exc}") from exc
    if not broker.name:
        broker.name = policy  # type: ignore[misc]
    return broker
