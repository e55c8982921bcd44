"""Wiring of clouds (the runner layer of the federation): one cloud running a lease workload, or
several clouds whose schedulers exchange messages running DAG jobs, each built into a
:class:`~cloudsim_py.runner.World`. Like ``runner.py``, the one place here that knows every part.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping

from ..brokers.base import Broker, make_broker
from ..engine import Simulation
from ..errors import PolicyError
from ..infrastructure.datacenter import Datacenter
from ..infrastructure.phases import ARRIVAL
from ..metrics import JobLog
from ..runner import World, arrivals
from ..workload.lease import LeaseRequest
from ..workload.lease_job import LeaseJob
from .cloud import CloudSpec
from .records import LeaseRecords


def lease_jobs(leases: Iterable[LeaseRequest], vm_cpus: int = 1) -> Iterator[LeaseJob]:
    """The descriptions of ``leases`` on VMs of ``vm_cpus`` CPUs, in the given order."""
    for row, lease in enumerate(leases):
        yield LeaseJob.of(lease, vm_cpus, row)


def _scheduler(policy: str | Broker, params: Mapping[str, Any] | None) -> Broker:
    if isinstance(policy, Broker):
        return policy
    return make_broker(policy, params or {})


def build_lease_cloud(leases: Iterable[LeaseRequest], cloud: CloudSpec, *, policy: str | Broker = "leases",
                      params: Mapping[str, Any] | None = None, seed: int = 0, record: bool = False,
                      check: bool = False, listeners: Iterable[Any] = ()) -> World:
    """One cloud running a lease workload (sorted by submit time) under a lease scheduler.

    The world's broker is the scheduler; its ``records`` (a
    :class:`~cloudsim_py.federation.records.LeaseRecords`) hold every interval of every lease.
    ``record=True`` also keeps the datacenter's action log (``dc.log``); ``check=True`` verifies
    the datacenter's invariants after every timestamp."""
    sim = Simulation(seed)
    dc = Datacenter(sim, cloud.datacenter_spec(check), record=record)
    broker = dc.attach(_scheduler(policy, params))
    use_cloud = getattr(broker, "use_cloud", None)
    if use_cloud is None:
        raise PolicyError(f"policy {broker.name!r} is not a lease scheduler (no use_cloud)")
    use_cloud(cloud)
    log = dc.subscribe(JobLog())
    records = LeaseRecords(dc)
    dc.subscribe(records)
    broker.add_phase_listener(records)
    broker.records = records
    for listener in listeners:
        dc.subscribe(listener)
    source = sim.add_source(arrivals(lease_jobs(leases, cloud.vm_type.cpus)), dc.submit, ARRIVAL)
    return World(sim, [dc], [broker], [source], log)
