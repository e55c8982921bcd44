"""Random cloud systems, run as a user runs them, checked from their output files (issue 16, item 1).

Every case is a scenario mapping made here (a lease cloud for ``leases``; 1-4 clouds of DAG jobs
for ``fdls``, ``fdls`` with ``strict: false`` and ``fdmms``), loaded with
:func:`~cloudsim_py.scenario.load_scenario` and run with
:func:`~cloudsim_py.scenario.run_scenario` into a folder. The invariants below read only what the
run wrote there (``jobs.csv``, ``intervals.csv``, ``dag_jobs.csv``, ``summary.json``) and the
input the test generated; nothing of the scheduler is looked at.

Each case draws an option family (its scenario's name says which): for leases the project's
parameters and costs; Haizea 1.0's test configuration (a) (``broker.params.preset: haizea`` with
``federation.overheads.preset: haizea``) or setting (b) (``overheads: {preset: haizea,
enactment_s: 0, override_suspend_s: null}``), each sometimes with one rule or cost changed as
docs/federation.md's other Haizea settings do; or Haizea's options one by one mixed with the
defaults (``backfill: aggressive``, ``threshold_factor``, ``preempt_order``, ``preempt_max_age``,
``copy_ahead``, ``ar_vms``; ``enactment_s``, ``shutdown_s``, ``override_suspend_s``,
``exclusion``, ``whole_seconds``, ``migrate_mbps``). DAG systems draw the discipline options the
DAG policies take (``preemption``, ``backfill`` including ``aggressive``, ``migrate``,
``fill_gaps``, ``ar_vms``; not Haizea's other rules) and the same cost families.

Each invariant is one function named for what it checks, numbered as in the issue
(docs/federation.md is the semantics):

1. no VM holds two things at once (runs, saves, reloads, migrations, transfers, cancelled
   transfers until they are cut, shutdowns and lost runs; a ``copy`` is network traffic and
   holds none); (1b) every interval uses the VMs the request asks for (a copy round at most);
2. an accepted advance reservation runs from exactly its requested start (at or after it with
   ``preemption: start-late``), its image transfer ending there, its shutdown (if any) carved
   out of its interval; (2b) an immediate lease starts when it is submitted; (2c) neither, nor
   a non-preemptible best-effort lease, is ever suspended or cancelled; (2d) nothing starts
   before it is submitted; (2e) with ``preemption: reject`` or ``start-late`` nothing is
   preempted (gap starts of aggressive backfilling aside); (2f) with ``backfill: false``
   best-effort leases start in arrival order; (2g) runs are lost only under a scheduling
   threshold, and ``preempt_max_age`` protects old leases;
3. the run intervals of a finished lease or task add up to its run time (work is conserved
   across suspend, resume and migration; lost runs are extra and add up to ``lost_work``), and
   that run time is the input's; (3b) the rows' ``start`` and ``finish`` agree with the
   intervals; (3c) every overhead lasts what the documented arithmetic gives;
4. no task starts before its parents end and their data has arrived, nor (4b) before its
   job's submission or an AR job's requested start; (4c) ``dag_jobs.csv`` has a row per DAG job:
   finished (with its last task's finish) or rejected with its tasks' reason;
5. every lease and task of the input has exactly one ``jobs.csv`` row: finished, or rejected,
   unfinished or skipped with a reason; (5b) best-effort leases (which fit the cloud) finish;
6. a suspension saves the state (when a save takes time) and a reload (after a migration, or
   a copy ahead, if the job moved) comes before the next run; the runs of one job never
   overlap; a shutdown follows only a last run that was not cut short; a cancelled lease starts
   over; a suspension respects the scheduling threshold, a resumption with ``copy_ahead`` one
   copy's time;
7. the same seed gives byte-identical ``jobs.csv`` and ``intervals.csv``;
8. ``summary.json`` is strict JSON and lists the files written; (8b) its counts match the rows
   (``be_requeued`` between the kills and ``be_preempted``, the VM-seconds of every kind).

Where a check reads the documented semantics more precisely than issue 16 words it, its
docstring says so: a DAG AR task has no requested start of its own (2, 4b), and a job cut the
moment it starts or resumes has an empty run that ``intervals.csv`` does not draw (3b, 6); each
adaptation to Haizea's rules cites docs/federation.md.

A run that raises (``StuckJobsError``: work never finished; ``PolicyFailure``: the scheduler
crashed, e.g. a ``CapacityError``) fails the test. Only a ``ScenarioError`` at load time is
skipped (``assume(False)``); the generator makes valid input, so that stays rare.

The default run keeps a fast profile; ``-m slow`` runs the long one (``CLOUD_STRESS_EXAMPLES``
cases per policy, default 3,000). A failing case is printed as the scenario's YAML (a note);
``--hypothesis-show-statistics`` counts the option families and what the cases reached.
"""

from __future__ import annotations

import csv
import json
import math
import os
import tempfile
from collections import defaultdict
from typing import Any, NamedTuple

import pytest
import yaml
from hypothesis import HealthCheck, assume, event, given, note, settings, strategies as st

from cloudsim_py.errors import ScenarioError
from cloudsim_py.scenario import load_scenario, run_scenario

#: the cloud policies and the params each case adds to its drawn ones
POLICIES = {"leases": ("leases", {}), "fdls": ("fdls", {}), "fdls-loose": ("fdls", {"strict": False}),
            "fdmms": ("fdmms", {})}
LONG_EXAMPLES = int(os.environ.get("CLOUD_STRESS_EXAMPLES", "3000"))
#: kinds of interval (docs/federation.md, "Records, outputs and Gantt intervals"); all hold their
#: VMs (a cancelled transfer or migration until it is cut, a lost run while it ran) but a copy,
#: network traffic (records.NOT_ON_VMS)
KINDS = ("transfer", "run", "save", "migrate", "reload", "cancelled", "shutdown", "copy", "lost")
NOT_ON_VMS = ("copy",)
END_STATES = ("finished", "rejected", "unfinished", "skipped")


# ---------------------------------------------------------------------------------------------
# strategies: valid cloud systems, as scenario mappings

BANDWIDTHS = st.one_of(st.sampled_from([8, 10, 32, 100, 128, 200]), st.integers(8, 200))
COPY_SPEEDS = st.one_of(st.sampled_from([8, 32, 100]), st.integers(8, 100))
LATENCIES = st.one_of(st.sampled_from([0, 0, 0.5, 0.5, 0.25, 1, 5, 10]),
                      st.floats(0, 10).map(lambda x: round(x, 3)))
SIZES_MB = st.one_of(st.just(0), st.sampled_from([1, 64, 512, 600, 1024, 2048]), st.integers(0, 2048))
DURATIONS = st.one_of(st.sampled_from([1, 2, 30, 60, 449, 473, 3600, 7200]), st.integers(1, 4 * 3600),
                      st.floats(1, 7200).map(lambda x: round(x, 2)))
SUBMIT_GAPS = st.sampled_from([0, 0, 0, 1, 5, 25, 60, 300, 3600])
NOTICES = st.one_of(st.sampled_from([0, 0, 1, 10, 60, 111, 300, 600, 1800, 3600, 7200]), st.integers(0, 6 * 3600),
                    st.floats(0, 3600).map(lambda x: round(x, 1)))
#: busy workloads
BUSY_GAPS = st.sampled_from([0, 0, 1, 5, 25, 60])
LONG_DURATIONS = st.one_of(st.sampled_from([1800, 3600, 7200]), st.integers(600, 4 * 3600))
BUSY_NOTICES = st.one_of(st.sampled_from([60, 300, 600, 1800]), st.integers(30, 3600))
TASK_RUNTIMES = st.one_of(st.sampled_from([0.5, 1, 10, 60, 100, 300, 3600]), st.integers(1, 3 * 3600),
                          st.floats(0.5, 600).map(lambda x: round(x, 2)))


@st.composite
def vm_type(draw, speed: bool = False) -> dict[str, Any]:
    vt = {"cpus": draw(st.integers(1, 4)), "memory_mb": draw(st.sampled_from([1024, 2048, 4096])),
          "disk_mb": 0, "bandwidth_mbps": draw(BANDWIDTHS)}
    if speed and draw(st.booleans()):
        vt["speed"] = draw(st.sampled_from([0.5, 1, 2, 3]))
    return vt


@st.composite
def overheads(draw) -> dict[str, Any] | None:
    """Mostly the defaults (memory saved, state and image migrated); sometimes another setting."""
    if draw(st.integers(0, 4)) > 0:
        return None
    return draw(classic_overheads())


@st.composite
def classic_overheads(draw) -> dict[str, Any]:
    """The project's own cost options, each given or left to its default."""
    out: dict[str, Any] = {}
    if draw(st.booleans()):
        out["suspend"] = draw(st.sampled_from(["memory", "image"]))
    if draw(st.booleans()):
        out["migrate"] = draw(st.sampled_from(["state+image", "state"]))
    if draw(st.booleans()):
        out["image"] = draw(st.booleans())
    if draw(st.booleans()):
        out["suspend_mbps"] = draw(COPY_SPEEDS)
    return out


ENACTMENTS = st.one_of(st.sampled_from([0, 0, 1, 2, 2, 5]), st.floats(0, 5).map(lambda x: round(x, 2)))
SHUTDOWNS = st.one_of(st.sampled_from([0, 1, 2, 10, 30]), st.floats(0, 60).map(lambda x: round(x, 2)))
#: Haizea 1.0's two test settings (docs/federation.md, "Haizea 1.0 and this project"): (a) the
#: preset, enactment overhead 2 s per VM and suspensions overridden to 0 s; (b) neither
HAIZEA_A: dict[str, Any] = {"preset": "haizea"}
HAIZEA_B: dict[str, Any] = {"preset": "haizea", "enactment_s": 0, "override_suspend_s": None}
#: one rule of the presets changed, as docs/federation.md's "Haizea's other settings" do
PRESET_COST_CHANGES = st.sampled_from([
    {"override_suspend_s": None}, {"shutdown_s": 10}, {"exclusion": "global"}, {"suspend_mbps": 50},
    {"whole_seconds": False}, {"image": True}, {"migrate_mbps": None}, {"enactment_s": 5, "shutdown_s": 3}])
PRESET_RULE_CHANGES = st.sampled_from([
    {"threshold_factor": 0}, {"threshold_factor": 3}, {"migrate": False}, {"preemption": "reject"},
    {"preemption": "start-late"}, {"fill_gaps": False, "threshold_factor": 1e9}, {"fill_gaps": False},
    {"preempt_order": "newest"}, {"preempt_max_age": 600}, {"copy_ahead": False}, {"ar_vms": "arbitrary"},
    {"threshold_factor": None}])


@st.composite
def haizea_costs(draw) -> dict[str, Any]:
    """Haizea 1.0's cost options one by one, mixed with the defaults and the project's options."""
    out = draw(classic_overheads())
    if draw(st.booleans()):
        out["enactment_s"] = draw(ENACTMENTS)
    if draw(st.booleans()):
        out["shutdown_s"] = draw(SHUTDOWNS)
    if draw(st.integers(0, 2)) == 0:
        out["override_suspend_s"] = draw(st.sampled_from([None, 0, 0, 5, 30]))
    if draw(st.booleans()):
        out["exclusion"] = draw(st.sampled_from(["local", "global"]))
    if draw(st.booleans()):
        out["whole_seconds"] = draw(st.booleans())
    if draw(st.integers(0, 2)) == 0:
        out["migrate_mbps"] = draw(st.one_of(st.just(12.5), COPY_SPEEDS))
    return out


@st.composite
def cost_family(draw) -> tuple[str, dict[str, Any] | None]:
    """``(family, federation.overheads)`` of a DAG system: the defaults, the project's options,
    Haizea's settings (a) and (b) (sometimes with one change), or Haizea's options one by one."""
    family = draw(st.sampled_from(["default", "default", "default", "project", "haizea-a", "haizea-b", "mixed",
                                   "mixed"]))
    if family == "default":
        return family, None
    if family == "project":
        return family, draw(classic_overheads())
    if family == "mixed":
        return family, draw(haizea_costs())
    costs = dict(HAIZEA_A if family == "haizea-a" else HAIZEA_B)
    if draw(st.integers(0, 2)) == 0:
        costs.update(draw(PRESET_COST_CHANGES))
    return family, costs


@st.composite
def broker_params(draw, dags: bool) -> dict[str, Any]:
    """Each parameter given or left to its default (the DAG policies take the local discipline's
    ``preemption``, ``backfill`` (``aggressive`` too), ``migrate``, ``fill_gaps`` and
    ``ar_vms``, docs/federation.md, broker parameters; not Haizea's other rules)."""
    params: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        params["preemption"] = draw(st.sampled_from(["suspend", "suspend", "reject", "start-late"]))
    for key in ("backfill", "migrate", "fill_gaps"):
        if draw(st.integers(0, 3)):
            params[key] = draw(st.booleans())
    if draw(st.integers(0, 4)) == 0:
        params["ar_vms"] = draw(st.sampled_from(["free-first", "arbitrary"]))
    if dags:
        if draw(st.integers(0, 5)) == 0:
            params["backfill"] = "aggressive"
        if draw(st.booleans()):
            params["alpha"] = draw(st.sampled_from([0, 0.1, 0.5, 1]))
        if draw(st.booleans()):
            params["ar_slack"] = draw(st.sampled_from([0, 1, 10, 60]))
    return params


