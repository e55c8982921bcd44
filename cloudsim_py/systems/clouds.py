"""Cloud systems: one cloud running a lease workload (advance reservations, best-effort and
immediate leases), or several clouds whose schedulers exchange messages running DAG jobs (Li et
al., seed 001). How each becomes a world, what it reads once for every broker, what it adds to
a run's summary, to ``jobs.csv`` (the cloud, the lease mode, the DAG job and task of each row;
the work that never reached a datacenter) and to the outputs (``intervals.csv``, the rows of a
Gantt chart; ``dag_jobs.csv``). Imports the layers below (runner, brokers, clouds,
infrastructure, workload); nothing of scenarios or the CLI.
"""

from __future__ import annotations

import csv
import io
import math
import os
from operator import attrgetter
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

import attrs

from ..brokers.base import Broker, make_broker
from ..brokers.dags import DagLog, Federation, make_dag_scheduler, STATE_NAMES, DONE
from ..brokers.leases import CloudScheduler
from ..brokers.spec import BrokerSpec
from ..clouds.cloud import CloudSpec
from ..clouds.matrix import ExecutionModel
from ..clouds.overheads import Overheads
from ..clouds.records import KINDS, LeaseRecords
from ..clouds.spec import FederationSpec
from ..engine import Simulation
from ..errors import CloudSimError, DAGError, PolicyError, ScenarioError
from ..infrastructure.datacenter import Datacenter
from ..infrastructure.listener import DatacenterListener
from ..infrastructure.phases import ARRIVAL
from ..metrics import JobLog, TextColumn
from ..outputs import partial_row, write_atomic
from ..probes import probe_summary
from ..runner import RunResult, World, arrivals
from ..workload.dag import DagJob
from ..workload.dag_spec import DagWorkloadSpec
from ..workload.job import Job
from ..workload.lease import LeaseMode, LeaseRequest
from ..workload.lease_job import LeaseDescription, LeaseJob
from ..workload.lease_spec import LeaseWorkloadSpec
from ..workload.lwf import LeaseWorkload
from .report import cloud_table, probe_keys

NAN = math.nan

#: the text columns a cloud system adds to ``jobs.csv``
TEXT = ("cloud", "mode", "requested_start", "dag", "task")


#: what a cloud system's job describes: a lease on a cloud (:class:`LeaseJob`) or a DAG task
#: sent to one (:class:`~cloudsim_py.workload.dag_task.TaskJob`), both implementing
#: :class:`LeaseDescription`, whose fields the text columns read: a cloud's scheduler submits
#: nothing else to its datacenter (a C call, no Python frame: it runs for every finished job)
_lease: Callable[[Job], LeaseDescription] = attrgetter("desc")

_cloud_of = attrgetter("desc.cloud")
_mode_of = attrgetter("desc.mode")
_start_of = attrgetter("desc.start")
_dag_of = attrgetter("desc.dag")
_task_of = attrgetter("desc.task")
#: a mode's text (``LeaseMode.value`` is a property of the enum: a Python call a row)
_MODE_TEXT = {mode: mode.value for mode in LeaseMode}


def _clouds(jobs: Sequence[Job]) -> list[str]:
    return list(map(_cloud_of, jobs))


def _modes(jobs: Sequence[Job]) -> list[str]:
    return list(map(_MODE_TEXT.__getitem__, map(_mode_of, jobs)))


def _starts(jobs: Sequence[Job]) -> list[str]:
    return ["" if start is None else repr(float(start)) for start in map(_start_of, jobs)]


def _dags(jobs: Sequence[Job]) -> list[str]:
    return ["" if dag is None else str(dag) for dag in map(_dag_of, jobs)]


def _tasks(jobs: Sequence[Job]) -> list[str]:
    return ["" if task is None else str(task) for task in map(_task_of, jobs)]


#: the text columns of a chunk of jobs (a lease's or a task's description), each made in one
#: call a chunk: C loops but for the requested start's and the names' text. O(jobs) a column.
TEXT_COLUMNS: tuple[TextColumn, ...] = (
    ("cloud", _clouds), ("mode", _modes), ("requested_start", _starts), ("dag", _dags), ("task", _tasks),
)


