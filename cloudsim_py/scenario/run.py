"""Run a validated scenario: build its workload table, run it under each broker, write
``jobs.csv`` (streamed), optionally the schedule as SWF, and ``summary.json`` last."""

from __future__ import annotations

import hashlib
import math
import os
import time
from typing import Any, Iterator, Sequence

import attrs
import numpy as np

from ..engine import RandomStreams, Simulation
from ..errors import OutputError, ScenarioError, StuckJobsError, TraceError
from ..metrics import JobRecords
from ..outputs import JobsCsv, check_output_folder, write_json
from ..runner import RunResult, World, build, check_finished, results
from ..workload.description import RigidJob
from ..workload.jobs import descriptions_from_table
from ..workload.swf import write_swf
from ..workload.table import COL, WorkloadTable, prepare, read_table
from .schema import BrokerSpec, Scenario, slug


def workload_table(scenario: Scenario) -> tuple[WorkloadTable, int]:
    """The scenario's raw workload table and the machine size to simulate."""
    w = scenario.workload
    if w is None:
        raise ScenarioError(f"{scenario.source}: workload: none (a cloud system runs its dags or leases)")
    dc = scenario.datacenter
    hosts = dc.host_count if dc.hosts is not None or dc.groups else None
    if w.trace is not None:
        path = w.trace
        table = read_table(path)
        if hosts is None:
            hosts = table.header.machine_size
            if hosts is None or hosts < 1:
                raise ScenarioError(f"{scenario.source}: datacenter.hosts: not given and the trace "
                                    f"{path} has no MaxProcs/MaxNodes header")
    elif w.model is not None:
        from ..workload import models

        rng = RandomStreams(scenario.seed)["workload"]
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
        }, source=f"{scenario.source} (inline jobs)")
        if hosts is None:
            raise ScenarioError(f"{scenario.source}: datacenter.hosts: required with inline jobs")
    assert hosts is not None
    return table, hosts


def prepared_table(scenario: Scenario) -> tuple[WorkloadTable, int]:
    """The cleaned table (estimates set, ``limit`` applied) and the machine size."""
    raw, hosts = workload_table(scenario)
    w = scenario.workload
    assert w is not None
    try:
        table = prepare(raw, hosts, w.runtime_estimate, w.strict,
                        rng=RandomStreams(scenario.seed)["runtime_estimate"], too_big="keep")
    except TraceError as exc:
        raise ScenarioError(f"{scenario.source}: workload: {exc}") from None
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
    return table, hosts


def _descriptions(scenario: Scenario, table: WorkloadTable, sim: Simulation) -> Iterator[RigidJob]:
    w = scenario.workload
    assert w is not None
    descs = descriptions_from_table(table, w.cpu_usage, w.cpu_estimate,
                                    sim.random["cpu_usage"], sim.random["cpu_estimate"])
    if not w.jobs or not any("cpu" in j for j in w.jobs):
        return descs
    cpu = {j["id"]: j["cpu"] for j in w.jobs if "cpu" in j}
    exact = w.cpu_estimate.kind == "exact"

    def patched() -> Iterator[RigidJob]:
        for d in descs:
            if d.id in cpu:
                d = d._replace(cpu_usage=cpu[d.id], cpu_estimate=cpu[d.id] if exact else d.cpu_estimate)
            yield d

    return patched()


def build_world(scenario: Scenario, broker: BrokerSpec, table: WorkloadTable, hosts: int,
                listeners: Sequence[Any] = ()) -> World:
    """The scenario's world under one broker, built but not run. With ``workload.moldable``
    the jobs are moldable (reshaped by F_A) and the machine is resized by F_VM."""
    dc = scenario.datacenter
    moldable = scenario.moldable
    machine = moldable.machine(hosts) if moldable is not None else hosts
    if dc.hosts != machine and not dc.groups:
        dc = attrs.evolve(dc, hosts=machine)
    if moldable is not None:
        return build(lambda sim: moldable.mold(_descriptions(scenario, table, sim), hosts),
                     datacenter=dc, broker=broker, seed=scenario.seed, listeners=listeners)
    return build(lambda sim: _descriptions(scenario, table, sim), datacenter=dc, broker=broker,
                 seed=scenario.seed, listeners=listeners)


