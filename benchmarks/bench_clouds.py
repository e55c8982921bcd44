#!/usr/bin/env python3
"""Speed of cloud systems (issue 16, item 6): CPU seconds of whole runs (workload read or
generated + simulated + metrics, in process, ``time.process_time``), best of --repeat, with
jobs/s, tasks/s and events/s.

Cases (``--only`` takes these names, or ``NAME-POLICY`` such as ``wfformat-fdmms``):

  blue      SDSC Blue 30 days + an injected AR file (--injected) on 144 VMs,
            scenarios/haizea-blue-ar.yaml, policy ``leases`` (a lease is one job and one task)
  li        Li et al.'s DAG jobs on 4 clouds: scenarios/li-feedback-tight.yaml with
            dags.model.jobs=--dag-jobs and dags.model.arrivals=120 (mean gap 120 s: the clouds
            are busy but keep up; at the paper's 10 s, 10,000 jobs would pile up without end);
            fdls and fdmms with the scenario's parameters
  layered   random layered DAGs on one cloud (:func:`layered_dags`: --tasks tasks, jobs of
            5 layers of 4 tasks, 64 1-CPU VMs, Poisson arrivals at 85 % load); fdls, fdmms,
            and the heapq floor
  wfformat  copies of the real workflows of $CLOUDSIM_PY_WORKFLOWS (:func:`wfformat_dags`) until
            there are --tasks tasks, all submitted at t = 0 to cloud 0 of two clouds of 48 1-CPU
            VMs, like the Chameleon machines they ran on (:func:`wfformat_clouds`); fdls, fdmms,
            and the heapq floor

The *heapq floor* (:func:`heapq_floor`) replays the same DAGs with a plain priority-queue
event loop written here (no cloudsim_py engine): the least a simulator must do for them. Its
row is whole seconds too (the same DAGs made, then replayed); the *make only* row is the DAGs
made alone, a part of every other row of the same workload.

``--scale`` runs the layered and li cases at 10,000, 20,000, 50,000 and 100,000 tasks (or the
sizes given, comma-separated) and prints tasks/s at each size, and the cost per task at each
size relative to the smallest (1.00 everywhere = linear). ``--profile CASE`` runs one case
(``NAME-POLICY``, at the sizes of the other options) once under cProfile and prints its top 25
functions (``--sort``); cProfile slows the DAG schedulers down about ten times (wfformat-fdmms at
10,000 tasks: 11 minutes), so profile those at --tasks 2000.

    python benchmarks/bench_clouds.py                     # every case, default sizes
    python benchmarks/bench_clouds.py --repeat 3 --json bench.json
    python benchmarks/bench_clouds.py --only layered,wfformat --tasks 20000
    python benchmarks/bench_clouds.py --scale             # the scaling curve
    python benchmarks/bench_clouds.py --scale 10000,40000 --only layered
    python benchmarks/bench_clouds.py --profile wfformat-fdmms --tasks 2000 --sort cumulative

Lease files come from $CLOUDSIM_PY_LEASES, workflows from $CLOUDSIM_PY_WORKFLOWS (default
../shared/leases and ../shared/workflows beside the repository). *jobs* are leases (blue) or DAG
jobs; *tasks* are what the datacenters ran (a lease is one task; a DAG job has one or more);
*events* are the simulation's events (arrivals, timers, finishes, scheduler messages; for the
floor, the heap's events)."""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import heapq
import io
import json
import math
import os
import platform
import pstats
import random
import sys
import time
from collections import deque
from typing import Any, Callable, Hashable, Iterable, NamedTuple, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
if REPO not in sys.path:
    sys.path.insert(0, REPO)

import attrs  # noqa: E402

from cloudsim_py.clouds.cloud import CloudSpec  # noqa: E402
from cloudsim_py.clouds.vmtypes import VMType  # noqa: E402
from cloudsim_py.runner import run_system  # noqa: E402
from cloudsim_py.scenario import load_scenario, run_scenario  # noqa: E402
from cloudsim_py.systems.clouds import build_dag_system  # noqa: E402
from cloudsim_py.systems.workflows import machine_clouds  # noqa: E402
from cloudsim_py.workload.dag import DagJob, build_dag_job  # noqa: E402
from cloudsim_py.workload.shared_data import leases_dir, workflows_dir  # noqa: E402
from cloudsim_py.workload.wfformat import Workflow, read_wfformat  # noqa: E402

