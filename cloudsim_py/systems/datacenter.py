"""A datacenter system: one datacenter of k-tier hosts running a workload of rigid or moldable
jobs (an SWF trace, a workload model or inline jobs) under a broker. How it becomes a world, what
it reads once for every broker (the cleaned workload table), and what it adds to the outputs
(``schedule.swf`` on request; the jobs the cleaning skipped as rows of ``jobs.csv``). Imports
the layers below (runner, brokers, infrastructure, workload); nothing of scenarios or the CLI.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

import attrs
import numpy as np

from ..brokers.spec import BrokerSpec
from ..engine import RandomStreams, Simulation
from ..errors import OutputError, ScenarioError, TraceError
from ..infrastructure.spec import MAX_SLICES, DatacenterSpec, hosts_over_limit
from ..metrics import JobRecords, format_summary
from ..outputs import skipped_rows
from ..runner import RunResult, World, WorldRun, build
from ..workload.description import RigidJob
from ..workload.jobs import descriptions_from_table
from ..workload.spec import WorkloadSpec
from ..workload.swf import write_swf
from ..workload.table import COL, CleaningReport, WorkloadTable, prepare, read_table
from ..workload.work import processor_seconds
from .report import comparison_table, probe_keys

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.moldable import MoldableSpec


@attrs.define(slots=True, frozen=True)
class DatacenterSystem:
    """``datacenter`` (hosts, tiers, interference), ``workload`` (trace, model or jobs; CPU and
    runtime estimates) and, for moldable jobs, ``moldable`` (efficiency, reshaping F_A, VM
    resizing F_VM). ``swf``: also write the simulated schedule as ``schedule.swf``."""

    kind = "datacenter"

    workload: WorkloadSpec
    datacenter: DatacenterSpec = DatacenterSpec()
    moldable: MoldableSpec | None = None
    swf: bool = False

    def format_runs(self, name: str, seed: int, runs: Sequence[tuple[str, RunResult]]) -> str:
        """The runs' summaries as a plain-text table (one run: every measure)."""
        hosts = len(runs[0][1].datacenter.hosts)
        if len(runs) == 1:
            policy, result = runs[0]
            return format_summary(result.summary, f"{name}: policy {result.label or policy}, {hosts} hosts, "
                                                  f"{self.datacenter.tiers} tier(s), seed {seed}",
                                  extra=probe_keys(runs))
        return comparison_table(name, hosts, [(r.label or p, r.summary) for p, r in runs], probe_keys(runs))

    def prepare(self, name: str, where: str, seed: int) -> "PreparedDatacenter":
        """Read (or generate) and clean the workload once, for every broker of scenario ``name``;
        errors name ``where`` (the scenario file)."""
        table, hosts = prepared_table(self, where, seed)
        return PreparedDatacenter(self, table, hosts, skipped_records(table, cut=_limit_cut(table)), name)


def workload_table(system: DatacenterSystem, where: str, seed: int) -> tuple[WorkloadTable, int]:
    """The raw workload table and the machine size to simulate."""
    w = system.workload
    dc = system.datacenter
    hosts = dc.host_count if dc.hosts is not None or dc.groups else None
    if w.trace is not None:
        path = w.trace
        table = read_table(path)
        if hosts is None:
            hosts = table.header.machine_size
            if hosts is None or hosts < 1:
                raise ScenarioError(f"{where}: datacenter.hosts: not given and the trace "
                                    f"{path} has no MaxProcs/MaxNodes header")
            _check_header_hosts(table, hosts, dc.tiers, where)
    elif w.model is not None:
        from ..workload import models

        rng = RandomStreams(seed)["workload"]
        if hosts is None and isinstance(w.model.get("procs"), int):
            why = hosts_over_limit(w.model["procs"], dc.tiers)
            if why is not None:
                raise ScenarioError(f"{where}: workload.model.procs: the machine size without "
                                    f"datacenter.hosts: {why}")
        table = models.generate_from_spec(w.model, rng, where="workload.model")
        if hosts is None:
            hosts = table.header.machine_size
    else:
        rows = w.jobs or ()
        table = WorkloadTable.from_columns({
            "job": np.array([j["id"] for j in rows], dtype=float),
            "submit": np.array([j["submit"] for j in rows]),
            "run": np.array([j["runtime"] for j in rows]),
            "alloc_procs": np.array([j["procs"] for j in rows], dtype=float),
            "req_procs": np.array([j["procs"] for j in rows], dtype=float),
            "req_time": np.array([j.get("estimate", -1.0) for j in rows]),
        }, source=f"{where} (inline jobs)")
        if hosts is None:
            raise ScenarioError(f"{where}: datacenter.hosts: required with inline jobs")
    assert hosts is not None
    return table, hosts