class LeaseOutcomes(DatacenterListener):
    """What Haizea's measures need of every finished lease (``(mode, submit, first start,
    requested start, finish, run time)``): kept as small tuples, the jobs themselves let go."""

    def __init__(self) -> None:
        self.rows: list[tuple[LeaseMode, float, float, float | None, float, float]] = []

    def on_finish(self, job: Job) -> None:
        desc = _lease(job)
        self.rows.append((desc.mode, float(job.submit_time),
                          float(job.first_start if job.first_start is not None else NAN), desc.start,
                          float(job.finish_time if job.finish_time is not None else NAN), float(desc.runtime)))


#: the summary keys of the interval records: the VM-seconds of every kind of overhead
OVERHEAD_KEYS = tuple(f"vm_s_{k}" for k in KINDS)


@attrs.define(slots=True, eq=False)
class LeaseMeasures:
    """Haizea's measures of a lease run, as a probe (:class:`cloudsim_py.probes.Probe`): when
    all best-effort work is done and how much it was slowed down; what happened to the ARs;
    the VM-seconds of every overhead. Reads the finished leases' ``outcomes``, the interval
    ``records`` and the schedulers' counters."""

    outcomes: LeaseOutcomes
    records: Sequence[LeaseRecords]
    brokers: Sequence[Broker]

    COLUMNS = ("be_done", "be_makespan", "be_avg_slowdown", "be_avg_wait", "ar_finished", "ar_late",
               "ar_avg_delay", "ar_rejected", "immediate_rejected", "gap_starts", "be_preempted",
               "be_requeued") + OVERHEAD_KEYS

    def columns(self) -> tuple[str, ...]:
        return self.COLUMNS

    def summary(self) -> dict[str, Any]:
        rows = self.outcomes.rows
        be = [r for r in rows if r[0] is LeaseMode.BEST_EFFORT]
        ar = [r for r in rows if r[0] is LeaseMode.AR]
        out: dict[str, Any] = {}
        if be:
            done = max(r[4] for r in be)
            out["be_done"] = done
            out["be_makespan"] = done - min(r[1] for r in be)
            out["be_avg_slowdown"] = math.fsum((r[4] - r[1]) / r[5] for r in be) / len(be)
            out["be_avg_wait"] = math.fsum(r[4] - r[1] - r[5] for r in be) / len(be)
        else:
            out.update(be_done=NAN, be_makespan=NAN, be_avg_slowdown=NAN, be_avg_wait=NAN)
        late = [r[2] - r[3] for r in ar if r[3] is not None]
        out["ar_finished"] = len(ar)
        out["ar_late"] = sum(1 for d in late if d > 0)
        out["ar_avg_delay"] = math.fsum(late) / len(late) if late else NAN
        counters = _counters(self.brokers)
        for key in ("ar_rejected", "immediate_rejected", "gap_starts"):
            out[key] = counters.get(key, 0)
        out["be_preempted"] = counters.get("preemptions", 0)
        out["be_requeued"] = counters.get("requeued", 0)
        out.update(_overheads(self.records))
        return out


def _counters(brokers: Sequence[Broker]) -> dict[str, float]:
    total: dict[str, float] = {}
    for b in brokers:
        for key, value in b.counters().items():
            total[key] = total.get(key, 0) + value
    return total


def _overheads(records: Sequence[LeaseRecords]) -> dict[str, float]:
    total = dict.fromkeys(OVERHEAD_KEYS, 0.0)
    for rec in records:
        for kind, v in rec.totals().items():
            total[f"vm_s_{kind}"] += v
    return total


def _intervals_csv(clouds: Sequence[CloudSpec], records: Sequence[LeaseRecords]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("cloud", "job", "kind", "start", "end", "vms"))
    for cloud, rec in zip(clouds, records):
        for i in sorted(rec.intervals, key=lambda i: (i.start, i.job)):
            w.writerow((cloud.name, i.job, i.kind, repr(i.start), repr(i.end), " ".join(map(str, i.vms))))
    return buf.getvalue()


# -- one cloud running leases --------------------------------------------------------------------

