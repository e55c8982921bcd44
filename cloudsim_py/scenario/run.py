"""Run a validated scenario, whatever system it describes: prepare the system once (its workload
read), run it under each broker through the one run loop (:func:`cloudsim_py.runner.run_system`),
and write the same outputs for every kind: ``jobs.csv`` (streamed; a row for every job, lease or
task, with its state and reason), the system's own files, and ``summary.json`` last, with the
rerun record."""

from __future__ import annotations

import hashlib
import os
import platform
import time
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..errors import OutputError, ScenarioError, StuckJobsError
from ..outputs import JobsCsv, check_output_folder, write_json
from ..runner import PreparedSystem, RunResult, run_system
from ..validate import kind
from .schema import BrokerSpec, Scenario, slug

if TYPE_CHECKING:  # pragma: no cover
    # the streamed files and the probes are imported when a scenario asks for them
    from ..outputs.streamed import StreamedCsv
    from ..outputs.watch import Watched


def prepare(scenario: Scenario) -> PreparedSystem:
    """The scenario's system with its workload read (once, for every broker)."""
    return scenario.system.prepare(scenario.name, scenario.source, scenario.seed)


def run_one(scenario: Scenario, broker: BrokerSpec, prepared: PreparedSystem, listeners: Sequence[Any] = (),
            jobs_csv: JobsCsv | None = None, folder: str | None = None,
            streams: list[StreamedCsv] | None = None) -> RunResult:
    """Run the prepared system under one broker (``jobs_csv``: stream the finished jobs
    there). With a ``folder``, the streamed files the scenario's output asks for
    (``schedule.csv``, ``timeline.csv``) are opened there, watch every datacenter of the run
    and are appended to ``streams`` (the caller closes or aborts them). A run that ends with
    work neither finished nor rejected raises :class:`~cloudsim_py.errors.StuckJobsError`
    (with the result)."""
    t0 = time.perf_counter()
    probes = make_probes(scenario)
    run = prepared.start(broker, scenario.seed, (*listeners, *(p for _, p in probes)))
    if jobs_csv is not None:
        run.world.log.sinks.append(jobs_csv)
    if folder is not None and streams is not None:
        streams += open_streams(folder, scenario, run.world.datacenters)

    def measured(world: Any, summary: dict) -> None:
        if probes:
            from ..probes import probe_summary

            for name, probe in probes:
                probe_summary(probe, name, summary)

    result = run_system(run, label=broker.name, tau=scenario.metrics.tau, warmup=scenario.metrics.warmup,
                        t0=t0, report=prepared.report, table=prepared.table, after=measured,
                        loader=prepared.report_lines())
    result.probes = probes
    return result


def make_probes(scenario: Scenario) -> list[tuple[str, Any]]:
    """Fresh probes for one run, named: the per-class metrics (``metrics.classes``), then the
    scenario's ``metrics.probes`` in order."""
    probes: list[tuple[str, Any]] = []
    if scenario.classes is not None:
        from ..class_metrics import ClassMetrics

        probes.append(("classes", ClassMetrics(scenario.classes, scenario.metrics.tau, scenario.metrics.warmup)))
    probes += [(spec.name, spec.make()) for spec in scenario.probes]
    return probes


def open_streams(folder: str, scenario: Scenario, datacenters: Sequence[Watched]) -> list[StreamedCsv]:
    """The streamed files ``output.schedule`` and ``output.timeline`` ask for, in ``folder``,
    each watching every one of ``datacenters``."""
    out: list[StreamedCsv] = []
    try:
        if scenario.output.schedule:
            from ..outputs.schedule import ScheduleCsv

            schedule = ScheduleCsv(os.path.join(folder, ScheduleCsv.name))
            out.append(schedule)
            for dc in datacenters:
                schedule.watch(dc)
        if scenario.output.timeline:
            from ..outputs.timeline import TimelineCsv

            timeline = TimelineCsv(os.path.join(folder, TimelineCsv.name), max(dc.tiers for dc in datacenters))
            out.append(timeline)
            for dc in datacenters:
                timeline.watch(dc)
    except BaseException:
        for stream in out:
            stream.abort()
        raise
    return out