POLICIES = ("fdls", "fdmms")
FLOOR = "heapq floor"
MAKE = "make only"
CASES = ("blue", "li", "layered", "wfformat")
SCALE_SIZES = (10_000, 20_000, 50_000, 100_000)
#: mean tasks of a Li et al. DAG job (1-16 tasks): --scale asks for tasks / this many jobs
LI_TASKS_PER_JOB = 8.5


# -- workloads -------------------------------------------------------------------------------

def layered_dags(tasks: int, *, layers: int = 5, width: int = 4, vms: int = 64, load: float = 0.85,
                 runtime: tuple[float, float] = (10.0, 90.0), fan_in: tuple[int, int] = (1, 3),
                 seed: int = 1) -> list[DagJob]:
    """Random layered DAG jobs, ``ceil(tasks / (layers * width))`` of them, drawn from ``seed``.

    Job ``j`` (ids 0, 1, ...) has ``layers`` layers of ``width`` tasks, numbered ``0 ..
    layers * width - 1`` layer by layer; every task of layer ``l > 0`` depends on
    ``randint(*fan_in)`` distinct tasks of layer ``l - 1`` (at most ``width``), drawn at random.
    Runtimes are uniform in ``runtime`` (seconds), one CPU, no image, no memory. Jobs arrive as
    a Poisson process whose rate keeps ``vms`` 1-CPU VMs busy at ``load`` on average (mean gap
    ``layers * width * mean runtime / (vms * load)``): busy but stable for ``load < 1``. All
    jobs are submitted to cloud 0."""
    per_job = layers * width
    jobs = max(1, math.ceil(tasks / per_job))
    rng = random.Random(seed)
    gap = per_job * (runtime[0] + runtime[1]) / 2 / (vms * load)
    lo, hi = runtime
    lo_in, hi_in = fan_in[0], min(fan_in[1], width)
    out = []
    t = 0.0
    for j in range(jobs):
        t += rng.expovariate(1.0 / gap)
        fields: dict[Hashable, dict[str, Any]] = {i: {"runtime": rng.uniform(lo, hi), "cpus": 1}
                                                  for i in range(per_job)}
        edges: list[tuple[Hashable, Hashable]] = []
        for layer in range(1, layers):
            above = range((layer - 1) * width, layer * width)
            for i in range(layer * width, (layer + 1) * width):
                for parent in sorted(rng.sample(above, rng.randint(lo_in, hi_in))):
                    edges.append((parent, i))
        out.append(build_dag_job(j, fields, edges, submit_time=t, cloud=0))
    return out


def layered_cloud(vms: int = 64) -> CloudSpec:
    """One cloud of ``vms`` 1-CPU VMs of speed 1 (no image, nothing to save)."""
    return CloudSpec("c0", VMType("vm", cpus=1, memory_mb=1024, disk_mb=0, bandwidth_mbps=100), vms)


def read_workflows(folder: str | None = None) -> list[Workflow]:
    """Every ``*.json`` workflow of ``folder`` (default $CLOUDSIM_PY_WORKFLOWS), by file name."""
    folder = folder or workflows_dir()
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    if not names:
        raise FileNotFoundError(f"no WfFormat workflow (*.json) in {folder} (set CLOUDSIM_PY_WORKFLOWS)")
    return [read_wfformat(os.path.join(folder, n)) for n in names]


def wfformat_dags(tasks: int, workflows: Sequence[Workflow]) -> list[DagJob]:
    """Copies of ``workflows`` (each in turn, round after round) until there are ``tasks`` tasks
    or more; copy ``k`` has job id ``k``; every copy is submitted at t = 0 to cloud 0."""
    out: list[DagJob] = []
    total = 0
    while total < tasks:
        for w in workflows:
            out.append(attrs.evolve(w.job, id=len(out), submit_time=0.0, cloud=0))
            total += w.job.tasks
            if total >= tasks:
                break
    return out


def wfformat_clouds(workflows: Sequence[Workflow], clouds: int = 2) -> list[CloudSpec]:
    """The first ``clouds`` distinct machines the workflows ran on (in file order), one cloud each,
    as :func:`cloudsim_py.systems.workflows.machine_clouds` makes them (a 1-CPU VM per core)."""
    seen: dict[str, CloudSpec] = {}
    for w in workflows:
        for c in machine_clouds(w):
            seen.setdefault(c.name, c)
    return list(seen.values())[:clouds]