def _check_header_hosts(table: WorkloadTable, hosts: int, tiers: int, where: str) -> None:
    """A machine size from a trace header that would not fit in memory is an error naming the
    header line, before any host is built (``; MaxProcs: 10000000`` without ``datacenter.hosts``)."""
    why = hosts_over_limit(hosts, tiers)
    if why is None:
        return
    header = table.header
    key = "MaxProcs" if header.max_procs else "MaxNodes"
    line = f"{header.source}:{header.lines[key]}" if key in header.lines else header.source
    raise ScenarioError(f"{where}: datacenter.hosts: not given, and the trace header's {key} "
                        f"({line}) is {hosts:,}: {why}; give datacenter.hosts")


def prepared_table(system: DatacenterSystem, where: str, seed: int) -> tuple[WorkloadTable, int]:
    """The cleaned table (estimates set, ``limit`` applied) and the machine size."""
    raw, hosts = workload_table(system, where, seed)
    w = system.workload
    try:
        table = prepare(raw, hosts, w.runtime_estimate, w.strict,
                        rng=RandomStreams(seed)["runtime_estimate"], too_big="keep")
    except TraceError as exc:
        raise ScenarioError(f"{where}: workload: {exc}") from None
    if w.limit is not None and w.limit < len(table):
        n = w.limit
        report = table.report
        if report is not None:
            report.skipped[f"beyond workload.limit ({n})"] = len(table) - n
            report.kept = n
        assert table.procs is not None and table.runtime is not None and table.estimate is not None
        table = attrs.evolve(table, data=table.data[:n],
                             line=table.line[:n] if table.line is not None else None,
                             procs=table.procs[:n], runtime=table.runtime[:n],
                             estimate=table.estimate[:n])
    _check_slices(system, table, hosts, where)
    return table, hosts


def _check_slices(system: DatacenterSystem, table: WorkloadTable, hosts: int, where: str) -> None:
    """``fidelity: slice`` (or ``interference.eff_draw: slice``) with a ``slice_s`` that would
    cut the run into more than ``MAX_SLICES`` slices is an error before anything runs
    (``slice_s: 1.0e-6`` once ran for ever). Slices tick only while a job runs, so the count is
    a lower bound: the time the jobs run at least (the longest job, or all the work on every
    slot of the fastest host) over ``slice_s``. Moldable runs are reshaped later and left to the
    run's own bound."""
    dc = system.datacenter
    slicing = dc.fidelity == "slice" or dc.interference_model().eff_draw == "slice"
    if not slicing or dc.tiers < 2 or system.moldable is not None or not len(table):
        return
    assert table.procs is not None and table.runtime is not None
    fits = table.procs <= hosts
    run, procs = table.runtime[fits], table.procs[fits]
    if not run.size:
        return
    fastest = max(g.speed for g in dc.host_groups()) if dc.groups else dc.speed
    busy = max(float(run.max()), processor_seconds(procs, run) / (hosts * dc.tiers)) / fastest
    slices = busy / dc.slice_s
    if slices > MAX_SLICES:
        raise ScenarioError(f"{where}: datacenter.slice_s: {dc.slice_s:g} s cuts the run (its jobs run at "
                            f"least {busy:,.0f} s) into at least {slices:,.0f} slices, more than {MAX_SLICES:,} "
                            f"(MAX_SLICES); give slice_s >= {busy / MAX_SLICES:.3g}")


def _limit_cut(table: WorkloadTable) -> bool:
    """Whether ``workload.limit`` cut the cleaned table short (its report counts the rest)."""
    report = table.report
    return report is not None and any(r.startswith("beyond workload.limit") for r in report.skipped)


