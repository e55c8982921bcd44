"""Run a validated scenario: build its workload table, run it under each broker, write
``summary.json`` / ``jobs.csv`` (and optionally the schedule as SWF)."""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Iterator, Sequence

import attrs
import numpy as np

from ..engine import RandomStreams, Simulation
from ..errors import ScenarioError, TraceError
from ..metrics import JobRecords
from ..runner import RunResult, World, build, results
from ..workload.description import RigidJob
from ..workload.jobs import descriptions_from_table
from ..workload.swf import write_swf
from ..workload.table import COL, WorkloadTable, prepare, read_table
from .schema import BrokerSpec, Scenario


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
                        rng=RandomStreams(scenario.seed)["runtime_estimate"])
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
    """The scenario's world under one broker, built but not run."""
    dc = scenario.datacenter
    if dc.hosts != hosts and not dc.groups:
        dc = attrs.evolve(dc, hosts=hosts)
    return build(lambda sim: _descriptions(scenario, table, sim), datacenter=dc, broker=broker,
                 seed=scenario.seed, listeners=listeners)


def run_one(scenario: Scenario, broker: BrokerSpec, table: WorkloadTable, hosts: int,
            listeners: Sequence[Any] = ()) -> RunResult:
    """Run the scenario's workload under one broker."""
    t0 = time.perf_counter()
    world = build_world(scenario, broker, table, hosts, listeners)
    world.run()
    summary, records = results(world, tau=scenario.metrics.tau, warmup=scenario.metrics.warmup,
                               wall_seconds=time.perf_counter() - t0)
    return RunResult(summary, records, world, report=table.report, table=table)


def run_scenario(scenario: Scenario, out_dir: str | None = None,
                 listeners: Sequence[Any] = ()) -> list[tuple[str, RunResult]]:
    """Run every broker of the scenario on the same workload; write outputs if a folder is set
    (``out_dir`` overrides ``output.dir``). ``listeners`` are subscribed to each run's
    datacenter (a progress bar, a probe); one with a ``reset()`` is reset between runs.
    Returns ``[(policy, result), ...]``. A cloud system (``federation``) runs in
    :func:`cloudsim_py.federation.run.run_cloud_scenario`."""
    if scenario.federation is not None:
        from ..federation.run import run_cloud_scenario

        return run_cloud_scenario(scenario, out_dir, listeners)
    t0 = time.perf_counter()
    table, hosts = prepared_table(scenario)
    out = out_dir if out_dir is not None else scenario.output.dir
    runs = []
    for spec in scenario.brokers:
        result = run_one(scenario, spec, table, hosts, listeners)
        for listener in listeners:
            reset = getattr(listener, "reset", None)
            if reset is not None:
                reset()
        runs.append((spec.policy, result))
        if out is not None:
            folder = out if len(scenario.brokers) == 1 else os.path.join(out, _slug(spec.policy))
            write_outputs(folder, scenario, spec, result, hosts)
    if out is not None and len(runs) > 1:
        os.makedirs(out, exist_ok=True)
        combined = {policy: _jsonable(r.summary) for policy, r in runs}
        with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as fh:
            json.dump({"scenario": scenario.name, "seed": scenario.seed, "hosts": hosts,
                       "runs": combined, "wall_seconds": time.perf_counter() - t0}, fh, indent=2)
            fh.write("\n")
    return runs


def _slug(policy: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in policy)


def _jsonable(summary: dict) -> dict:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in summary.items()}


def write_outputs(folder: str, scenario: Scenario, broker: BrokerSpec, result: RunResult,
                  hosts: int) -> None:
    """``summary.json`` and ``jobs.csv`` (and ``schedule.swf`` if asked) under ``folder``."""
    os.makedirs(folder, exist_ok=True)
    doc = {
        "scenario": scenario.name, "policy": broker.policy, "params": broker.params,
        "seed": scenario.seed, "hosts": hosts, "tiers": scenario.datacenter.tiers,
        "summary": _jsonable(result.summary),
        "workload": result.report.as_dict() if result.report is not None else None,
    }
    with open(os.path.join(folder, "summary.json"), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    with open(os.path.join(folder, "jobs.csv"), "w", encoding="utf-8", newline="") as fh:
        fh.write(result.records.to_csv())
    if scenario.output.swf:
        write_schedule_swf(os.path.join(folder, "schedule.swf"), result, scenario, broker, hosts)


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
    rows = {int(j.id): j.row for j in result.world.log.finished}

    def records():
        c = rec.columns
        for i in range(len(rec)):
            jid = int(c["id"][i])
            row = rows.get(jid, -1)
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

    write_swf(path, records(), header)
