"""DAG jobs (a networkx ``DiGraph`` of tasks) and pure graph helpers: readiness, critical path,
CPOP ranks and priority list. Imports networkx, attrs and the package's errors and lease mode;
nothing from the engine, the datacenters or the brokers.

Job model of Li et al. (seed 001, section III-C): a job is a DAG ``T = (V, E)``; a task starts
only after all its immediate predecessors finish; the weight of a task is its *task type* (a row
of the execution-time matrix). Real workflows (WfFormat) give a measured *runtime* instead (or as
well). Edges carry the data a child needs from its parent (``data_mb``), transferred at the
inter-cloud bandwidth and free inside one cloud.

Task fields (node attributes; at least one of ``type`` and ``runtime``):

========== =====================================================================
type       task type (a hashable key of the execution-time matrix)
runtime    seconds on a reference machine (speed 1); time on a VM = runtime / speed
cpus       CPUs the task needs (default 1 when absent); VMs = ceil(cpus / VM CPUs)
memory_mb  memory (MB); the image saved when it is suspended (``M_j``)
image_mb   disk image (MB) transferred before it runs (``S_I``)
name       a label (e.g. the WfFormat task name)
========== =====================================================================

Edge field: ``data_mb`` (absent = 0).

Ranks follow Topcuoglu, Hariri and Wu, "Performance-effective and low-complexity task scheduling
for heterogeneous computing", IEEE TPDS 13(3), 2002, section 4.2 (CPOP):
``rank_u(i) = w_i + max_{j in succ(i)} (c_ij + rank_u(j))`` (eq. 4, exit: ``w_exit``),
``rank_d(i) = max_{j in pred(i)} (rank_d(j) + w_j + c_ji)`` (eq. 5, entry: 0),
``priority(i) = rank_u(i) + rank_d(i)``; the critical path is the tasks whose priority equals the
entry task's. ``w`` are average computation costs and ``c`` average communication costs; both are
arguments here, so the helpers are exact for any numeric type (``fractions.Fraction`` included).
Li et al.'s reference [3] is in fact Hagras and Janecek's HCPT (IPDPS 2003), whose listing uses
the average earliest and latest start times AEST = ``rank_d`` and ALST = ``|CP| - rank_u`` (one
exit task): the same quantities (docs/dag-and-leases.md).
"""

from __future__ import annotations

import heapq
import math
import numbers
from typing import TYPE_CHECKING, Any, Callable, Collection, Hashable, Iterable, Mapping, Sequence, Union

import attrs

from ..errors import DAGError
from .lease import LeaseMode

if TYPE_CHECKING:  # pragma: no cover
    # networkx is imported where a graph is built or checked, not with the package: it is
    # 285 modules, which every run (DAGs or not) paid for at start-up and in every full
    # garbage collection (docs/performance.md)
    import networkx as nx

TASK_FIELDS = ("type", "runtime", "cpus", "memory_mb", "image_mb", "name")
EDGE_FIELDS = ("data_mb",)

Task = Hashable
#: A cost per task (or per edge): a mapping or a function.
NodeCost = Union[Mapping[Any, Any], Callable[[Any], Any]]
EdgeCost = Union[Mapping[Any, Any], Callable[[Any, Any], Any]]


#: successors (or predecessors) of each task, each with its edge's fields: networkx's own dicts
Adjacency = Mapping[Task, Mapping[Task, Mapping[str, Any]]]


def adjacency(graph: "nx.DiGraph") -> tuple[Adjacency, Adjacency]:
    """``(successors, predecessors)`` of ``graph`` as the dicts of dicts networkx keeps them in,
    in insertion order (that of ``graph.edges(data=True)``), read-only by contract. The public
    views (``graph.succ``, ``graph.pred``) wrap the same dicts in a view per node, which the
    checks, the order and the links of every DAG job would make for each task; networkx
    documents the dict-of-dict-of-dict structure of a ``DiGraph`` (``_succ``, ``_pred``) for its
    subclasses, and it has not changed since networkx 2.0. The one place that reads it. O(1)."""
    return graph._succ, graph._pred  # type: ignore[attr-defined]


#: read once (a module global, not ``math.inf``'s attribute look-up per number checked)
_INF = math.inf