# -- the floor -------------------------------------------------------------------------------

class FloorResult(NamedTuple):
    starts: dict[tuple[Hashable, Hashable], float]   #: (job id, task) -> start time
    finishes: dict[Hashable, float]                   #: job id -> when its last task ended
    events: int                                       #: events taken off the heap
    tasks: int


def heapq_floor(dags: Iterable[DagJob], vms: int, vm_cpus: int = 1) -> FloorResult:
    """A plain priority-queue replay of ``dags`` on one pool of ``vms`` identical VMs of
    ``vm_cpus`` CPUs and speed 1 (the VMs of several clouds pooled): no messages, quotes,
    feedback, data transfers, images or reservations. The rule, exactly:

    - Events are ``(time, seq)`` on a heap: a job's arrival at its submit time, a task's finish
      at its start + ``runtime``. ``seq`` counts events as they are created; the arrivals are
      created first, in the given order, so at one time arrivals come before finishes, and
      finishes come in the order their tasks started.
    - An arrival appends the job's tasks without parents to the *ready list*, in the job's
      topological order (``DagJob.order``). A finish returns the task's VMs to the free pool and
      appends each child (in the graph's successor order) whose last parent it was.
    - After all the events of one time, and only then, a *dispatch*: the ready list is scanned
      from its head (first come, first served) and every task that fits starts now on the
      lowest-numbered free VMs; a task needs ``ceil(cpus / vm_cpus)`` VMs (``cpus`` default 1);
      one that does not fit keeps its place and the scan goes on (first fit). The scan stops
      when no VM is free.
    - A job finishes when its last task ends. (A task that needs more VMs than there are never
      starts: the replay ends without it, and its job has no finish.)"""
    dags = list(dags)
    heap: list[tuple[float, int, int, Any]] = [(float(d.submit_time), i, -1, d) for i, d in enumerate(dags)]
    heapq.heapify(heap)
    seq = len(heap)
    free = list(range(vms))           # a heap of free VM ids
    ready: deque = deque()            # (job state, task, runtime, VMs needed)
    starts: dict[tuple[Hashable, Hashable], float] = {}
    finishes: dict[Hashable, float] = {}
    events = tasks = 0
    pop, push = heapq.heappop, heapq.heappush

    while heap:
        now = heap[0][0]
        while heap and heap[0][0] == now:
            _, _, kind, item = pop(heap)
            events += 1
            if kind < 0:                                  # a job arrives
                dag: DagJob = item
                nodes = dag.graph.nodes
                waiting = {t: len(p) for t, p in dag.graph.pred.items()}
                state = [dag, waiting, len(waiting)]
                tasks += len(waiting)
                for t in dag.order:
                    if not waiting[t]:
                        data = nodes[t]
                        ready.append((state, t, float(data["runtime"]), math.ceil(data.get("cpus", 1) / vm_cpus)))
            else:                                         # a task ends
                state, t, held = item
                for vm in held:
                    push(free, vm)
                dag, waiting, left = state
                state[2] = left = left - 1
                if not left:
                    finishes[dag.id] = now
                nodes = dag.graph.nodes
                for c in dag.graph.succ[t]:
                    waiting[c] -= 1
                    if not waiting[c]:
                        data = nodes[c]
                        ready.append((state, c, float(data["runtime"]), math.ceil(data.get("cpus", 1) / vm_cpus)))
        skipped = []
        while ready and free:
            entry = ready.popleft()
            need = entry[3]
            if need > len(free):
                skipped.append(entry)
                continue
            held = [pop(free) for _ in range(need)]
            state, t, runtime, _ = entry
            starts[(state[0].id, t)] = now
            push(heap, (now + runtime, seq, 1, (state, t, held)))
            seq += 1
        if skipped:
            ready.extendleft(reversed(skipped))
    return FloorResult(starts, finishes, events, tasks)


# -- measuring -------------------------------------------------------------------------------

class Count(NamedTuple):
    jobs: int
    tasks: int
    events: int
    replay_seconds: float | None = None     #: the heapq floor's replay alone (its DAGs made)


