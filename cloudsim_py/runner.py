"""Worlds and the one run loop. :func:`build` wires a datacenter world (workload source ->
datacenter <-> broker, the records listening); every kind of system (``systems/``: a
datacenter, a cloud system of leases or DAG jobs) hands its built world to :func:`run_system`,
which runs it and gives every kind the same guarantees: the records of every job, the summary,
a run that ends with work neither finished nor rejected is an error naming it. Brokers and the
engine do not import this module."""

from __future__ import annotations

import os
import time
from numbers import Integral
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence, Union

import attrs

from .brokers.base import Broker
from .brokers.spec import BrokerSpec
from .engine import Simulation, Source
from .errors import SpecError, StuckJobsError, TraceError
from .execution.interference import InterferenceModel
from .frames import columns_frame, html_table, rows_frame
from .infrastructure.datacenter import Datacenter
from .infrastructure.phases import ARRIVAL
from .infrastructure.spec import DatacenterSpec
from .metrics import JobLog, JobRecords, MetricsSpec, summarize
from .validate import check_number, kind
from .workload.cpu import CpuEstimateModel, CpuUsageModel
from .workload.description import JobDescription
from .workload.job import Job
from .workload.jobs import descriptions_from_table
from .workload.table import CleaningReport, WorkloadTable

INF = float("inf")

#: what a simulation can be fed: a prepared table, jobs or job descriptions, or a function of
#: the simulation that returns them (to draw them from the simulation's own random streams)
Workload = Union[WorkloadTable, Iterable[Job], Iterable[JobDescription],
                 Callable[[Simulation], Iterable[Any]]]


def arrivals(items: Iterable[Any], kind: str = "jobs", wrap: bool = True,
             fresh: bool = False) -> Iterator[tuple[float, Any]]:
    """``(submit time, item)`` for a source, submit times checked not to decrease (``kind``
    names the items in the error). ``wrap``: descriptions become jobs one at a time, as they
    are needed (other items, e.g. DAG jobs, pass as they are). ``fresh``: a :class:`Job` given
    is replaced by a new pending job of its description (:meth:`Job.fresh`), so the run never
    changes the caller's objects and the same list can be simulated again."""
    last = -INF
    for item in items:
        if not wrap:
            job = item
        elif isinstance(item, Job):
            job = item.fresh() if fresh else item
        else:
            job = Job(item)
        t = job.submit_time
        if not last <= t < INF:          # one comparison: also NaN and infinite times
            if t < last:
                raise TraceError(f"job {job.id}: submit time {t} before the previous job's {last}; "
                                 f"{kind} must be sorted by submit time")
            raise TraceError(f"job {job.id}: submit time must be a finite number, got {t}")
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


class SystemRun(Protocol):
    """A built world of one kind of system, and what that kind adds to the results of a run
    (``systems/``). :func:`run_system` runs any of them the same way."""

    world: World

    def summary(self) -> dict[str, Any]:
        """The system's own measures, added to the run's summary (after the run)."""
        ...

    def stuck(self) -> list[str]:
        """Work that never reached a datacenter and was not refused (a DAG task still at its
        owner), described for the error of a stuck run; ``[]`` when there is none."""
        ...

    def rows(self) -> Iterable[Sequence[str]]:
        """``jobs.csv`` rows of the work that never reached a datacenter (refused DAG jobs'
        tasks, stuck tasks), each with its state and reason."""
        ...

    def write_files(self, folder: str) -> list[str]:
        """The system's own output files (written atomically into ``folder``); their names."""
        ...


