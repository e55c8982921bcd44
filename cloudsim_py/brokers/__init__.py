"""Scheduling policies. Importing this package registers the built-in brokers."""

from .base import Broker, broker_registry, make_broker, register_broker
from .conservative import ConservativeBroker
from .consolidation import (AcfcfsBroker, AmbfBroker, AmcbfBroker, CcfcfsBroker, CmbfBroker,
                            CmcbfBroker, KtcbfBroker)
from .easy import EasyBroker
from .fcfs import FcfsBroker

__all__ = ["AcfcfsBroker", "AmbfBroker", "AmcbfBroker", "Broker", "CcfcfsBroker", "CmbfBroker",
           "CmcbfBroker", "ConservativeBroker", "EasyBroker", "FcfsBroker", "KtcbfBroker",
           "broker_registry", "make_broker", "register_broker"]
