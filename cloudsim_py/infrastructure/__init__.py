"""Hosts, tier slots, the capacity index, placement strategies, listeners and the datacenter's
checked actions. Knows no policy and no scenario."""

from .datacenter import Datacenter
from .host import Host, TierSlot
from .listener import DatacenterListener
from .placement import FirstIdle, JobDispatch, Placement
from .recorder import ScheduleRecorder
from .runstate import RunState
from .spec import DatacenterSpec, HostGroup

__all__ = ["Datacenter", "DatacenterListener", "DatacenterSpec", "FirstIdle", "Host", "HostGroup",
           "JobDispatch", "Placement", "RunState", "ScheduleRecorder", "TierSlot"]