def lease_jobs(leases: Iterable[LeaseRequest], vm_cpus: int = 1, cloud: str = "",
               shutdown: Callable[[int], float] | None = None) -> Iterator[LeaseJob]:
    """The descriptions of ``leases`` on VMs of ``vm_cpus`` CPUs, in the given order.
    ``shutdown(vms)``: the shutdown of a lease of ``vms`` VMs (Haizea's ``shutdown-time`` and
    enactment overhead), which Haizea 1.0 carves out of an AR's interval: the AR's VMs run (and
    are planned for) its duration minus its shutdown, so that the shutdown ends at its end
    (``carved``). An AR whose shutdown is as long as its duration or longer is left whole: it
    has nothing to run, and the scheduler refuses it (``LocalCloud.ar_choice``)."""
    for row, lease in enumerate(leases):
        job = LeaseJob.of(lease, vm_cpus, row, cloud)
        if shutdown is not None and job.mode is LeaseMode.AR:
            cut = shutdown(job.procs)
            if 0 < cut < job.runtime_estimate:
                planned = job.runtime_estimate - cut
                job = attrs.evolve(job, runtime=min(job.runtime, planned), runtime_estimate=planned, carved=cut)
        yield job


def _cloud_broker(policy: str | Broker, params: Mapping[str, Any] | None) -> CloudScheduler:
    broker = policy if isinstance(policy, Broker) else make_broker(policy, dict(params or {}))
    if not isinstance(broker, CloudScheduler):
        raise PolicyError(f"policy {broker.name!r} is not a lease scheduler of a cloud (leases)")
    return broker


@attrs.define(slots=True, eq=False)
class LeaseSystemRun:
    """One cloud running leases, built: ``world``, the cloud's interval records (``records[0]``)
    and its scheduler (``world.broker``). ``run()`` runs it."""

    world: World
    clouds: tuple[CloudSpec, ...]
    records: list[LeaseRecords]
    outcomes: LeaseOutcomes

    def run(self, until: float | None = None) -> float:
        return self.world.run(until)

    def summary(self) -> dict[str, Any]:
        """Haizea's measures (:class:`LeaseMeasures`, a probe)."""
        out: dict[str, Any] = {}
        probe_summary(LeaseMeasures(self.outcomes, self.records, self.world.brokers), "lease measures", out)
        return out

    def stuck(self) -> list[str]:
        return []

    def rows(self) -> Iterable[Sequence[str]]:
        return ()

    def write_files(self, folder: str) -> list[str]:
        write_atomic(os.path.join(folder, "intervals.csv"), _intervals_csv(self.clouds, self.records))
        return ["intervals.csv"]


def _attach_records(dc: Datacenter, broker: CloudScheduler) -> LeaseRecords:
    """Per-lease/per-task interval records of ``dc``, fed by its local mapping's phases too
    (image transfers, suspensions)."""
    records = LeaseRecords(dc)
    dc.subscribe(records)
    broker.local.add_phase_listener(records)
    return records


def build_lease_cloud(leases: Iterable[LeaseRequest], cloud: CloudSpec, *, policy: str | Broker = "leases",
                      params: Mapping[str, Any] | None = None, overheads: Overheads | None = None,
                      seed: int = 0, record: bool = False, check: bool = False,
                      listeners: Iterable[Any] = ()) -> LeaseSystemRun:
    """One cloud running a lease workload (sorted by submit time) under a lease scheduler.

    ``run.world.broker`` is the scheduler; ``run.records[0]`` (a
    :class:`~cloudsim_py.clouds.records.LeaseRecords`) holds every interval of every lease.
    ``record=True`` also keeps the datacenter's action log (``dc.log``); ``check=True`` verifies
    the datacenter's invariants after every timestamp."""
    sim = Simulation(seed)
    dc = Datacenter(sim, cloud.datacenter_spec(check), record=record)
    broker = dc.attach(_cloud_broker(policy, params))
    broker.use_cloud(cloud, overheads)
    costs = overheads if overheads is not None else Overheads()
    log = dc.subscribe(JobLog(text=TEXT_COLUMNS))
    records = _attach_records(dc, broker)
    outcomes = dc.subscribe(LeaseOutcomes())
    for listener in listeners:
        dc.subscribe(listener)
    jobs = lease_jobs(leases, cloud.vm_type.cpus, cloud.name, lambda n: costs.times(cloud, 0.0, 0.0, n).shutdown)
    source = sim.add_source(arrivals(jobs), dc.submit, ARRIVAL)
    return LeaseSystemRun(World(sim, [dc], [broker], [source], log), (cloud,), [records], outcomes)


