"""Scheduling policies. Importing this package registers the built-in brokers: ``fcfs`` and
``easy`` at once; conservative backfilling, ``sjf-backfill``, the consolidation family
(``ccfcfs``, ``acfcfs``, ``cmbf``, ``ambf``, ``cmcbf``, ``amcbf``, ``ktcbf``), the cloud ones
(``fdls``, ``fdmms``, ``leases``), ``pect``, ``prio`` and ``learned`` when first asked for (by
name, or by listing the policies), so that a run imports the module of its own policy and not
the others' (docs/performance.md, *Process start*). Their classes are importable from here as
before (loaded at first use)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .base import Broker, broker_registry, make_broker, register_broker
from .easy import EasyBroker
from .ends import EstimatedEnds
from .eviction import keep_smallest, take_newest_first
from .fcfs import FcfsBroker
from .queues import FifoQueue, FrontQueue, JobQueue, WaitQueue, arrival
from .spec import BrokerSpec

if TYPE_CHECKING:  # pragma: no cover
    from .conservative import ConservativeBroker
    from .consolidation import (AcfcfsBroker, AmbfBroker, AmcbfBroker, CcfcfsBroker, CmbfBroker,
                                CmcbfBroker, KtcbfBroker, MigrationBackfillBroker)
    from .dags import DagScheduler, FdlsScheduler, FdmmsScheduler
    from .leases import CloudScheduler, LeaseScheduler
    from .learned import LearnedBroker, LinearPolicy
    from .pect import PectBroker
    from .prio import PrioBroker
    from .sjf import SjfBackfillBroker

#: classes of the modules imported on first use -> their module
_LAZY = {"ConservativeBroker": "conservative", "SjfBackfillBroker": "sjf",
         **dict.fromkeys(("AcfcfsBroker", "AmbfBroker", "AmcbfBroker", "CcfcfsBroker", "CmbfBroker",
                          "CmcbfBroker", "KtcbfBroker", "MigrationBackfillBroker"), "consolidation"),
         "DagScheduler": "dags", "FdlsScheduler": "dags", "FdmmsScheduler": "dags",
         "CloudScheduler": "leases", "LeaseScheduler": "leases", "PectBroker": "pect",
         "PrioBroker": "prio", "LearnedBroker": "learned", "LinearPolicy": "learned"}
for _policy, _module in (("conservative", "conservative"), ("sjf-backfill", "sjf"),
                         *((p, "consolidation") for p in ("ccfcfs", "acfcfs", "cmbf", "ambf", "cmcbf", "amcbf",
                                                         "ktcbf")),
                         ("fdls", "dags"), ("fdmms", "dags"), ("leases", "leases"), ("pect", "pect"),
                         ("prio", "prio"), ("learned", "learned")):
    broker_registry.register_lazy(_policy, f"{__name__}.{_module}")


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["AcfcfsBroker", "AmbfBroker", "AmcbfBroker", "Broker", "BrokerSpec", "CcfcfsBroker",
           "CloudScheduler", "CmbfBroker", "CmcbfBroker", "ConservativeBroker", "DagScheduler",
           "EasyBroker", "EstimatedEnds", "FcfsBroker", "FdlsScheduler", "FdmmsScheduler", "FifoQueue",
           "FrontQueue", "JobQueue", "KtcbfBroker", "LearnedBroker", "LeaseScheduler", "LinearPolicy",
           "MigrationBackfillBroker", "PectBroker", "PrioBroker", "SjfBackfillBroker",
           "WaitQueue", "arrival", "broker_registry", "keep_smallest", "make_broker",
           "register_broker", "take_newest_first"]