class PreparedSystem(Protocol):
    """A system of a scenario with its workload read once (``systems/``): it builds one run per
    broker and tells the outputs what they need about it."""

    @property
    def text(self) -> tuple[str, ...]:
        """The text columns it adds to ``jobs.csv``."""
        ...

    @property
    def table(self) -> WorkloadTable | None:
        """A datacenter's cleaned workload table (``None`` for clouds)."""
        ...

    @property
    def report(self) -> CleaningReport | None:
        """A datacenter's cleaning report (``None`` for clouds)."""
        ...

    def start(self, broker: BrokerSpec, seed: int, listeners: Sequence[Any] = ()) -> SystemRun:
        """The world under ``broker``, built but not run."""
        ...

    def report_lines(self) -> list[str]:
        """What the loader read, kept and skipped, for the command line."""
        ...

    def load_report(self) -> dict | None:
        """The same for ``summary.json`` (the skip counts)."""
        ...

    def skipped_rows(self) -> Iterable[Sequence[str]]:
        """``jobs.csv`` rows of the workload's records the loader skipped, with the reason."""
        ...

    def info(self) -> dict[str, Any]:
        """Facts ``summary.json`` records about the system (hosts and tiers, or the clouds)."""
        ...

    def describe(self) -> str:
        """One line about the system and its workload."""
        ...

    def inputs(self) -> dict[str, str]:
        """The input files (name -> path), whose checksums the rerun record keeps."""
        ...

    def options(self) -> dict[str, Any]:
        """The system's options, resolved, as the top-level keys of a scenario mapping."""
        ...


@attrs.define(slots=True, eq=False)
class WorldRun:
    """A world with nothing to add: the run of a plain datacenter (:func:`simulate`,
    :func:`build`)."""

    world: World

    def summary(self) -> dict[str, Any]:
        return {}

    def stuck(self) -> list[str]:
        return []

    def rows(self) -> Iterable[Sequence[str]]:
        return ()

    def write_files(self, folder: str) -> list[str]:
        return []


@attrs.define(slots=True, eq=False, repr=False)
class RunResult:
    """Everything a run produced: the ``summary`` (a dict), the finished jobs' ``records``
    (numpy columns; :meth:`to_pandas` for a DataFrame) and the ``world`` that ran. In a
    notebook it shows its summary as a table."""

    summary: dict
    records: JobRecords
    world: World
    report: CleaningReport | None = None
    table: WorkloadTable | None = None
    #: how results name the run's broker (a scenario's ``broker.label``, default the policy and
    #: its parameters)
    label: str | None = None
    #: the system's handle on the world (its extra measures, rows and files)
    run: SystemRun | None = None
    #: what the workload's loader read, kept and skipped (for the command line)
    loader: list[str] = attrs.field(factory=list)
    #: the run's probes, named (``metrics.classes``, ``metrics.probes``): their files are written
    #: with the run's outputs
    probes: list[tuple[str, Any]] = attrs.field(factory=list)

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

    @property
    def name(self) -> str:
        """The label, or the brokers' labels when the run has none."""
        return self.label or ", ".join(b.label for b in self.world.brokers)

    def to_pandas(self) -> Any:
        """The finished jobs' records as a pandas DataFrame, one row per job in arrival order
        (the columns of :class:`~cloudsim_py.metrics.JobRecords`: ``id submit start finish
        procs runtime estimate wait response bsld ...``). Needs pandas, the ``[pandas]``
        extra; the error says so when it is missing."""
        return columns_frame(self.records.columns, "RunResult.to_pandas()")

    def _repr_html_(self) -> str:
        """The summary as an HTML table, for Jupyter's display."""
        return html_table(list(self.summary.items()), caption=self.name)

    def __repr__(self) -> str:
        s = self.summary
        shown = ", ".join(f"{k}={s[k]:.4g}" if isinstance(s[k], float) else f"{k}={s[k]}"
                          for k in ("jobs_finished", "jobs_rejected", "avg_wait", "avg_bsld", "utilization")
                          if k in s)
        return f"<RunResult {self.name!r}: {shown}>"