def skipped_records(table: WorkloadTable, cut: bool = False) -> list[tuple[str, np.ndarray]]:
    """The records the cleaning skipped, by reason (for ``jobs.csv``): all of them; when
    ``workload.limit`` cut the table short (``cut``), only those submitted before the last job
    kept (the workload ends there)."""
    report = table.report
    if report is None or not report.dropped:
        return []
    if not cut or len(table) == 0:
        return list(report.dropped)
    last = float(table.data[-1, COL["submit"]])
    out = []
    for reason, rows in report.dropped:
        rows = rows[rows[:, COL["submit"]] <= last] if rows.shape[0] else rows
        if rows.shape[0]:
            out.append((reason, rows))
    return out


def _descriptions(system: DatacenterSystem, table: WorkloadTable, sim: Simulation,
                  cpu: dict[Any, Any] | None) -> Iterator[RigidJob]:
    w = system.workload
    descs = descriptions_from_table(table, w.cpu_usage, w.cpu_estimate,
                                    sim.random["cpu_usage"], sim.random["cpu_estimate"])
    if not cpu:
        return descs
    exact = w.cpu_estimate.kind == "exact"

    def patched() -> Iterator[RigidJob]:
        for d in descs:
            if d.id in cpu:
                d = d._replace(cpu_usage=cpu[d.id], cpu_estimate=cpu[d.id] if exact else d.cpu_estimate)
            yield d

    return patched()


@attrs.define(slots=True, eq=False)
class PreparedDatacenter:
    """A datacenter system with its workload read and cleaned: builds one world per broker."""

    system: DatacenterSystem
    table: WorkloadTable
    hosts: int                                       #: the machine size before VM resizing
    skipped: list[tuple[str, np.ndarray]]
    name: str = "scenario"
    #: no text columns in jobs.csv
    text: tuple[str, ...] = ()

    def world(self, broker: BrokerSpec, seed: int, listeners: Sequence[Any] = ()) -> World:
        """The world under one broker, built but not run. With ``moldable`` the jobs are moldable
        (reshaped by F_A) and the machine is resized by F_VM."""
        system = self.system
        dc = system.datacenter
        moldable = system.moldable
        hosts = self.hosts
        machine = moldable.machine(hosts) if moldable is not None else hosts
        if dc.hosts != machine and not dc.groups:
            dc = attrs.evolve(dc, hosts=machine)
        jobs = system.workload.jobs
        cpu = {j["id"]: j["cpu"] for j in jobs if "cpu" in j} if jobs else None
        table = self.table
        if moldable is not None:
            return build(lambda sim: moldable.mold(_descriptions(system, table, sim, cpu), hosts),
                         datacenter=dc, broker=broker, seed=seed, listeners=listeners)
        return build(lambda sim: _descriptions(system, table, sim, cpu), datacenter=dc, broker=broker,
                     seed=seed, listeners=listeners)

    def start(self, broker: BrokerSpec, seed: int, listeners: Sequence[Any] = ()) -> "DatacenterRun":
        return DatacenterRun(self.world(broker, seed, listeners), self, broker, seed)

    # -- what the outputs say about it ------------------------------------------------------------
    @property
    def report(self) -> CleaningReport | None:
        return self.table.report

    def report_lines(self) -> list[str]:
        return self.table.report.lines() if self.table.report is not None else []

    def load_report(self) -> dict | None:
        return self.table.report.as_dict() if self.table.report is not None else None

    def skipped_rows(self) -> Iterable[Sequence[str]]:
        return skipped_rows(self.skipped)

    def info(self) -> dict[str, Any]:
        return {"hosts": self.hosts, "tiers": self.system.datacenter.tiers}

    @property
    def job_count(self) -> int:
        """Jobs each run submits (a progress line's total)."""
        return len(self.table)

    def describe(self) -> str:
        return (f"{len(self.table):,} jobs on {self.hosts} hosts x {self.system.datacenter.tiers} tier(s)")

    def inputs(self) -> dict[str, str]:
        """Input files of the run (for the rerun record)."""
        trace = self.system.workload.trace
        return {"trace": trace} if trace is not None else {}

    def options(self) -> dict[str, Any]:
        """The system's options, resolved, as the top-level keys of a scenario mapping."""
        return datacenter_options(self.system, self.hosts)



