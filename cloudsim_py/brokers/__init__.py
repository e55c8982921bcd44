"""Scheduling policies. Importing this package registers the built-in brokers."""

from .base import Broker, broker_registry, make_broker, register_broker
from .conservative import ConservativeBroker
from .easy import EasyBroker
from .fcfs import FcfsBroker

__all__ = ["Broker", "ConservativeBroker", "EasyBroker", "FcfsBroker", "broker_registry",
           "make_broker", "register_broker"]