def run_one(scenario: Scenario, broker: BrokerSpec, table: WorkloadTable, hosts: int,
            listeners: Sequence[Any] = (), jobs_csv: JobsCsv | None = None) -> RunResult:
    """Run the scenario's workload under one broker (``jobs_csv``: stream the finished jobs
    there). A run that ends with jobs neither finished nor rejected raises
    :class:`~cloudsim_py.errors.StuckJobsError` (with the result)."""
    t0 = time.perf_counter()
    classes = None
    if scenario.classes is not None:
        from ..class_metrics import ClassRecorder

        classes = ClassRecorder()    # what per-class metrics need of every finished job
        listeners = (*listeners, classes)
    world = build_world(scenario, broker, table, hosts, listeners)
    if jobs_csv is not None:
        world.log.sinks.append(jobs_csv)
    world.run()
    summary, records = results(world, tau=scenario.metrics.tau, warmup=scenario.metrics.warmup,
                               wall_seconds=time.perf_counter() - t0)
    if classes is not None:
        from ..class_metrics import class_summary

        summary.update(class_summary(classes.columns(), scenario.classes, tau=scenario.metrics.tau,
                                     warmup=scenario.metrics.warmup))
    result = RunResult(summary, records, world, report=table.report, table=table, label=broker.name)
    check_finished(result, broker.name)
    return result


def skipped_records(table: WorkloadTable) -> list[tuple[str, np.ndarray]]:
    """The records the cleaning skipped, by reason (for ``jobs.csv``); with ``workload.limit``
    only those submitted before the last job kept."""
    report = table.report
    if report is None or not report.dropped:
        return []
    if len(table) == 0:
        return list(report.dropped)
    last = float(table.data[-1, COL["submit"]])
    out = []
    for reason, rows in report.dropped:
        rows = rows[rows[:, COL["submit"]] <= last] if rows.shape[0] else rows
        if rows.shape[0]:
            out.append((reason, rows))
    return out


def run_scenario(scenario: Scenario, out_dir: str | None = None,
                 listeners: Sequence[Any] = (), *, force: bool = False) -> list[tuple[str, RunResult]]:
    """Run every broker of the scenario on the same workload; write outputs if a folder is set
    (``out_dir`` overrides ``output.dir``). ``listeners`` are subscribed to each run's
    datacenter (a progress bar, a probe); one with a ``reset()`` is reset between runs.
    Returns ``[(policy, result), ...]`` in the scenario's order; ``result.label`` is the
    broker's label, which names its results (unique within a scenario).

    The output folder is checked before anything runs: it must be empty (``force=True``
    replaces a previous run's files) and writable. With several brokers each gets a
    sub-folder named by its label. Every file is written under a temporary name and renamed;
    ``jobs.csv`` is streamed during the run; ``summary.json``, written last, records what is
    needed to rerun (:func:`rerun_record`). A stuck run writes its ``jobs.csv`` (with the
    unfinished jobs) but no ``summary.json``, and raises.
    A cloud system (``federation``) runs in
    :func:`cloudsim_py.federation.run.run_cloud_scenario`, under the same output folder rules."""
    if scenario.federation is not None:
        from ..federation.run import run_cloud_scenario

        folder = out_dir if out_dir is not None else scenario.output.dir
        if folder is not None:
            check_output_folder(folder, force)
        return run_cloud_scenario(scenario, out_dir, listeners)
    t0 = time.perf_counter()
    out = out_dir if out_dir is not None else scenario.output.dir
    if out is not None:
        check_output_folder(out, force)
    table, hosts = prepared_table(scenario)
    skipped = skipped_records(table)
    rerun = rerun_record(scenario, hosts) if out is not None else None
    labels = scenario.labels
    several = len(scenario.brokers) > 1
    runs = []
    files: list[str] = []
    for spec, label in zip(scenario.brokers, labels):
        folder = None
        writer = None
        if out is not None:
            folder = os.path.join(out, slug(label)) if several else out
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"output folder {folder}: cannot create it ({exc.strerror or exc})") from None
            writer = JobsCsv(os.path.join(folder, "jobs.csv"), scenario.metrics.tau)
        try:
            result = run_one(scenario, spec, table, hosts, listeners, writer)
        except StuckJobsError as exc:
            if writer is not None and isinstance(exc.result, RunResult):
                writer.close(exc.result.world.log, skipped)
            raise
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        for listener in listeners:
            reset = getattr(listener, "reset", None)
            if reset is not None:
                reset()
        runs.append((spec.policy, result))
        if folder is not None and writer is not None:
            written = write_outputs(folder, scenario, spec, result, hosts, writer, skipped, rerun)
            prefix = slug(label) + "/" if several else ""
            files += [prefix + f for f in written]
    if out is not None and several:
        write_json(os.path.join(out, "summary.json"), {
            "scenario": scenario.name, "seed": scenario.seed, "hosts": hosts,
            "runs": {label: _jsonable(r.summary) for label, (_, r) in zip(labels, runs)},
            "folders": {label: slug(label) for label in labels},
            "wall_seconds": time.perf_counter() - t0, "rerun": rerun, "files": files})
    return runs


def _jsonable(summary: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in summary.items()}