def _valid_number(value: object, positive: bool) -> bool:
    """A finite real number, > 0 (``positive``) or >= 0. Fast path for float (taken as it is:
    ``float`` of a float is the float itself) and int (no abstract-class check: every task's
    runtime and CPUs pass through here)."""
    kind = type(value)
    if kind is float:
        number = value
    elif kind is int:
        number = float(value)       # type: ignore[arg-type]
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    else:
        number = float(value)
    if positive:
        return 0 < number < _INF    # type: ignore[operator]
    return 0 <= number < _INF       # type: ignore[operator]


def _number_error(job: object, where: str, key: str, value: object, positive: bool) -> DAGError:
    return DAGError(f"job {job}, {where}: {key} = {value!r} must be a finite number "
                    f"{'> 0' if positive else '>= 0'}")


_KNOWN_TASK_FIELDS = frozenset(TASK_FIELDS)
_NUMERIC_TASK_FIELDS = (("runtime", False), ("cpus", True), ("memory_mb", False), ("image_mb", False))


def _check_tasks(job_id: object, graph: nx.DiGraph) -> None:
    known, numeric = _KNOWN_TASK_FIELDS, _NUMERIC_TASK_FIELDS
    # nodes(data=True) iterates networkx's own dict of (task, fields); nodes.items() would
    # look each task up through the view, a Python call a task
    for task, data in graph.nodes(data=True):
        if not data.keys() <= known:
            unknown = sorted(map(str, data.keys() - known))[0]
            raise DAGError(f"job {job_id}, task {task!r}: unknown field {unknown!r} "
                           f"(known: {', '.join(TASK_FIELDS)})")
        kind = data.get("type")
        if kind is not None:
            if type(kind) is not int and type(kind) is not str and not isinstance(kind, Hashable):
                raise DAGError(f"job {job_id}, task {task!r}: type {kind!r} must be a hashable key")
        elif "type" in data:
            raise DAGError(f"job {job_id}, task {task!r}: type None is not a task type")
        elif "runtime" not in data:
            raise DAGError(f"job {job_id}, task {task!r}: missing field 'type' or 'runtime' "
                           "(one is needed for its execution time)")
        for key, positive in numeric:
            value = data.get(key)
            if value is not None or key in data:
                if not _valid_number(value, positive):
                    raise _number_error(job_id, f"task {task!r}", key, value, positive)


def _check_edges(job_id: object, graph: nx.DiGraph) -> None:
    # the order of graph.edges(data=True), without making its view
    for u, out in adjacency(graph)[0].items():
        for v, data in out.items():
            if not data:
                continue
            for key, value in data.items():
                if key not in EDGE_FIELDS:
                    raise DAGError(f"job {job_id}, edge {u!r} -> {v!r}: unknown field {key!r} "
                                   f"(known: {', '.join(EDGE_FIELDS)})")
                if not _valid_number(value, False):
                    raise _number_error(job_id, f"edge {u!r} -> {v!r}", key, value, False)


def _topological_order(job_id: object, graph: nx.DiGraph) -> tuple[Task, ...]:
    """The insertion order if it is topological (every edge goes forward: the usual case, and
    always for generated jobs), else Kahn's algorithm, first-in first-out from the tasks in
    insertion order. Deterministic either way. A cycle is a DAGError naming the job and the cycle."""
    succ, pred = adjacency(graph)
    position = {t: i for i, t in enumerate(pred)}
    if all(position[u] < position[v] for u, out in succ.items() for v in out):
        return tuple(position)
    waiting = {t: len(p) for t, p in pred.items()}
    order = [t for t, n in waiting.items() if n == 0]
    i = 0
    while i < len(order):
        for s in succ[order[i]]:
            waiting[s] -= 1
            if waiting[s] == 0:
                order.append(s)
        i += 1
    if len(order) != len(waiting):
        import networkx as nx

        cycle = nx.find_cycle(graph)
        path = " -> ".join(repr(u) for u, _ in cycle) + f" -> {cycle[0][0]!r}"
        raise DAGError(f"job {job_id}: the task graph has a cycle {path}")
    return tuple(order)