@attrs.define
class Case:
    """One row: ``run()`` makes the workload, simulates it and takes the metrics, and returns what
    it did (:class:`Count`)."""

    name: str            #: CASE-POLICY (--only, --profile)
    workload: str        #: the table's label
    policy: str
    run: Callable[[], Count]


def timed(run: Callable[[], Count], repeat: int) -> tuple[float, Count]:
    """Best CPU seconds of ``repeat`` calls of ``run`` and what that call counted."""
    best = math.inf
    count = Count(0, 0, 0)
    for _ in range(max(1, repeat)):
        gc.collect()
        t0 = time.process_time()
        c = run()
        secs = time.process_time() - t0
        if secs < best:
            best, count = secs, c
    return best, count


def _scenario_count(path: str, overrides: list[str], policy: str, dags: bool) -> Count:
    scenario = load_scenario(path, overrides, env={**os.environ, "CLOUDSIM_PY_LEASES": leases_dir()})
    brokers = tuple(b for b in scenario.brokers if b.policy == policy)
    if not brokers:
        raise SystemExit(f"{path} has no broker of policy {policy!r}")
    scenario = attrs.evolve(scenario, brokers=brokers[:1])
    ((_, result),) = run_scenario(scenario)
    s = result.summary
    tasks = int(s["jobs_finished"]) + int(s["jobs_rejected"])    # every lease or task handled
    jobs = int(s["dag_jobs_finished"]) + int(s["dag_jobs_rejected"]) if dags else tasks
    return Count(jobs, tasks, int(s["events"]))


#: makes a workload of DAG jobs and the clouds to run it on
Maker = Callable[[], tuple[list[DagJob], list[CloudSpec]]]


def _dag_count(make: Maker, policy: str) -> Count:
    """Whole run of generated DAG jobs under ``policy`` through the package's one run loop (its
    metrics and its check that every task ended)."""
    dags, clouds = make()
    result = run_system(build_dag_system(dags, clouds, policy=policy), label=policy)
    s = result.summary
    return Count(int(s["dag_jobs_finished"]), int(s["jobs_finished"]), int(s["events"]))


def _floor_count(make: Maker) -> Count:
    dags, cs = make()
    cpus = {c.vm_type.cpus for c in cs}
    if len(cpus) != 1:
        raise ValueError("the heapq floor pools identical VMs: the clouds' VM types differ in CPUs")
    t0 = time.process_time()
    r = heapq_floor(dags, sum(c.vms for c in cs), cpus.pop())
    if len(r.starts) != r.tasks:
        raise RuntimeError(f"heapq floor: {r.tasks - len(r.starts)} tasks need more VMs than there are")
    # the metrics: each job's time and the makespan
    times = [r.finishes[d.id] - d.submit_time for d in dags]
    assert len(times) == len(dags) and len(r.starts) == r.tasks
    _ = (math.fsum(times) / len(times), max(r.finishes.values()) - min(d.submit_time for d in dags))
    return Count(len(r.finishes), len(r.starts), r.events, time.process_time() - t0)


def _make_count(make: Maker) -> Count:
    dags, _ = make()
    return Count(len(dags), sum(d.tasks for d in dags), 0)


def dag_cases(key: str, label: str, make: Maker) -> list[Case]:
    """The rows of a workload of DAG jobs: made only, the heapq floor, each policy."""
    out = [Case(f"{key}-make", label, MAKE, lambda: _make_count(make)),
           Case(f"{key}-floor", label, FLOOR, lambda: _floor_count(make))]
    for p in POLICIES:
        out.append(Case(f"{key}-{p}", label, p, functools.partial(_dag_count, make, p)))
    return out


def blue_cases(injected: str) -> list[Case]:
    path = os.path.join(REPO, "scenarios", "haizea-blue-ar.yaml")
    lwf = os.path.join(leases_dir(), "blue-30days", "injected", injected)
    label = f"Blue 30 days + {injected.removesuffix('.lwf')}, 144 VMs"
    # the scenario's Haizea 1.0 rules, and the project's own discipline (EASY backfilling, no
    # threshold) on the same workload and costs
    project = [f"leases.injected={lwf}", "broker.params={preemption: suspend}"]
    return [Case("blue-leases", label, "leases",
                 lambda: _scenario_count(path, project, "leases", False)),
            Case("blue-haizea", label, "haizea",
                 lambda: _scenario_count(path, [f"leases.injected={lwf}"], "leases", False))]