def summary_frame(results: Iterable[RunResult] | Mapping[str, RunResult | Mapping[str, Any]]) -> Any:
    """The summaries of several runs as one pandas DataFrame, a row per run indexed by its
    label (``policy``), in the order given: results (each named by its label) or a mapping of
    names to results or summaries. Two results with the same label are an error naming it, not
    one row silently hiding the other. Needs pandas (the ``[pandas]`` extra)."""
    if isinstance(results, Mapping):
        named = [(str(k), v.summary if isinstance(v, RunResult) else v) for k, v in results.items()]
    else:
        named = []
        seen: set[str] = set()
        for r in results:
            if r.name in seen:
                raise ValueError(f"two results are labelled {r.name!r}: give one a label "
                                 f"(BrokerSpec(..., label=...)) or pass a mapping of names")
            seen.add(r.name)
            named.append((r.name, r.summary))
    return rows_frame([{"policy": name, **summary} for name, summary in named], index="policy",
                      what="summary_frame()")


def check_finished(result: RunResult, policy: str | None = None, shown: int = 5) -> None:
    """A run that ran out of events must have finished or rejected every job (and its system
    must hold no work it never handed to a datacenter): otherwise raise
    :class:`~cloudsim_py.errors.StuckJobsError` naming the first ``shown`` stuck jobs (the
    result rides along as ``error.result``)."""
    stuck = result.unfinished
    held = result.run.stuck() if result.run is not None else []
    if not stuck and not held:
        return
    policy = policy if policy is not None else ", ".join(b.label for b in result.world.brokers)
    named = [f"job {j.id} ({j.state.label}, {j.procs} procs, submitted {j.submit_time:g})" for j in stuck]
    named += held
    listed = "; ".join(named[:shown])
    more = f"; and {len(named) - shown} more" if len(named) > shown else ""
    raise StuckJobsError(f"policy {policy!r}: the simulation ran out of events at t={result.sim.now:g} "
                         f"with {len(named)} jobs unfinished (never started, or suspended and never "
                         f"resumed): {listed}{more}", tuple(stuck), result)


