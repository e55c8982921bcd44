"""Scheduling policies. Importing this package registers the built-in brokers."""

from .base import Broker, broker_registry, make_broker, register_broker
from .conservative import ConservativeBroker
from .consolidation import (AcfcfsBroker, AmbfBroker, AmcbfBroker, CcfcfsBroker, CmbfBroker,
                            CmcbfBroker, KtcbfBroker, MigrationBackfillBroker)
from .easy import EasyBroker
from .ends import EstimatedEnds
from .eviction import keep_smallest, take_newest_first
from .fcfs import FcfsBroker
from .learned import LearnedBroker, LinearPolicy
from .dags import DagScheduler, FdlsScheduler, FdmmsScheduler
from .leases import CloudScheduler, LeaseScheduler
from .pect import PectBroker
from .prio import PrioBroker
from .queues import FifoQueue, JobQueue, WaitQueue, arrival
from .sjf import SjfBackfillBroker
from .spec import BrokerSpec

__all__ = ["AcfcfsBroker", "AmbfBroker", "AmcbfBroker", "Broker", "BrokerSpec", "CcfcfsBroker",
           "CloudScheduler", "CmbfBroker", "CmcbfBroker", "ConservativeBroker", "DagScheduler",
           "EasyBroker", "EstimatedEnds", "FcfsBroker", "FdlsScheduler", "FdmmsScheduler", "FifoQueue",
           "JobQueue", "KtcbfBroker", "LearnedBroker", "LeaseScheduler", "LinearPolicy", "MigrationBackfillBroker", "PectBroker",
           "PrioBroker", "SjfBackfillBroker",
           "WaitQueue", "arrival", "broker_registry", "keep_smallest", "make_broker",
           "register_broker", "take_newest_first"]
