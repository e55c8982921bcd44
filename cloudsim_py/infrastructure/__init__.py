"""Hosts, tier slots, the capacity index and the datacenter's checked actions."""

from .datacenter import Datacenter
from .host import Host, TierSlot

__all__ = ["Datacenter", "Host", "TierSlot"]