@attrs.frozen(slots=True, eq=False)
class DagJob:
    """A job of tasks with precedence constraints, validated on construction
    (:class:`~cloudsim_py.errors.DAGError` naming the job, the task and the key).

    The graph is frozen (``networkx.freeze``) and owned by the job; ``order`` is a topological
    order: the insertion order when it is one, else Kahn's (first in first out); deterministic. ``cloud`` is the index of the
    cloud the job is submitted to (its owner), ``mode`` its lease mode (Li et al. section III-B:
    a few jobs are advance reservations, the rest best-effort) and ``start`` the requested start of
    an AR job.

    >>> import networkx as nx
    >>> g = nx.DiGraph([(0, 1), (0, 2), (1, 3), (2, 3)])
    >>> nx.set_node_attributes(g, 0, "type")
    >>> DagJob(id=7, graph=g, submit_time=10.0, cloud=2).order
    (0, 1, 2, 3)
    """

    id: Hashable
    graph: nx.DiGraph = attrs.field(repr=False)
    submit_time: float = 0.0
    cloud: int | None = None
    mode: LeaseMode = LeaseMode.BEST_EFFORT
    start: float | None = None
    order: tuple[Task, ...] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        import networkx as nx

        g = self.graph
        if not (type(g) is nx.DiGraph or isinstance(g, nx.DiGraph) and not g.is_multigraph()):
            raise DAGError(f"job {self.id}: the graph must be a networkx DiGraph, not {type(g).__name__}")
        if g.number_of_nodes() == 0:
            raise DAGError(f"job {self.id}: the graph has no task")
        t = self.submit_time
        if not ((type(t) is float or isinstance(t, numbers.Real)) and math.isfinite(t) and t >= 0):
            raise DAGError(f"job {self.id}: submit_time {self.submit_time!r} must be finite and >= 0")
        cloud = self.cloud
        if cloud is not None and (not (type(cloud) is int or isinstance(cloud, numbers.Integral)) or cloud < 0):
            raise DAGError(f"job {self.id}: cloud {self.cloud!r} must be a cloud index >= 0")
        if self.mode is LeaseMode.AR:
            if self.start is None or not self.start >= self.submit_time:
                raise DAGError(f"job {self.id}: an advance-reservation job needs a start >= its submit "
                               f"time {self.submit_time:g}, got {self.start!r}")
        elif self.start is not None:
            raise DAGError(f"job {self.id}: start {self.start!r} given for a {self.mode.label} job")
        _check_tasks(self.id, g)
        _check_edges(self.id, g)
        object.__setattr__(self, "order", _topological_order(self.id, g))
        if not nx.is_frozen(g):
            nx.freeze(g)

    @property
    def tasks(self) -> int:
        return self.graph.number_of_nodes()

    def entry_tasks(self) -> list[Task]:
        return [t for t in self.order if self.graph.in_degree(t) == 0]

    def exit_tasks(self) -> list[Task]:
        return [t for t in self.order if self.graph.out_degree(t) == 0]

    def data_mb(self, parent: Task, child: Task) -> float:
        """Data the child needs from the parent (0 when the edge carries none)."""
        return float(self.graph.edges[parent, child].get("data_mb", 0.0))


# -- a workload of jobs ----------------------------------------------------------------------

def repeated_id(ids: Iterable[Hashable]) -> tuple[int, int] | None:
    """Positions ``(first, second)`` of the first id given twice (the earliest second use), or
    None when every id differs. Ids are compared as the outputs print them (``1`` and ``"1"``
    are one id in ``jobs.csv``). O(n).

    >>> repeated_id(["a", "b", "c", "b", "a"])
    (1, 3)
    >>> repeated_id([1, "1"])
    (0, 1)
    """
    seen: dict[str, int] = {}
    for i, job_id in enumerate(ids):
        key = str(job_id)
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None


def check_distinct_ids(jobs: Sequence[DagJob]) -> None:
    """A DAGError naming the id and both positions if two jobs share an id: a run's outputs
    name jobs by id (the DAG jobs' log, every task's records), so two jobs of one id could not
    be told apart. For a list of jobs built in Python before it is simulated; a scenario's
    ``dags`` are checked when read (:mod:`~cloudsim_py.workload.dag_spec`)."""
    found = repeated_id(job.id for job in jobs)
    if found is not None:
        i, j = found
        raise DAGError(f"job id {jobs[j].id!r} is used twice: jobs[{i}] and jobs[{j}]")


