"""Wire a simulated world together and run it: workload source -> datacenter <-> broker, the
records listening; then metrics. The one place that knows every part; brokers and the engine do
not import it."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, Sequence, Union

import attrs

from .brokers.base import Broker
from .brokers.spec import BrokerSpec
from .engine import Simulation, Source
from .errors import StuckJobsError, TraceError
from .execution.interference import InterferenceModel
from .infrastructure.datacenter import Datacenter
from .infrastructure.phases import ARRIVAL
from .infrastructure.spec import DatacenterSpec
from .metrics import JobLog, JobRecords, summarize
from .workload.cpu import CpuEstimateModel, CpuUsageModel
from .workload.description import JobDescription
from .workload.job import Job
from .workload.jobs import descriptions_from_table
from .workload.table import CleaningReport, WorkloadTable

#: what a simulation can be fed: a prepared table, jobs or job descriptions, or a function of
#: the simulation that returns them (to draw them from the simulation's own random streams)
Workload = Union[WorkloadTable, Iterable[Job], Iterable[JobDescription],
                 Callable[[Simulation], Iterable[Any]]]


def arrivals(items: Iterable[Any], kind: str = "jobs", wrap: bool = True) -> Iterator[tuple[float, Any]]:
    """``(submit time, item)`` for a source, submit times checked not to decrease (``kind``
    names the items in the error). ``wrap``: descriptions become jobs one at a time, as they
    are needed (other items, e.g. DAG jobs, pass as they are)."""
    last = -float("inf")
    for item in items:
        job = Job(item) if wrap and not isinstance(item, Job) else item
        t = job.submit_time
        if t < last:
            raise TraceError(f"job {job.id}: submit time {t} before the previous job's {last}; "
                             f"{kind} must be sorted by submit time")
        last = t
        yield t, job


@attrs.define(slots=True, eq=False)
class World:
    """A simulated world, built but not necessarily run: its simulation, datacenters, brokers,
    workload sources and the records' listener. Step it with :meth:`step` or
    ``run(until=t)``, look at it and act between steps."""

    sim: Simulation
    datacenters: list[Datacenter]
    brokers: list[Broker]
    sources: list[Source]
    log: JobLog

    @property
    def datacenter(self) -> Datacenter:
        """The first (in a one-cloud world, the only) datacenter."""
        return self.datacenters[0]

    @property
    def broker(self) -> Broker:
        return self.brokers[0]

    def run(self, until: float | None = None) -> float:
        return self.sim.run(until)

    def step(self) -> float | None:
        return self.sim.step()

    def results(self, *, tau: float = 10.0, warmup: float = 0.0,
                wall_seconds: float = 0.0) -> tuple[dict, JobRecords]:
        return results(self, tau=tau, warmup=warmup, wall_seconds=wall_seconds)


@attrs.define(slots=True, eq=False)
class RunResult:
    """Everything a run produced."""

    summary: dict
    records: JobRecords
    world: World
    report: CleaningReport | None = None
    table: WorkloadTable | None = None
    #: how results name the run's broker (a scenario's ``broker.label``, default the policy and
    #: its parameters)
    label: str | None = None

    @property
    def datacenter(self) -> Datacenter:
        return self.world.datacenter

    @property
    def broker(self) -> Broker:
        return self.world.broker

    @property
    def sim(self) -> Simulation:
        return self.world.sim

    @property
    def rejected(self) -> list[Job]:
        """The rejected jobs (their reasons: ``world.log.reasons``)."""
        return self.world.log.rejected

    @property
    def unfinished(self) -> list[Job]:
        """Jobs neither finished nor rejected when the run stopped, in arrival order."""
        return self.world.log.unfinished()


def check_finished(result: RunResult, policy: str | None = None, shown: int = 5) -> None:
    """A run that ran out of events must have finished or rejected every job: otherwise raise
    :class:`~cloudsim_py.errors.StuckJobsError` naming the first ``shown`` stuck jobs (the
    result rides along as ``error.result``)."""
    stuck = result.unfinished
    if not stuck:
        return
    policy = policy if policy is not None else ", ".join(b.name for b in result.world.brokers)
    listed = "; ".join(f"job {j.id} ({j.state.label}, {j.procs} procs, submitted {j.submit_time:g})"
                       for j in stuck[:shown])
    more = f"; and {len(stuck) - shown} more" if len(stuck) > shown else ""
    raise StuckJobsError(f"policy {policy!r}: the simulation ran out of events at t={result.sim.now:g} "
                         f"with {len(stuck)} jobs unfinished (never started, or suspended and never "
                         f"resumed): {listed}{more}", tuple(stuck), result)


def _broker(broker: BrokerSpec | Broker | str) -> Broker:
    if isinstance(broker, Broker):
        return broker
    if isinstance(broker, str):
        broker = BrokerSpec(broker)
    return broker.make()


def build(workload: Workload, *, datacenter: DatacenterSpec, broker: BrokerSpec | Broker | str = "fcfs",
          seed: int = 0, cpu_usage: CpuUsageModel | None = None,
          cpu_estimate: CpuEstimateModel | None = None, factors: Any = None, record: bool = False,
          listeners: Sequence[Any] = ()) -> World:
    """Create the simulation, the datacenter of ``datacenter``, its broker, the workload's
    source and the records' listener, without running anything (``World.run``/``step`` do).

    ``workload``: a prepared :class:`WorkloadTable` (CPU usage and its estimate drawn from the
    models, default 100 % and exact), jobs, job descriptions, or a function of the simulation
    returning them. ``listeners`` are subscribed to the datacenter after its broker."""
    sim = Simulation(seed)
    dc = Datacenter(sim, datacenter, factors=factors, record=record)
    b = dc.attach(_broker(broker))
    log = dc.subscribe(JobLog())
    for listener in listeners:
        dc.subscribe(listener)
    if isinstance(workload, WorkloadTable):
        items: Iterable[Any] = descriptions_from_table(
            workload, cpu_usage if cpu_usage is not None else CpuUsageModel(),
            cpu_estimate if cpu_estimate is not None else CpuEstimateModel(),
            sim.random["cpu_usage"], sim.random["cpu_estimate"])
    elif callable(workload):
        items = workload(sim)
    else:
        items = workload
    source = sim.add_source(arrivals(items), dc.submit, ARRIVAL)
    return World(sim, [dc], [b], [source], log)


def results(world: World, *, tau: float = 10.0, warmup: float = 0.0,
            wall_seconds: float = 0.0) -> tuple[dict, JobRecords]:
    """Records of the jobs finished so far and the summary of the run so far, over every
    datacenter of the world."""
    log = world.log
    records = log.records(tau)
    dcs = world.datacenters
    submitted = sum(dc.submitted for dc in dcs)
    unfinished = submitted - log.finished_count - len(log.rejected)
    summary = summarize(records, hosts=sum(len(dc.hosts) for dc in dcs), submitted=submitted,
                        rejected=len(log.rejected), unfinished=unfinished, cpu_work=log.cpu_work(),
                        events=world.sim.events_processed, wall_seconds=wall_seconds,
                        warmup=warmup, kills=sum(dc.kills for dc in dcs),
                        migrations=sum(dc.migrations for dc in dcs),
                        preemptions=sum(dc.suspensions for dc in dcs),
                        swaps=sum(dc.swaps for dc in dcs),
                        context_switches=sum(dc.context_switches for dc in dcs))
    return summary, records


def simulate(workload: Workload, *, hosts: int, tiers: int = 1,
             policy: str | Broker = "fcfs", params: dict[str, Any] | None = None, seed: int = 0,
             interference: InterferenceModel | str | dict | None = None,
             cpu_usage: CpuUsageModel | None = None, cpu_estimate: CpuEstimateModel | None = None,
             migration_cost: float = 20.0, fidelity: str = "event", slice_s: float = 60.0,
             tau: float = 10.0, warmup: float = 0.0, check: bool = False,
             until: float | None = None, factors: Any = None, record: bool = False,
             listeners: Sequence[Any] = ()) -> RunResult:
    """Run one simulation to the end (or ``until``) and return its records and summary.

    The keywords are those of :class:`~cloudsim_py.infrastructure.spec.DatacenterSpec` and
    :class:`~cloudsim_py.brokers.spec.BrokerSpec` (which check them), plus the workload's CPU
    models, the metrics' ``tau`` and ``warmup``, and ``listeners`` for the datacenter.

    A run without ``until`` that ends with jobs neither finished nor rejected (a policy that
    never starts them) raises :class:`~cloudsim_py.errors.StuckJobsError`, naming them and
    carrying the result; with ``until`` the jobs still in flight are ``result.unfinished``."""
    t0 = time.perf_counter()
    spec = DatacenterSpec(hosts=hosts, tiers=tiers, interference=interference,
                          migration_cost=migration_cost, fidelity=fidelity, slice_s=slice_s,
                          check=check)
    broker = policy if isinstance(policy, Broker) else BrokerSpec(policy, params or {})
    world = build(workload, datacenter=spec, broker=broker, seed=seed, cpu_usage=cpu_usage,
                  cpu_estimate=cpu_estimate, factors=factors, record=record, listeners=listeners)
    world.run(until)
    summary, records = results(world, tau=tau, warmup=warmup, wall_seconds=time.perf_counter() - t0)
    table = workload if isinstance(workload, WorkloadTable) else None
    result = RunResult(summary, records, world, report=table.report if table is not None else None,
                       table=table, label=broker.name)
    if until is None:
        check_finished(result)
    return result