# -- several clouds running DAG jobs -------------------------------------------------------------

@attrs.define(slots=True, eq=False)
class DagMeasures:
    """The measures of a cloud system running DAG jobs, as a probe
    (:class:`cloudsim_py.probes.Probe`): the jobs' outcomes (the federation's log), the
    messages, rounds and refused transfers, and the VM-seconds of every overhead."""

    federation: Federation
    records: Sequence[LeaseRecords]
    brokers: Sequence[Broker]

    COLUMNS = ("dag_jobs_submitted", "dag_jobs_finished", "dag_jobs_rejected", "avg_job_time", "max_job_time",
               "avg_job_time_ar", "avg_job_time_be", "dag_makespan", "messages", "rounds",
               "transfers_rejected", "be_preempted") + OVERHEAD_KEYS

    def columns(self) -> tuple[str, ...]:
        return self.COLUMNS

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.federation.log.summary())
        counters = _counters(self.brokers)
        out["messages"] = self.federation.messages
        out["rounds"] = counters.get("rounds", 0)
        out["transfers_rejected"] = counters.get("transfers_rejected", 0)
        out["be_preempted"] = counters.get("preemptions", 0)
        out.update(_overheads(self.records))
        return out


@attrs.define(slots=True, eq=False)
class DagSystemRun:
    """A cloud system running DAG jobs, built: ``world`` (a datacenter and a scheduler per
    cloud), the schedulers' shared :class:`~cloudsim_py.brokers.dags.Federation` (its ``log``
    holds each DAG job's outcome) and each cloud's interval records."""

    world: World
    clouds: tuple[CloudSpec, ...]
    records: list[LeaseRecords]
    federation: Federation

    @property
    def log(self) -> DagLog:
        return self.federation.log

    def run(self, until: float | None = None) -> float:
        return self.world.run(until)

    def summary(self) -> dict[str, Any]:
        """The DAG jobs' measures (:class:`DagMeasures`, a probe)."""
        out: dict[str, Any] = {}
        probe_summary(DagMeasures(self.federation, self.records, self.world.brokers), "dag measures", out)
        return out

    def _held(self) -> Iterator[tuple[DagJob, Hashable, int, str]]:
        """Tasks of unfinished DAG jobs that no datacenter holds: ``(job, task, id, state)``."""
        for run in self.federation.active():
            for order in run.orders.values():
                if order.state == DONE or order.cloud >= 0:
                    continue
                yield run.dag, order.task, order.id, STATE_NAMES[order.state]

    def stuck(self) -> list[str]:
        return [f"job {dag.id} task {task!r} ({state})" for dag, task, _, state in self._held()]

    def rows(self) -> Iterable[Sequence[str]]:
        """``jobs.csv`` rows of the tasks that never reached a datacenter: those of refused DAG
        jobs (rejected, with the reason) and those still at their owner (unfinished)."""
        for dag, reason, _ in self.federation.log.refused:
            for task in dag.order:
                yield partial_row({"submit": float(dag.submit_time)}, TEXT,
                                  {"mode": dag.mode.value, "dag": str(dag.id), "task": str(task),
                                   "requested_start": "" if dag.start is None else repr(float(dag.start))},
                                  "rejected", reason)
        for dag, task, tid, state in self._held():
            yield partial_row({"id": tid, "submit": float(dag.submit_time)}, TEXT,
                              {"mode": dag.mode.value, "dag": str(dag.id), "task": str(task)}, "unfinished", state)

    def write_files(self, folder: str) -> list[str]:
        write_atomic(os.path.join(folder, "intervals.csv"), _intervals_csv(self.clouds, self.records))
        write_atomic(os.path.join(folder, "dag_jobs.csv"), _dag_jobs_csv(self.federation))
        return ["intervals.csv", "dag_jobs.csv"]