# -- readiness -------------------------------------------------------------------------------

def ready_tasks(job: DagJob, done: Collection[Task], exclude: Collection[Task] = ()) -> list[Task]:
    """Tasks not done (nor in ``exclude``, e.g. already dispatched) whose predecessors are all
    done, in topological order. O(V + E)."""
    pred = job.graph.pred
    return [t for t in job.order
            if t not in done and t not in exclude and all(p in done for p in pred[t])]


def released_by(job: DagJob, finished: Task, done: Collection[Task]) -> list[Task]:
    """Successors of ``finished`` that become ready now (``done`` includes ``finished``), in
    topological order of the job. O(out-degree x in-degree)."""
    pred = job.graph.pred
    ready = [s for s in job.graph.succ[finished] if s not in done and all(p in done for p in pred[s])]
    if len(ready) > 1:
        rank = {t: i for i, t in enumerate(job.order)}
        ready.sort(key=rank.__getitem__)
    return ready


# -- costs -----------------------------------------------------------------------------------

def _node_cost(cost: NodeCost) -> Callable[[Any], Any]:
    if isinstance(cost, Mapping):
        return cost.__getitem__
    return cost


def _edge_cost(cost: EdgeCost | None) -> Callable[[Any, Any], Any]:
    if cost is None:
        return lambda u, v: 0
    if isinstance(cost, Mapping):
        mapping = cost
        return lambda u, v: mapping[u, v]
    return cost


def runtime_cost(job: DagJob) -> dict[Task, float]:
    """Each task's ``runtime`` (DAGError naming job and task if one has none)."""
    out = {}
    for task, data in job.graph.nodes(data=True):
        if "runtime" not in data:
            raise DAGError(f"job {job.id}, task {task!r}: no runtime")
        out[task] = data["runtime"]
    return out


def comm_costs(job: DagJob, bandwidth_mbps: float) -> dict[tuple[Task, Task], float]:
    """Transfer time of every edge's data at ``bandwidth_mbps`` (MB/s): ``data_mb / bandwidth``."""
    if not bandwidth_mbps > 0:
        raise DAGError(f"job {job.id}: bandwidth {bandwidth_mbps!r} MB/s must be > 0")
    return {(u, v): d.get("data_mb", 0.0) / bandwidth_mbps for u, v, d in job.graph.edges(data=True)}


def critical_path(job: DagJob, cost: NodeCost, comm: EdgeCost | None = None) -> tuple[Any, list[Task]]:
    """Length and tasks of a longest path, task costs ``cost`` plus edge costs ``comm`` (default
    zero: every task in one cloud). With measured runtimes this is the job's makespan on
    unlimited machines without overheads. O(V + E); ties go to the first task in ``order``."""
    w, c = _node_cost(cost), _edge_cost(comm)
    finish: dict[Task, Any] = {}
    via: dict[Task, Task | None] = {}
    for t in job.order:
        best, arg = 0, None
        for p in job.graph.pred[t]:
            f = finish[p] + c(p, t)
            if arg is None or f > best:
                best, arg = f, p
        finish[t] = best + w(t)
        via[t] = arg
    end = max(job.order, key=lambda t: finish[t])
    path = [end]
    while via[path[-1]] is not None:
        path.append(via[path[-1]])
    return finish[end], path[::-1]


def critical_path_length(job: DagJob, cost: NodeCost, comm: EdgeCost | None = None) -> Any:
    """Length of :func:`critical_path`."""
    return critical_path(job, cost, comm)[0]


# -- CPOP (Topcuoglu et al. 2002) --------------------------------------------------------------

def upward_rank(job: DagJob, w: NodeCost, c: EdgeCost | None = None) -> dict[Task, Any]:
    """``rank_u`` (Topcuoglu et al. 2002, eq. 4), by reverse topological order. O(V + E)."""
    wf, cf = _node_cost(w), _edge_cost(c)
    rank: dict[Task, Any] = {}
    succ = job.graph.succ
    for t in reversed(job.order):
        tail = [cf(t, s) + rank[s] for s in succ[t]]
        rank[t] = wf(t) + (max(tail) if tail else 0)
    return rank


