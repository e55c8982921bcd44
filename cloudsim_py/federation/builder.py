"""Wiring of clouds (the runner layer of the federation): one cloud running a lease workload, or
several clouds whose schedulers exchange messages running DAG jobs, each built into a
:class:`~cloudsim_py.runner.World`. Like ``runner.py``, the one place here that knows every part.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..brokers.base import Broker, make_broker
from ..brokers.federated import DagLog, Federation, make_federated
from ..engine import Simulation
from ..errors import PolicyError
from ..infrastructure.datacenter import Datacenter
from ..infrastructure.phases import ARRIVAL
from ..metrics import RetainingJobLog
from ..runner import World, arrivals
from ..workload.dag import DagJob
from ..workload.lease import LeaseRequest
from ..workload.lease_job import LeaseJob
from .cloud import CloudSpec
from .matrix import ExecutionModel
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
    log = dc.subscribe(RetainingJobLog())
    _attach_records(dc, broker)
    for listener in listeners:
        dc.subscribe(listener)
    source = sim.add_source(arrivals(lease_jobs(leases, cloud.vm_type.cpus)), dc.submit, ARRIVAL)
    return World(sim, [dc], [broker], [source], log)


def build_federation(dags: Iterable[DagJob], clouds: Sequence[CloudSpec], *, policy: str = "fdls",
                     params: Mapping[str, Any] | None = None, model: ExecutionModel | None = None,
                     latency: float | Callable[[Any, Any], float] = 0.0,
                     inter_cloud_mbps: float | None = None, seed: int = 0, record: bool = False,
                     check: bool = False, records: bool = True, listeners: Iterable[Any] = ()) -> World:
    """A cloud system: one datacenter per cloud (its hosts the cloud's VMs), each with its own
    scheduler of ``policy`` (``fdls``, ``fdmms``) knowing only its own VMs, talking to the others
    by messages with ``latency`` (seconds, or ``latency(sender, receiver)``); DAG jobs (sorted by
    submit time) are submitted to their ``cloud`` (default 0).

    ``model`` gives task times (default: task runtimes divided by the VM type's speed; a task
    type needs a matrix). The world's brokers share a
    :class:`~cloudsim_py.brokers.federated.Federation`, ``world.broker.federation``, whose ``log``
    holds each DAG job's outcome; ``records`` keeps every task's intervals per cloud
    (``broker.records``); ``listeners`` are subscribed to every datacenter."""
    if not clouds:
        raise PolicyError("a cloud system needs at least one cloud")
    names = [c.name for c in clouds]
    if len(set(names)) != len(names):
        raise PolicyError(f"cloud names must be unique, got {names}")
    sim = Simulation(seed, latency=latency)
    fed = Federation(tuple(clouds), model or ExecutionModel(), inter_cloud_mbps)
    log = RetainingJobLog()
    dcs: list[Datacenter] = []
    for i, cloud in enumerate(clouds):
        dc = Datacenter(sim, cloud.datacenter_spec(check), record=record)
        broker = dc.attach(make_federated(policy, dict(params or {})))
        fed.schedulers.append(broker)
        broker.join(fed, i)
        dc.subscribe(log)
        if records:
            _attach_records(dc, broker)
        for listener in listeners:
            dc.subscribe(listener)
        dcs.append(dc)
    schedulers = fed.schedulers
    n = len(clouds)

    def submit(dag: DagJob) -> None:
        owner = dag.cloud if dag.cloud is not None else 0
        if owner >= n:
            fed.log.submitted += 1
            fed.log.rejected.append((dag.id, f"submitted to cloud {owner}, the system has {n}"))
            return
        schedulers[owner].submit_dag(dag)

    source = sim.add_source(arrivals(dags, "DAG jobs", wrap=False), submit, ARRIVAL)
    return World(sim, dcs, list(schedulers), [source], log)


def _attach_records(dc: Datacenter, broker: Any) -> None:
    """Per-lease/per-task interval records of ``dc``, fed by its scheduler's phases too
    (image transfers, suspensions); kept as ``broker.records``."""
    records = LeaseRecords(dc)
    dc.subscribe(records)
    broker.add_phase_listener(records)
    broker.records = records


def dag_log(world: World) -> DagLog:
    """The DAG jobs' log of a world made by :func:`build_federation`."""
    return world.broker.federation.log  # type: ignore[attr-defined]