@st.composite
def haizea_rules(draw) -> dict[str, Any]:
    """Haizea 1.0's scheduling rules one by one, mixed with the project's broker parameters."""
    params = draw(broker_params(dags=False))
    if draw(st.integers(0, 2)):
        params["backfill"] = "aggressive"
    if draw(st.integers(0, 2)):
        params["threshold_factor"] = draw(st.one_of(st.sampled_from([None, 0, 1, 1, 3, 50]),
                                                    st.floats(0, 3).map(lambda x: round(x, 2))))
    if draw(st.booleans()):
        params["preempt_order"] = draw(st.sampled_from(["newest", "oldest"]))
    if draw(st.integers(0, 3)) == 0:
        params["preempt_max_age"] = draw(st.sampled_from([None, 0, 60, 600, 3600, 7 * 86400]))
    if params.get("backfill") == "aggressive" and draw(st.booleans()):
        params["copy_ahead"] = draw(st.booleans())
    return params


@st.composite
def lease_family(draw) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """``(family, broker params, federation.overheads)`` of a lease cloud: the project's
    parameters and costs; Haizea's test configuration (a) or setting (b), both with ``preset:
    haizea`` in the broker, sometimes with one rule or cost changed; or Haizea's options one by
    one, mixed with the defaults."""
    family = draw(st.sampled_from(["project", "project", "haizea-a", "haizea-b", "mixed", "mixed"]))
    if family == "project":
        return family, draw(broker_params(dags=False)), draw(overheads())
    if family == "mixed":
        return family, draw(haizea_rules()), draw(st.one_of(st.none(), haizea_costs()))
    params: dict[str, Any] = {"preset": "haizea"}
    costs = dict(HAIZEA_A if family == "haizea-a" else HAIZEA_B)
    if draw(st.integers(0, 2)) == 0:
        params.update(draw(PRESET_RULE_CHANGES))
    if draw(st.integers(0, 2)) == 0:
        costs.update(draw(PRESET_COST_CHANGES))
    return family, params, costs


@st.composite
def sizes(draw) -> tuple[float, float]:
    """memory_mb and image_mb, often 0, often equal."""
    memory = draw(SIZES_MB)
    image = draw(st.one_of(st.just(memory), SIZES_MB))
    return memory, image