def write_outputs(folder: str, scenario: Scenario, broker: BrokerSpec, result: RunResult,
                  hosts: int, jobs_csv: JobsCsv | None = None,
                  skipped: Sequence[tuple[str, np.ndarray]] = (), rerun: dict | None = None) -> list[str]:
    """``jobs.csv`` (closing the streamed one, or writing it whole), ``schedule.swf`` if asked,
    and ``summary.json`` last, each put in place by a rename; returns the files' names."""
    if jobs_csv is None:
        jobs_csv = JobsCsv(os.path.join(folder, "jobs.csv"), scenario.metrics.tau)
        jobs_csv(result.records.columns)
    jobs_csv.close(result.world.log, skipped)
    files = ["jobs.csv"]
    if scenario.output.swf:
        write_schedule_swf(os.path.join(folder, "schedule.swf"), result, scenario, broker, hosts)
        files.append("schedule.swf")
    doc = {
        "scenario": scenario.name, "label": broker.name, "policy": broker.policy,
        "params": broker.params, "seed": scenario.seed, "hosts": hosts,
        "tiers": scenario.datacenter.tiers,
        "summary": _jsonable(result.summary),
        "workload": result.report.as_dict() if result.report is not None else None,
        "rerun": rerun if rerun is not None else rerun_record(scenario, hosts),
        "files": files,
    }
    write_json(os.path.join(folder, "summary.json"), doc)
    return files + ["summary.json"]


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def scenario_options(scenario: Scenario, hosts: int | None = None) -> dict:
    """Every layer's options, resolved (defaults filled in, the interference model in force,
    the machine size the run used), as plain data that :func:`~cloudsim_py.scenario.load_scenario`
    accepts again."""
    dc = attrs.asdict(scenario.datacenter, recurse=True)
    model = attrs.asdict(scenario.datacenter.interference_model())
    name = model.pop("name")
    from ..execution.interference import presets

    dc["interference"] = {"preset": name if name in presets.names() else "liu2015", **model}
    dc["threshold"] = None
    if hosts is not None and not dc["groups"]:
        dc["hosts"] = hosts
    dc["groups"] = list(dc["groups"])
    w = scenario.workload
    assert w is not None, "scenario_options is for datacenter scenarios (a cloud system has none)"
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
    if scenario.moldable is not None:
        from ..workload.efficiency import efficiency_options

        m = scenario.moldable
        workload["moldable"] = {"efficiency": efficiency_options(m.efficiency), "factor": m.factor,
                                "vm_factor": m.vm_factor}
    metrics: dict[str, Any] = {"tau": scenario.metrics.tau, "warmup": scenario.metrics.warmup}
    if scenario.classes is not None:
        metrics["classes"] = {"S": scenario.classes.S, "M": scenario.classes.M}
    return {
        "name": scenario.name, "seed": scenario.seed, "plugins": list(scenario.plugins),
        "datacenter": dc, "workload": workload,
        "broker": [{"policy": b.policy, "params": dict(b.params), "label": b.name} for b in scenario.brokers],
        "metrics": metrics,
        "output": {"dir": scenario.output.dir, "swf": scenario.output.swf},
    }


def rerun_record(scenario: Scenario, hosts: int | None = None) -> dict:
    """What ``summary.json`` keeps to rerun a scenario: versions, the scenario file and its
    ``--set`` overrides, every option resolved (:func:`scenario_options`), the trace's sha256,
    the seed and the metrics' tau and warmup."""
    import platform

    from .. import __version__

    trace = scenario.workload.trace if scenario.workload is not None else None
    return {
        "cloudsim_py": __version__, "python": platform.python_version(), "numpy": np.__version__,
        "scenario_file": scenario.source, "overrides": list(scenario.overrides),
        "seed": scenario.seed, "tau": scenario.metrics.tau, "warmup": scenario.metrics.warmup,
        "trace": trace, "trace_sha256": file_sha256(trace) if trace is not None else None,
        "options": scenario_options(scenario, hosts),
    }


def write_schedule_swf(path: str, result: RunResult, scenario: Scenario, broker: BrokerSpec,
                       hosts: int) -> None:
    """The simulated schedule as SWF: wait = finish - submit - runtime (Liu 2015's wait), run =
    runtime on dedicated processors; other fields copied from the source trace."""
    rec: JobRecords = result.records
    table = result.table
    header = {"Version": "2.2", "Computer": f"cloudsim_py simulation ({hosts} processors, "
              f"{scenario.datacenter.tiers} tiers)", "Note": f"scenario {scenario.name}, policy "
              f"{broker.policy}, seed {scenario.seed}", "MaxProcs": hosts, "MaxNodes": hosts}
    if table is not None and table.header.unix_start_time is not None:
        header["UnixStartTime"] = table.header.unix_start_time
    source_rows = rec.source_rows.tolist() if rec.source_rows is not None else [-1] * len(rec)

    def records():
        c = rec.columns
        for i in range(len(rec)):
            jid = int(c["id"][i])
            row = source_rows[i]
            base = table.data[row].copy() if table is not None and row >= 0 else np.full(18, -1.0)
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