def run_system(run: SystemRun, *, label: str | None = None, tau: float = 10.0, warmup: float = 0.0,
               until: float | None = None, t0: float | None = None,
               report: CleaningReport | None = None, table: WorkloadTable | None = None,
               after: Callable[[World, dict], None] | None = None, loader: Sequence[str] = ()) -> RunResult:
    """The one run loop: run a built world of any kind of system (to the end, or ``until``),
    take the records and the summary (the kernel's measures, then the system's), and check that
    every job ended (:func:`check_finished`; not with ``until``). ``after(world, summary)``
    adds measures of the caller's listeners. ``t0``: when the run started (for
    ``wall_seconds``; default now)."""
    if t0 is None:
        t0 = time.perf_counter()
    world = run.world
    world.run(until)
    summary, records = results(world, tau=tau, warmup=warmup, wall_seconds=time.perf_counter() - t0)
    summary.update(run.summary())
    if after is not None:
        after(world, summary)
    result = RunResult(summary, records, world, report=report, table=table, label=label, run=run,
                       loader=list(loader))
    if until is None:
        check_finished(result, label)
    return result


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
    returning them. ``listeners`` are subscribed to the datacenter after its broker. The
    caller's :class:`Job` objects are never changed: each is submitted as a fresh copy
    (:meth:`Job.fresh`, made as it arrives), so a list can be built and run again; what
    happened is read from the world (``world.results()``, the datacenter, the records).
    Anything else (a file name, ``None``) is a :class:`~cloudsim_py.errors.SpecError` naming
    ``workload``."""
    check_workload(workload)
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
    source = sim.add_source(arrivals(items, fresh=True), dc.submit, ARRIVAL)
    return World(sim, [dc], [b], [source], log)


def check_workload(workload: Any) -> None:
    """Refuse what cannot be a workload before anything is built: a path (a scenario or trace
    file name is read by :func:`~cloudsim_py.scenario.load_scenario` or
    :func:`~cloudsim_py.workload.read_table`, not here), ``None``, anything neither iterable nor
    callable, a list whose jobs repeat an id. The items themselves are checked as they arrive
    (:func:`arrivals`)."""
    if isinstance(workload, (str, bytes, os.PathLike)):
        raise SpecError("workload", f"expected jobs, job descriptions, a WorkloadTable or a function of "
                                    f"the simulation, got {kind(workload)}; a file is read first: "
                                    "run_scenario(load_scenario(path)) for a scenario, read_table(path) "
                                    "for a trace")
    if isinstance(workload, WorkloadTable) or callable(workload):
        return
    try:
        iter(workload)
    except TypeError:
        raise SpecError("workload", f"expected jobs, job descriptions, a WorkloadTable or a function of "
                                    f"the simulation, got {kind(workload)}") from None
    if isinstance(workload, Sequence):       # a list in hand: its ids are told apart now, O(n)
        seen: dict[Any, int] = {}
        for j, item in enumerate(workload):
            job_id = getattr(item, "id", None)
            if job_id is None:
                continue                     # not a job: refused when it arrives
            i = seen.setdefault(job_id, j)
            if i != j:
                raise SpecError(f"workload[{j}]", f"job id {job_id!r} is used twice: workload[{i}] and "
                                                  f"workload[{j}] (outputs name jobs by id)")


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
             listeners: Sequence[Any] = (), tier_threshold: str = "foreground") -> RunResult:
    """Run one simulation to the end (or ``until``) and return its records and summary.

    The keywords are those of :class:`~cloudsim_py.infrastructure.spec.DatacenterSpec` and
    :class:`~cloudsim_py.brokers.spec.BrokerSpec` (which check them), plus the workload's CPU
    models, the metrics' ``tau`` and ``warmup``, and ``listeners`` for the datacenter.

    The jobs given are not used up (:func:`build` runs copies): the same list can be simulated
    again, and the outcome is read from the result (``records``, :meth:`RunResult.to_pandas`,
    ``rejected``, ``unfinished``), not from the caller's jobs, which stay pending. The result's
    label is the broker's (the policy and its parameters, for a broker made by hand too).

    A run without ``until`` that ends with jobs neither finished nor rejected (a policy that
    never starts them) raises :class:`~cloudsim_py.errors.StuckJobsError`, naming them and
    carrying the result; with ``until`` the jobs still in flight are ``result.unfinished``.

    Every argument is checked here, once, as a scenario's keys are: ``tau`` and ``warmup`` by
    :class:`~cloudsim_py.metrics.MetricsSpec`, ``until`` a finite time >= 0, ``seed`` an
    integer >= 0, ``workload`` by :func:`check_workload` (a
    :class:`~cloudsim_py.errors.SpecError` naming the argument)."""
    t0 = time.perf_counter()
    check_workload(workload)
    MetricsSpec(tau=tau, warmup=warmup)
    if until is not None:
        check_number("until", until, 0.0)
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise SpecError("seed", f"expected an integer >= 0, got {kind(seed)}")
    spec = DatacenterSpec(hosts=hosts, tiers=tiers, interference=interference,
                          migration_cost=migration_cost, fidelity=fidelity, slice_s=slice_s,
                          check=check, tier_threshold=tier_threshold)
    broker = policy if isinstance(policy, Broker) else BrokerSpec(policy, params or {})
    world = build(workload, datacenter=spec, broker=broker, seed=seed, cpu_usage=cpu_usage,
                  cpu_estimate=cpu_estimate, factors=factors, record=record, listeners=listeners)
    table = workload if isinstance(workload, WorkloadTable) else None
    label = broker.label if isinstance(broker, Broker) else broker.name
    return run_system(WorldRun(world), label=label, tau=tau, warmup=warmup, until=until, t0=t0,
                      report=table.report if table is not None else None, table=table)