@attrs.define(slots=True, eq=False)
class DatacenterRun(WorldRun):
    """The world of one broker; writes ``schedule.swf`` when the system asks for it."""

    prepared: PreparedDatacenter | None = None
    broker: BrokerSpec | None = None
    seed: int = 0

    def write_files(self, folder: str) -> list[str]:
        prepared = self.prepared
        if prepared is None or not prepared.system.swf:
            return []
        assert self.broker is not None
        write_schedule_swf(os.path.join(folder, "schedule.swf"), self.world, prepared, self.broker, self.seed)
        return ["schedule.swf"]


def datacenter_options(system: DatacenterSystem, hosts: int | None = None) -> dict[str, Any]:
    """Every option of the system, resolved (defaults filled in, the interference model in force,
    the machine size the run used), as plain data a scenario accepts again."""
    dc = attrs.asdict(system.datacenter, recurse=True)
    model = attrs.asdict(system.datacenter.interference_model())
    name = model.pop("name")
    from ..execution.interference import presets

    dc["interference"] = {"preset": name if name in presets.names() else "liu2015", **model}
    dc["threshold"] = None
    if hosts is not None and not dc["groups"]:
        dc["hosts"] = hosts
    dc["groups"] = list(dc["groups"])
    w = system.workload
    usage = w.cpu_usage
    estimate: Any = w.cpu_estimate.kind if w.cpu_estimate.kind != "error" else {"error": w.cpu_estimate.error}
    workload = {
        "trace": w.trace, "model": dict(w.model) if w.model is not None else None,
        "jobs": [dict(j) for j in w.jobs] if w.jobs is not None else None,
        "strict": w.strict, "runtime_estimate": w.runtime_estimate,
        "cpu_usage": {"model": usage.kind, "low": usage.low, "high": usage.high, "single": usage.single},
        "cpu_estimate": estimate, "limit": w.limit,
    }
    workload = {k: v for k, v in workload.items() if v is not None or k in ("limit",)}
    if system.moldable is not None:
        from ..workload.efficiency import efficiency_options

        m = system.moldable
        workload["moldable"] = {"efficiency": efficiency_options(m.efficiency), "factor": m.factor,
                                "vm_factor": m.vm_factor}
    return {"datacenter": dc, "workload": workload}


def write_schedule_swf(path: str, world: World, prepared: PreparedDatacenter, broker: BrokerSpec,
                       seed: int) -> None:
    """The simulated schedule as SWF: wait = finish - submit - runtime (Liu 2015's wait), run =
    runtime on dedicated processors; other fields copied from the source trace."""
    rec: JobRecords = world.log.records()
    table = prepared.table
    hosts = prepared.hosts
    header = {"Version": "2.2", "Computer": f"cloudsim_py simulation ({hosts} processors, "
              f"{prepared.system.datacenter.tiers} tiers)", "Note": f"scenario {prepared.name}, policy {broker.policy}, seed {seed}",
              "MaxProcs": hosts, "MaxNodes": hosts}
    if table.header.unix_start_time is not None:
        header["UnixStartTime"] = table.header.unix_start_time
    source_rows = rec.source_rows.tolist() if rec.source_rows is not None else [-1] * len(rec)

    def records() -> Iterator[Any]:
        c = rec.columns
        for i in range(len(rec)):
            jid = int(c["id"][i])
            row = source_rows[i]
            base = table.data[row].copy() if row >= 0 else np.full(18, -1.0)
            base[COL["job"]] = jid
            base[COL["submit"]] = c["submit"][i]
            base[COL["wait"]] = c["wait"][i]
            base[COL["run"]] = c["runtime"][i]
            base[COL["alloc_procs"]] = c["procs"][i]
            base[COL["req_procs"]] = c["procs"][i]
            base[COL["req_time"]] = c["estimate"][i]
            base[COL["status"]] = 1
            yield base

    tmp = os.path.join(os.path.dirname(path), f".tmp-{os.getpid()}-{os.path.basename(path)}")
    try:
        write_swf(tmp, records(), header)
        os.replace(tmp, path)
    except OSError as exc:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