def li_cases(jobs: int, arrivals: str = "120") -> list[Case]:
    path = os.path.join(REPO, "scenarios", "li-feedback-tight.yaml")
    overrides = [f"dags.model.jobs={jobs}", f"dags.model.arrivals={arrivals}"]
    label = f"Li et al. {jobs:,} DAG jobs, 4 clouds, gap {arrivals}"
    return [Case(f"li-{p}", label, p, functools.partial(_scenario_count, path, overrides, p, True))
            for p in POLICIES]


def layered_cases(tasks: int, seed: int = 1) -> list[Case]:
    label = f"layered DAGs 5x4, {tasks:,} tasks, 1 cloud of 64 VMs"
    return dag_cases("layered", label, lambda: (layered_dags(tasks, seed=seed), [layered_cloud(64)]))


def wfformat_cases(tasks: int, folder: str | None = None) -> list[Case]:
    label = f"WfFormat copies, {tasks:,} tasks at t=0, 2 clouds of 48 VMs"

    def make() -> tuple[list[DagJob], list[CloudSpec]]:
        workflows = read_workflows(folder)
        return wfformat_dags(tasks, workflows), wfformat_clouds(workflows)

    return dag_cases("wfformat", label, make)


def select(cases: list[Case], only: Sequence[str] | None) -> list[Case]:
    if not only:
        return cases
    return [c for c in cases if c.name in only or c.name.split("-")[0] in only]


# -- output ----------------------------------------------------------------------------------

HEADER = (f"{'workload':<56} {'policy':<11} {'seconds':>8} {'jobs':>7} {'tasks':>8} {'events':>10} "
          f"{'jobs/s':>9} {'tasks/s':>9} {'events/s':>10}")


def _rate(n: int, secs: float) -> float:
    return n / secs if secs > 0 else 0.0


def row(case: Case, secs: float, count: Count) -> dict[str, Any]:
    return {"case": case.name, "workload": case.workload, "policy": case.policy, "seconds": round(secs, 4),
            "jobs": count.jobs, "tasks": count.tasks, "events": count.events,
            "jobs_per_s": round(_rate(count.jobs, secs), 1), "tasks_per_s": round(_rate(count.tasks, secs), 1),
            "events_per_s": round(_rate(count.events, secs), 1),
            **({} if count.replay_seconds is None else {"replay_seconds": round(count.replay_seconds, 4)})}


def format_row(r: dict[str, Any]) -> str:
    return (f"{r['workload']:<56} {r['policy']:<11} {r['seconds']:>8.2f} {r['jobs']:>7,} {r['tasks']:>8,} "
            f"{r['events']:>10,} {r['jobs_per_s']:>9,.0f} {r['tasks_per_s']:>9,.0f} {r['events_per_s']:>10,.0f}")


def run_cases(cases: Sequence[Case], repeat: int, out: Any = None) -> list[dict[str, Any]]:
    rows = []
    for case in cases:
        secs, count = timed(case.run, repeat)
        r = row(case, secs, count)
        rows.append(r)
        print(format_row(r), file=out, flush=True)
    floors = [r for r in rows if "replay_seconds" in r]
    if floors:
        print("\nthe heapq floor's replay alone (its DAGs made, not counted):", file=out)
        for r in floors:
            secs = r["replay_seconds"]
            print(f"{r['workload']:<56} {secs:>8.3f} s {_rate(r['tasks'], secs):>12,.0f} tasks/s", file=out)
    return rows


def curve(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (case, policy): tasks/s at each size, and the CPU seconds per task at each size
    relative to the smallest size (1.0 everywhere: linear)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        if r["policy"] == MAKE:
            continue
        groups.setdefault((r["case"].split("-")[0], r["policy"]), []).append(r)
    out = []
    for (case, policy), rs in groups.items():
        rs = sorted(rs, key=lambda r: r["tasks"])
        base = rs[0]["seconds"] / rs[0]["tasks"]
        out.append({"case": case, "policy": policy,
                    "points": [{"tasks": r["tasks"], "seconds": r["seconds"], "tasks_per_s": r["tasks_per_s"],
                                "cost_per_task_vs_smallest": round(r["seconds"] / r["tasks"] / base, 3)}
                               for r in rs]})
    return out


def print_curve(points: Sequence[dict[str, Any]], out: Any = None) -> None:
    print("\nscaling: tasks/s at each size (cost per task / cost per task at the smallest size)", file=out)
    for c in points:
        cells = "  ".join(f"{p['tasks']:>7,}: {p['tasks_per_s']:>8,.0f} ({p['cost_per_task_vs_smallest']:.2f})"
                          for p in c["points"])
        print(f"{c['case']:<9} {c['policy']:<11} {cells}", file=out)


def machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "python": platform.python_version(),
            "implementation": platform.python_implementation(), "cpus": os.cpu_count()}