#: the columns of ``dag_jobs.csv`` (docs/federation.md, "Records")
DAG_JOB_COLUMNS = ("job", "owner", "submit", "start", "finish", "tasks", "ar", "state", "reason")


def _dag_jobs_csv(federation: Federation) -> str:
    """``dag_jobs.csv``: one row per DAG job of the input, as ``jobs.csv`` has one per task. The
    finished ones first, in the order they finished (``finish`` their last task's end), then
    those refused at submission (``rejected``, the reason), then those still at their owner when
    the run stopped (``unfinished``, how many of their tasks finished: only a run with ``until``
    ends so, any other stops as stuck). ``start`` is when a job could start (an AR job's
    requested start, else its submission), as Li et al.'s execution time counts it."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(DAG_JOB_COLUMNS)
    log = federation.log
    for o in log.finished:
        w.writerow((o.id, o.owner, repr(o.submit), repr(o.start), repr(o.finish), o.tasks, o.ar, "finished", ""))

    def start(dag: DagJob) -> float:
        return float(dag.start) if dag.mode is LeaseMode.AR and dag.start is not None else float(dag.submit_time)

    for dag, reason, owner in log.refused:
        w.writerow((dag.id, owner, repr(float(dag.submit_time)), repr(start(dag)), "", dag.tasks,
                    dag.mode is LeaseMode.AR, "rejected", reason))
    for run in federation.active():
        dag = run.dag
        w.writerow((dag.id, run.owner, repr(float(dag.submit_time)), repr(start(dag)), "", dag.tasks,
                    dag.mode is LeaseMode.AR, "unfinished", f"{dag.tasks - run.left} of {dag.tasks} tasks finished"))
    return buf.getvalue()


def build_dag_system(dags: Iterable[DagJob], clouds: Sequence[CloudSpec], *, policy: str = "fdls",
                     params: Mapping[str, Any] | None = None, model: ExecutionModel | None = None,
                     overheads: Overheads | None = None,
                     latency: float | Callable[[Any, Any], float] = 0.0,
                     inter_cloud_mbps: float | None = None, seed: int = 0, record: bool = False,
                     check: bool = False, listeners: Iterable[Any] = ()) -> DagSystemRun:
    """A cloud system: one datacenter per cloud (its hosts the cloud's VMs), each with its own
    scheduler of ``policy`` (``fdls``, ``fdmms``) knowing only its own VMs, talking to the others
    by messages with ``latency`` (seconds, or ``latency(sender, receiver)``); DAG jobs (sorted by
    submit time) are submitted to their ``cloud`` (default 0).

    ``model`` gives task times (default: task runtimes divided by the VM type's speed; a task
    type needs a matrix). ``listeners`` are subscribed to every datacenter."""
    if not clouds:
        raise PolicyError("a cloud system needs at least one cloud")
    names = [c.name for c in clouds]
    if len(set(names)) != len(names):
        raise PolicyError(f"cloud names must be unique, got {names}")
    sim = Simulation(seed, latency=latency)
    fed = Federation(tuple(clouds), model or ExecutionModel(), inter_cloud_mbps,
                     overheads if overheads is not None else Overheads())
    log = JobLog(text=TEXT_COLUMNS)
    dcs: list[Datacenter] = []
    records = []
    listeners = list(listeners)
    for i, cloud in enumerate(clouds):
        dc = Datacenter(sim, cloud.datacenter_spec(check), record=record)
        broker = dc.attach(make_dag_scheduler(policy, params))
        fed.schedulers.append(broker)
        broker.join(fed, i)
        dc.subscribe(log)
        records.append(_attach_records(dc, broker))
        for listener in listeners:
            dc.subscribe(listener)
        dcs.append(dc)
    schedulers = fed.schedulers
    n = len(clouds)
    seen: set[Hashable] = set()

    def submit(dag: DagJob) -> None:
        if dag.id in seen:      # every output names a DAG job by its id
            raise DAGError(f"job id {dag.id!r} is used twice: the DAG jobs' ids must be distinct")
        seen.add(dag.id)
        owner = dag.cloud if dag.cloud is not None else 0
        if owner >= n:
            fed.log.submitted += 1
            fed.log.refuse(dag, f"submitted to cloud {owner}, the system has {n}", owner)
            return
        schedulers[owner].submit_dag(dag)

    source = sim.add_source(arrivals(dags, "DAG jobs", wrap=False), submit, ARRIVAL)
    world = World(sim, dcs, list(schedulers), [source], log)
    return DagSystemRun(world, tuple(clouds), records, fed)


# -- the systems of a scenario -------------------------------------------------------------------

def _fail(where: str, key: str, exc: Exception) -> ScenarioError:
    return ScenarioError(f"{where}: {key}: {exc}")


def _describe_clouds(fed: FederationSpec) -> str:
    clouds = ", ".join(f"{c.name} ({c.vms} x {c.vm_type.name})" for c in fed.clouds)
    return f"{len(fed.clouds)} cloud(s): {clouds}, latency {fed.latency:g} s"


def _clouds_info(fed: FederationSpec) -> dict[str, Any]:
    return {"clouds": [{"name": c.name, "vm_type": c.vm_type.name, "vms": c.vms} for c in fed.clouds]}


@attrs.define(slots=True, frozen=True)
class LeaseCloudSystem:
    """A cloud system of one cloud (``federation``) running ``leases``."""

    kind = "clouds"

    federation: FederationSpec
    leases: LeaseWorkloadSpec

    def format_runs(self, name: str, seed: int, runs: Sequence[tuple[str, RunResult]]) -> str:
        title = f"{name}: leases from {self.leases.source()} on {_describe_clouds(self.federation)}, seed {seed}"
        return cloud_table(title, LEASE_ROWS, [(r.label or p, r.summary) for p, r in runs], probe_keys(runs))

    def prepare(self, name: str, where: str, seed: int) -> "PreparedLeases":
        """The leases (files read now); a lease bigger than the cloud is an error naming the lease,
        its file and line."""
        spec = self.leases
        try:
            w = spec.make()
        except CloudSimError as exc:
            raise _fail(where, "leases", exc) from None
        cloud = self.federation.clouds[0]
        per = cloud.vm_type.vms_for
        for lease, line in zip(w.leases, w.lines):
            vms = lease.nodes * per(lease.cpus_per_node)
            if vms > cloud.vms:
                src = spec.injected if spec.injected is not None and lease.mode is LeaseMode.AR else spec.source()
                at = f"{src}:{line}" if line >= 0 else src
                raise ScenarioError(f"{where}: leases: {at}: lease {lease.id} asks {vms} VMs, more than "
                                    f"cloud {cloud.name!r} has ({cloud.vms})")
        return PreparedLeases(self, w)


LEASE_ROWS = (("leases finished", "jobs_finished"), ("leases rejected", "jobs_rejected"),
              ("all best-effort work done at (s)", "be_done"), ("best-effort avg slowdown", "be_avg_slowdown"),
              ("best-effort avg wait (s)", "be_avg_wait"), ("ARs finished", "ar_finished"),
              ("ARs refused", "ar_rejected"), ("ARs late", "ar_late"), ("AR avg delay (s)", "ar_avg_delay"),
              ("best-effort leases preempted", "be_preempted"), ("  of them cancelled and requeued", "be_requeued"),
              ("suspensions", "preemptions"),
              ("migrations", "migrations"), ("wall seconds", "wall_seconds"))
DAG_ROWS = (("DAG jobs finished", "dag_jobs_finished"), ("DAG jobs refused", "dag_jobs_rejected"),
            ("avg job execution time (s)", "avg_job_time"), ("  AR jobs (s)", "avg_job_time_ar"),
            ("  best-effort jobs (s)", "avg_job_time_be"), ("max job execution time (s)", "max_job_time"),
            ("tasks finished", "jobs_finished"), ("best-effort tasks preempted", "be_preempted"),
            ("messages", "messages"), ("transfers rejected", "transfers_rejected"),
            ("wall seconds", "wall_seconds"))


@attrs.define(slots=True, eq=False)
class PreparedLeases:
    """A lease cloud with its leases read: builds one world per broker."""

    system: LeaseCloudSystem
    workload: LeaseWorkload
    text: tuple[str, ...] = TEXT
    table: None = None
    report: None = None

    def start(self, broker: BrokerSpec, seed: int, listeners: Sequence[Any] = ()) -> LeaseSystemRun:
        fed = self.system.federation
        return build_lease_cloud(self.workload.leases, fed.clouds[0], policy=broker.make(),
                                 overheads=fed.overheads, seed=seed, check=fed.check, listeners=listeners)

    def report_lines(self) -> list[str]:
        return self.workload.report.lines()

    def load_report(self) -> dict | None:
        r = self.workload.report
        return {"source": r.source, "records": r.records, "kept": r.kept, "skipped": dict(r.skipped),
                "adjusted": dict(r.adjusted)}

    def skipped_rows(self) -> Iterable[Sequence[str]]:
        """A row for each lease request the loader skipped: its id in its file, what is known of
        it, and where it was in the reason."""
        cloud = self.system.federation.clouds[0].name
        for d in self.workload.report.dropped:
            values: dict[str, Any] = {k: v for k, v in (("id", d.id), ("submit", d.submit), ("procs", d.nodes),
                                                         ("estimate", d.duration)) if v is not None}
            words = {"cloud": cloud, "mode": d.mode.value if d.mode is not None else "",
                     "requested_start": repr(float(d.start)) if d.start is not None else ""}
            yield partial_row(values, TEXT, words, "skipped", f"{d.reason} ({d.where})")

    def info(self) -> dict[str, Any]:
        return _clouds_info(self.system.federation)

    def describe(self) -> str:
        return (f"{len(self.workload.leases):,} leases from {self.system.leases.source()} on "
                f"{_describe_clouds(self.system.federation)}")

    def inputs(self) -> dict[str, str]:
        spec = self.system.leases
        return {k: v for k, v in (("lwf", spec.lwf), ("swf", spec.swf), ("injected", spec.injected))
                if v is not None}

    def options(self) -> dict[str, Any]:
        return {"federation": federation_options(self.system.federation),
                "leases": lease_options(self.system.leases)}



@attrs.define(slots=True, frozen=True)
class DagCloudSystem:
    """A cloud system of several clouds (``federation``) running DAG jobs (``dags``)."""

    kind = "clouds"

    federation: FederationSpec
    dags: DagWorkloadSpec

    def format_runs(self, name: str, seed: int, runs: Sequence[tuple[str, RunResult]]) -> str:
        title = f"{name}: DAG jobs on {_describe_clouds(self.federation)}, seed {seed}"
        return cloud_table(title, DAG_ROWS, [(r.label or p, r.summary) for p, r in runs], probe_keys(runs))

    def prepare(self, name: str, where: str, seed: int) -> "PreparedDags":
        fed = self.federation
        try:
            dags = self.dags.make(seed, len(fed.clouds))
            model = fed.execution_model(seed)
        except CloudSimError as exc:
            raise _fail(where, "dags", exc) from None
        return PreparedDags(self, dags, model)


@attrs.define(slots=True, eq=False)
class PreparedDags:
    """A cloud system with its DAG jobs read or generated and its execution model drawn."""

    system: DagCloudSystem
    dags: list[DagJob]
    model: ExecutionModel
    text: tuple[str, ...] = TEXT
    table: None = None
    report: None = None

    def start(self, broker: BrokerSpec, seed: int, listeners: Sequence[Any] = ()) -> DagSystemRun:
        fed = self.system.federation
        return build_dag_system(self.dags, fed.clouds, policy=broker.policy, params=broker.params,
                                model=self.model, overheads=fed.overheads, latency=fed.latency,
                                inter_cloud_mbps=fed.inter_cloud_mbps, seed=seed, check=fed.check,
                                listeners=listeners)

    def report_lines(self) -> list[str]:
        tasks = sum(d.tasks for d in self.dags)
        return [f"{len(self.dags):,} DAG jobs read ({tasks:,} tasks)"]

    def load_report(self) -> dict | None:
        tasks = sum(d.tasks for d in self.dags)
        return {"dag_jobs": len(self.dags), "tasks": tasks}

    def skipped_rows(self) -> Iterable[Sequence[str]]:
        return ()

    def info(self) -> dict[str, Any]:
        return _clouds_info(self.system.federation)

    def describe(self) -> str:
        d = self.system.dags
        what = (f"{len(self.dags):,} generated DAG jobs" if d.model is not None else
                f"{len(self.dags):,} workflow(s)" if d.workflows is not None else f"{len(self.dags):,} DAG job(s)")
        return f"{what} on {_describe_clouds(self.system.federation)}"

    def inputs(self) -> dict[str, str]:
        wf = self.system.dags.workflows or ()
        return {f"workflow {i}": w["path"] for i, w in enumerate(wf)}

    def options(self) -> dict[str, Any]:
        return {"federation": federation_options(self.system.federation), "dags": dag_options(self.system.dags)}



# -- options as plain data (the rerun record) ----------------------------------------------------

def federation_options(fed: FederationSpec) -> dict[str, Any]:
    """The ``federation`` section, resolved, as data a scenario accepts again."""
    vm_types = {name: {"cpus": v.cpus, "memory_mb": v.memory_mb, "disk_mb": v.disk_mb,
                       "bandwidth_mbps": v.bandwidth_mbps, "speed": v.speed} for name, v in fed.vm_types.items()}
    out: dict[str, Any] = {
        "vm_types": vm_types,
        "clouds": [{"name": c.name, "vm_type": c.vm_type.name, "vms": c.vms, "copy_mbps": c.copy_mbps}
                   for c in fed.clouds],
        "latency": fed.latency, "inter_cloud_mbps": fed.inter_cloud_mbps, "check": fed.check,
        "overheads": attrs.asdict(fed.overheads),
    }
    if fed.matrix is not None:
        m = fed.matrix
        out["matrix"] = ({"times": {t: dict(row) for t, row in m.times.items()}} if m.times is not None
                         else {"random": {k: list(v) if isinstance(v, tuple) else v for k, v in m.random.items()}}
                         if m.random is not None else None)
    return out


def lease_options(spec: LeaseWorkloadSpec) -> dict[str, Any]:
    out: dict[str, Any] = {k: getattr(spec, k) for k in ("lwf", "swf", "injected") if getattr(spec, k) is not None}
    if spec.requests is not None:
        out["requests"] = [_request(r) for r in spec.requests]
    out.update(strict=spec.strict, cpus_per_node=spec.cpus_per_node, memory_mb=spec.memory_mb,
               image_mb=spec.image_mb)
    if spec.injected_image_mb is not None:
        out["injected_image_mb"] = spec.injected_image_mb
    if spec.limit is not None:
        out["limit"] = spec.limit
    return out


def _request(r: LeaseRequest) -> dict[str, Any]:
    out = {"id": r.id, "submit": r.submit_time, "mode": r.mode.value, "duration": r.duration, "nodes": r.nodes,
           "cpus_per_node": r.cpus_per_node, "memory_mb": r.memory_mb, "image_mb": r.image_mb,
           "disk_mb": r.disk_mb, "preemptible": r.preemptible}
    if r.start is not None:
        out["start"] = r.start
    if r.real_duration is not None:
        out["real_duration"] = r.real_duration
    return out


def dag_options(spec: DagWorkloadSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if spec.model is not None:
        out["model"] = {k: list(v) if isinstance(v, tuple) else v for k, v in spec.model.items()}
    elif spec.workflows is not None:
        out["workflows"] = [dict(w) for w in spec.workflows]
    else:
        assert spec.jobs is not None
        out["jobs"] = [_dag_job(j) for j in spec.jobs]
    if spec.limit is not None:
        out["limit"] = spec.limit
    return out


def _dag_job(job: DagJob) -> dict[str, Any]:
    g = job.graph
    out: dict[str, Any] = {"id": job.id, "submit": job.submit_time, "mode": job.mode.value,
                           "tasks": {t: dict(g.nodes[t]) for t in job.order},
                           "edges": [[u, v, d["data_mb"]] if "data_mb" in d else [u, v] for u, v, d in g.edges(data=True)]}
    if job.cloud is not None:
        out["cloud"] = job.cloud
    if job.start is not None:
        out["start"] = job.start
    return out
