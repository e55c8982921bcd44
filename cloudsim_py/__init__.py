"""cloudsim_py: CloudSim-style simulation of parallel job scheduling on prioritized k-tier VMs.

The public API, imported lazily (the command line starts without loading numpy-heavy modules
it does not need): run with :func:`simulate` or :func:`run_scenario`, build a world to step
with :func:`build`, write a policy by subclassing :class:`Broker`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

#: public name -> module that defines it
_API = {
    # running
    "simulate": "runner", "build": "runner", "results": "runner", "World": "runner",
    "RunResult": "runner", "summary_frame": "runner",
    "load_scenario": "scenario.loader", "run_scenario": "scenario.run", "Scenario": "scenario.schema",
    # the model and its options
    "Simulation": "engine", "Datacenter": "infrastructure", "DatacenterSpec": "infrastructure",
    "HostGroup": "infrastructure", "Host": "infrastructure", "DatacenterListener": "infrastructure",
    "ScheduleRecorder": "infrastructure", "JobDispatch": "infrastructure",
    "FirstIdle": "infrastructure",
    "InterferenceModel": "execution", "FixedFactors": "execution",
    # policies
    "Broker": "brokers", "BrokerSpec": "brokers", "register_broker": "brokers",
    "broker_registry": "brokers", "make_broker": "brokers",
    # what a policy author builds on (docs/tutorial-broker.md)
    "EstimatedEnds": "brokers", "FifoQueue": "brokers", "WaitQueue": "brokers",
    "JobQueue": "brokers",
    # workloads
    "Job": "workload", "JobState": "workload", "RigidJob": "workload", "JobDescription": "workload",
    "WorkloadSpec": "workload.spec", "WorkloadTable": "workload", "prepare": "workload",
    "read_table": "workload", "CpuUsageModel": "workload", "CpuEstimateModel": "workload",
    "MetricsSpec": "metrics",
    # errors
    "CloudSimError": "errors", "ScenarioError": "errors", "SpecError": "errors",
    "TraceError": "errors", "CapacityError": "errors", "JobStateError": "errors",
    "PolicyError": "errors", "JobError": "errors",
}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'cloudsim_py' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover
    from .brokers import Broker, BrokerSpec, broker_registry, make_broker, register_broker
    from .engine import Simulation
    from .errors import (CapacityError, CloudSimError, JobError, JobStateError, PolicyError,
                         ScenarioError, SpecError, TraceError)
    from .execution import FixedFactors, InterferenceModel
    from .infrastructure import (Datacenter, DatacenterListener, DatacenterSpec, FirstIdle, Host,
                                 HostGroup, JobDispatch, ScheduleRecorder)
    from .metrics import MetricsSpec
    from .runner import RunResult, World, build, results, simulate, summary_frame
    from .scenario.loader import load_scenario
    from .scenario.run import run_scenario
    from .scenario.schema import Scenario
    from .workload import (CpuEstimateModel, CpuUsageModel, Job, JobDescription, JobState,
                           RigidJob, WorkloadTable, prepare, read_table)
    from .workload.spec import WorkloadSpec