def downward_rank(job: DagJob, w: NodeCost, c: EdgeCost | None = None) -> dict[Task, Any]:
    """``rank_d`` (Topcuoglu et al. 2002, eq. 5), by topological order. O(V + E)."""
    wf, cf = _node_cost(w), _edge_cost(c)
    rank: dict[Task, Any] = {}
    pred = job.graph.pred
    for t in job.order:
        head = [rank[p] + wf(p) + cf(p, t) for p in pred[t]]
        rank[t] = max(head) if head else 0
    return rank


def cpop_priority(job: DagJob, w: NodeCost, c: EdgeCost | None = None) -> dict[Task, Any]:
    """``priority = rank_u + rank_d`` (CPOP, Topcuoglu et al. 2002, Fig. 5 line 3)."""
    up, down = upward_rank(job, w, c), downward_rank(job, w, c)
    return {t: up[t] + down[t] for t in job.order}


def cpop_critical_tasks(job: DagJob, priority: Mapping[Task, Any], rel_tol: float = 1e-9) -> list[Task]:
    """Tasks on a critical path: priority equal to ``|CP|`` = the largest entry-task priority
    (Fig. 5 lines 4-13 walk one such path; every task with that priority lies on one)."""
    cp = max(priority[t] for t in job.entry_tasks())
    return [t for t in job.order if math.isclose(priority[t], cp, rel_tol=rel_tol) or priority[t] == cp]


def priority_list(job: DagJob, priority: Mapping[Task, Any]) -> list[Task]:
    """The CPOP listing: repeatedly take the ready task of highest priority (Fig. 5 lines 14-17,
    without the processor selection), so parents always come before their children; ties go to
    the task earlier in ``order``. O((V + E) log V)."""
    index = {t: i for i, t in enumerate(job.order)}
    pred, succ = job.graph.pred, job.graph.succ
    waiting = {t: len(pred[t]) for t in job.order}
    heap = [(-priority[t], index[t], t) for t in job.order if waiting[t] == 0]
    heapq.heapify(heap)
    out: list[Task] = []
    while heap:
        _, _, t = heapq.heappop(heap)
        out.append(t)
        for s in succ[t]:
            waiting[s] -= 1
            if waiting[s] == 0:
                heapq.heappush(heap, (-priority[s], index[s], s))
    return out


def build_dag_job(job_id: Hashable, tasks: Mapping[Task, Mapping[str, Any]],
                  edges: Iterable[tuple[Task, Task] | tuple[Task, Task, float]], **job_fields: Any) -> DagJob:
    """A :class:`DagJob` from ``{task: fields}`` and ``(parent, child[, data_mb])`` edges; an edge
    naming an unknown task is a DAGError."""
    import networkx as nx

    g: nx.DiGraph = nx.DiGraph()
    # the tasks, then each one's fields (a copy) into its attribute dict: networkx's
    # add_nodes_from takes (task, fields) pairs through a caught TypeError per task; the new
    # graph's tasks are in the order of ``tasks``, so each one's attribute dict is met beside
    # its fields (no look-up through the node view, a Python call a task)
    g.add_nodes_from(tasks)
    for (_, data), f in zip(g.nodes(data=True), tasks.values()):
        data.update(f)
    # every edge checked, then all added at once (what add_edge does for each, without its
    # per-call overhead); the same graph, the same first error. The graph's tasks are the keys
    # of ``tasks``: an edge is looked up there (in C), and only one naming a task not found
    # there, or an unhashable one, goes through the graph's own test (a Python call a task)
    listed = []
    for edge in edges:
        u, v = edge[0], edge[1]
        try:
            known = u in tasks and v in tasks
        except TypeError:
            known = False
        if not known:
            for t in (u, v):
                if t not in g:
                    raise DAGError(f"job {job_id}: edge {u!r} -> {v!r} names unknown task {t!r}")
        listed.append((u, v, {"data_mb": edge[2]}) if len(edge) == 3 else (u, v))
    g.add_edges_from(listed)
    return DagJob(id=job_id, graph=g, **job_fields)