def run_scenario(scenario: Scenario, out_dir: str | None = None,
                 listeners: Sequence[Any] = (), *, force: bool = False) -> list[tuple[str, RunResult]]:
    """Run every broker of the scenario on the same workload; write outputs if a folder is set
    (``out_dir`` overrides ``output.dir``). ``listeners`` are subscribed to each run's
    datacenters (a progress bar, a probe); one with ``on_run_start(label, jobs)`` is told of each run
    before it starts (``jobs``: the prepared system's ``job_count``, ``None`` when it has
    none), one with a ``reset()`` is reset after it.
    Returns ``[(policy, result), ...]`` in the scenario's order; ``result.label`` is the
    broker's label, which names its results (unique within a scenario).

    The output folder is checked before anything runs: it must be empty (``force=True``
    replaces a previous run's files) and writable. With several brokers each gets a
    sub-folder named by its label. Every file is written under a temporary name and renamed;
    ``jobs.csv`` is streamed during the run; ``summary.json``, written last, records what is
    needed to rerun (:func:`rerun_record`). A stuck run writes its ``jobs.csv`` (with the
    unfinished jobs) but no ``summary.json``, and raises. Datacenter and cloud systems alike.
    ``scenario`` must be a loaded :class:`Scenario` (a file name is a
    :class:`~cloudsim_py.errors.ScenarioError` saying to load it first)."""
    t0 = time.perf_counter()
    if not isinstance(scenario, Scenario):
        hint = (f"; load it first: run_scenario(load_scenario({os.fspath(scenario)!r}))"
                if isinstance(scenario, (str, os.PathLike)) else "")
        raise ScenarioError(f"run_scenario: scenario: expected a Scenario (from load_scenario), got "
                            f"{kind(scenario)}{hint}")
    out = out_dir if out_dir is not None else scenario.output.dir
    if out is not None:
        check_output_folder(out, force)
    prepared = prepare(scenario)
    rerun = rerun_record(scenario, prepared) if out is not None else None
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
            writer = JobsCsv(os.path.join(folder, "jobs.csv"), scenario.metrics.tau, prepared.text)
        for listener in listeners:
            started = getattr(listener, "on_run_start", None)
            if started is not None:
                started(label, getattr(prepared, "job_count", None))
        streams: list[StreamedCsv] = []
        try:
            result = run_one(scenario, spec, prepared, listeners, writer, folder, streams)
        except StuckJobsError as exc:
            if writer is not None and isinstance(exc.result, RunResult):
                writer.close(exc.result.world.log, _extra_rows(prepared, exc.result))
                for stream in streams:      # what happened until the run got stuck
                    stream.close()
            raise
        except BaseException:
            if writer is not None:
                writer.abort()
            for stream in streams:
                stream.abort()
            raise
        for listener in listeners:
            reset = getattr(listener, "reset", None)
            if reset is not None:
                reset()
        runs.append((spec.policy, result))
        if folder is not None and writer is not None:
            written = write_outputs(folder, scenario, spec, result, prepared, writer, rerun, streams)
            prefix = slug(label) + "/" if several else ""
            files += [prefix + f for f in written]
    if out is not None and several:
        write_json(os.path.join(out, "summary.json"), {
            "scenario": scenario.name, "seed": scenario.seed, **prepared.info(),
            "runs": {label: r.summary for label, (_, r) in zip(labels, runs)},
            "folders": {label: slug(label) for label in labels},
            "wall_seconds": time.perf_counter() - t0, "rerun": rerun, "files": files})
    return runs


def _extra_rows(prepared: PreparedSystem, result: RunResult) -> list:
    """The rows the system adds to ``jobs.csv``: work that never reached a datacenter, then the
    workload's records the loader skipped."""
    rows = list(result.run.rows()) if result.run is not None else []
    rows += list(prepared.skipped_rows())
    return rows


def write_outputs(folder: str, scenario: Scenario, broker: BrokerSpec, result: RunResult, prepared: PreparedSystem,
                  jobs_csv: JobsCsv | None = None, rerun: dict | None = None,
                  streams: Sequence[StreamedCsv] = ()) -> list[str]:
    """``jobs.csv`` (closing the streamed one, or writing it whole), the streamed files
    (``schedule.csv``, ``timeline.csv``: closed), the system's own files, and ``summary.json``
    last, each put in place by a rename; returns the files' names."""
    if jobs_csv is None:
        jobs_csv = JobsCsv(os.path.join(folder, "jobs.csv"), scenario.metrics.tau, prepared.text)
        jobs_csv(result.records.columns)
    jobs_csv.close(result.world.log, _extra_rows(prepared, result))
    files = ["jobs.csv"]
    for stream in streams:
        stream.close()
        files.append(stream.name)
    if result.run is not None:
        files += result.run.write_files(folder)
    for _, probe in result.probes:
        write = getattr(probe, "write_files", None)
        if write is not None:
            files += write(folder)
    doc = {
        "scenario": scenario.name, "label": broker.name, "policy": broker.policy,
        "params": broker.params, "seed": scenario.seed, "system": scenario.system.kind, **prepared.info(),
        "summary": result.summary,
        "workload": prepared.load_report(),
        "rerun": rerun if rerun is not None else rerun_record(scenario, prepared),
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


def scenario_options(scenario: Scenario, prepared: PreparedSystem) -> dict:
    """Every layer's options, resolved (defaults filled in, the interference model in force,
    the machine size the run used), as plain data that :func:`~cloudsim_py.scenario.load_scenario`
    accepts again."""
    metrics: dict[str, Any] = {"tau": scenario.metrics.tau, "warmup": scenario.metrics.warmup}
    if scenario.classes is not None:
        metrics["classes"] = {"S": scenario.classes.S, "M": scenario.classes.M}
    if scenario.probes:
        metrics["probes"] = [{"name": p.name, "params": dict(p.params)} for p in scenario.probes]
    output: dict[str, Any] = {"dir": scenario.output.dir}
    for flag in ("swf", "schedule", "timeline"):
        if getattr(scenario.output, flag):
            output[flag] = True
    return {
        "name": scenario.name, "seed": scenario.seed, "plugins": list(scenario.plugins),
        **prepared.options(),
        "broker": [{"policy": b.policy, "params": dict(b.params), "label": b.name} for b in scenario.brokers],
        "metrics": metrics, "output": output,
    }


def rerun_record(scenario: Scenario, prepared: PreparedSystem) -> dict:
    """What ``summary.json`` keeps to rerun a scenario: versions, the scenario file and its
    ``--set`` overrides, every option resolved (:func:`scenario_options`), the input files and
    their sha256, the seed and the metrics' tau and warmup."""
    from .. import __version__

    inputs = prepared.inputs()
    record = {
        "cloudsim_py": __version__, "python": platform.python_version(), "numpy": np.__version__,
        "scenario_file": scenario.source, "overrides": list(scenario.overrides),
        "seed": scenario.seed, "tau": scenario.metrics.tau, "warmup": scenario.metrics.warmup,
        "inputs": {key: {"path": path, "sha256": file_sha256(path)} for key, path in inputs.items()},
        "options": scenario_options(scenario, prepared),
    }
    trace = inputs.get("trace")        # the datacenter's trace, also under its old keys
    record["trace"] = trace
    record["trace_sha256"] = record["inputs"]["trace"]["sha256"] if trace is not None else None
    return record
