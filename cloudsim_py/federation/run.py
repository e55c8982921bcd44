"""Run a validated cloud-system scenario (``federation`` with ``dags`` or ``leases``): make the
workload, run it under each broker, add the cloud metrics to the summary, write the outputs.
The scenario runner's counterpart for clouds (``scenario/run.py`` hands such scenarios here)."""

from __future__ import annotations

import csv
import io
import math
import os
import time
from typing import Any, Sequence

from ..errors import CloudSimError, ScenarioError
from ..metrics import RetainingJobLog
from ..outputs import write_atomic, write_json
from ..runner import RunResult, World, results
from ..scenario.schema import slug
from ..workload.lease import LeaseMode
from ..workload.lwf import LeaseWorkload
from .builder import build_federation, build_lease_cloud, dag_log

NAN = math.nan


def _fail(scenario: Any, key: str, exc: Exception) -> ScenarioError:
    return ScenarioError(f"{scenario.source}: {key}: {exc}")


def lease_workload(scenario: Any) -> LeaseWorkload:
    """The scenario's leases (files read now); a lease bigger than the cloud is an error naming
    the lease, its file and line."""
    spec = scenario.leases
    try:
        w = spec.make()
    except CloudSimError as exc:
        raise _fail(scenario, "leases", exc) from None
    cloud = scenario.federation.clouds[0]
    per = cloud.vm_type.vms_for
    for lease, line in zip(w.leases, w.lines):
        vms = lease.nodes * per(lease.cpus_per_node)
        if vms > cloud.vms:
            src = spec.injected if spec.injected is not None and lease.mode is LeaseMode.AR else spec.source()
            where = f"{src}:{line}" if line >= 0 else src
            raise ScenarioError(f"{scenario.source}: leases: {where}: lease {lease.id} asks {vms} VMs, more than "
                                f"cloud {cloud.name!r} has ({cloud.vms})")
    return w


def cloud_workload(scenario: Any) -> tuple[list, list[str]]:
    """The scenario's DAG jobs or leases, read or generated (as a run would), and the loader's
    report lines (what was skipped, for leases)."""
    if scenario.dags is not None:
        try:
            return scenario.dags.make(scenario.seed, len(scenario.federation.clouds)), []
        except CloudSimError as exc:
            raise _fail(scenario, "dags", exc) from None
    w = lease_workload(scenario)
    return list(w.leases), w.report.lines()


def _t(x: float | None) -> float:
    return NAN if x is None else float(x)


def lease_summary(world: World) -> dict[str, Any]:
    """Haizea's measures: when all best-effort work is done and how much it was slowed down; what
    happened to the ARs; the VM-seconds of every overhead."""
    log = world.log
    if not isinstance(log, RetainingJobLog):
        raise TypeError("lease_summary needs a world whose log keeps its jobs (build_lease_cloud)")
    be = [j for j in log.finished if getattr(j.desc, "mode", LeaseMode.BEST_EFFORT) is LeaseMode.BEST_EFFORT]
    ar = [j for j in log.finished if getattr(j.desc, "mode", None) is LeaseMode.AR]
    out: dict[str, Any] = {}
    if be:
        first = min(j.submit_time for j in be)
        done = max(_t(j.finish_time) for j in be)
        out["be_done"] = done
        out["be_makespan"] = done - first
        sld = [(_t(j.finish_time) - j.submit_time) / j.desc.runtime for j in be]
        out["be_avg_slowdown"] = math.fsum(sld) / len(sld)
        out["be_avg_wait"] = math.fsum(_t(j.finish_time) - j.submit_time - j.desc.runtime for j in be) / len(be)
    else:
        out.update(be_done=NAN, be_makespan=NAN, be_avg_slowdown=NAN, be_avg_wait=NAN)
    late = [_t(j.first_start) - _t(getattr(j.desc, "start", None)) for j in ar]
    out["ar_finished"] = len(ar)
    out["ar_late"] = sum(1 for d in late if d > 0)
    out["ar_avg_delay"] = math.fsum(late) / len(late) if late else NAN
    brokers = world.brokers
    out["ar_rejected"] = sum(getattr(b, "ar_rejected", 0) for b in brokers)
    out["immediate_rejected"] = sum(getattr(b, "immediate_rejected", 0) for b in brokers)
    out["be_preempted"] = sum(getattr(b, "preemptions", 0) for b in brokers)
    out["gap_starts"] = sum(getattr(b, "gap_starts", 0) for b in brokers)
    out.update(_overheads(world))
    return out


