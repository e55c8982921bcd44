"""Wire a simulated world together and run it: workload -> feeder -> datacenter <-> broker,
then metrics. The one place that knows every part; brokers and the engine do not import it."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Union

import attrs

from .brokers.base import Broker, make_broker
from .engine import Simulation
from .execution.interference import InterferenceModel
from .infrastructure.datacenter import Datacenter
from .metrics import JobRecords, summarize
from .workload.cpu import CpuEstimateModel, CpuUsageModel
from .workload.feed import JobFeeder, jobs_from_table
from .workload.job import Job
from .workload.table import CleaningReport, WorkloadTable


#: what a simulation can be fed: a prepared table, jobs, or a function of the simulation that
#: returns jobs (to draw them from the simulation's own random streams)
Workload = Union[WorkloadTable, Iterable[Job], Callable[[Simulation], Iterable[Job]]]


@attrs.define(slots=True, eq=False)
class RunResult:
    """Everything a run produced."""

    summary: dict
    records: JobRecords
    datacenter: Datacenter
    broker: Broker
    sim: Simulation
    report: CleaningReport | None = None
    table: WorkloadTable | None = None


def build(workload: Workload, *, hosts: int, tiers: int = 1,
          policy: str | Broker = "fcfs", params: dict[str, Any] | None = None, seed: int = 0,
          interference: InterferenceModel | str | None = None,
          cpu_usage: CpuUsageModel | None = None, cpu_estimate: CpuEstimateModel | None = None,
          migration_cost: float = 20.0, fidelity: str = "event", slice_s: float = 60.0,
          check: bool = False, factors: Any = None,
          record: bool = False) -> tuple[Simulation, Datacenter, Broker, JobFeeder]:
    """Create the simulation, datacenter, broker and feeder without running anything, so a
    program can step it with ``sim.run(until=...)``."""
    sim = Simulation(seed)
    dc = Datacenter(sim, hosts, tiers, interference=interference, migration_cost=migration_cost,
                    fidelity=fidelity, slice_s=slice_s, check=check, factors=factors, record=record)
    broker = policy if isinstance(policy, Broker) else make_broker(policy, params)
    dc.attach(broker)
    if isinstance(workload, WorkloadTable):
        jobs: Iterable[Job] = jobs_from_table(
            workload, cpu_usage if cpu_usage is not None else CpuUsageModel(),
            cpu_estimate if cpu_estimate is not None else CpuEstimateModel(),
            sim.random["cpu_usage"], sim.random["cpu_estimate"])
    elif callable(workload):
        jobs = workload(sim)
    else:
        jobs = workload
    feeder = JobFeeder(sim, jobs, dc.submit)
    return sim, dc, broker, feeder


def results(sim: Simulation, dc: Datacenter, *, tau: float = 10.0,
            warmup: float = 0.0, wall_seconds: float = 0.0) -> tuple[dict, JobRecords]:
    """Records of finished jobs and the summary of the run so far."""
    records = JobRecords.from_jobs(dc.finished, tau)
    cpu_work = sum(j.true_runtime() * sum(j.cpu_usage) for j in dc.finished)
    unfinished = dc.submitted - len(dc.finished) - len(dc.rejected)
    summary = summarize(records, hosts=len(dc.hosts), submitted=dc.submitted,
                        rejected=len(dc.rejected), unfinished=unfinished, cpu_work=cpu_work,
                        events=sim.events_processed, wall_seconds=wall_seconds, warmup=warmup,
                        kills=dc.kills, migrations=dc.migrations, preemptions=dc.suspensions,
                        swaps=dc.swaps)
    return summary, records


def simulate(workload: Workload, *, hosts: int, tiers: int = 1,
             policy: str | Broker = "fcfs", params: dict[str, Any] | None = None, seed: int = 0,
             interference: InterferenceModel | str | None = None,
             cpu_usage: CpuUsageModel | None = None, cpu_estimate: CpuEstimateModel | None = None,
             migration_cost: float = 20.0, fidelity: str = "event", slice_s: float = 60.0,
             tau: float = 10.0, warmup: float = 0.0, check: bool = False,
             until: float | None = None, factors: Any = None, record: bool = False,
             progress: Callable[[Simulation], None] | None = None) -> RunResult:
    """Run one simulation to the end (or ``until``) and return its records and summary."""
    t0 = time.perf_counter()
    sim, dc, broker, feeder = build(
        workload, hosts=hosts, tiers=tiers, policy=policy, params=params, seed=seed,
        interference=interference, cpu_usage=cpu_usage, cpu_estimate=cpu_estimate,
        migration_cost=migration_cost, fidelity=fidelity, slice_s=slice_s, check=check,
        factors=factors, record=record)
    sim.progress = progress
    sim.run(until)
    summary, records = results(sim, dc, tau=tau, warmup=warmup,
                               wall_seconds=time.perf_counter() - t0)
    table = workload if isinstance(workload, WorkloadTable) else None
    return RunResult(summary, records, dc, broker, sim,
                     report=table.report if table is not None else None, table=table)