def profile(case: Case, sort: str = "tottime", top: int = 25, out: Any = None) -> None:
    gc.collect()
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    count = case.run()
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats(sort).print_stats(top)
    print(f"{case.workload}, {case.policy}: {count.jobs:,} jobs, {count.tasks:,} tasks, {count.events:,} events "
          f"(under cProfile, sorted by {sort})", file=out)
    print(buf.getvalue(), file=out)


# -- command line ----------------------------------------------------------------------------

def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s.replace("_", "")) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated task counts, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"expected task counts >= 1, got {text!r}")
    return sizes


def _names(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    for n in names:
        if n.split("-")[0] not in CASES:
            raise argparse.ArgumentTypeError(f"unknown case {n!r} (cases: {', '.join(CASES)}, or CASE-POLICY)")
    return names


def default_cases(args: argparse.Namespace) -> list[Case]:
    return [*blue_cases(args.injected), *li_cases(args.dag_jobs, args.arrivals), *layered_cases(args.tasks),
            *wfformat_cases(args.tasks)]


def scale_cases(sizes: Sequence[int], arrivals: str) -> list[Case]:
    cases: list[Case] = []
    for n in sizes:
        cases += layered_cases(n)
    for n in sizes:
        cases += li_cases(max(1, round(n / LI_TASKS_PER_JOB)), arrivals)
    return cases


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs of each case (default 1)")
    ap.add_argument("--only", type=_names, help="comma-separated cases (blue, li, layered, wfformat) or CASE-POLICY")
    ap.add_argument("--dag-jobs", type=int, default=10_000, help="Li et al. DAG jobs (default 10,000)")
    ap.add_argument("--arrivals", default="120", help="mean gap between Li et al. DAG jobs (s), or loose / tight")
    ap.add_argument("--tasks", type=int, default=10_000, help="tasks of the layered and wfformat cases (10,000)")
    ap.add_argument("--injected", default="work_20-dur_2h-size_2medium.lwf",
                    help="an AR file of blue-30days/injected/ (default work_20-dur_2h-size_2medium.lwf)")
    ap.add_argument("--scale", nargs="?", type=_sizes, const=list(SCALE_SIZES), default=None, metavar="SIZES",
                    help="the scaling curve of the layered and li cases at these task counts "
                         "(default 10000,20000,50000,100000)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--profile", metavar="CASE", help="run CASE-POLICY once under cProfile, print its top functions")
    ap.add_argument("--sort", default="tottime", help="--profile's order (tottime, cumulative, ...)")
    ap.add_argument("--top", type=int, default=25, help="--profile's number of functions (25)")
    args = ap.parse_args(argv)

    cases = scale_cases(args.scale, args.arrivals) if args.scale else default_cases(args)
    if args.profile:
        found = [c for c in cases if c.name == args.profile]
        if not found:
            ap.error(f"--profile {args.profile}: no such case (cases: {', '.join(c.name for c in cases)})")
        profile(found[0], args.sort, args.top)
        return 0
    cases = select(cases, args.only)
    m = machine()
    print(f"{m['platform']}, Python {m['python']}, {m['cpus']} CPUs; CPU seconds of whole runs, best of {args.repeat}")
    print(HEADER, flush=True)
    rows = run_cases(cases, args.repeat)
    points = curve(rows) if args.scale else []
    if points:
        print_curve(points)
    if args.json:
        doc = {"machine": m, "command": [os.path.basename(sys.argv[0]), *(argv if argv is not None else sys.argv[1:])],
               "repeat": args.repeat, "seconds": "CPU seconds (time.process_time) of whole runs, best of repeat",
               "rows": rows, "scaling": points}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1, allow_nan=False)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