def _overheads(world: World) -> dict[str, float]:
    total: dict[str, float] = {}
    for b in world.brokers:
        rec = getattr(b, "records", None)
        if rec is None:
            continue
        for kind, v in rec.totals().items():
            total[f"vm_s_{kind}"] = total.get(f"vm_s_{kind}", 0.0) + v
    return total


def dag_summary(world: World) -> dict[str, Any]:
    out: dict[str, Any] = dict(dag_log(world).summary())
    fed = world.broker.federation  # type: ignore[attr-defined]
    out["messages"] = fed.messages
    out["rounds"] = sum(getattr(b, "rounds", 0) for b in world.brokers)
    out["transfers_rejected"] = sum(getattr(b, "transfers_rejected", 0) for b in world.brokers)
    out["be_preempted"] = sum(getattr(b, "preemptions", 0) for b in world.brokers)
    out.update(_overheads(world))
    return out


def run_cloud_scenario(scenario: Any, out_dir: str | None = None,
                       listeners: Sequence[Any] = ()) -> list[tuple[str, RunResult]]:
    """Run every broker of a cloud-system scenario; write outputs if a folder is set."""
    fed = scenario.federation
    if scenario.dags is not None:
        try:
            dags = scenario.dags.make(scenario.seed, len(fed.clouds))
            model = fed.execution_model(scenario.seed)
        except CloudSimError as exc:
            raise _fail(scenario, "dags", exc) from None
        leases = None
    else:
        leases = lease_workload(scenario)
        dags = model = None
    out = out_dir if out_dir is not None else scenario.output.dir
    runs = []
    for spec in scenario.brokers:
        t0 = time.perf_counter()
        if dags is not None:
            world = build_federation(dags, fed.clouds, policy=spec.policy, params=spec.params, model=model,
                                     latency=fed.latency, inter_cloud_mbps=fed.inter_cloud_mbps, seed=scenario.seed,
                                     check=fed.check, listeners=listeners)
        else:
            assert leases is not None
            world = build_lease_cloud(leases.leases, fed.clouds[0], policy=spec.policy, params=spec.params,
                                      seed=scenario.seed, check=fed.check, listeners=listeners)
        world.run()
        summary, records = results(world, tau=scenario.metrics.tau, warmup=scenario.metrics.warmup,
                                   wall_seconds=time.perf_counter() - t0)
        summary.update(dag_summary(world) if dags is not None else lease_summary(world))
        result = RunResult(summary, records, world)
        for listener in listeners:
            reset = getattr(listener, "reset", None)
            if reset is not None:
                reset()
        runs.append((spec.policy, result))
        if out is not None:
            folder = out if len(scenario.brokers) == 1 else os.path.join(out, slug(spec.name))
            write_cloud_outputs(folder, scenario, spec, result)
    return runs


def _jsonable(summary: dict) -> dict:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in summary.items()}


def write_cloud_outputs(folder: str, scenario: Any, broker: Any, result: RunResult) -> None:
    """``summary.json``, ``jobs.csv`` (every lease or task), ``intervals.csv`` (every overhead and
    run interval, with its cloud) and, for DAG jobs, ``dag_jobs.csv``."""
    os.makedirs(folder, exist_ok=True)
    world = result.world
    doc = {"scenario": scenario.name, "label": broker.name, "policy": broker.policy, "params": broker.params,
           "seed": scenario.seed,
           "clouds": [{"name": c.name, "vm_type": c.vm_type.name, "vms": c.vms} for c in scenario.federation.clouds],
           "summary": _jsonable(result.summary)}
    # every file under a temporary name, renamed into place; summary.json last (docs/scenarios.md)
    write_atomic(os.path.join(folder, "jobs.csv"), result.records.to_csv())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("cloud", "job", "kind", "start", "end", "vms"))
    for dc, b in zip(world.datacenters, world.brokers):
        rec = getattr(b, "records", None)
        for i in sorted(rec.intervals if rec is not None else (), key=lambda i: (i.start, i.job)):
            w.writerow((dc.name, i.job, i.kind, repr(i.start), repr(i.end), " ".join(map(str, i.vms))))
    write_atomic(os.path.join(folder, "intervals.csv"), buf.getvalue())
    files = ["jobs.csv", "intervals.csv"]
    if scenario.dags is not None:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("job", "owner", "submit", "finish", "tasks", "ar"))
        for row in dag_log(world).finished:
            w.writerow((row[0], row[1], repr(row[2]), repr(row[3]), row[4], row[5]))
        write_atomic(os.path.join(folder, "dag_jobs.csv"), buf.getvalue())
        files.append("dag_jobs.csv")
    doc["files"] = files
    write_json(os.path.join(folder, "summary.json"), doc)