@st.composite
def lease_requests(draw, vms: int, vm_cpus: int, max_leases: int, bandwidth: float = 100,
                   haizea: bool = False) -> list[dict[str, Any]]:
    """Leases of every mode; half the workloads are busy: long best-effort leases, close
    arrivals and ARs with enough notice to be booked over them (preemptions, migrations). Some
    ARs start on a boundary: when an earlier AR starts or ends, when an earlier lease would end,
    or exactly one image transfer after their submission. Under Haizea's rules (``haizea``)
    most leases have memory, as in Haizea's configurations (a state to save and copy, and
    scheduling thresholds that grow with it), and busy ARs sometimes come at short notice (a
    lease started just before may be below its threshold: cancelled, its run lost)."""
    n = draw(st.integers(1, max_leases))
    ids = draw(st.one_of(st.just(list(range(1, n + 1))),
                         st.lists(st.integers(1, 99), min_size=n, max_size=n, unique=True)))
    busy = draw(st.booleans())
    out = []
    t = 0.0
    marks: list[float] = []                     # times an AR may start on
    for lease_id in ids:
        t += draw(BUSY_GAPS if busy else SUBMIT_GAPS)
        modes = ["ar", "best-effort", "best-effort", "best-effort"] if busy else \
            ["ar", "ar", "best-effort", "best-effort", "immediate"]
        mode = draw(st.sampled_from(modes))
        duration = draw(LONG_DURATIONS if busy and mode == "best-effort" else DURATIONS)
        per_node = draw(st.one_of(st.none(), st.integers(1, vm_cpus), st.integers(1, 2 * vm_cpus)))
        per_vms = 1 if per_node is None else math.ceil(per_node / vm_cpus)
        if per_vms > vms:
            per_node, per_vms = None, 1
        lease: dict[str, Any] = {"id": lease_id, "submit": t, "mode": mode, "duration": duration,
                                 "nodes": draw(st.integers(1, vms // per_vms))}
        if per_node is not None:
            lease["cpus_per_node"] = per_node
        memory, image = draw(sizes())
        if haizea and draw(st.integers(0, 2)):
            memory = draw(st.sampled_from([512, 1024, 1024, 2048]))
        if mode == "ar":
            soon = haizea and busy and draw(st.integers(0, 2)) == 0
            start = t + draw(st.sampled_from([0, 5, 30, 60, 120]) if soon else BUSY_NOTICES if busy else NOTICES)
            later = [m for m in marks if m >= t] + [t + image / bandwidth]
            if draw(st.integers(0, 3)) == 0:
                start = draw(st.sampled_from(later))
            lease["start"] = start
            marks += [start, start + duration]
        else:
            marks.append(t + duration)
            if mode == "best-effort" and draw(st.integers(0, 5)) == 0:
                lease["preemptible"] = False
        if memory or draw(st.booleans()):
            lease["memory_mb"] = memory
        if image or draw(st.booleans()):
            lease["image_mb"] = image
        if draw(st.integers(0, 3)) == 0:       # a premature end
            lease["real_duration"] = draw(st.one_of(
                st.sampled_from([duration / 2, duration]),
                st.floats(0.01, 1).map(lambda f: max(round(duration * f, 3), 0.001))))
        out.append(lease)
    if draw(st.integers(0, 4)) == 0:           # the list needs no order
        out = draw(st.permutations(out))
    return out


@st.composite
def lease_system(draw, params: dict[str, Any], max_leases: int) -> dict[str, Any]:
    """One cloud of 1-6 VMs running advance-reservation, best-effort and immediate leases."""
    vt = draw(vm_type())
    cloud = {"name": "c0", "vm_type": "v0", "vms": draw(st.integers(1, 6))}
    if draw(st.integers(0, 3)):
        cloud["copy_mbps"] = draw(COPY_SPEEDS)
    fed: dict[str, Any] = {"vm_types": {"v0": vt}, "clouds": [cloud], "latency": draw(LATENCIES)}
    family, drawn, oh = draw(lease_family())
    if oh is not None:
        fed["overheads"] = oh
    return {"name": f"lease-stress/{family}", "seed": draw(st.integers(0, 1000)), "federation": fed,
            "leases": {"requests": draw(lease_requests(cloud["vms"], vt["cpus"], max_leases, vt["bandwidth_mbps"],
                                                       haizea=family != "project"))},
            "broker": {"policy": "leases", "params": {**drawn, **params}}}


@st.composite
def dag_job(draw, index: int, submit: float, clouds: int, max_cpus: int, types: list[str],
            busy: bool = False) -> dict[str, Any]:
    """A job of 1-8 tasks, edges from earlier tasks to later ones; in busy systems AR jobs are
    more frequent and start later, when best-effort tasks hold the VMs."""
    n = draw(st.integers(1, 8))
    ar = draw(st.integers(0, 1 if busy else 2)) == 0
    tasks: dict[str, Any] = {}
    edges: list[list[Any]] = []
    for k in range(n):
        task: dict[str, Any] = {}
        if types and draw(st.integers(0, 2)) == 0:
            task["type"] = draw(st.sampled_from(types))
        else:
            task["runtime"] = draw(LONG_DURATIONS if busy and not ar else TASK_RUNTIMES)
        if draw(st.integers(0, 3)):
            task["cpus"] = draw(st.one_of(st.integers(1, max_cpus), st.just(max_cpus)))
        memory, image = draw(sizes())
        if memory or draw(st.booleans()):
            task["memory_mb"] = min(memory, 1024)
        if image or draw(st.booleans()):
            task["image_mb"] = min(image, 1024)
        tasks[f"t{k}"] = task
        for p in range(k):                      # parents among the earlier tasks: acyclic
            if draw(st.integers(0, 2)) == 0:
                data = draw(st.one_of(st.none(), st.just(0), st.integers(1, 100)))
                edges.append([f"t{p}", f"t{k}"] if data is None else [f"t{p}", f"t{k}", data])
    job: dict[str, Any] = {"id": draw(st.sampled_from([f"j{index}", index, 100 + index])), "submit": submit,
                           "tasks": tasks}
    if edges:
        job["edges"] = edges
    if clouds > 1 or draw(st.booleans()):
        job["cloud"] = draw(st.integers(0, clouds - 1))
    if ar:
        job["mode"] = "ar"
        if draw(st.integers(0, 3)):             # else start defaults to the submission
            job["start"] = submit + draw(BUSY_NOTICES if busy else NOTICES)
    elif draw(st.booleans()):
        job["mode"] = "best-effort"
    return job


@st.composite
def dag_system(draw, policy: str, params: dict[str, Any], max_jobs: int) -> dict[str, Any]:
    """1-4 clouds (each of 1-6 VMs of its VM type, two may share one) running 1-6 DAG jobs."""
    n = draw(st.integers(1, 4))
    vm_types: dict[str, Any] = {}
    clouds = []
    for i in range(n):
        if vm_types and draw(st.integers(0, 3)) == 0:
            name = draw(st.sampled_from(sorted(vm_types)))
        else:
            name = f"v{len(vm_types)}"
            vm_types[name] = draw(vm_type(speed=True))
        cloud = {"name": f"c{i}", "vm_type": name, "vms": draw(st.integers(1, 6))}
        if draw(st.integers(0, 3)):
            cloud["copy_mbps"] = draw(COPY_SPEEDS)
        clouds.append(cloud)
    fed: dict[str, Any] = {"vm_types": vm_types, "clouds": clouds, "latency": draw(LATENCIES)}
    if draw(st.integers(0, 2)) == 0:
        fed["inter_cloud_mbps"] = draw(BANDWIDTHS)
    types: list[str] = []
    if draw(st.integers(0, 3)) == 0:            # some tasks typed, their times in a matrix
        types = ["fft", "sort"][: draw(st.integers(1, 2))]
        fed["matrix"] = {"times": {t: {v: draw(TASK_RUNTIMES) for v in vm_types} for t in types}}
    family, oh = draw(cost_family())
    if oh is not None:
        fed["overheads"] = oh
    max_cpus = max(vm_types[c["vm_type"]]["cpus"] * c["vms"] for c in clouds)
    jobs = []
    t = 0.0
    ids: set[str] = set()
    busy = draw(st.booleans())
    for i in range(draw(st.integers(1, max_jobs))):
        t += draw(BUSY_GAPS if busy else SUBMIT_GAPS)
        job = draw(dag_job(i, t, n, max_cpus, types, busy))
        assume(str(job["id"]) not in ids)       # ids differ (also as text: jobs.csv prints them)
        ids.add(str(job["id"]))
        jobs.append(job)
    return {"name": f"dag-stress/{family}", "seed": draw(st.integers(0, 1000)), "federation": fed,
            "dags": {"jobs": jobs},
            "broker": {"policy": policy, "params": {**draw(broker_params(dags=True)), **params}}}


def systems(name: str, max_leases: int = 8, max_jobs: int = 6):
    """Scenarios for the policy ``name`` (a key of ``POLICIES``)."""
    policy, params = POLICIES[name]
    if policy == "leases":
        return lease_system(params, max_leases).map(Scenario)
    return dag_system(policy, params, max_jobs).map(Scenario)


# ---------------------------------------------------------------------------------------------
# the generated input, as the invariants need it

class CloudInfo(NamedTuple):
    name: str
    vm_type: str
    vms: int
    vm_cpus: int
    bandwidth: float
    speed: float
    copy_mbps: float


def clouds_of(scenario: dict[str, Any]) -> list[CloudInfo]:
    fed = scenario["federation"]
    out = []
    for c in fed["clouds"]:
        vt = fed["vm_types"][c["vm_type"]]
        out.append(CloudInfo(c["name"], c["vm_type"], c["vms"], vt["cpus"], vt["bandwidth_mbps"],
                             vt.get("speed", 1), c.get("copy_mbps", 32)))
    return out


#: docs/federation.md, "Costs: federation.overheads": each option's default and preset ``haizea``
#: (Haizea 1.0's test configuration); any key beside a preset changes it
COST_DEFAULTS: dict[str, Any] = {
    "image": True, "suspend": "memory", "migrate": "state+image", "suspend_mbps": None, "migrate_mbps": None,
    "enactment_s": 0.0, "shutdown_s": 0.0, "override_suspend_s": None, "exclusion": "local",
    "whole_seconds": False}
COST_PRESETS: dict[str, dict[str, Any]] = {"haizea": {
    "image": False, "suspend": "memory", "migrate": "state", "suspend_mbps": 32.0, "migrate_mbps": 12.5,
    "enactment_s": 2.0, "shutdown_s": 0.0, "override_suspend_s": 0.0, "exclusion": "local",
    "whole_seconds": True}}
#: docs/federation.md, broker parameters and "Scheduling: broker params": the local discipline's
#: defaults and preset ``haizea``
RULE_DEFAULTS: dict[str, Any] = {
    "preemption": "suspend", "backfill": True, "migrate": True, "fill_gaps": True, "ar_vms": "free-first",
    "threshold_factor": None, "preempt_order": "newest", "preempt_max_age": None, "copy_ahead": False}
RULE_PRESETS: dict[str, dict[str, Any]] = {"haizea": {
    "preemption": "suspend", "backfill": "aggressive", "migrate": True, "fill_gaps": True, "ar_vms": "free-first",
    "threshold_factor": 1.0, "preempt_order": "oldest", "preempt_max_age": 7 * 86400.0, "copy_ahead": True}}


def with_preset(given: dict[str, Any] | None, defaults: dict[str, Any],
                presets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    given = dict(given or {})
    name = given.pop("preset", None)
    out = {**defaults, **(presets[name] if name is not None else {})}
    out.update({k: v for k, v in given.items() if k in defaults})
    return out


def cost_options(scenario: dict[str, Any]) -> dict[str, Any]:
    """``federation.overheads`` with its preset and defaults filled in."""
    return with_preset(scenario["federation"].get("overheads"), COST_DEFAULTS, COST_PRESETS)


def rules(scenario: dict[str, Any]) -> dict[str, Any]:
    """The local discipline's options (broker params) with the preset and defaults filled in."""
    return with_preset(scenario["broker"].get("params"), RULE_DEFAULTS, RULE_PRESETS)


def preemption(scenario: dict[str, Any]) -> str:
    return rules(scenario)["preemption"]


class Costs(NamedTuple):
    """What moving one lease or task on and off its ``n`` VMs takes, in seconds."""

    transfer: float        #: its image sent to its VMs before its first run
    save: float            #: one suspension (an interval ``save`` when > 0)
    reload: float          #: one resumption (an interval ``reload`` when > 0)
    migrate: float         #: a migration; also each round of a state copy (``copy_ahead``)
    shutdown: float        #: after a run that was not cut short (an interval ``shutdown`` when > 0)
    save_estimate: float   #: Haizea's whole-lease suspend estimate ``E`` (the scheduling threshold's)


def costs(scenario: dict[str, Any], item: dict[str, Any], cloud: CloudInfo, n: int) -> Costs:
    """The arithmetic of docs/federation.md ("Overheads", and "Costs: federation.overheads" for
    Haizea's options): ``op = mem / rate`` per VM (rounded up to a whole second with
    ``whole_seconds``; ``override_suspend_s`` replaces it for a suspension), ``e = enactment_s``;
    local exclusion ``op + e n``, global ``n (op + e)``; shutdown ``shutdown_s + e n``; ``E = n
    (ceil(n mem / rate) + e)`` or the override; a migration (and a copy round) sends the state
    (and, by default, the image) at ``migrate_mbps`` (else the VM type's bandwidth); the image
    goes at the VM type's bandwidth (none with ``image: false``). ``mem`` is the memory, or the
    image with ``suspend: image``."""
    o = cost_options(scenario)

    def up(seconds: float) -> float:
        return float(math.ceil(round(seconds, 9))) if o["whole_seconds"] else seconds

    e = float(o["enactment_s"])
    memory, image = float(item.get("memory_mb", 0)), float(item.get("image_mb", 0))
    state = memory if o["suspend"] == "memory" else image
    rate = o["suspend_mbps"] if o["suspend_mbps"] is not None else cloud.copy_mbps
    op = up(state / rate) if state else 0.0
    override = o["override_suspend_s"]
    op_save = op if override is None else float(override)
    if o["exclusion"] == "local":
        save, reload = op_save + e * n, op + e * n
    else:
        save, reload = n * (op_save + e), n * (op + e)
    estimate = n * (up(n * state / rate) + e) if override is None else float(override)
    moved = state + image if o["migrate"] == "state+image" and o["suspend"] == "memory" else state
    speed = o["migrate_mbps"] if o["migrate_mbps"] is not None else cloud.bandwidth
    mig = up(moved / speed) if moved else 0.0
    xfer = up(image / cloud.bandwidth) if o["image"] and image else 0.0
    return Costs(xfer, save, reload, mig, float(o["shutdown_s"]) + e * n, estimate)


def vms_asked(item: dict[str, Any], cloud: CloudInfo, lease: bool) -> int:
    """VMs a lease (``nodes x ceil(cpus_per_node / VM CPUs)``) or a task (``ceil(cpus / VM CPUs)``) takes."""
    if lease:
        return item["nodes"] * math.ceil(item.get("cpus_per_node", 1) / cloud.vm_cpus)
    return math.ceil(item.get("cpus", 1) / cloud.vm_cpus)


def ar_carve(scenario: dict[str, Any], lease: dict[str, Any]) -> float:
    """The shutdown carved out of AR lease ``lease``'s interval (docs/federation.md, "Costs": its
    VMs run ``duration - shutdown`` and its shutdown ends at the end of its interval), 0 if none.
    An AR whose shutdown is as long as its duration or longer (a 1 s AR with 2 s of enactment
    overhead) has nothing to run: the page says it is refused (:func:`ar_too_short`), so the
    carve needs ``0 < shutdown < duration``."""
    cloud = clouds_of(scenario)[0]
    sd = costs(scenario, lease, cloud, vms_asked(lease, cloud, True)).shutdown
    return sd if 0 < sd < lease["duration"] else 0.0


def ar_too_short(scenario: dict[str, Any], lease: dict[str, Any]) -> bool:
    """Whether AR lease ``lease`` is no longer than its shutdown (docs/federation.md, "Costs":
    nothing of its interval is left to run, and it is refused)."""
    cloud = clouds_of(scenario)[0]
    sd = costs(scenario, lease, cloud, vms_asked(lease, cloud, True)).shutdown
    return 0 < lease["duration"] <= sd


def as_yaml(scenario: dict[str, Any]) -> str:
    return yaml.safe_dump(dict(scenario), sort_keys=False, default_flow_style=None, width=110)


class Scenario(dict):
    """A generated scenario mapping that prints as its YAML (how hypothesis shows a failing case)."""

    def __repr__(self) -> str:
        return "\n" + as_yaml(self)


# ---------------------------------------------------------------------------------------------
# the outputs, read back

class Interval(NamedTuple):
    cloud: str
    job: str
    kind: str
    start: float
    end: float
    vms: tuple[int, ...]


class Outputs(NamedTuple):
    folder: str
    jobs: list[dict[str, str]]
    intervals: list[Interval]
    dag_jobs: list[dict[str, str]] | None
    summary_text: str

    def of(self, job_id: str) -> list[Interval]:
        """One lease's or task's intervals, in time order (by start, then end)."""
        return sorted((i for i in self.intervals if i.job == job_id), key=lambda i: (i.start, i.end))


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def read_outputs(folder: str) -> Outputs:
    intervals = [Interval(r["cloud"], r["job"], r["kind"], float(r["start"]), float(r["end"]),
                          tuple(int(v) for v in r["vms"].split()))
                 for r in read_csv(os.path.join(folder, "intervals.csv"))]
    dag_path = os.path.join(folder, "dag_jobs.csv")
    dag_jobs = read_csv(dag_path) if os.path.exists(dag_path) else None
    with open(os.path.join(folder, "summary.json")) as fh:
        text = fh.read()
    return Outputs(folder, read_csv(os.path.join(folder, "jobs.csv")), intervals, dag_jobs, text)


def run(scenario: dict[str, Any], folder: str) -> Outputs:
    """Load and run ``scenario`` as a user does, into ``folder``; read its files back."""
    loaded = load_scenario(scenario)
    run_scenario(loaded, folder)
    return read_outputs(folder)


# tolerances: times are sums of floats (a transfer of 600 MB at 7 MB/s ...), compared to ~1 ns
def same_time(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def not_before(a: float, b: float) -> bool:
    """``a >= b`` up to rounding."""
    return a >= b - 1e-9 * max(1.0, abs(a), abs(b))


# ---------------------------------------------------------------------------------------------
# which row is which input

def lease_rows(out: Outputs) -> dict[str, list[dict[str, str]]]:
    rows = defaultdict(list)
    for r in out.jobs:
        rows[r["id"]].append(r)
    return rows


def task_rows(out: Outputs) -> dict[tuple[str, str], list[dict[str, str]]]:
    rows = defaultdict(list)
    for r in out.jobs:
        rows[(r["dag"], r["task"])].append(r)
    return rows


def leases_of(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    return scenario["leases"]["requests"] if "leases" in scenario else []


def dag_tasks(scenario: dict[str, Any]):
    """``(job, task name, task fields)`` of every task of the input."""
    for job in scenario.get("dags", {}).get("jobs", []):
        for name, fields in job["tasks"].items():
            yield job, name, fields


def parents(job: dict[str, Any], task: str) -> list[tuple[str, float]]:
    """``(parent, data_mb)`` of ``task`` in ``job``."""
    return [(e[0], e[2] if len(e) == 3 else 0) for e in job.get("edges", []) if e[1] == task]


def finished_items(scenario: dict[str, Any], out: Outputs):
    """``(row, input fields, is_lease)`` of every finished lease and task."""
    by_lease = lease_rows(out)
    for lease in leases_of(scenario):
        for r in by_lease.get(str(lease["id"]), []):
            if r["state"] == "finished":
                yield r, lease, True
    by_task = task_rows(out)
    for job, name, fields in dag_tasks(scenario):
        for r in by_task.get((str(job["id"]), name), []):
            if r["state"] == "finished":
                yield r, fields, False


def cloud_named(scenario: dict[str, Any], name: str) -> CloudInfo:
    found = [c for c in clouds_of(scenario) if c.name == name]
    assert found, f"jobs.csv names cloud {name!r}, which the input does not have"
    return found[0]


# ---------------------------------------------------------------------------------------------
# the invariants

class Job(NamedTuple):
    """A lease or task that has a ``jobs.csv`` id: its row, its input fields, its intervals."""

    row: dict[str, str]
    item: dict[str, Any]
    lease: bool
    intervals: list[Interval]          #: in time order, copies included

    def on_vms(self) -> list[Interval]:
        """Its intervals that hold VMs (all but copies), in time order."""
        return [i for i in self.intervals if i.kind not in NOT_ON_VMS]

    def of(self, kind: str) -> list[Interval]:
        return [i for i in self.intervals if i.kind == kind]


def jobs_of(scenario: dict[str, Any], out: Outputs) -> dict[str, Job]:
    """Every lease and task with an id in ``jobs.csv`` (tasks never sent to a cloud have none)."""
    leases = {str(lease["id"]): lease for lease in leases_of(scenario)}
    tasks = {(str(job["id"]), name): fields for job, name, fields in dag_tasks(scenario)}
    by_job: dict[str, list[Interval]] = defaultdict(list)
    for i in out.intervals:
        by_job[i.job].append(i)
    found = {}
    for r in out.jobs:
        if not r["id"]:
            continue
        item, lease = (tasks[(r["dag"], r["task"])], False) if r["dag"] else (leases[r["id"]], True)
        ivs = sorted(by_job.get(r["id"], []), key=lambda i: (i.start, i.end))
        found[r["id"]] = Job(r, item, lease, ivs)
    return found


def job_costs(scenario: dict[str, Any], job: Job) -> Costs:
    """``job``'s costs on the cloud it ran on (its intervals'; else its row's)."""
    name = job.intervals[0].cloud if job.intervals else job.row["cloud"]
    cloud = cloud_named(scenario, name)
    return costs(scenario, job.item, cloud, vms_asked(job.item, cloud, job.lease))


def same_span(a: float, b: float) -> bool:
    """Two lengths of time, each the difference of two printed times, are equal."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


def check_no_vm_over_capacity(scenario: dict[str, Any], out: Outputs) -> None:
    """1. A VM holds one thing at a time: on each cloud and VM the intervals of every kind that
    holds VMs (a cancelled transfer or migration holds its VMs until it is cut) never overlap;
    every interval names VMs the cloud has, each once.

    Which kinds hold VMs is docs/federation.md's "Records, outputs and Gantt intervals": a
    ``shutdown`` holds the VMs; a ``copy`` is network traffic that holds no VM (its ``vms`` are
    the receiving ones), so it is skipped; a ``lost`` interval is a run that was thrown away
    later, and a run holds its VMs while it runs, so it counts."""
    clouds = {c.name: c for c in clouds_of(scenario)}
    per_vm: dict[tuple[str, int], list[Interval]] = defaultdict(list)
    for i in out.intervals:
        assert i.kind in KINDS, f"unknown interval kind {i}"
        assert i.cloud in clouds, f"interval on a cloud the input does not have: {i}"
        assert i.vms and len(set(i.vms)) == len(i.vms), f"interval without VMs or naming one twice: {i}"
        assert all(0 <= v < clouds[i.cloud].vms for v in i.vms), f"interval on a VM the cloud lacks: {i}"
        assert i.end > i.start, f"empty or reversed interval: {i}"
        if i.kind in NOT_ON_VMS:
            continue
        for v in i.vms:
            per_vm[(i.cloud, v)].append(i)
    for (cloud, vm), items in per_vm.items():
        items.sort(key=lambda i: (i.start, i.end))
        holder = items[0]
        for i in items[1:]:
            assert not_before(i.start, holder.end), (
                f"cloud {cloud} VM {vm} holds two things at once: {holder} and {i}")
            if i.end > holder.end:
                holder = i


def check_vms_match_the_request(scenario: dict[str, Any], out: Outputs) -> None:
    """1b. Every interval of a lease or task uses as many VMs as it asks of its cloud (a lease
    ``nodes x ceil(cpus_per_node / VM CPUs)``, a task ``ceil(cpus / VM CPUs)``), and its rows'
    ``procs`` say so; a ``copy`` (one round of a state copy) names at most that many receiving
    VMs (docs/federation.md, rule 7: a round in which no VM sends or receives twice)."""
    jobs = jobs_of(scenario, out)
    for i in out.intervals:
        assert i.job in jobs, f"interval of a job with no jobs.csv row: {i}"
        job = jobs[i.job]
        need = vms_asked(job.item, cloud_named(scenario, i.cloud), job.lease)
        if i.kind == "copy":
            assert len(i.vms) <= need, f"{i} copies to {len(i.vms)} VMs, the request takes {need}"
        else:
            assert len(i.vms) == need, f"{i} uses {len(i.vms)} VMs, the request takes {need}"
    for job_id, job in jobs.items():
        r = job.row
        if r["state"] == "finished":
            assert int(r["procs"]) == vms_asked(job.item, cloud_named(scenario, r["cloud"]), job.lease), r


def check_ar_leases_start_at_their_requested_time(scenario: dict[str, Any], out: Outputs) -> None:
    """2. An accepted advance reservation (state finished) runs from exactly its requested start,
    its image transfer (if any) ending there; with ``preemption: start-late`` it starts at or
    after it. (DAG AR tasks have no requested start of their own: docs/federation.md, "the AR
    mode of a DAG job"; check 4 covers their job's start.)

    With a shutdown (``shutdown_s + enactment_s x VMs``, Haizea's rules) the AR's interval
    ``[start, start + duration)`` still bounds it: docs/federation.md ("Costs") carves the
    shutdown out of it: the row's ``start`` is the requested start, its run (and its
    ``finish``, ``runtime``) lasts ``duration - shutdown`` (or less, ``real_duration``), and its
    shutdown ends at ``start + duration``; a run that ends early has no shutdown. An AR no
    longer than its shutdown is refused, and its row says why."""
    late_ok = preemption(scenario) == "start-late"
    rows = lease_rows(out)
    for lease in leases_of(scenario):
        if lease["mode"] != "ar":
            continue
        if ar_too_short(scenario, lease):
            for r in rows[str(lease["id"])]:
                assert r["state"] in ("rejected", "skipped"), f"AR no longer than its shutdown: {r}"
                if r["state"] == "rejected":
                    assert "nothing of its interval is left to run" in r["reason"], r
            continue
        for r in rows[str(lease["id"])]:
            if r["state"] != "finished":
                continue
            assert same_time(float(r["requested_start"]), lease["start"]), r
            ivs = out.of(str(lease["id"]))
            runs = [i for i in ivs if i.kind == "run"]
            first = runs[0].start
            if late_ok:
                assert not_before(first, lease["start"]), f"AR {lease['id']} ran at {first} before {lease['start']}"
            else:
                assert same_time(first, lease["start"]), (
                    f"AR {lease['id']} requested at {lease['start']} first runs at {first}: {ivs}")
            assert same_time(float(r["start"]), first), (r, ivs)
            for t in (i for i in ivs if i.kind == "transfer"):
                assert same_time(t.end, first), f"AR {lease['id']}: its transfer {t} does not end at its start"
            carve = ar_carve(scenario, lease)
            if carve:
                downs = [i for i in ivs if i.kind == "shutdown"]
                planned = lease["duration"] - carve
                if lease.get("real_duration", lease["duration"]) >= planned:
                    assert len(downs) == 1 and same_time(downs[0].end, first + lease["duration"]), (
                        f"AR {lease['id']} [{first}, {first + lease['duration']}) with a shutdown of {carve} s "
                        f"carved out of it: {ivs}")


def check_immediate_leases_start_at_submission(scenario: dict[str, Any], out: Outputs) -> None:
    """2b. An accepted immediate lease starts (its transfer, or its run) when it is submitted."""
    rows = lease_rows(out)
    for lease in leases_of(scenario):
        if lease["mode"] != "immediate":
            continue
        for r in rows[str(lease["id"])]:
            if r["state"] == "finished":
                first = out.of(str(lease["id"]))[0]
                assert same_time(first.start, lease["submit"]), (
                    f"immediate lease {lease['id']} submitted at {lease['submit']} begins with {first}")


def check_reservations_are_never_suspended(scenario: dict[str, Any], out: Outputs) -> None:
    """2c. Advance reservations, immediate leases and best-effort leases marked ``preemptible:
    false`` are not preemptible: one run, no suspension, never cancelled (no ``lost`` run, no
    kill: docs/federation.md, "The LWF preemptible flag" for the best-effort ones)."""
    rows = lease_rows(out)
    for lease in leases_of(scenario):
        if lease["mode"] == "best-effort" and lease.get("preemptible", True):
            continue
        for r in rows[str(lease["id"])]:
            ivs = out.of(str(lease["id"]))
            runs = [i for i in ivs if i.kind in ("run", "lost", "save", "cancelled")]
            assert len(runs) <= 1 and int(r["suspensions"]) == 0 and int(r["kills"]) == 0, (
                f"{lease['mode']} lease {lease['id']} was suspended or cancelled: {ivs}")


def check_nothing_is_preempted_unless_in_suspend_mode(scenario: dict[str, Any], out: Outputs) -> None:
    """2e. With ``preemption: reject`` or ``start-late`` no AR preempts anything: no transfer or
    migration is cut (``cancelled``), no run is thrown away (``lost``), no lease is preempted
    or requeued (summary); and best-effort work does not fill gaps before reservations
    (docs/federation.md, broker parameters): no job is ever suspended.

    Except under ``backfill: aggressive`` with ``fill_gaps``: there ``fill_gaps`` is Haizea's
    ``suspension: all``, which its ``preemption`` does not turn off (docs/federation.md, "Scheduling:
    broker params", and Haizea's multi-experiment, whose "backfilling+SR" profiles run with
    ``preemption: reject``; ``LocalOptions``): a best-effort lease may still start in a gap and be
    suspended at its end, so the suspensions are at most the summary's ``gap_starts``."""
    mode = preemption(scenario)
    if mode == "suspend":
        return
    opts = rules(scenario)
    assert not [i for i in out.intervals if i.kind in ("cancelled", "lost")], (
        f"preemption {mode!r}, yet cut or cancelled: {out.intervals}")
    assert all(int(r["kills"] or 0) == 0 for r in out.jobs), f"preemption {mode!r}, yet a run was lost"
    summary = json.loads(out.summary_text)["summary"]
    assert summary["be_preempted"] == 0 and summary.get("be_requeued", 0) == 0, summary
    cut = [r for r in out.jobs if r["suspensions"] not in ("", "0")]
    if opts["backfill"] == "aggressive" and opts["fill_gaps"]:
        if "leases" in scenario:
            assert sum(int(r["suspensions"]) for r in cut) <= summary["gap_starts"], (summary, cut)
        return
    assert not cut, f"preemption {mode!r}, yet suspended: {cut}"
    assert not [i for i in out.intervals if i.kind == "save"], (
        f"preemption {mode!r}, yet saved: {out.intervals}")


def check_ars_preempt_only_what_they_may(scenario: dict[str, Any], out: Outputs) -> None:
    """2g. Haizea's limits on AR preemption (docs/federation.md, "Scheduling: broker params"):
    a run is thrown away (``lost``, the row's ``kills``) only under a scheduling threshold
    (``threshold_factor``; rule 3); a lease is requeued (summary ``be_requeued``) only under a
    threshold or aggressive backfilling (a future lease planned again); and with
    ``preempt_max_age`` an AR never preempts a lease submitted that long before its start, so a
    lease's run is cut or cancelled (a ``cancelled`` or ``lost`` interval ends when the AR is
    booked, before its start) less than ``preempt_max_age`` after the lease's submission."""
    opts = rules(scenario)
    summary = json.loads(out.summary_text)["summary"]
    if opts["threshold_factor"] is None:
        assert not [i for i in out.intervals if i.kind == "lost"], "lost runs without threshold_factor"
        assert all(int(r["kills"] or 0) == 0 for r in out.jobs), "a lease cancelled without threshold_factor"
        if opts["backfill"] != "aggressive" and "leases" in scenario:
            assert summary["be_requeued"] == 0, summary
    age = opts["preempt_max_age"]
    if age is None or "leases" not in scenario:
        return
    submit = {str(lease["id"]): lease["submit"] for lease in leases_of(scenario)}
    for i in out.intervals:
        if i.kind in ("lost", "cancelled"):
            assert i.end - submit[i.job] < age + 1e-6, (
                f"preempt_max_age {age}: lease {i.job} submitted at {submit[i.job]} was preempted at {i.end}: {i}")


def check_best_effort_leases_start_in_arrival_order_without_backfill(scenario: dict[str, Any],
                                                                     out: Outputs) -> None:
    """2f. With ``backfill: false`` best-effort leases are served first come first served (Li et
    al.'s literal reading, docs/federation.md): a lease submitted later never starts (its first
    interval of any kind) before one submitted earlier."""
    if "leases" not in scenario or rules(scenario)["backfill"] is not False:
        return
    rows = lease_rows(out)
    starts = []
    for lease in leases_of(scenario):
        if lease["mode"] == "best-effort" and rows[str(lease["id"])][0]["state"] == "finished":
            starts.append((lease["submit"], out.of(str(lease["id"]))[0].start, lease["id"]))
    for a in starts:
        for b in starts:
            if a[0] < b[0]:
                assert not_before(b[1], a[1]), (
                    f"backfill false: lease {b[2]} (submitted {b[0]}) started at {b[1]}, before lease {a[2]} "
                    f"(submitted {a[0]}) at {a[1]}")


def check_nothing_starts_before_it_is_asked_for(scenario: dict[str, Any], out: Outputs) -> None:
    """2d/4b. No interval of a lease begins before its submission; no interval of a task before its
    job's submission, nor, for an AR job, before the job's requested start (its tasks ask their
    VMs from then: docs/dag-and-leases.md, AR jobs)."""
    rows = {r["id"]: r for r in out.jobs if r["id"]}
    earliest: dict[str, float] = {}
    for lease in leases_of(scenario):
        earliest[str(lease["id"])] = lease["submit"]
    dags = {str(j["id"]): j for j in scenario.get("dags", {}).get("jobs", [])}
    for job_id, r in rows.items():
        if r["dag"]:
            job = dags[r["dag"]]
            earliest[job_id] = max(job["submit"], job.get("start", job["submit"]))
    for i in out.intervals:
        assert not_before(i.start, earliest[i.job]), f"{i} begins before {earliest[i.job]}"


def check_work_is_conserved(scenario: dict[str, Any], out: Outputs) -> None:
    """3. The run intervals of a finished lease or task add up to its ``runtime`` column (1e-6
    relative), across every suspension, resume and migration; and that run time is the input's:
    a lease's ``real_duration`` (else ``duration``); a task's runtime / VM speed, or the matrix's
    time for its type on the VM type of the cloud it ran on.

    Haizea's rules (docs/federation.md): an AR lease's run time is at most ``duration -
    shutdown`` when its shutdown is carved out of its interval ("Costs"; ``jobs.csv`` shows the
    shorter run time); the ``lost`` runs of a lease an AR cancelled were thrown away: they are
    not among its runs ("a lease's run intervals add up to its run time"), they are extra, and
    they add up to the row's ``lost_work`` (a lease runs at speed 1)."""
    matrix = scenario["federation"].get("matrix", {}).get("times", {})
    for r, item, lease in finished_items(scenario, out):
        runtime = float(r["runtime"])
        if lease:
            expected = item.get("real_duration", item["duration"])
            if item["mode"] == "ar" and ar_carve(scenario, item):
                expected = min(expected, item["duration"] - ar_carve(scenario, item))
        else:
            cloud = cloud_named(scenario, r["cloud"])
            expected = (item["runtime"] / cloud.speed if "runtime" in item
                        else matrix[item["type"]][cloud.vm_type])
        assert math.isclose(runtime, expected, rel_tol=1e-9), f"row {r} has runtime {runtime}, input {expected}"
        ran = math.fsum(i.end - i.start for i in out.of(r["id"]) if i.kind == "run")
        assert math.isclose(ran, runtime, rel_tol=1e-6, abs_tol=1e-9), (
            f"job {r['id']} ran {ran} s in its run intervals, its run time is {runtime}: {out.of(r['id'])}")
    for r in out.jobs:
        if not r["id"]:
            continue
        lost = math.fsum(i.end - i.start for i in out.of(r["id"]) if i.kind == "lost")
        if lost:
            assert int(r["kills"]) > 0, f"job {r['id']} has lost runs and no kill: {r}"
        if not r["dag"]:
            assert math.isclose(lost, float(r["lost_work"] or 0), rel_tol=1e-6, abs_tol=1e-6), (
                f"lease {r['id']}: lost runs of {lost} s, lost_work {r['lost_work']}: {out.of(r['id'])}")


def check_rows_agree_with_intervals(scenario: dict[str, Any], out: Outputs) -> None:
    """3b. A finished row's ``finish`` is its last run's end and its ``start`` no later than its
    first run's start, every run on the row's cloud; a row that never finished has no run.

    (``start`` is when the job first started in its datacenter: a best-effort task started and
    preempted by an AR at the same instant has an empty first run, which ``intervals.csv`` does
    not draw; so ``start`` may be earlier than the first run interval, never later.)"""
    for r in out.jobs:
        if not r["id"]:
            continue
        runs = [i for i in out.of(r["id"]) if i.kind == "run"]
        if r["state"] != "finished":
            assert not runs, f"row {r} is not finished but ran: {runs}"
            continue
        assert runs, f"finished row {r} has no run interval"
        assert not_before(runs[0].start, float(r["start"])), (r, runs)
        assert same_time(float(r["finish"]), runs[-1].end), (r, runs)
        assert all(i.cloud == r["cloud"] for i in runs), (r, runs)


def check_overheads_take_their_documented_time(scenario: dict[str, Any], out: Outputs) -> None:
    """3c. Every overhead lasts what docs/federation.md's arithmetic gives (:func:`costs`): a
    ``transfer``, ``save``, ``migrate`` and ``shutdown`` exactly; a ``reload`` exactly, or
    less when the lease was cancelled during it (a kill: its reload is cut); a ``cancelled``
    preparation at most its transfer or migration; a ``copy`` round at most one migration."""
    for job_id, job in jobs_of(scenario, out).items():
        c = job_costs(scenario, job)
        for i in job.intervals:
            span = i.end - i.start
            full = {"transfer": c.transfer, "save": c.save, "migrate": c.migrate, "shutdown": c.shutdown,
                    "reload": c.reload}.get(i.kind)
            if i.kind == "reload" and int(job.row["kills"] or 0):
                assert span <= c.reload + 1e-6, f"{i} lasts {span} s, a reload takes {c.reload}"
            elif full is not None:
                assert same_span(span, full), f"{i} lasts {span} s, docs/federation.md gives {full}: {c}"
            elif i.kind == "cancelled":
                assert span <= max(c.transfer, c.migrate) + 1e-6, f"{i} lasts {span} s: {c}"
            elif i.kind == "copy":
                assert span <= c.migrate + 1e-6, f"{i} lasts {span} s, one copy round takes {c.migrate}: {c}"


def check_tasks_start_after_their_parents(scenario: dict[str, Any], out: Outputs) -> None:
    """4. No task starts (its first interval of any kind: a transfer, or its run) before each of
    its parents finished and the parent's data arrived: ``data_mb / bandwidth`` when the two ran
    on different clouds (``inter_cloud_mbps``, else the smaller of the VM types' bandwidths),
    nothing inside one cloud (docs/federation.md, Data). A task whose parent did not finish does
    not run."""
    fed = scenario["federation"]
    clouds = {c.name: c for c in clouds_of(scenario)}
    rows = task_rows(out)
    for job, name, _ in dag_tasks(scenario):
        mine = rows.get((str(job["id"]), name), [])
        if len(mine) != 1 or not mine[0]["id"]:
            continue
        r = mine[0]
        ivs = out.of(r["id"])
        if not ivs:
            continue
        first = ivs[0].start
        for parent, data in parents(job, name):
            prow = rows[(str(job["id"]), parent)][0]
            assert prow["state"] == "finished", f"task {name} of job {job['id']} ran, its parent {parent} did not finish"
            ready = float(prow["finish"])
            if data and prow["cloud"] != r["cloud"]:
                a, b = clouds[prow["cloud"]], clouds[r["cloud"]]
                bw = fed.get("inter_cloud_mbps", min(a.bandwidth, b.bandwidth))
                ready += data / bw
            assert not_before(first, ready), (
                f"job {job['id']}: task {name} begins at {first} ({ivs[0]}) before its parent {parent}'s "
                f"output is there at {ready} (finish {prow['finish']} on {prow['cloud']})")


def check_every_lease_and_task_has_one_row(scenario: dict[str, Any], out: Outputs) -> None:
    """5. Each lease (rows with its id and no DAG) and each task (rows with its DAG job and task
    name) of the input has exactly one ``jobs.csv`` row, ending finished, or rejected, unfinished
    or skipped with a reason; no row names anything else."""
    expected: set[tuple[str, str, str]] = set()
    for lease in leases_of(scenario):
        expected.add((str(lease["id"]), "", ""))
    for job, name, _ in dag_tasks(scenario):
        expected.add(("", str(job["id"]), name))
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    for r in out.jobs:
        key = (r["id"], "", "") if not r["dag"] else ("", r["dag"], r["task"])
        seen[key] += 1
        assert r["state"] in END_STATES, f"row in state {r['state']!r}: {r}"
        if r["state"] != "finished":
            assert r["reason"].strip(), f"row {r['state']} without a reason: {r}"
    missing = expected - set(seen)
    extra = set(seen) - expected
    twice = {k: n for k, n in seen.items() if n > 1}
    assert not missing, f"no jobs.csv row for {sorted(missing)}"
    assert not extra, f"jobs.csv rows for nothing in the input: {sorted(extra)}"
    assert not twice, f"several jobs.csv rows for {twice}"


def check_best_effort_leases_are_never_refused(scenario: dict[str, Any], out: Outputs) -> None:
    """5b. A best-effort lease that fits the cloud waits until it can run: it ends finished
    (docs/federation.md: best-effort leases are queued; only ARs and immediate leases are
    rejected)."""
    rows = lease_rows(out)
    for lease in leases_of(scenario):
        if lease["mode"] == "best-effort":
            states = [r["state"] for r in rows[str(lease["id"])]]
            assert states == ["finished"], f"best-effort lease {lease['id']} ended {states}: {rows[str(lease['id'])]}"


RUNNING = ("ran", "lost")          #: after a run, kept or thrown away later


def _step(phase: str, t: float, vms: tuple[int, ...], i: Interval, c: Costs, opts: dict[str, Any],
          row_start: float, killed: bool) -> str | None:
    """Why interval ``i`` cannot come next in a job's life (``None``: it can), the job being in
    ``phase`` since ``t`` on ``vms`` (see :func:`check_suspensions_save_and_reload`)."""
    moving_ok = opts["migrate"] and (opts["copy_ahead"] or c.migrate == 0)
    if i.kind == "cancelled":
        ok = phase in ("new", "saved") or phase in RUNNING and c.save == 0
        return None if ok and not_before(i.start, t) else "a cancelled preparation here"
    if i.kind == "transfer":
        return None if phase == "new" and not_before(i.start, t) else "a transfer after the job began"
    if i.kind in ("run", "lost"):
        if phase in ("prepared", "moved", "reloaded"):
            return None if same_time(i.start, t) and i.vms == vms else "a run not where its preparation ended"
        if phase == "new":          # a first run without image
            return None if c.transfer == 0 and not_before(i.start, t) else "a first run without its transfer"
        if phase == "saved" or phase in RUNNING and c.save == 0:     # resumed without reload
            if c.reload > 0:
                return "a resumption without its reload"
            if i.vms != vms and not moving_ok:
                return "a resumption on other VMs without migration"
            return None if not_before(i.start, t) else "a resumption before the suspension"
        return f"a run after {phase}"
    if i.kind == "save":
        if c.save > 0 and c.reload == 0 and phase in ("saved", "moved"):    # resumed and cut at once
            if phase == "moved":
                return None if same_time(i.start, t) and i.vms == vms else "a save not where the migration ended"
            if i.vms != vms and not moving_ok:
                return "a resumption on other VMs without migration"
            return None if not_before(i.start, t) else "a save before the last one ended"
        if c.save == 0 or phase not in ("new", "prepared", "reloaded") + RUNNING:
            return f"a save after {phase} (a save takes {c.save} s)"
        if phase == "new":          # started (no image) and cut at once: an empty run
            if c.transfer > 0:
                return "a save before the first transfer"
            return None if (not_before(i.start, t) if killed else same_time(i.start, row_start)) else \
                "a save of an empty first run not at the row's start"
        return None if same_time(i.start, t) and i.vms == vms else "a save not where the run ended"
    if i.kind == "migrate":
        if not opts["migrate"] or opts["copy_ahead"]:
            return "a migration without migrate or with copy_ahead (the state is copied ahead)"
        ok = phase == "saved" or phase in RUNNING and c.save == 0
        return None if ok and not_before(i.start, t) else f"a migration after {phase}"
    if i.kind == "reload":
        if c.reload == 0:
            return "a reload that takes 0 s"
        if phase == "moved":
            return None if same_time(i.start, t) and i.vms == vms else "a reload not where the migration ended"
        if phase == "saved" or phase in RUNNING and c.save == 0:
            if i.vms != vms and not moving_ok:
                return "a reload on other VMs without migration"
            return None if not_before(i.start, t) else "a reload before the save ended"
        return f"a reload after {phase}"
    if i.kind == "shutdown":
        return None if phase == "ran" and same_time(i.start, t) and i.vms == vms else "a shutdown not after a run"
    return f"an interval of kind {i.kind}"


def check_suspensions_save_and_reload(scenario: dict[str, Any], out: Outputs) -> None:
    """6. A job's intervals that hold VMs, in time order, follow its life: (cancelled transfers,)
    its transfer, then runs; a run that ends before the job finishes was suspended: with a save
    time (> 0: a state, or Haizea's enactment overhead) a ``save`` starts where the run ended,
    on its VMs; then (cancelled migrations and) maybe one ``migrate`` to other VMs; then a
    ``reload`` (when it takes time: on the migration's VMs, else the saved ones), and the next
    run starts where the reload ends, on its VMs. So the runs of one job never overlap, and
    every suspension of a job with a save time has its save (``suspensions`` column). A job may
    be cut the moment it starts or its reload ends (an AR arriving then): that run is empty and
    not recorded, so a ``save`` may follow a ``transfer`` or a ``reload`` at its end, come first
    (at the row's ``start``) for a job without image, or, when a reload takes no time, follow
    the previous save (or a migration, at its end); and when there is nothing to save, the
    resumption (a reload, a migration or a run) may follow a transfer or a reload, or come
    first, as if after an empty run there.

    Haizea's rules (docs/federation.md, "Haizea 1.0 and this project"):

    - a ``shutdown`` follows the job's last run, where it ended, on its VMs, and ends its life;
      it follows only a run that was not cut short (none after a ``real_duration`` end), and an
      AR or immediate lease (never cut) that ran its planned time has it (rule 6, "Costs");
    - with ``migrate: false`` a suspended job resumes on its own VMs; with ``copy_ahead`` its
      state is sent ahead (``copy`` intervals, holding no VM) instead of a ``migrate``: it may
      reload on other VMs after a copy to them began, and its resumption begins no earlier than
      one copy (``migrate``'s time) after its suspension ended, on its own VMs too (rule 4 and
      rule 7: "now + one copy estimate"); every copy starts after a suspension of the job and
      its copies do not overlap (back to back);
    - an AR may cancel a lease below its threshold: the lease starts over, every run it had is
      ``lost`` (rule 3, "Records"): its life begins again (a transfer or a first run) after a
      kill (``kills`` column), its lost runs all come before its kept runs;
    - with ``threshold_factor`` ``f`` a lease is suspended only after running at least ``T =
      (1 + f) E`` (``E`` the suspend estimate) since its current run began (an AR's preemption,
      rule 3), or after a gap of at least ``T`` from its start or resumption (rule 2): either
      way its save ends at least ``T`` after the start of that run's preparation."""
    opts = rules(scenario)
    factor = opts["threshold_factor"]
    for job_id, job in jobs_of(scenario, out).items():
        r = job.row
        ivs = job.on_vms()
        c = job_costs(scenario, job)
        kills = int(r["kills"] or 0)
        killed = False
        phase, t, vms = "new", -math.inf, ()     # where the job is, since when, on which VMs
        begun = -math.inf                        # when the current run's preparation began
        suspended_at: list[float] = []           # when its suspensions ended (saves over)
        saves = 0
        kept = False                             # a run that was not thrown away so far
        for i in ivs:
            where = f"job {job_id} ({phase} since {t} on {vms}) then {i}; all: {ivs}"
            why = _step(phase, t, vms, i, c, opts, float(r["start"]), killed)
            if why is not None and int(r["suspensions"] or 0) and (
                    phase in ("prepared", "moved", "reloaded") or phase == "new" and c.transfer == 0):
                # an empty run: cut the moment it began (at the row's start if it is its first), with
                # nothing to save, then resumed (docstring)
                at, on = (t, vms) if phase != "new" else (float(r["start"]), i.vms)
                if _step("ran", at, on, i, c, opts, float(r["start"]), killed) is None:
                    phase, t, vms, why = "ran", at, on, None
            if why is not None and kills and phase not in ("new", "ran", "shut") and i.kind != "shutdown":
                # cancelled and queued again (a kill): it starts over, every run it had is lost
                assert not kept, f"a kept run before a kill: {where}"
                kills -= 1
                killed = True
                phase = "new"
                why = _step(phase, t, vms, i, c, opts, float(r["start"]), killed)
            assert why is None, f"{why}: {where}"
            resuming = phase == "saved" or phase in RUNNING and i.kind in ("reload", "migrate", "run", "lost",
                                                                          "cancelled")
            if resuming and phase in RUNNING:    # suspended without a save: at the run's end
                suspended_at.append(t)
                if factor is not None:
                    assert not_before(t - begun, (1 + factor) * c.save_estimate), (
                        f"threshold {(1 + factor) * c.save_estimate}: suspended {t - begun} s after it began: {where}")
            if resuming and i.kind != "cancelled" and opts["copy_ahead"] and opts["migrate"]:
                assert not_before(i.start, suspended_at[-1] + c.migrate), (
                    f"copy_ahead: resumed less than one copy ({c.migrate} s) after its suspension: {where}")
            kept = kept or i.kind == "run"
            if i.kind == "save" and phase == "saved":      # an empty run, resumed and cut at once
                begun = i.start
            if i.kind == "save":
                saves += 1
                suspended_at.append(i.end)
                if factor is not None:
                    assert not_before(i.end - begun, (1 + factor) * c.save_estimate), (
                        f"threshold {(1 + factor) * c.save_estimate}: saved {i.end - begun} s after it began: {where}")
            if i.kind == "cancelled":
                continue
            if i.kind in ("transfer", "migrate") or i.kind == "reload" and phase != "moved" or \
                    i.kind in ("run", "lost") and phase not in ("prepared", "moved", "reloaded"):
                begun = i.start
            phase = {"transfer": "prepared", "run": "ran", "lost": "lost", "save": "saved", "migrate": "moved",
                     "reload": "reloaded", "shutdown": "shut"}[i.kind]
            t, vms = i.end, i.vms
        runs, lost = job.of("run"), job.of("lost")
        if runs and lost:
            assert not_before(runs[0].start, lost[-1].end), f"job {job_id}: a lost run after a kept one: {ivs}"
        if r["state"] == "finished":
            assert phase in ("ran", "shut"), f"job {job_id} finished, its last interval is not a run: {ivs}"
            if c.save > 0:
                assert saves == int(r["suspensions"]), (
                    f"job {job_id}: {r['suspensions']} suspensions, {saves} saves: {ivs}")
        downs = job.of("shutdown")
        assert not downs or r["state"] == "finished", f"job {job_id} not finished has a shutdown: {ivs}"
        if r["state"] == "finished" and c.shutdown > 0:
            item = job.item
            early = False
            if job.lease:
                planned = item["duration"] - (ar_carve(scenario, item) if item["mode"] == "ar" else 0.0)
                early = item.get("real_duration", item["duration"]) < planned
            if early:
                assert not downs, f"job {job_id} ended early ({item['real_duration']} s) yet shut down: {ivs}"
            elif r["mode"] in ("ar", "immediate"):       # never cut short: it ran its planned time
                assert len(downs) == 1, f"{r['mode']} job {job_id} ran its planned time, no shutdown: {ivs}"
        copies = job.of("copy")
        if copies:
            assert opts["copy_ahead"] and opts["migrate"], f"job {job_id}: a copy without copy_ahead: {copies}"
            assert suspended_at and not_before(copies[0].start, suspended_at[0]), (
                f"job {job_id}: a copy before any suspension: {job.intervals}")
            for a, b in zip(copies, copies[1:]):
                assert not_before(b.start, a.end), f"job {job_id}: its copies overlap: {copies}"


def check_dag_jobs_csv(scenario: dict[str, Any], out: Outputs) -> None:
    """4c. ``dag_jobs.csv`` has one row per DAG job of the input: one whose tasks all finished is
    ``finished`` with its owner, its submission, its last task's finish, its task count and
    whether it is an AR job; any other (the run goes to its end) is ``rejected``, its tasks
    rejected for the row's reason."""
    if "dags" not in scenario:
        assert out.dag_jobs is None, "a lease system wrote dag_jobs.csv"
        return
    assert out.dag_jobs is not None, "a DAG system wrote no dag_jobs.csv"
    by_job = {r["job"]: r for r in out.dag_jobs}
    assert len(by_job) == len(out.dag_jobs), f"a DAG job twice in dag_jobs.csv: {out.dag_jobs}"
    assert len(by_job) == len(scenario["dags"]["jobs"]), f"not one row per DAG job: {out.dag_jobs}"
    rows = task_rows(out)
    for job in scenario["dags"]["jobs"]:
        mine = [rows[(str(job["id"]), t)][0] for t in job["tasks"]]
        jid = str(job["id"])
        assert jid in by_job, f"DAG job {jid} has no dag_jobs.csv row"
        d = by_job[jid]
        assert int(d["owner"]) == job.get("cloud", 0), d
        assert same_time(float(d["submit"]), job["submit"]), d
        assert int(d["tasks"]) == len(job["tasks"]), d
        assert d["ar"] == str(job.get("mode") == "ar"), d
        if all(r["state"] == "finished" for r in mine):
            assert d["state"] == "finished" and d["reason"] == "", d
            assert same_time(float(d["finish"]), max(float(r["finish"]) for r in mine)), d
        else:
            assert d["state"] == "rejected" and d["reason"] and d["finish"] == "", d
            assert all(r["state"] == "rejected" and r["reason"] == d["reason"] for r in mine), (d, mine)


def check_summary_is_strict_json_listing_the_files(scenario: dict[str, Any], out: Outputs) -> None:
    """8. ``summary.json`` parses as strict JSON (no NaN or Infinity) and lists the files the run
    wrote: ``jobs.csv``, ``intervals.csv`` and, for DAG jobs, ``dag_jobs.csv``, each present."""
    def refuse(name: str) -> Any:
        raise AssertionError(f"summary.json holds {name}, which is not JSON")

    doc = json.loads(out.summary_text, parse_constant=refuse)
    expected = ["jobs.csv", "intervals.csv"] + (["dag_jobs.csv"] if "dags" in scenario else [])
    assert sorted(doc["files"]) == sorted(expected), doc["files"]
    for name in doc["files"]:
        assert os.path.isfile(os.path.join(out.folder, name)), f"summary.json lists {name}, not written"
    assert doc["policy"] == scenario["broker"]["policy"]


def check_summary_counts_match_the_rows(scenario: dict[str, Any], out: Outputs) -> None:
    """8b. The summary counts what ``jobs.csv`` lists: jobs finished and rejected; for leases the
    ARs finished and refused and the immediate leases refused; for DAG jobs the jobs finished
    (``dag_jobs.csv``). Its ``kills``, ``lost_work`` and ``preemptions`` (the datacenters'
    suspensions) are the rows' sums, and each ``vm_s_<kind>`` the VM-seconds of that kind's
    intervals (docs/federation.md, "Records": ``records.totals()``).

    For leases (docs/federation.md, summary keys): ``be_requeued`` counts those of the preempted
    leases (``be_preempted``) an AR cancelled and queued again, every kill among them; and a
    suspension is either an AR's preemption or a gap start's planned one, so the rows'
    suspensions are at most ``be_preempted + gap_starts``."""
    summary = json.loads(out.summary_text)["summary"]
    states = defaultdict(int)
    for r in out.jobs:
        states[(r["mode"], r["state"])] += 1
        states[r["state"]] += 1
    assert summary["jobs_finished"] == states["finished"], (summary, dict(states))
    assert summary["jobs_rejected"] == states["rejected"], (summary, dict(states))
    rows = [r for r in out.jobs if r["id"]]
    kills = sum(int(r["kills"] or 0) for r in rows)
    cuts = sum(int(r["suspensions"] or 0) for r in rows)
    assert summary["kills"] == kills, (summary, kills)
    assert summary["preemptions"] == cuts, (summary, cuts)
    assert math.isclose(summary["lost_work"], math.fsum(float(r["lost_work"] or 0) for r in rows),
                        rel_tol=1e-9, abs_tol=1e-6), summary
    for kind in KINDS:
        total = math.fsum((i.end - i.start) * len(i.vms) for i in out.intervals if i.kind == kind)
        assert math.isclose(summary.get(f"vm_s_{kind}", 0.0), total, rel_tol=1e-9, abs_tol=1e-6), (
            f"vm_s_{kind} {summary.get(f'vm_s_{kind}')}, the intervals give {total}")
    if "leases" in scenario:
        assert summary["ar_finished"] == states[("ar", "finished")], (summary, dict(states))
        assert summary["ar_rejected"] == states[("ar", "rejected")], (summary, dict(states))
        assert summary["immediate_rejected"] == states[("immediate", "rejected")], (summary, dict(states))
        assert kills <= summary["be_requeued"] <= summary["be_preempted"], (
            f"kills {kills} (rows), be_requeued {summary['be_requeued']}, be_preempted {summary['be_preempted']}")
        assert cuts <= summary["be_preempted"] + summary["gap_starts"], (
            f"suspensions {cuts} (rows), be_preempted {summary['be_preempted']}, gap_starts {summary['gap_starts']}")
    else:
        assert out.dag_jobs is not None
        assert summary["dag_jobs_finished"] == len(out.dag_jobs), (summary, out.dag_jobs)


CHECKS = (check_no_vm_over_capacity, check_vms_match_the_request, check_ar_leases_start_at_their_requested_time,
          check_immediate_leases_start_at_submission, check_reservations_are_never_suspended,
          check_nothing_is_preempted_unless_in_suspend_mode, check_ars_preempt_only_what_they_may,
          check_best_effort_leases_start_in_arrival_order_without_backfill,
          check_nothing_starts_before_it_is_asked_for, check_work_is_conserved, check_rows_agree_with_intervals,
          check_overheads_take_their_documented_time,
          check_tasks_start_after_their_parents, check_every_lease_and_task_has_one_row,
          check_best_effort_leases_are_never_refused, check_suspensions_save_and_reload, check_dag_jobs_csv,
          check_summary_is_strict_json_listing_the_files, check_summary_counts_match_the_rows)


def check_same_seed_same_outputs(first: Outputs, second: Outputs) -> None:
    """7. The same scenario and seed write byte-identical ``jobs.csv`` and ``intervals.csv``."""
    for name in ("jobs.csv", "intervals.csv"):
        with open(os.path.join(first.folder, name), "rb") as a, open(os.path.join(second.folder, name), "rb") as b:
            assert a.read() == b.read(), f"{name} differs between two runs of the same scenario and seed"


def describe(scenario: dict[str, Any], out: Outputs) -> None:
    """What happened in a case (``--hypothesis-show-statistics`` counts it): which option family
    it drew (the scenario's name), how well the generator reaches suspensions, migrations,
    cancelled transfers, refusals and Haizea's shutdowns, copies, lost runs and requeues. With
    ``CLOUD_STRESS_LOG`` set, each case also appends one JSON line there (policy, family, what
    it reached), to count the cases of a long run."""
    seen = [f"family {scenario['name'].split('/')[1]}"]
    opts = rules(scenario)
    if opts["backfill"] == "aggressive":
        seen.append("backfill aggressive")
    if opts["threshold_factor"] is not None:
        seen.append("threshold_factor set")
    for key, default in (("copy_ahead", False), ("preempt_order", "newest"), ("preempt_max_age", None),
                         ("ar_vms", "free-first"), ("preemption", "suspend")):
        if opts[key] != default:
            seen.append(f"{key} {opts[key]}" if isinstance(opts[key], str) else f"{key} set")
    o = cost_options(scenario)
    if o["enactment_s"]:
        seen.append("enactment_s > 0")
    if o["shutdown_s"]:
        seen.append("shutdown_s > 0")
    if o["exclusion"] == "global":
        seen.append("exclusion global")
    if o["whole_seconds"]:
        seen.append("whole_seconds")
    kinds = {i.kind for i in out.intervals}
    seen += [f"has a {kind} interval" for kind in ("save", "migrate", "cancelled", "shutdown", "copy", "lost")
             if kind in kinds]
    summary = json.loads(out.summary_text)["summary"]
    if summary.get("be_requeued"):
        seen.append("be_requeued > 0")
    seen += [f"{mode} {state}" for mode, state in sorted({(r["mode"], r["state"]) for r in out.jobs})]
    for what in seen:
        event(what)
    log = os.environ.get("CLOUD_STRESS_LOG")
    if log:
        policy = scenario["broker"]["policy"]
        if scenario["broker"]["params"].get("strict") is False:
            policy += "-loose"
        with open(log, "a") as fh:
            fh.write(json.dumps({"policy": policy, "events": seen}) + "\n")


def check_case(scenario: dict[str, Any]) -> None:
    """Run ``scenario`` twice (two folders) and check every invariant on the outputs."""
    note(f"scenario as YAML:\n{as_yaml(scenario)}")
    try:
        load_scenario(scenario)
    except ScenarioError as exc:   # refused input: the generator should make it rare
        note(f"refused: {exc}")
        assume(False)
    with tempfile.TemporaryDirectory() as tmp:
        first = run(scenario, os.path.join(tmp, "a"))
        describe(scenario, first)
        for check in CHECKS:
            check(scenario, first)
        check_same_seed_same_outputs(first, run(scenario, os.path.join(tmp, "b")))


# ---------------------------------------------------------------------------------------------
# the profiles

HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]


@pytest.mark.parametrize("policy", sorted(POLICIES))
@settings(max_examples=100, deadline=None, suppress_health_check=HEALTH, derandomize=True)
@given(data=st.data())
def test_random_cloud_systems_keep_every_invariant(policy, data):
    check_case(data.draw(systems(policy), label="scenario"))


@pytest.mark.slow
@pytest.mark.parametrize("policy", sorted(POLICIES))
@settings(max_examples=LONG_EXAMPLES, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_random_cloud_systems_keep_every_invariant_long(policy, data):
    check_case(data.draw(systems(policy, max_leases=16, max_jobs=6), label="scenario"))


# ---------------------------------------------------------------------------------------------
# the two cases of issue 16, by hand

def run_checked(text: str, folder: str) -> Outputs:
    """Run the scenario written in ``text`` into ``folder`` and check every invariant on it."""
    scenario = yaml.safe_load(text)
    out = run(scenario, os.path.join(folder, "a"))
    for check in CHECKS:
        check(scenario, out)
    check_same_seed_same_outputs(out, run(scenario, os.path.join(folder, "b")))
    return out


def spans(out: Outputs, job_id: str) -> list[tuple[str, float, float]]:
    return [(i.kind, i.start, i.end) for i in out.of(job_id)]


ISSUE_16_LEASES = """
federation:
  vm_types: {v0: {cpus: 2, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 1, copy_mbps: 32}]
  latency: 0
leases:
  requests:
    - {id: 6, submit: 41, mode: ar, duration: 449, nodes: 1, start: 152}
    - {id: 9, submit: 66, mode: best-effort, duration: 473, nodes: 1}
broker: {policy: leases}
"""


def test_issue_16_two_leases_on_one_vm_both_finish(tmp_path):
    """The smallest CapacityError of issue 16. AR 6 holds the one VM over [152, 601) (no image:
    nothing to transfer). Best-effort 9 arrives at 66 and fills the gap before the AR (fill_gaps):
    it runs 66-152 (86 s), is suspended for the AR (no memory: nothing to save), and resumes when
    the AR ends at 601 for its remaining 473 - 86 = 387 s: it finishes at 988."""
    out = run_checked(ISSUE_16_LEASES, str(tmp_path))
    rows = {r["id"]: r for r in out.jobs}
    assert sorted(rows) == ["6", "9"]
    assert [(rows[i]["state"], float(rows[i]["finish"])) for i in ("6", "9")] == [("finished", 601.0),
                                                                                 ("finished", 988.0)]
    assert spans(out, "6") == [("run", 152.0, 601.0)]
    assert spans(out, "9") == [("run", 66.0, 152.0), ("run", 601.0, 988.0)]
    assert rows["9"]["suspensions"] == "1"


REFUSED_LEASES = """
federation:
  vm_types: {v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 1}]
leases:
  requests:
    - {id: 1, submit: 0, mode: best-effort, duration: 100, nodes: 1}
    - {id: 2, submit: 10, mode: immediate, duration: 10, nodes: 1}
    - {id: 3, submit: 20, mode: ar, start: 50, duration: 10, nodes: 1}
broker: {policy: leases, params: {preemption: reject}}
"""


def test_refused_leases_have_their_row_and_do_not_stall_the_run(tmp_path):
    """Lease 1 holds the one VM over [0, 100). Immediate lease 2 (at 10) finds no free VM and
    AR 3 (at 20, for [50, 60)) may not preempt (``preemption: reject``): both are refused, each
    with its reason in ``jobs.csv``, and the run ends normally (on the branch's first base every
    refused lease made it a StuckJobsError)."""
    out = run_checked(REFUSED_LEASES, str(tmp_path))
    rows = {r["id"]: r for r in out.jobs}
    assert [(i, rows[i]["state"]) for i in ("1", "2", "3")] == [("1", "finished"), ("2", "rejected"),
                                                                ("3", "rejected")]
    assert spans(out, "1") == [("run", 0.0, 100.0)]


ISSUE_16_DAGS = """
federation:
  vm_types: {v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 1, copy_mbps: 32}, {name: c1, vm_type: v0, vms: 1, copy_mbps: 32}]
  latency: 0.5
dags:
  jobs:
    - {id: a, submit: 0, cloud: 0, tasks: {x: {runtime: 1000, memory_mb: 320}}}
    - {id: b, submit: 5, cloud: 1, tasks: {x: {runtime: 1000, memory_mb: 320}}}
    - {id: r, submit: 10, cloud: 0, mode: ar, start: 120, tasks: {x: {runtime: 50}}}
broker: {policy: POLICY}
"""


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_issue_16_ar_task_preempts_a_best_effort_task_at_120_with_latency_half_a_second(policy, tmp_path):
    """Two clouds of one VM, latency 0.5 s. The two best-effort tasks (1000 s each) take one VM
    each: a.x is decided at 1.0 after a check round trip (2 x 0.5 s) and sent on, arriving at
    1.5; b.x, submitted at 5, is decided at 6.0 and goes to the cloud a.x left idle, arriving at
    6.5. AR job r (submitted at 10, start 120) has one 50 s task without image; it may preempt
    best-effort work, so both clouds quote 120 and it is reserved over [120, 170) on one of them.
    The best-effort task there (started at s) is suspended at 120 - 320 MB / 32 MB/s = 110,
    saves 110-120, reloads 170-180 after the AR, and runs its remaining 1000 - (110 - s) s:
    it ends at 180 + 1000 - (110 - s) (1076.5 for s = 6.5). Every task finishes."""
    out = run_checked(ISSUE_16_DAGS.replace("POLICY", policy), str(tmp_path))
    rows = {(r["dag"], r["task"]): r for r in out.jobs}
    assert sorted(rows) == [("a", "x"), ("b", "x"), ("r", "x")]
    assert all(r["state"] == "finished" for r in rows.values())
    ar = rows[("r", "x")]
    assert spans(out, ar["id"]) == [("run", 120.0, 170.0)]
    cut = [r for r in rows.values() if r["suspensions"] == "1"]
    assert len(cut) == 1 and cut[0]["cloud"] == ar["cloud"], rows
    s = float(cut[0]["start"])
    assert spans(out, cut[0]["id"]) == [("run", s, 110.0), ("save", 110.0, 120.0), ("reload", 170.0, 180.0),
                                        ("run", 180.0, 180.0 + 1000 - (110.0 - s))]


HAIZEA_LEASES = """
federation:
  vm_types: {v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 2, copy_mbps: 32}]
  overheads: {preset: haizea, enactment_s: 0, override_suspend_s: null, shutdown_s: 2}
leases:
  requests:
    - {id: 1, submit: 0, mode: best-effort, duration: 1000, nodes: 1, memory_mb: 1024}
    - {id: 3, submit: 0, mode: best-effort, duration: 200, nodes: 1}
    - {id: 2, submit: 10, mode: ar, start: 100, duration: 1000, nodes: 1}
    - {id: 4, submit: 1200, mode: best-effort, duration: 1000, nodes: 1, memory_mb: 1024}
    - {id: 5, submit: 1210, mode: ar, start: 1250, duration: 100, nodes: 2}
broker: {policy: leases, params: {preset: haizea}}
"""


def test_haizea_rules_shutdowns_a_copy_ahead_and_a_lost_run(tmp_path):
    """Haizea's setting (b) with a 2 s shutdown (docs/federation.md, "Haizea 1.0 and this
    project"): suspend/resume at 32 MB/s (32 s for 1024 MB), threshold ``T = 2 x 32 = 64 s``,
    copies at 12.5 MB/s (82 s). Leases 1 and 3 start at 0 on VMs 0 and 1. AR 2 ([100, 1100))
    finds no free VM and preempts the oldest lease, 1, which has run 100 >= 64 s by then:
    suspended at 68, saved [68, 100). The AR runs 998 s, its shutdown carved out of its
    interval [1098, 1100). Lease 1 may resume one copy after its save (182) on any VM: VM 1,
    free after lease 3 and its shutdown (202); its memory is copied there [100, 182) (holding no
    VM: lease 3 still runs there), reloaded [202, 234), and it runs its last 932 s. Lease 4
    starts at 1200; AR 5 (submitted 1210, [1250, 1350) on both VMs) would let it run 50 < 64 s:
    it is cancelled at 1210, its run lost, and starts over after AR 5."""
    out = run_checked(HAIZEA_LEASES, str(tmp_path))
    assert spans(out, "1") == [("run", 0.0, 68.0), ("save", 68.0, 100.0), ("copy", 100.0, 182.0),
                               ("reload", 202.0, 234.0), ("run", 234.0, 1166.0), ("shutdown", 1166.0, 1168.0)]
    assert spans(out, "2") == [("run", 100.0, 1098.0), ("shutdown", 1098.0, 1100.0)]
    assert spans(out, "4") == [("lost", 1200.0, 1210.0), ("run", 1350.0, 2350.0), ("shutdown", 2350.0, 2352.0)]
    assert [i.vms for i in out.of("1")][2:4] == [(1,), (1,)]
    summary = json.loads(out.summary_text)["summary"]
    assert (summary["be_preempted"], summary["be_requeued"], summary["kills"]) == (2, 1, 1)


SHORT_ARS = """
federation:
  vm_types: {v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 1}]
  overheads: {preset: haizea}
leases:
  requests:
    - {id: 1, submit: 0, mode: ar, start: 10, duration: 2, nodes: 1}
    - {id: 2, submit: 0, mode: ar, start: 12, duration: 60, nodes: 1}
broker: {policy: leases, params: {preset: haizea}}
"""


def test_an_ar_no_longer_than_its_shutdown_is_refused_and_frees_its_interval(tmp_path):
    """Setting (a): every shutdown takes ``e n = 2 s``. AR 1 asks [10, 12), AR 2 [12, 72) on the
    one VM. docs/federation.md ("Costs"): an AR's shutdown is carved out of its interval; AR 1
    (2 s, a 2 s shutdown) has nothing left to run and is refused, with the reason; AR 2 runs
    [12, 70) and is shut down [70, 72), the end of its interval."""
    out = run_checked(SHORT_ARS, str(tmp_path))
    rows = {r["id"]: r for r in out.jobs}
    assert (rows["1"]["state"], rows["2"]["state"]) == ("rejected", "finished")
    assert rows["1"]["reason"] == ("advance reservation refused: its shutdown (2 s) is not shorter than its "
                                   "duration (2 s): nothing of its interval is left to run")
    assert spans(out, "2") == [("run", 12.0, 70.0), ("shutdown", 70.0, 72.0)]


def test_an_ar_a_little_longer_than_its_shutdown_runs_what_is_left(tmp_path):
    """AR 1 asks [10, 13) with its 2 s shutdown: it runs 1 s [10, 11) and shuts down [11, 13)."""
    out = run_checked(SHORT_ARS.replace("start: 10, duration: 2", "start: 10, duration: 3")
                      .replace("start: 12, duration: 60", "start: 13, duration: 60"), str(tmp_path))
    assert spans(out, "1") == [("run", 10.0, 11.0), ("shutdown", 11.0, 13.0)]
    assert spans(out, "2") == [("run", 13.0, 71.0), ("shutdown", 71.0, 73.0)]


PLANNED_BEGIN_BEFORE_FINISH = """
federation:
  vm_types:
    v0: {cpus: 3, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 21}
  clouds:
  - {name: c2, vm_type: v0, vms: 5, copy_mbps: 100}
dags:
  jobs:
  - id: j0
    submit: 0.0
    tasks:
      t7: {runtime: 3600, cpus: 4}
    mode: best-effort
  - id: j4
    submit: 0.0
    tasks:
      t0: {runtime: 1800, cpus: 11}
      t1: {runtime: 1800, cpus: 15}
      t3: {runtime: 10}
      t4: {runtime: 10, cpus: 15}
    edges:
    - [t0, t3]
    - [t1, t3]
    - [t3, t4]
  - id: j5
    submit: 60.0
    tasks:
      t1: {runtime: 1800, cpus: 15}
      t2: {runtime: 3600, cpus: 4, memory_mb: 1024, image_mb: 512}
      t3: {runtime: 7766, cpus: 15}
broker:
  policy: fdmms
  params: {backfill: aggressive}
"""


AR_AFTER_A_MIGRATION = """
federation:
  vm_types:
    v0: {cpus: 2, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 10}
  clouds:
  - {name: c0, vm_type: v0, vms: 5, copy_mbps: 100}
dags:
  jobs:
  - id: j3
    submit: 300.0
    tasks:
      t0: {runtime: 1800, cpus: 7, memory_mb: 1024}
      t2: {runtime: 5973, cpus: 8}
  - id: j4
    submit: 300.0
    tasks:
      t3: {runtime: 0.5}
      t5: {runtime: 0.5}
      t6: {runtime: 0.5, cpus: 10}
    edges:
    - [t3, t6]
    mode: ar
    start: 900.0
  - id: j5
    submit: 301.0
    tasks:
      t0: {runtime: 9511, cpus: 10}
    mode: ar
broker:
  policy: fdmms
  params: {preemption: reject, backfill: aggressive}
"""


@pytest.mark.parametrize("text, then", [(PLANNED_BEGIN_BEFORE_FINISH, 16884.003809523812),
                                        (AR_AFTER_A_MIGRATION, 17707.380000000005)],
                         ids=["a future task", "an AR task"])
def test_what_begins_at_the_end_of_a_migrated_run_finds_its_vms_free(text, then, tmp_path):
    """Found by the cloud stress test (fdmms and fdls alike), shrunk. A suspended task resumes
    on other VMs after a migration and a reload, and something is planned to begin at the end
    of its run: j4.t4, the future task of aggressive backfilling (the first case: j5.t2, 1024 MB
    and a 512 MB image, migrates at 16766 for (1024 + 512) / 21 s, reloads 10.24 s and runs its
    last 34.620952380952076 s), or AR task j4.t6 reserved at the earliest time its VMs are free
    (the second, ``preemption: reject``: j3.t0 migrates at 16384.5 for 102.4 s, reloads 10.24 s
    and runs its last 1210.24 s). The booking ended at ``start + (migration + reload) + left``,
    the datacenter ends the run at ``((start + migration) + reload) + left``, one ulp later
    (16884.00380952381 against 16884.003809523812; 17707.38 against 17707.380000000005): the
    next task began while the VM still ran the migrated one, ``policy 'fdmms' failed in
    LocalCloud._begin at t=16884: CapacityError: t=16884.00380952381: cannot place job 5 in
    tier 0: host 0 tier 0 holds job 7`` (``LocalCloud._go`` for the AR task). A booking now adds
    the times up in the order they happen."""
    out = run_checked(text, str(tmp_path))
    assert all(r["state"] == "finished" for r in out.jobs)
    assert then in {i.start for i in out.intervals}


AR_ONE_ULP_BEFORE_AN_END = """
name: dag-stress/default
seed: 0
federation:
  vm_types:
    v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 8}
    v1: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 8, speed: 0.5}
  clouds:
  - {name: c0, vm_type: v0, vms: 1}
  - {name: c1, vm_type: v1, vms: 2}
  - {name: c2, vm_type: v0, vms: 1}
  latency: 0.469
dags:
  jobs:
  - id: j0
    submit: 0.0
    tasks:
      t0: {runtime: 0.5, cpus: 2, memory_mb: 1, image_mb: 1}
      t1: {runtime: 0.5, cpus: 2}
      t2: {runtime: 10800}
      t3: {runtime: 0.5}
      t4: {runtime: 0.5}
      t5: {runtime: 0.5}
      t6: {runtime: 1, memory_mb: 1, image_mb: 1}
    edges:
    - [t0, t1]
    - [t0, t3]
    - [t1, t3]
    - [t0, t5]
    - [t1, t5]
    - [t2, t5]
    - [t3, t5]
    - [t4, t5]
    - [t1, t6]
    cloud: 0
  - id: j1
    submit: 3600.0
    tasks:
      t0: {runtime: 3600, cpus: 2}
      t1: {runtime: 0.5}
    edges:
    - [t0, t1]
    cloud: 0
    mode: ar
broker:
  policy: fdmms
  params: {ar_vms: free-first, backfill: aggressive}
"""


def test_a_task_ar_ready_one_ulp_before_a_task_ends_does_not_cut_it(tmp_path):
    """Found by the fast profile of the cloud stress test in CI (fdmms, aggressive backfilling),
    shrunk by hand to the case hypothesis gave. j1 is an AR DAG job; its t1 is ready at
    10801.407 + 3 x 0.469 = 10802.813999999997 (the latency added message by message) and
    reserved at once on c0's one VM, where j0.t2 (10800 s from 2.8139999999999996) ends at
    10802.814, 3.6e-12 s later. The AR preempts j0.t2 for that sliver; the task then finishes
    after the AR, at 10803.314, and its row's finish was later than its last drawn run (an
    empty run is not drawn). A task AR whose VMs are free within the clock's resolution of its
    ready time (``lease_plan.RESOLUTION``, relative 1e-12) now begins when the lease ends: no
    preemption, the AR at 10802.814."""
    out = run_checked(AR_ONE_ULP_BEFORE_AN_END, str(tmp_path))
    summary = json.loads(out.summary_text)["summary"]
    assert summary["be_preempted"] == 0
    assert spans(out, task_id(out, "j1", "t1")) == [("run", 10802.814, 10803.314)]


# ---------------------------------------------------------------------------------------------
# the checks themselves catch what they are for (on the issue's two-lease run, spoiled by hand)

def spoil_interval(out: Outputs, job: str, index: int, **changes: Any) -> Outputs:
    """``out`` with the ``index``-th interval of ``job`` (in time order) changed."""
    target = out.of(job)[index]
    return out._replace(intervals=[i._replace(**changes) if i == target else i for i in out.intervals])


SPOILERS = {
    # lease 9's second run starting at 600 overlaps AR 6's run, which ends at 601
    "two runs on one VM": (check_no_vm_over_capacity, lambda out: spoil_interval(out, "9", 1, start=600.0)),
    # AR 6 running from 153, a second late
    "an AR started late": (check_ar_leases_start_at_their_requested_time,
                           lambda out: spoil_interval(out, "6", 0, start=153.0)),
    # lease 9 losing 1 s of its 473 s of work
    "work lost": (check_work_is_conserved, lambda out: spoil_interval(out, "9", 1, end=987.0)),
    # lease 9's row gone
    "a lease without row": (check_every_lease_and_task_has_one_row,
                            lambda out: out._replace(jobs=[r for r in out.jobs if r["id"] != "9"])),
    # lease 9 refused without a reason (and so without runs)
    "a refusal without reason": (check_every_lease_and_task_has_one_row,
                                 lambda out: out._replace(jobs=[{**r, "state": "rejected"} if r["id"] == "9" else r
                                                                for r in out.jobs])),
    # a NaN in summary.json
    "NaN in the summary": (check_summary_is_strict_json_listing_the_files,
                           lambda out: out._replace(summary_text=out.summary_text.replace('"be_done": 988.0',
                                                                                          '"be_done": NaN'))),
}


CHAIN = """
federation:
  vm_types: {v0: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 100}}
  clouds: [{name: c0, vm_type: v0, vms: 2}]
dags:
  jobs:
    - {id: j, submit: 0, tasks: {a: {runtime: 10}, b: {runtime: 5}}, edges: [[a, b]]}
broker: {policy: fdls}
"""


def without(out: Outputs, job: str, kind: str) -> Outputs:
    return out._replace(intervals=[i for i in out.intervals if not (i.job == job and i.kind == kind)])


def task_id(out: Outputs, dag: str, task: str) -> str:
    return next(r["id"] for r in out.jobs if (r["dag"], r["task"]) == (dag, task))


DAG_SPOILERS = {
    # b (run 10-15 after a's 0-10) moved to 9-14, before its parent ends
    "a task before its parent": (CHAIN, check_tasks_start_after_their_parents,
                                 lambda out: spoil_interval(out, task_id(out, "j", "b"), 0, start=9.0, end=14.0)),
    # the preempted task of the issue's DAG case without its save (110-120)
    "a suspension without save": (ISSUE_16_DAGS.replace("POLICY", "fdls"), check_suspensions_save_and_reload,
                                  lambda out: without(out, next(r["id"] for r in out.jobs if r["suspensions"] == "1"),
                                                      "save")),
}


def spoil_row(out: Outputs, job: str, **changes: str) -> Outputs:
    return out._replace(jobs=[{**r, **changes} if r["id"] == job else r for r in out.jobs])


def spoil_summary(out: Outputs, old: str, new: str) -> Outputs:
    assert old in out.summary_text
    return out._replace(summary_text=out.summary_text.replace(old, new))


#: Haizea's rules (HAIZEA_LEASES), spoiled: (check, spoil, what its message says)
HAIZEA_SPOILERS = {
    # lease 4's lost run [1200, 1210) stretched over AR 5's start: a lost run held its VM
    "a lost run on a busy VM": (check_no_vm_over_capacity, lambda out: spoil_interval(out, "4", 0, end=1260.0),
                                "two things at once"),
    # lease 4's lost run counted as work
    "lost work kept": (check_work_is_conserved, lambda out: spoil_interval(out, "4", 0, kind="run"), "ran"),
    # lease 4 lost a run without being cancelled
    "a lost run without kill": (check_work_is_conserved, lambda out: spoil_row(out, "4", kills="0"), "no kill"),
    # AR 2's shutdown after the end of its interval
    "an AR's shutdown past its interval": (check_ar_leases_start_at_their_requested_time,
                                           lambda out: spoil_interval(out, "2", 1, start=1100.0, end=1102.0),
                                           "carved"),
    # lease 1's save a second short of 1024 MB at 32 MB/s
    "a short save": (check_overheads_take_their_documented_time,
                     lambda out: spoil_interval(out, "1", 1, end=99.0), "docs/federation.md gives"),
    # lease 1 reloading at 150, less than one copy (82 s) after its save
    "a resumption before one copy": (check_suspensions_save_and_reload,
                                     lambda out: spoil_interval(out, "1", 3, start=150.0, end=182.0), "copy_ahead"),
    # lease 1 suspended 60 s after it began, below its threshold of 64 s
    "a suspension below the threshold": (check_suspensions_save_and_reload,
                                         lambda out: spoil_interval(out, "1", 0, start=40.0), "threshold"),
    # lease 1's shutdown while it still runs
    "a shutdown before the end": (check_suspensions_save_and_reload,
                                  lambda out: spoil_interval(out, "1", 5, start=1160.0, end=1162.0), "shutdown"),
    # a kill not among the requeued leases
    "a kill not requeued": (check_summary_counts_match_the_rows,
                            lambda out: spoil_summary(out, '"be_requeued": 1', '"be_requeued": 0'), "be_requeued"),
    # the copy's VM-seconds dropped
    "copies not counted": (check_summary_counts_match_the_rows,
                           lambda out: spoil_summary(out, '"vm_s_copy": 82.0', '"vm_s_copy": 0.0'), "vm_s_copy"),
}


@pytest.mark.parametrize("spoiled", sorted(SPOILERS))
def test_each_check_catches_what_it_is_for(spoiled, tmp_path):
    check, spoil = SPOILERS[spoiled]
    scenario = yaml.safe_load(ISSUE_16_LEASES)
    out = run_checked(ISSUE_16_LEASES, str(tmp_path))
    with pytest.raises(AssertionError):
        check(scenario, spoil(out))


@pytest.mark.parametrize("spoiled", sorted(DAG_SPOILERS))
def test_each_dag_check_catches_what_it_is_for(spoiled, tmp_path):
    text, check, spoil = DAG_SPOILERS[spoiled]
    out = run_checked(text, str(tmp_path))
    with pytest.raises(AssertionError):
        check(yaml.safe_load(text), spoil(out))


def test_the_check_catches_an_ar_no_longer_than_its_shutdown_that_ran(tmp_path):
    """SHORT_ARS's AR 1 (2 s, a 2 s shutdown) shown as run: check 2 says it should be refused."""
    out = run_checked(SHORT_ARS, str(tmp_path))
    with pytest.raises(AssertionError, match="no longer than its shutdown"):
        check_ar_leases_start_at_their_requested_time(yaml.safe_load(SHORT_ARS),
                                                      spoil_row(out, "1", state="finished", reason=""))


@pytest.mark.parametrize("spoiled", sorted(HAIZEA_SPOILERS))
def test_each_haizea_check_catches_what_it_is_for(spoiled, tmp_path):
    check, spoil, message = HAIZEA_SPOILERS[spoiled]
    out = run_checked(HAIZEA_LEASES, str(tmp_path))
    with pytest.raises(AssertionError, match=message):
        check(yaml.safe_load(HAIZEA_LEASES), spoil(out))
