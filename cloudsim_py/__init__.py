"""cloudsim_py: CloudSim-style simulation of parallel job scheduling on prioritized k-tier VMs."""

__version__ = "0.1.0"

from .brokers import Broker, broker_registry, make_broker, register_broker  # noqa: E402
from .engine import EventKind, Simulation  # noqa: E402
from .errors import (CapacityError, CloudSimError, JobStateError, PolicyError,  # noqa: E402
                     ScenarioError, TraceError)
from .infrastructure import Datacenter, Host, TierSlot  # noqa: E402
from .runner import RunResult, build, results, simulate  # noqa: E402
from .workload import Job, JobState, WorkloadTable, prepare, read_table  # noqa: E402

__all__ = [
    "Broker", "CapacityError", "CloudSimError", "Datacenter", "EventKind", "Host", "Job",
    "JobState", "JobStateError", "PolicyError", "RunResult", "ScenarioError", "Simulation",
    "TierSlot", "TraceError", "WorkloadTable", "broker_registry", "build", "make_broker", "prepare",
    "read_table", "register_broker", "results", "simulate", "__version__",
]
