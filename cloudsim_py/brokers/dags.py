"""The schedulers of a cloud system running DAG jobs (Li et al., seed 001): one per cloud, each
owning the DAG jobs submitted to its cloud and sending their tasks to clouds, talking to the
others only by messages; each runs its own cloud through the cloud's local mapping
(:class:`~cloudsim_py.clouds.local.LocalCloud`, by composition). FDLS and FDMMS are the two
ways an owner picks the next task and its cloud. Imports the local mapping, the DAG helpers and
the execution model; no scenario, no runner.

**Protocol** (section III-A; every message has the simulation's latency):

- ``Check`` - a *task-checking request*: the owner asks every other scheduler, for each task it
  is deciding about, the earliest time all the task's resources are available there
  (:meth:`LocalCloud.quote`: ``n`` VMs free for image transfer + execution, from when the
  task's input data can be there); ``Quotes`` is the answer. The owner answers for its own
  cloud itself.
- ``Transfer`` - the owner sends a task to a cloud; ``Answer`` accepts it (a best-effort task
  joins the queue; an AR task is reserved) or rejects it (the cloud is too small, or an AR task
  cannot be reserved by the time it was quoted, or by its arrival if the message took longer:
  its quote counts what best-effort work holds as available, but that work may not be
  suspendable in time); a rejected task is decided again and sent without a promise (the cloud
  reserves it when it can). A task is submitted to its
  cloud's datacenter once, with the plan the cloud made for it.
- ``Done`` - the cloud that ran a task tells its owner when it finished.

**Estimates and feedback** (IV-D): the estimated finish of task ``T`` on cloud ``C`` is
``max(quote_C, now + latency to C) + S_I / b_C + ETM(T, C) + alpha x gap_C`` (a task sent now
is not on another cloud before the message; ties go to the owner's own cloud), where
``gap_C`` is the latest difference
between actual and estimated (without the feedback term) finish of this owner's tasks on ``C``.
``alpha = 0`` turns feedback off.

**Policies**: ``fdls`` (Algorithm 1): each job has a CPOP priority list (Topcuoglu et al. 2002,
``rank_u + rank_d`` with costs averaged over the clouds); the owner sends, one at a time, the
top task of a job's list once all its predecessors are done, to the cloud with the earliest
estimated finish; jobs are served in arrival order; the list waits while its top is not ready
(``strict=False``: the highest-priority ready task goes instead). ``fdmms`` (Algorithm 2): the
mappable set is every task of the owner's jobs whose predecessors are all done; each round every
one of them is checked on every cloud and the task-cloud pair with the earliest estimated finish
is assigned; the set is recomputed as tasks finish.

**Data**: a task's input comes from each predecessor's cloud, ``data_mb / bandwidth`` after the
predecessor finished (zero inside one cloud); the bandwidth between clouds is the federation's
``inter_cloud_mbps`` (default: the smaller of the two VM types' bandwidths).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from heapq import heapify, heappop, heappush
from itertools import count
from operator import attrgetter
from typing import Any, ClassVar, Hashable, Iterator, Literal, Mapping, NamedTuple, Sequence

import attrs
import numpy as np

from ..clouds.cloud import CloudSpec
from ..clouds.lease_plan import RESOLUTION
from ..clouds.matrix import ExecutionModel
from ..clouds.overheads import Overheads
from ..errors import DAGError, PlatformError, PolicyError
from ..engine.events import Message
from ..infrastructure.phases import MESSAGE
from ..logs import logger
from ..workload.dag import DagJob, adjacency
from ..workload.dag_task import TaskJob
from ..workload.job import Job
from ..workload.lease import LeaseMode
from .base import register_broker
from .leases import CloudScheduler

log = logger(__name__)

INF = math.inf
NAN = math.nan
#: the two modes a task has, read once (an enum member read through its class is a look-up
#: of some 100 ns, on every task's acceptance)
AR, BEST_EFFORT = LeaseMode.AR, LeaseMode.BEST_EFFORT
#: an owner's view of a task: predecessors running, ready to be sent, being decided or sent, done
BLOCKED, READY, SENT, DONE = range(4)
STATE_NAMES = ("waiting for its predecessors", "ready, not yet sent", "sent to a cloud", "done")


# -- the owner's bookkeeping ---------------------------------------------------------------------

@attrs.define(slots=True, eq=False, repr=False)
class TaskOrder:
    """One task of a DAG job, as its owner tracks it (travels in messages as a handle)."""

    run: "DagRun"
    task: Hashable
    id: int
    cpus: float
    image_mb: float
    memory_mb: float
    #: per cloud: VMs it takes, image transfer S_I / b, execution time (known to every scheduler)
    vms: list[int] = attrs.field(factory=list)
    xfer: list[float] = attrs.field(factory=list)
    exec: list[float] = attrs.field(factory=list)
    #: per cloud: when its input can be there (set when it becomes ready)
    nb: list[float] = attrs.field(factory=list)
    state: int = BLOCKED
    cloud: int = -1                 #: where it was sent
    estimate: float = NAN           #: estimated finish there, without the feedback term
    finish: float = NAN
    rejections: int = 0
    #: its place in the job's topological order (ties among tasks released together)
    rank: int = 0
    #: FDLS: its place in the job's priority list
    place: int = 0
    #: the job's graph as links between orders, made once at submission: predecessors with the
    #: data each sends, successors, predecessors not yet done
    preds: list[tuple["TaskOrder", float]] = attrs.field(factory=list)
    succ: list["TaskOrder"] = attrs.field(factory=list)
    pending: int = 0
    #: a task of an AR job (read at every quote and transfer: kept, not looked up through the job)
    ar: bool = attrs.field(default=attrs.Factory(lambda self: self.run.dag.mode is AR, takes_self=True))

    def __repr__(self) -> str:
        return f"TaskOrder(job {self.run.dag.id}, task {self.task!r}, id {self.id})"


@attrs.define(slots=True, eq=False, repr=False)
class DagRun:
    """A DAG job at its owner: its tasks, what is done, its priority list (FDLS)."""

    dag: DagJob
    number: int                     #: arrival number in the whole system
    owner: int
    orders: dict[Hashable, TaskOrder]
    left: int
    finish: float = NAN
    #: FDLS: the priority list, as the task orders (each knows its ``place`` in it)
    plist: list[TaskOrder] = attrs.field(factory=list)
    ptr: int = 0
    heap: list = attrs.field(factory=list)      #: FDLS: places of ready tasks (stale ones dropped lazily)

    def __repr__(self) -> str:
        return f"DagRun(job {self.dag.id}, {self.left} tasks left)"

    def drop_links(self) -> None:
        """Forget the job's graph once its last task has ended: each order's links to its
        parents and children, and the run's own collections of its orders (``orders``, and
        FDLS's ``plist`` with its ``heap`` of places: a finished run still met in FDLS's armed
        set then offers no task). Nothing else reads them after the job's end (its record is the
        :class:`DagOutcome` made from ``dag``); they are reference cycles (order <-> order,
        run <-> order), so, kept, every finished job waits for the cycle collector, which then
        walks all of them at once when the run ends (tens of thousands of objects for 10,000
        tasks). Dropped, a finished job's orders are freed by reference counting as soon as
        nothing else holds them. O(tasks + edges)."""
        for order in self.orders.values():
            order.preds.clear()
            order.succ.clear()
        self.orders = {}
        self.plist = []
        self.heap = []
        self.ptr = 0


def link_orders(dag: DagJob, orders: Mapping[Hashable, TaskOrder]) -> None:
    """The job's edges as links between its task orders: each child's parents with the data
    each sends, each parent's children, each child's count of parents not done. O(E): the
    graph's adjacency read directly, in the order of ``graph.edges(data=True)`` (no view made)."""
    succ = adjacency(dag.graph)[0]
    for parent, children in succ.items():
        if not children:
            continue
        up = orders[parent]
        for child, edge in children.items():
            down = orders[child]
            up.succ.append(down)
            down.preds.append((up, float(edge.get("data_mb", 0.0))))
            down.pending += 1


def cpop_list(topo: Sequence[TaskOrder], w: Sequence[float], bandwidth: float | None) -> list[Hashable]:
    """FDLS's priority list of one job, from its task orders in topological order (``rank`` is
    each one's place), their mean execution times ``w`` and the mean bandwidth between clouds
    (``None``: one cloud, no transfer costs): CPOP's ``rank_u + rank_d`` (Topcuoglu et al. 2002,
    eqs. 4-5, Fig. 5 line 3), then the ready task of highest priority first, ties to the earlier
    task (lines 14-17). The numbers and order of :func:`~cloudsim_py.workload.dag.cpop_priority`
    and :func:`~cloudsim_py.workload.dag.priority_list` (the same sums in the same order; a test
    compares them), read from the orders' links instead of the job's graph. O((V + E) log V)."""
    n = len(topo)
    comm: dict[tuple[int, int], float] = {}
    if bandwidth is not None:
        if not bandwidth > 0:
            raise DAGError(f"job {topo[0].run.dag.id}: bandwidth {bandwidth!r} MB/s must be > 0")
        comm = {(p.rank, o.rank): d / bandwidth for o in topo for p, d in o.preds}
    # the maxima taken in loops, the first of equal values kept as max() keeps it (a list
    # comprehension per task was a function call each)
    up = [0.0] * n
    for o in reversed(topo):
        k = o.rank
        most: Any = None
        for s in o.succ:
            v = (comm[k, s.rank] if comm else 0) + up[s.rank]
            if most is None or v > most:
                most = v
        up[k] = w[k] + (most if most is not None else 0)
    down = [0.0] * n
    for o in topo:
        k = o.rank
        most = None
        for p, _ in o.preds:
            v = down[p.rank] + w[p.rank] + (comm[p.rank, k] if comm else 0)
            if most is None or v > most:
                most = v
        down[k] = most if most is not None else 0
    waiting = [len(o.preds) for o in topo]
    heap = [(-(up[k] + down[k]), k) for k in range(n) if not waiting[k]]
    heapify(heap)
    out: list[Hashable] = []
    while heap:
        _, k = heappop(heap)
        o = topo[k]
        out.append(o.task)
        for s in o.succ:
            waiting[s.rank] -= 1
            if not waiting[s.rank]:
                heappush(heap, (-(up[s.rank] + down[s.rank]), s.rank))
    return out


class DagOutcome(NamedTuple):
    """A finished DAG job: its owner cloud, when it was submitted and requested to start (an AR
    job's required start, III-B; a best-effort job's submission), when its last task ended."""

    id: Hashable
    owner: int
    submit: float
    finish: float
    tasks: int
    ar: bool
    start: float

    @property
    def time(self) -> float:
        """Li et al.'s execution time: from when it could start (an AR job booked ahead is not
        charged its notice) to its last task's end."""
        return self.finish - self.start


@attrs.define(slots=True, eq=False)
class DagLog:
    """Outcome of every DAG job of a cloud system: a :class:`DagOutcome` of each finished one,
    ``(job id, reason)`` of the refused ones, and the refused jobs themselves with the cloud
    that refused them (their tasks get rows in ``jobs.csv``, the jobs rows in
    ``dag_jobs.csv``)."""

    finished: list[DagOutcome] = attrs.field(factory=list)
    rejected: list[tuple[Hashable, str]] = attrs.field(factory=list)
    refused: list[tuple[DagJob, str, int]] = attrs.field(factory=list)
    submitted: int = 0

    def refuse(self, dag: DagJob, reason: str, owner: int) -> None:
        """``dag``, submitted to cloud ``owner``, is refused there for ``reason``."""
        self.rejected.append((dag.id, reason))
        self.refused.append((dag, reason, owner))

    def job_times(self) -> list[float]:
        """Each finished job's execution time (:attr:`DagOutcome.time`)."""
        return [o.time for o in self.finished]

    def summary(self) -> dict[str, float]:
        times = self.job_times()
        n = len(times)
        ar = [o.time for o in self.finished if o.ar]
        be = [o.time for o in self.finished if not o.ar]
        return {
            "dag_jobs_submitted": self.submitted,
            "dag_jobs_finished": n,
            "dag_jobs_rejected": len(self.rejected),
            "avg_job_time": math.fsum(times) / n if n else NAN,
            "max_job_time": max(times) if n else NAN,
            "avg_job_time_ar": math.fsum(ar) / len(ar) if ar else NAN,
            "avg_job_time_be": math.fsum(be) / len(be) if be else NAN,
            "dag_makespan": (max(o.finish for o in self.finished)
                             - min(o.submit for o in self.finished)) if n else NAN,
        }


@attrs.define(slots=True, eq=False)
class Federation:
    """What every scheduler of one cloud system shares: the clouds (public: VM types and sizes),
    the execution model (the ETM is known to all, Algorithms 1-2 "Require"), the bandwidth
    between clouds, the schedulers to address messages to, task ids and the jobs' log."""

    clouds: Sequence[CloudSpec]
    model: ExecutionModel
    inter_cloud_mbps: float | None = None
    overheads: Overheads = attrs.field(factory=Overheads)
    schedulers: list["DagScheduler"] = attrs.field(factory=list)
    log: DagLog = attrs.field(factory=DagLog)
    ids: Iterator[int] = attrs.field(factory=lambda: count(1))
    messages: int = 0
    #: ``bw[a][b]``: :meth:`bandwidth` of every pair of clouds, made once (a ready task's input
    #: times read it per predecessor and cloud; the clouds and their bandwidths are fixed)
    bw: list[list[float]] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        n = len(self.clouds)
        self.bw = [[self.bandwidth(a, b) for b in range(n)] for a in range(n)]

    def bandwidth(self, a: int, b: int) -> float:
        """MB/s between clouds ``a`` and ``b`` (``inf`` inside one cloud)."""
        if a == b:
            return INF
        if self.inter_cloud_mbps is not None:
            return self.inter_cloud_mbps
        return min(self.clouds[a].vm_type.bandwidth_mbps, self.clouds[b].vm_type.bandwidth_mbps)

    def mean_bandwidth(self) -> float:
        """The bandwidth CPOP's average communication cost uses (between two different clouds)."""
        n = len(self.clouds)
        if n == 1:
            return self.inter_cloud_mbps or self.clouds[0].vm_type.bandwidth_mbps
        pairs = [self.bandwidth(a, b) for a in range(n) for b in range(n) if a != b]
        return len(pairs) / math.fsum(1.0 / x for x in pairs)

    def active(self) -> Iterator[DagRun]:
        """The DAG jobs not finished, at every owner."""
        for s in self.schedulers:
            yield from s.runs()


# -- messages ------------------------------------------------------------------------------------

class Check(NamedTuple):
    round: int
    #: the tasks (the receiver reads each one's input time on its cloud, ``nb``, fixed once the
    #: task is ready), or a whole mappable set (FDMMS)
    items: "tuple[TaskOrder, ...] | Snapshot"


class Quotes(NamedTuple):
    round: int
    starts: "tuple[float, ...] | np.ndarray"


class Transfer(NamedTuple):
    order: TaskOrder
    not_before: float
    quote: float


class Answer(NamedTuple):
    order: TaskOrder
    accepted: bool
    reason: str


class Done(NamedTuple):
    order: TaskOrder
    finish: float
    cloud: int


@attrs.define(slots=True, frozen=True, eq=False)
class Snapshot:
    """A mappable set as it was when a round began: per cloud, each task's VMs, image transfer,
    execution time and input-ready time, in slots ``0..size-1`` (some slots may be dead:
    tasks decided before the round, whose transfer time is infinite, so that every estimate of
    theirs is too and no quote looks for a gap for them). Travels in ``Check`` messages instead
    of one item per task; a set that grows or is compacted makes new arrays, and a slot is only
    killed by the decision that ends a round."""

    orders: list["TaskOrder | None"]
    n: np.ndarray          #: [cloud, slot] VMs
    x: np.ndarray          #: [cloud, slot] S_I / b (inf: a dead slot)
    e: np.ndarray          #: [cloud, slot] execution time
    nb: np.ndarray         #: [cloud, slot] input ready on that cloud
    ar: np.ndarray         #: [slot] an AR task
    size: int
    #: the slots killed in these arrays so far, in order (the set's own list: appended to
    #: until the arrays are compacted into new ones; :meth:`DagScheduler._decide_snapshot`)
    killed: list[int] = attrs.field(factory=list)


class ReadySet:
    """FDMMS's mappable set (Algorithm 2) as arrays over the clouds, so that a round of checks
    on every ready task is a few array operations, not a Python step per task. Adding is O(1)
    (amortised: arrays grow by doubling, and are compacted when half their slots are dead; a
    task's columns are written with those of the others added before the next snapshot, a few
    numpy calls for all of them instead of five per task), removing O(1); :meth:`snapshot`
    O(tasks added since the last one)."""

    def __init__(self, clouds: int, capacity: int = 64) -> None:
        self.clouds = clouds
        self.slot: dict[TaskOrder, int] = {}
        self._alloc(capacity)
        self.size = 0

    def _alloc(self, capacity: int) -> None:
        c = self.clouds
        self.orders: list[TaskOrder | None] = []
        self.n = np.zeros((c, capacity), np.int64)
        self.x = np.zeros((c, capacity))
        self.e = np.zeros((c, capacity))
        self.nb = np.zeros((c, capacity))
        self.ar = np.zeros(capacity, bool)
        #: the slots from this one on have their columns still to write (:meth:`_write`)
        self.unwritten = 0
        #: the slots killed in these arrays, in order (:class:`Snapshot`'s ``killed``)
        self.killed: list[int] = []

    def __len__(self) -> int:
        return len(self.slot)

    def add(self, order: TaskOrder) -> None:
        cap = self.ar.shape[0]
        if self.size == cap:
            self._compact(cap * 2 if len(self.slot) > cap // 2 else cap)
        self._put(order)

    def _compact(self, capacity: int) -> None:
        """The live tasks, in their order, moved to new arrays of ``capacity`` slots (arrays
        already shared in a snapshot stay as they were sent). O(live tasks)."""
        live = [o for o in self.orders if o is not None]
        self._alloc(capacity)
        self.size = 0
        self.slot.clear()
        for o in live:
            self._put(o)

    def _put(self, order: TaskOrder) -> None:
        k = self.size
        self.orders.append(order)
        self.slot[order] = k
        self.size = k + 1

    def _write(self) -> None:
        """The columns of the slots added since the last write: each array's block in one
        assignment (a slot killed before it was written gets an infinite transfer time, as
        :meth:`remove` gives a written one). O(slots written)."""
        lo, hi = self.unwritten, self.size
        if lo == hi:
            return
        block = self.orders[lo:hi]
        live = [o for o in block if o is not None]
        if len(live) == len(block):
            self.n[:, lo:hi] = np.array([o.vms for o in live], np.int64).T
            self.x[:, lo:hi] = np.array([o.xfer for o in live], float).T
            self.e[:, lo:hi] = np.array([o.exec for o in live], float).T
            self.nb[:, lo:hi] = np.array([o.nb for o in live], float).T
            self.ar[lo:hi] = [o.ar for o in live]
        else:
            for k, o in enumerate(block, lo):
                if o is None:
                    self.x[:, k] = INF
                else:
                    self.n[:, k] = o.vms
                    self.x[:, k] = o.xfer
                    self.e[:, k] = o.exec
                    self.nb[:, k] = o.nb
                    self.ar[k] = o.ar
        self.unwritten = hi

    def remove(self, order: TaskOrder) -> None:
        k = self.slot.pop(order, None)
        if k is not None:
            if k < self.unwritten:
                self.x[:, k] = INF
            self.orders[k] = None
            self.killed.append(k)

    def snapshot(self) -> Snapshot:
        """The set as a round sees it; compacted first when most slots are dead (a round's
        array operations cost with the slots, dead or alive: at most twice the live ones, at
        an amortised O(1) per task decided)."""
        if self.size > 2 * len(self.slot) + 32:
            self._compact(self.ar.shape[0])
        self._write()
        return Snapshot(self.orders, self.n, self.x, self.e, self.nb, self.ar, self.size, self.killed)


@attrs.define(slots=True, eq=False)
class _KeptEstimates:
    """One cloud's estimates of a mappable set's slots at the last round on arrays, with what
    they were computed from (:meth:`DagScheduler._decide_snapshot`): the set's arrays (their
    identity), the cloud's answers (the same array while the cloud's state and the time are the
    same), the time a task can be there, the feedback term and the slots; the raw estimates
    and the estimates, the first least estimate's slot, and how many of the set's killed slots
    they count."""

    arrays: np.ndarray
    quotes: Any
    reach: float
    term: float
    size: int
    raw: np.ndarray
    eft: np.ndarray
    best: int
    applied: int


@attrs.define(slots=True, eq=False)
class _Round:
    """A round of task-checking requests out: the tasks it asks about, the answers in so far,
    how many are still awaited."""

    id: int
    orders: Any                               #: list[TaskOrder], or a Snapshot (FDMMS)
    quotes: dict[int, Any]                    #: cloud -> starts (a tuple, or an array for a Snapshot)
    waiting: int
    #: what every ``Check`` of the round carries: the tasks as a tuple, or the snapshot
    items: Any = None


class DagScheduler(CloudScheduler):
    """A cloud's scheduler in a cloud system of DAG jobs; subclasses choose the next task
    (``_candidates``) and the task-cloud pair (``_pick``). ``alpha``: the feedback constant;
    ``ar_slack``: how much later than quoted (s) an AR task may still be reserved before it is
    rejected. The local discipline's options are those of the lease scheduler."""

    #: how :meth:`_pick` chooses, declared so that a round can be decided while it is summed,
    #: without the round's rows of estimates and the pick's call (:meth:`_decide_min_min`):
    #: ``"min-min"``, the first least estimate over the tasks in order,
    #: each over the clouds in tie order (FDMMS); ``"first-task"``, the first task's least
    #: estimate in tie order (FDLS: the same as min-min for a round of one task); ``None``, any
    #: other rule, which every round asks through the rows and :meth:`_pick`. A subclass that
    #: defines its own ``_pick`` without declaring its rule gets ``None``
    #: (:meth:`__init_subclass__`), so a new policy is never decided by a rule it does not have.
    pick_rule: ClassVar[Literal["min-min", "first-task"] | None] = None
    #: whether :meth:`receive` may call the message handlers itself instead of
    #: :meth:`on_message`; a subclass with its own ``on_message`` that does not declare this
    #: gets ``False``, so its ``on_message`` hears every message
    direct_messages: ClassVar[bool] = True
    #: whether this scheduler's part in a round may be gathered into one delivery per leg
    #: (:meth:`_start_round`): its checks answered by :meth:`answer_check` without a
    #: ``Check`` message of its own, its answers handed over in one event. A subclass that
    #: defines its own ``receive``, ``on_message``, ``_on_check``, ``_on_quotes`` or
    #: ``answer_check`` without declaring this gets ``False``, so it hears every message as a
    #: message; a round is gathered only when every scheduler of the federation allows it
    gathered_rounds: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_pick" in cls.__dict__ and "pick_rule" not in cls.__dict__:
            cls.pick_rule = None
        if "on_message" in cls.__dict__ and "direct_messages" not in cls.__dict__:
            cls.direct_messages = False
        own = ("receive", "on_message", "_on_check", "_on_quotes", "answer_check")
        if any(name in cls.__dict__ for name in own) and "gathered_rounds" not in cls.__dict__:
            cls.gathered_rounds = False

    def __init__(self, alpha: float = 0.0, ar_slack: float = 0.0, preemption: str = "suspend",
                 backfill: bool = True, migrate: bool = True, fill_gaps: bool = True,
                 ar_vms: str = "free-first") -> None:
        super().__init__(preemption=preemption, backfill=backfill, migrate=migrate, fill_gaps=fill_gaps,
                         ar_vms=ar_vms)
        for key, value in (("alpha", alpha), ("ar_slack", ar_slack)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < INF:
                raise ValueError(f"{key} must be a number >= 0, got {value!r}")
        self.alpha = float(alpha)
        self.ar_slack = float(ar_slack)
        self.federation: Federation | None = None
        self.index = -1
        self.rounds = 0
        self.transfers_rejected = 0

    def join(self, federation: Federation, index: int) -> None:
        """Take part in ``federation`` as cloud ``index`` (called by the builder)."""
        self.federation = federation
        #: the federation, for the handlers (which run only once joined: no check of it)
        self._f = federation
        self.index = index
        self.use_cloud(federation.clouds[index], federation.overheads)
        #: the name every task description accepted here carries
        self._cloud_name = federation.clouds[index].name
        self._runs: dict[DagRun, None] = {}
        self._ready: dict[TaskOrder, None] = {}
        #: ready tasks a cloud refused once (they are decided again first)
        self._refused: dict[TaskOrder, None] = {}
        self._gap = [0.0] * len(federation.clouds)
        #: per kind of task, made once: VMs on each cloud by CPUs ([] if no cloud is big
        #: enough), image transfer time to each cloud by image size
        self._kinds: dict[float, list[int]] = {}
        self._images: dict[float, list[float]] = {}
        #: per task type timed by the matrix: its time on each cloud (:meth:`_times_of`)
        self._type_times: dict[Hashable, list[float]] = {}
        #: the clouds in the order ties are broken: this one first (no transfer to another
        #: scheduler's queue), then by index
        self.tie_order = [index] + [c for c in range(len(federation.clouds)) if c != index]
        #: the other clouds, in tie order (:meth:`_decide_min_min`)
        self._peers = self.tie_order[1:]
        self._round: _Round | None = None
        #: the last mappable set quoted here: its VMs array (the set's identity), the state of
        #: the slot tables and the time, the answers (:meth:`_quote_snapshot`)
        self._kept_quotes: tuple[np.ndarray, tuple[int, int, float], np.ndarray] | None = None
        #: per cloud, its estimates of the last mappable set decided here (:meth:`_decide_snapshot`)
        self._kept_estimates: dict[int, _KeptEstimates] = {}
        #: keep them (off: every round on arrays sums every slot again; a test compares the two)
        self._keep_estimates = True
        #: this cloud's answers for the tasks of list rounds (its own and its peers') at one
        #: state of its tables and one time (:meth:`_answers_here`); None: none kept yet; off
        #: (``_keep_answers``): not kept (a test compares the two)
        self._kept_answers: tuple[tuple[int, int, float], dict[TaskOrder, float]] | None = None
        self._keep_answers = True
        self._round_ids = count(1)
        #: a system of one cloud: a list round decided while summed is decided at once, without a
        #: round (:meth:`_dispatch`)
        self._alone = len(federation.clouds) == 1
        self._handlers = {Check: self._on_check, Quotes: self._on_quotes, Transfer: self._on_transfer,
                          Answer: self._on_answer, Done: self._on_done}
        #: the handlers :meth:`receive` calls itself (none unless :attr:`direct_messages`)
        self._direct = self._handlers if self.direct_messages else {}
        self._sim = self.dc.sim
        #: a round of one task is decided while it is summed (:meth:`_decide_min_min`; a test
        #: turns it off to compare with the general path)
        self._first_pick = self.pick_rule is not None
        #: so is a list round of several tasks (FDMMS; a test turns it off)
        self._min_min = self.pick_rule == "min-min"
        #: whether rounds are gathered (:meth:`_start_round`): None until the first round, when
        #: every scheduler has joined; a test sets it False to compare with a message each
        self._gather: bool | None = None

    def counters(self) -> Mapping[str, float]:
        out = dict(super().counters())
        out.update(rounds=self.rounds, transfers_rejected=self.transfers_rejected)
        return out

    def runs(self) -> Iterator[DagRun]:
        """The DAG jobs this cloud owns that are not finished."""
        return iter(list(self._runs))

    # ------------------------------------------------------------------ cost model
    def _fed(self) -> Federation:
        if self.federation is None:
            raise PolicyError(f"policy {self.name!r} runs in a cloud system of DAG jobs: build it with "
                              "cloudsim_py.systems.clouds.build_dag_system")
        return self.federation

    def _not_before(self, order: TaskOrder) -> list[float]:
        """When the task's input can be on each cloud: each predecessor's finish plus its data's
        transfer from the predecessor's cloud (Li et al. III-C; zero inside one cloud). Each
        cloud's time is the latest of the job's start and the arrivals, the same sums as a loop
        per cloud over the predecessors, taken a predecessor at a time over every cloud (one
        row of bandwidths read per predecessor, not one look-up per pair; plain loops: a list
        comprehension is a function call of its own). A predecessor that sends no data arrives
        at its finish on every cloud: the latest of those is taken first and laid over the
        clouds once (a maximum is the same in any order: the first of equal times is kept
        either way, and equal times here are one float). O(preds x clouds)."""
        dag = order.run.dag
        t0 = dag.start if dag.start is not None else dag.submit_time
        bw = self._f.bw
        n = len(bw)
        out = [t0] * n
        late = t0                       # the latest finish of a predecessor without data
        for src, data in order.preds:   # (none: an entry task, its job's start on every cloud)
            if data:
                f = src.finish
                row = bw[src.cloud]
                for c in range(n):
                    a = f + data / row[c]
                    if a > out[c]:
                        out[c] = a
            else:
                a = src.finish + 0.0
                if a > late:
                    late = a
        if late > t0:
            for c in range(n):
                if late > out[c]:
                    out[c] = late
        return out

    def quote_order(self, order: TaskOrder, not_before: float) -> float:
        """This cloud's answer to a task-checking request: when the task's VMs are free for its
        image transfer and execution here, from ``not_before`` (:meth:`LocalCloud.quote`)."""
        i = self.index
        return self.local.quote(order.vms[i], order.xfer[i] + order.exec[i], not_before, order.ar)

    # ------------------------------------------------------------------ jobs arriving
    def submit_dag(self, dag: DagJob) -> None:
        """A DAG job submitted to this cloud: partition it into tasks (section III-A). O(tasks x
        clouds): each task's execution time on each cloud is looked up once (:meth:`_times_of`)."""
        fed = self._fed()
        fed.log.submitted += 1
        clouds = fed.clouds
        types = [c.vm_type for c in clouds]
        # each task's fields, read once into a dict (the node view's look-up is a Python call
        # a task; its data view iterates networkx's own dict in C)
        fields = dict(dag.graph.nodes(data=True))
        try:
            times = self._times_of(dag, types, fields)
        except PlatformError as exc:
            fed.log.refuse(dag, str(exc), self.index)
            log.warning("job %s refused: %s", dag.id, exc)
            return
        orders: dict[Hashable, TaskOrder] = {}
        run = DagRun(dag, fed.log.submitted, self.index, orders, dag.tasks)
        ar = dag.mode is AR
        kinds = self._kinds
        images = self._images
        for rank, task in enumerate(dag.order):
            data = fields[task]
            cpus = float(data.get("cpus", 1))
            vms = kinds.get(cpus)
            if vms is None:             # VMs per cloud, and whether one cloud is big enough
                vms = [v.vms_for(cpus) for v in types]
                vms = kinds[cpus] = vms if any(n <= c.vms for n, c in zip(vms, clouds)) else []
            if not vms:
                fed.log.refuse(dag, f"task {task!r} needs {cpus:g} CPUs, more than any cloud has", self.index)
                return
            image = float(data.get("image_mb", 0.0))
            xfer = images.get(image)
            if xfer is None:
                xfer = images[image] = [c.transfer_s(image) for c in clouds]
            # the orders share the per-kind lists: nothing changes them
            orders[task] = TaskOrder(run, task, next(fed.ids), cpus, image, float(data.get("memory_mb", 0.0)),
                                     vms, xfer, times[task], rank=rank, ar=ar)
        link_orders(dag, orders)
        self._prepare(run)
        self._runs[run] = None
        for order in orders.values():         # the entry tasks, in the job's order
            if not order.pending:
                self._make_ready(order)
        self.dc.request_pass()

    def _times_of(self, dag: DagJob, types: Sequence[Any],
                  fields: Mapping[Hashable, Mapping[str, Any]]) -> dict[Hashable, list[float]]:
        """Each task's time on every cloud, once (ExecutionModel.check's loop, in its order: the
        same first error); the task orders and FDLS's priorities read these. A task timed by
        its type in the matrix (no runtime read) shares the list of the first task of its type
        here (kept per scheduler: the model and the clouds are fixed; nothing changes the
        lists); a type is kept only once all its times were found, so an error is raised at
        the same task as without the lists. ``fields``: each task's fields (the graph's).
        O(tasks x clouds) the first time, O(tasks) after."""
        model = self._fed().model
        by_type = self._type_times
        by_runtime = model.use_runtime
        if type(model) is not ExecutionModel:    # a model of its own may read more than the type
            return {task: [model.time(dag, task, v) for v in types] for task in dag.order}
        times = {}
        time_of = model.time_of          # (the fields read once: no graph look-up per task and cloud)
        for task in dag.order:
            data = fields[task]
            kind = data.get("type")
            if kind is None or by_runtime and "runtime" in data:
                times[task] = [time_of(dag, task, data, v) for v in types]
                continue
            got = by_type.get(kind)
            if got is None:
                got = by_type[kind] = [time_of(dag, task, data, v) for v in types]
            times[task] = got
        return times

    def _prepare(self, run: DagRun) -> None:
        """Per-job work of the policy at submission (FDLS: the priority list)."""

    def _make_ready(self, order: TaskOrder) -> None:
        order.state = READY
        if not order.nb:
            order.nb = self._not_before(order)
        self._ready[order] = None
        if order.rejections:
            self._refused[order] = None

    def _unready(self, order: TaskOrder) -> None:
        """``order`` was decided: it leaves the mappable set."""
        self._ready.pop(order, None)
        if order.rejections:            # (only a task refused once is there)
            self._refused.pop(order, None)

    # ------------------------------------------------------------------ the owner's rounds
    def schedule(self, now: float) -> None:
        self.local.schedule(now)
        self._dispatch(now)

    @abstractmethod
    def _candidates(self) -> list[TaskOrder]:
        """The tasks to decide in this round (FDLS: the head of the list; FDMMS: every ready one):
        ready tasks (added by :meth:`_make_ready`, not decided since). Asked only while one is
        ready (:meth:`_dispatch`)."""

    @abstractmethod
    def _pick(self, orders: list[TaskOrder], efts: list[list[float]]) -> tuple[int, int]:
        """``(task index, cloud)`` to assign from the estimated finishes ``efts[task][cloud]``;
        equal estimates go to this cloud first (``tie_order``)."""

    def _dispatch(self, now: float) -> None:
        """Start rounds of task-checking requests while there are tasks to decide and no round
        is waiting for answers. O(1) when a round is out or no task is ready (most calls: the
        policy's candidates are ready tasks, so it is not asked), else the rounds' cost
        (:meth:`_start_round`; a lone cloud's round decided while summed, :meth:`_decide_min_min`,
        without a round)."""
        if self._round is not None or not self._ready:      # most calls: nothing to do
            return
        orders = self._candidates()
        if not orders:
            return
        fed = self._f
        clouds = len(fed.clouds)
        alone = self._alone
        while True:
            self.rounds += 1
            if alone and type(orders) is list and self._summed(orders):
                # no peer to ask, and a round _decide would decide while summing: no round to
                # wait for (a pick of the policy's own gets a round)
                self._decide_min_min(now, orders, None)
            else:
                self._start_round(fed, clouds, orders, now)
            if self._round is not None or not self._ready:
                return
            orders = self._candidates()
            if not orders:
                return

    def _summed(self, orders: Sequence[TaskOrder]) -> bool:
        """Whether a list round of ``orders`` is decided while its answers are summed
        (:meth:`_decide_min_min`) rather than through the rows and :meth:`_pick`: the policy's
        pick is min-min, or it takes the first task and the round has one. O(1)."""
        return self._min_min or self._first_pick and len(orders) == 1

    def _start_round(self, fed: Federation, clouds: int, orders: Any, now: float) -> None:
        """A round of task-checking requests about ``orders`` (a list, or FDMMS's
        :class:`Snapshot`): a ``Check`` to every other cloud, decided at once if there is none.
        Every check carries the same items (the tasks, or the snapshot): O(tasks) once, plus one
        event per check, or two events in all when the round is gathered.

        **Gathered rounds.** With a fixed latency ``L`` (a number, not a function of the pair)
        and every scheduler of the federation allowing it (:attr:`gathered_rounds`), the round's
        checks are one event at ``now + L`` (:meth:`_checks_arrive`) and its answers one event
        at ``now + 2L`` (:meth:`_answers_arrive`), instead of one event per message. Why this
        is the same run: the checks, posted one after another here, would be events ``(now + L,
        MESSAGE, s), (now + L, MESSAGE, s + 1), ...`` with consecutive sequence numbers, and an
        event can only come between two of them by a time, phase and sequence number between
        theirs; every event made later has a larger number, and no check's handling makes an
        event at its own time with a lower phase (it only quotes, reading the slot tables, and
        posts its answer ``L`` later). So the checks are handled one after another in cloud
        order, with nothing between them, at ``now + L``, as :meth:`_checks_arrive` handles
        them. Each handling posts one ``Quotes``; these are likewise consecutive at ``now +
        2L``, and the owner's handling of all but the last only stores the answer (no pass
        asked, nothing sent), so only the last acts, as :meth:`_answers_arrive` does after
        storing all of them. Neither a ``Check`` nor ``Quotes`` asks for a datacenter pass
        (:meth:`receive`), and both events keep the timestamps the messages had, so the
        end-of-timestamp hooks run at the same times. ``Federation.messages`` counts the
        protocol's messages as before; the engine's event count (``events`` of the summary)
        drops by ``2 x (clouds - 2)`` a round. A latency given per pair keeps a message each
        (its messages arrive at different times); a test runs both ways and compares every
        output but the event count."""
        items = orders if isinstance(orders, Snapshot) else tuple(orders)
        rnd = self._round = _Round(next(self._round_ids), orders, {}, clouds - 1, items)
        if rnd.waiting == 0:
            self._decide(now)
            return
        gather = self._gather
        if gather is None:
            gather = self._gather = all(type(s).gathered_rounds for s in fed.schedulers)
        sim = self._sim
        lat = sim.latency
        if gather and not callable(lat):
            fed.messages += rnd.waiting
            sim.schedule(now + lat, self._checks_arrive, (rnd, now, lat), MESSAGE)
            return
        me = self.index
        for c, peer in enumerate(fed.schedulers):
            if c != me:
                fed.messages += 1
                self._post(peer, Check(rnd.id, items))

    def _checks_arrive(self, arg: tuple[_Round, float, float]) -> None:
        """A gathered round's checks arrive (:meth:`_start_round`): every other cloud, in cloud
        order, answers (:meth:`answer_check`, what its ``Check`` handler sends back), and the
        answers are sent back as one event, a latency later (read now, as each answer's
        ``send`` would). Should the latency have become a function of the pair meanwhile, the
        checks are delivered as messages instead and answered one by one. O(clouds) plus the
        quotes."""
        rnd, sent, delay = arg
        fed = self._f
        me = self.index
        sim = self._sim
        lat = sim.latency
        if callable(lat):
            for c, peer in enumerate(fed.schedulers):
                if c != me:
                    peer.receive(Message(self, peer, Check(rnd.id, rnd.items), sent, delay))
            return
        answers = []
        for c, peer in enumerate(fed.schedulers):
            if c != me:
                answers.append((c, peer.answer_check(rnd.items)))
                fed.messages += 1
        sim.schedule(sim.now + lat, self._answers_arrive, (rnd, answers), MESSAGE)

    def _answers_arrive(self, arg: tuple[_Round, list[tuple[int, Any]]]) -> None:
        """A gathered round's answers arrive, in cloud order (:meth:`_start_round`): stored as
        each ``Quotes`` would store it, then the round is decided (:meth:`_round_answered`).
        O(clouds) plus the decision."""
        rnd, answers = arg
        assert self._round is rnd, "answers to a round that is over"
        quotes = rnd.quotes
        for c, starts in answers:
            quotes[c] = starts
        rnd.waiting = 0
        self._round_answered(self._sim.now)

    def _reach(self, now: float) -> list[float]:
        """When a task sent now can be at each cloud: now here, now + the message's latency
        elsewhere. A quote answered before (the earliest time its VMs are free) cannot be used
        before the task is there, so an estimate starts at the later of the two."""
        sim = self.dc.sim
        lat = sim.latency
        me = self
        peers = self._f.schedulers
        if not callable(lat):
            return [now if c == self.index else now + lat for c in range(len(peers))]
        return [now if c == self.index else now + lat(me, peer) for c, peer in enumerate(peers)]

    def _quote_snapshot(self, snap: Snapshot) -> np.ndarray:
        """This cloud's answers for every task of a mappable set (:meth:`LocalCloud.quotes`).

        The answers of the last set asked are kept with the state of both slot tables and the
        time they were given for: asked again about the same arrays (a set is only appended to
        or has slots killed until it is compacted into new arrays) at the same state and time,
        the slots answered then are answered alike (a quote is a function of the task, the
        tables and the time), so only the slots added since are quoted. A killed slot keeps its
        old answer, which no estimate reads (its transfer time is infinite). O(new slots) in
        numpy instead of O(slots); thousands of ready tasks are checked again after every
        decision that changed nothing here (a task queued, or sent to another cloud)."""
        i, size = self.index, snap.size
        local = self.local
        state = (local.table.version, local.hard.version, self._sim.now)
        kept = self._kept_quotes
        done = 0
        if kept is not None and kept[0] is snap.n and kept[1] == state and kept[2].shape[0] <= size:
            done = kept[2].shape[0]
            if done == size:
                return kept[2]
        x, e = snap.x[i, done:size], snap.e[i, done:size]
        q = local.quotes(snap.n[i, done:size], x + e, snap.nb[i, done:size], snap.ar[done:size])
        if done:
            q = np.concatenate((kept[2], q))   # type: ignore[index]
        self._kept_quotes = (snap.n, state, q)
        return q

    def _decide_snapshot(self, now: float, rnd: _Round) -> tuple[TaskOrder, int, float, float]:
        """Min-min over a mappable set: the task-cloud pair of the earliest estimated finish
        (ties: the earlier task, then this cloud, then the lower cloud), its raw estimate and
        its quote. O(slots) array operations per cloud; a cloud whose arrays, answers, time and
        feedback term are those of the last round keeps its estimates (:class:`_KeptEstimates`):
        O(slots killed since), plus one argmin when its least was killed."""
        snap: Snapshot = rnd.orders
        size = snap.size
        alpha, gap = self.alpha, self._gap
        reach = self._reach(now)
        raw = {}
        kept = self._kept_estimates
        killed = snap.killed
        # per cloud its least estimate at its first slot, one argmin each; then the least of
        # those, ties to the earlier slot, then to the cloud first in tie order: the argmin of
        # the whole [slot, cloud] table in row order, without making it
        best = (INF, size, 0)
        for c in self.tie_order:
            q = rnd.quotes[c]
            term = alpha * gap[c] if alpha else 0.0
            old = kept.get(c)
            if (old is not None and old.arrays is snap.n and old.quotes is q and old.reach == reach[c]
                    and old.term == term and old.size == size and self._keep_estimates):
                # the same arrays, answers, time and feedback term: only the slots killed since
                # differ (their transfer time is now infinite, so are both their estimates, as
                # the sums below would give); the first least estimate stays where it was
                # unless it was killed (killing only raises an estimate). O(slots killed since),
                # plus one argmin if the least was killed
                r, eft, k = old.raw, old.eft, old.best
                for slot in killed[old.applied:]:
                    r[slot] = INF
                    eft[slot] = INF
                    if slot == k:
                        k = -1
                if k < 0:
                    k = old.best = int(eft.argmin())
                old.applied = len(killed)
            else:
                # (max(quote, reach) + transfer) + execution, the two sums written into the
                # maximum's own array: the same operations in the same order, no array made per
                # sum
                r = np.maximum(q, reach[c])
                np.add(r, snap.x[c, :size], out=r)
                np.add(r, snap.e[c, :size], out=r)
                eft = r + term if alpha else r
                k = int(eft.argmin())
                kept[c] = _KeptEstimates(snap.n, q, reach[c], term, size, r, eft, k, len(killed))
            raw[c] = r
            e = float(eft[k])
            if e < best[0] or e == best[0] and k < best[1]:
                best = (e, k, c)
        e, k, c = best
        order = snap.orders[k]
        if order is None or not e < INF:
            where = f"job {order.run.dag.id}, task {order.task!r}" if order is not None else "a task"
            raise PolicyError(f"t={now}: {where} fits no cloud")
        return order, c, float(raw[c][k]), float(rnd.quotes[c][k])

    def _decide(self, now: float) -> int:
        """The decision of the round out, its answers all in: the task-cloud pair assigned
        (:meth:`_send`); returns the cloud. O(tasks x clouds) (a round on arrays: see
        :meth:`_decide_snapshot`)."""
        rnd = self._round
        assert rnd is not None
        fed = self._f
        if isinstance(rnd.orders, Snapshot):
            rnd.quotes[self.index] = self._quote_snapshot(rnd.orders)
            order, c, estimate, quote = self._decide_snapshot(now, rnd)
            self._round = None
            return self._send(order, c, estimate, order.nb[c], quote)
        if self._summed(rnd.orders) and not callable(self._sim.latency):
            self._round = None
            return self._decide_min_min(now, rnd.orders, rnd.quotes)
        i = self.index
        ask = self.local.quote              # quote_order, inlined
        rnd.quotes[i] = [ask(o.vms[i], o.xfer[i] + o.exec[i], o.nb[i], o.ar) for o in rnd.orders]
        clouds = range(len(fed.clouds))
        alpha = self.alpha
        gap = self._gap
        quotes = [rnd.quotes[c] for c in clouds]
        reach = self._reach(now)
        raw: list[list[float]] = []
        efts: list[list[float]] = []
        for k, order in enumerate(rnd.orders):
            xfer, ex = order.xfer, order.exec
            r_row = [max(quotes[c][k], reach[c]) + xfer[c] + ex[c] for c in clouds]
            raw.append(r_row)
            efts.append([r + alpha * gap[c] for c, r in enumerate(r_row)] if alpha else r_row)
        k, c = self._pick(rnd.orders, efts)
        self._round = None
        order = rnd.orders[k]
        if efts[k][c] == INF:
            raise PolicyError(f"t={now}: job {order.run.dag.id}, task {order.task!r} fits no cloud")
        return self._send(order, c, raw[k][c], order.nb[c], rnd.quotes[c][k])

    def _decide_min_min(self, now: float, orders: list[TaskOrder], quotes: Mapping[int, Sequence[float]] | None) -> int:
        """A list round decided while it is summed, for a policy whose pick is min-min (FDMMS's
        list rounds, while its mappable set is small: the first least estimate over the tasks in
        order, each over the clouds in tie order), or a round of one task for one whose pick is
        the first task's least estimate (every FDLS round; the same pick for one task), with a
        fixed latency; also a lone cloud's round, which has no peer to ask (``quotes`` None:
        :meth:`_dispatch` decides it at once, without a round). The other clouds' answers are
        ``quotes[cloud][task]``; this cloud's quotes are asked in task order, the sums are
        :meth:`_decide`'s in the same order (``max(quote, reach) + transfer + execution``, then
        the feedback term), and the pick is made while they are summed, without the round's rows
        of raw estimates and estimates, the per-cloud reach list and the pick's call. This
        cloud's answers are kept per state of its two tables and time (:meth:`_answers_here`): a
        task asked again at the same state and time (a decision that queued a task, or sent it
        elsewhere, changed neither) is not quoted again. O(tasks x clouds), plus a quote per
        task not asked at this state yet; tests run both ways (and a lone cloud's rounds through
        a round of its own), with the answers kept and asked anew. Returns the cloud the task
        was sent to."""
        i = self.index
        ask = self.local.quote              # quote_order, inlined
        alpha, gap = self.alpha, self._gap
        peers = self._peers                 # (tie order: this cloud first, then these)
        # _reach: now here, now + the latency elsewhere (a lone cloud has no elsewhere)
        later = now if quotes is None else now + self._sim.latency   # type: ignore[operator]
        # this cloud's answers at this state of its tables and time (:meth:`_answers_here`; a
        # round of one task, every FDLS round, keeps nothing: it decides its one task)
        answers = self._answers_here(now) if len(orders) > 1 else None
        best_k = best_c = 0                 # (FdmmsScheduler._pick's start: INF at task 0, cloud 0)
        best_e = best_r = best_q = INF
        k = 0
        for o in orders:
            xfer, ex = o.xfer, o.exec
            if answers is None:
                q = ask(o.vms[i], xfer[i] + ex[i], o.nb[i], o.ar)
            else:
                q = answers.get(o)      # type: ignore[assignment]
                if q is None:
                    q = answers[o] = ask(o.vms[i], xfer[i] + ex[i], o.nb[i], o.ar)
            # each cloud in tie order: max(quote, reach) (the first kept on a tie) + transfer +
            # execution, then the feedback term; the first least estimate kept
            r = (now if now > q else q) + xfer[i] + ex[i]
            e = r + alpha * gap[i] if alpha else r
            if e < best_e:
                best_k, best_c, best_e, best_r, best_q = k, i, e, r, q
            for c in peers:
                q = quotes[c][k]            # type: ignore[index]
                r = (later if later > q else q) + xfer[c] + ex[c]
                e = r + alpha * gap[c] if alpha else r
                if e < best_e:
                    best_k, best_c, best_e, best_r, best_q = k, c, e, r, q
            k += 1
        order = orders[best_k]
        if best_e == INF:
            raise PolicyError(f"t={now}: job {order.run.dag.id}, task {order.task!r} fits no cloud")
        return self._send(order, best_c, best_r, order.nb[best_c], best_q)

    def _send(self, order: TaskOrder, c: int, estimate: float, nb: float, quote: float) -> int:
        """Assign ``order`` to cloud ``c`` (Algorithms 1-2, "assign task T to cloud C_min");
        returns ``c``."""
        order.state = SENT
        order.cloud = c
        order.estimate = estimate
        self._unready(order)
        # a task refused once is sent again without a promise: the cloud takes it whenever it can
        quote = quote if not order.rejections else INF
        if c == self.index:
            ok, reason = self.accept(order, nb, quote)
            if not ok:
                self._rejected(order, reason)
        else:
            fed = self._f
            fed.messages += 1
            self._post(fed.schedulers[c], Transfer(order, nb, quote))
        return c

    def _rejected(self, order: TaskOrder, reason: str) -> None:
        order.rejections += 1
        order.cloud = -1
        self._make_ready(order)
        log.debug("job %s task %r rejected: %s", order.run.dag.id, order.task, reason)

    # ------------------------------------------------------------------ a cloud receiving tasks
    def accept(self, order: TaskOrder, not_before: float, quote: float) -> tuple[bool, str]:
        """A task sent here: queue it (best-effort) or reserve it (AR), or say why not; an
        accepted task is submitted to the datacenter once, with its plan. The description is
        a :class:`TaskJob`, so its plan is read field by field (:meth:`LocalCloud.plan_task`,
        what :meth:`LocalCloud.plan` picks for it). O(1) plus the AR choice and the local pass."""
        now = self._sim.now
        i = self.index
        n = order.vms[i]
        local = self.local
        if n > local.n_vms:
            self.transfers_rejected += 1
            return False, f"needs {n} VMs, the cloud has {local.n_vms}"
        run = order.run
        ar = order.ar
        desc = TaskJob(id=order.id, submit_time=now, procs=n, runtime=order.exec[i], job_id=run.dag.id,
                       task=order.task, mode=AR if ar else BEST_EFFORT,
                       image_mb=order.image_mb, memory_mb=order.memory_mb, ready_at=not_before,
                       owner=run.owner, cloud=self._cloud_name, ref=order)
        job = Job(desc)
        p = local.plan_task(job, desc)
        choice = None
        if ar:
            choice = local.ar_choice(p, now)
            # the promise is the quoted time, or now if the transfer took longer to come (the
            # message's latency is no fault of the cloud's); a few ulps later is that time
            # (lease_plan.RESOLUTION: the VMs free when a lease ends, its end summed another way)
            promise = max(quote, now) + self.ar_slack
            late = isinstance(choice, str) or choice[0] - promise > RESOLUTION * max(1.0, abs(promise))
            if late:
                self.transfers_rejected += 1
                return False, (choice if isinstance(choice, str) else
                               f"the AR task can start at {choice[0]:g}, not {quote:g} as quoted")
        local.submit(job, p, choice)
        if not ar:
            local.schedule(now)         # start it now if it can: later quotes see it
        return True, ""

    def receive(self, message: Any) -> None:
        """A message: handled, then a pass of this cloud, except for a task-checking request
        (``Check``), which only reads the slot table, a transfer's acceptance (``Answer``
        saying yes), which changes nothing here, answers (``Quotes``), which change this
        cloud only when the decision they complete sends the task here (:meth:`_on_quotes`
        asks for the pass then), and a transfer (``Transfer``), whose best-effort task, once
        accepted, had its pass in :meth:`accept` (:meth:`_on_transfer` asks for one after a
        reservation or a refusal). A pass after the others would find nothing new: Li et al.'s
        three checks per round were a third of all passes, and most decisions on several
        clouds send the task to another one. O(1) plus the handler."""
        payload = message.payload
        kind = type(payload)
        if not (kind is Check or kind is Quotes or kind is Transfer or kind is Answer and payload.accepted):
            self.dc.request_pass()
        handler = self._direct.get(kind)    # on_message's look-up, one call less
        if handler is None:
            self.on_message(message)
        else:
            handler(message)

    def _post(self, dest: Any, payload: Any) -> Any:
        """:meth:`Broker.send` of a protocol message with the simulation's latency: straight to
        the engine's :meth:`~cloudsim_py.engine.Simulation.send` (one call less per message;
        eight messages a task on Li's four clouds)."""
        return self._sim.send(dest, payload, None, sender=self, phase=MESSAGE)

    def on_message(self, message: Any) -> None:
        handler = self._handlers.get(type(message.payload))
        if handler is None:
            super().on_message(message)
        else:
            handler(message)

    def answer_check(self, items: "Sequence[TaskOrder] | Snapshot") -> Any:
        """This cloud's answer to a task-checking request about ``items`` (a round's tasks, or
        FDMMS's mappable set): each task's quote here, a tuple (an array for a snapshot). Reads
        the slot tables only. O(tasks) quotes (a round of one task, every FDLS round, without
        the list made for many)."""
        if isinstance(items, Snapshot):
            return self._quote_snapshot(items)
        i = self.index
        quote = self.local.quote            # quote_order, inlined
        if len(items) == 1:
            o = items[0]
            return (quote(o.vms[i], o.xfer[i] + o.exec[i], o.nb[i], o.ar),)
        # the answers kept at this state and time, as the owner's own rounds keep them
        answers = self._answers_here(self._sim.now)
        out = []
        for o in items:
            q = answers.get(o)
            if q is None:
                q = answers[o] = quote(o.vms[i], o.xfer[i] + o.exec[i], o.nb[i], o.ar)
            out.append(q)
        return tuple(out)

    def _answers_here(self, now: float) -> dict[TaskOrder, float]:
        """This cloud's answers kept for the present state of its two tables (their versions)
        and ``now``: those of the owner's list rounds (:meth:`_decide_min_min`) and of its
        answers to a peer's (:meth:`answer_check`), each task's quote once asked; a new dict
        at another state or time (or every time with ``_keep_answers`` off: a test compares
        the two).

        A quote is a function of the task (its VMs, durations, input time and mode, fixed once
        it is ready), the cloud's two tables and the time, so an answer kept here is the answer
        for the task asked again: a decision that queued a task here or sent it elsewhere
        changes neither table, and without latency the next rounds are at the same time
        (FDMMS's list rounds ask every ready task each round; on the WfFormat copies about two
        in three of a peer's answers were asked before at the same state). O(1)."""
        local = self.local
        state = (local.table.version, local.hard.version, now)
        kept = self._kept_answers
        if kept is None or kept[0] != state or not self._keep_answers:
            kept = self._kept_answers = (state, {})
        return kept[1]

    def _on_check(self, message: Any) -> None:
        """A task-checking request: this cloud's quotes (:meth:`answer_check`), sent back."""
        payload = message.payload
        starts = self.answer_check(payload.items)
        self._f.messages += 1
        self._post(message.sender, Quotes(payload.round, starts))

    def _on_quotes(self, message: Any) -> None:
        payload = message.payload
        rnd = self._round
        assert rnd is not None and rnd.id == payload.round, "answers to a round that is over"
        rnd.quotes[message.sender.index] = payload.starts
        rnd.waiting -= 1
        if rnd.waiting == 0:
            self._round_answered(self._sim.now)

    def _round_answered(self, now: float) -> None:
        """The round out has all its answers: decided (:meth:`_decide`), then the next rounds
        started (:meth:`_dispatch`). O(the decision)."""
        if self._decide(now) == self.index:
            # the task accepted (or refused) here: this cloud changed, a pass at the end of
            # the timestamp (a task sent to another cloud changes nothing here, and the
            # rounds that follow are started just below)
            self.dc.request_pass()
        self._dispatch(now)

    def _on_transfer(self, message: Any) -> None:
        payload = message.payload
        order = payload.order
        ok, reason = self.accept(order, payload.not_before, payload.quote)
        if order.ar or not ok:
            # a reservation made here (or a refusal): a pass at the end of the timestamp; a
            # best-effort task accepted had its pass in accept, and nothing else changed here
            self.dc.request_pass()
        self._f.messages += 1
        self._post(message.sender, Answer(order, ok, reason))

    def _on_answer(self, message: Any) -> None:
        payload = message.payload
        if not payload.accepted:
            self._rejected(payload.order, payload.reason)

    def _on_done(self, message: Any) -> None:
        payload = message.payload
        self._task_done(payload.order, payload.finish, payload.cloud)

    # ------------------------------------------------------------------ completions
    def on_finish(self, job: Job) -> None:
        """A task ended here: the cloud's bookkeeping (:meth:`LocalCloud.finished`), then its
        owner told (itself, or by a ``Done`` message). O(1) plus the successors released."""
        self.local.finished(job)
        desc = job.desc
        if not isinstance(desc, TaskJob):
            return
        order = desc.ref
        now = self._sim.now
        if desc.owner == self.index:
            self._task_done(order, now, self.index)
        else:
            fed = self._f
            fed.messages += 1
            self._post(fed.schedulers[desc.owner], Done(order, now, self.index))

    def _task_done(self, order: TaskOrder, finish: float, cloud: int) -> None:
        """Li et al. IV-D: record the gap between the actual and the estimated finish on
        ``cloud``; release the successors; close the job when it is complete."""
        self._gap[cloud] = finish - order.estimate
        order.finish = finish
        order.state = DONE
        run = order.run
        run.left -= 1
        released = []
        for s in order.succ:
            s.pending -= 1
            if s.pending == 0:
                released.append(s)
        if len(released) > 1:
            released.sort(key=attrgetter("rank"))   # in the job's topological order
        for s in released:
            self._make_ready(s)
        if run.left == 0:
            run.finish = max(o.finish for o in run.orders.values())
            del self._runs[run]
            dag = run.dag
            ar = dag.mode is AR
            start = dag.start if ar and dag.start is not None else dag.submit_time
            self._f.log.finished.append(DagOutcome(dag.id, run.owner, dag.submit_time, run.finish, dag.tasks,
                                                       ar, start))
            run.drop_links()
        # (no pass asked for: the datacenter runs one at the end of a timestamp with a finish
        # in it, and a Done message asked for one when it was received)

    @property
    def active_jobs(self) -> int:
        """How many DAG jobs this scheduler owns that have not finished (submitted here, not
        refused, some task not yet done): for a listener or a subclass to watch the backlog. O(1)."""
        return len(self._runs)


@register_broker("fdls", "Li et al. feedback dynamic list scheduling across clouds: CPOP priority list, "
                         "each ready task to the cloud with the earliest estimated finish")
class FdlsScheduler(DagScheduler):
    """FDLS (Li et al. Algorithm 1 with the feedback of IV-D). ``strict`` (default): a job's list
    waits while its top task is not ready (Algorithm 1, line 10), even if a later task is;
    ``strict=False``: the highest-priority ready task of the list goes instead."""

    pick_rule = "first-task"

    def __init__(self, alpha: float = 0.0, ar_slack: float = 0.0, strict: bool = True,
                 preemption: str = "suspend", backfill: bool = True, migrate: bool = True,
                 fill_gaps: bool = True, ar_vms: str = "free-first") -> None:
        super().__init__(alpha=alpha, ar_slack=ar_slack, preemption=preemption, backfill=backfill,
                         migrate=migrate, fill_gaps=fill_gaps, ar_vms=ar_vms)
        if not isinstance(strict, bool):
            raise ValueError(f"strict must be true or false, got {strict!r}")
        self.strict = strict

    def join(self, federation: Federation, index: int) -> None:
        super().join(federation, index)
        #: arrival numbers of the jobs that may have a task to decide (a heap: the least is
        #: served first, each number at most once), and the jobs themselves
        self._armed: list[int] = []
        self._by_number: dict[int, DagRun] = {}
        #: CPOP's mean bandwidth between clouds (None: one cloud), the same for every job
        self._mean_bw = federation.mean_bandwidth() if len(federation.clouds) > 1 else None

    def _prepare(self, run: DagRun) -> None:
        orders = run.orders
        # ExecutionModel.mean_time from the times the orders hold (the same numbers, not
        # computed again)
        topo = list(orders.values())    # (made in the job's order, dag.order)
        w = [math.fsum(o.exec) / len(o.exec) for o in topo]
        run.plist = plist = [orders[t] for t in cpop_list(topo, w, self._mean_bw)]
        for i, o in enumerate(plist):
            o.place = i

    def _make_ready(self, order: TaskOrder) -> None:
        super()._make_ready(order)
        run = order.run
        if not self.strict:             # (a strict list reads its top only)
            heappush(run.heap, order.place)
        if run.number not in self._by_number:
            self._by_number[run.number] = run
            heappush(self._armed, run.number)

    def _candidate_of(self, run: DagRun) -> TaskOrder | None:
        """The task of ``run``'s list to decide next: its top once ready (``strict``), or its
        ready task of highest priority."""
        plist = run.plist
        if self.strict:
            ptr, n = run.ptr, len(plist)
            while ptr < n and plist[ptr].state >= SENT:
                ptr += 1
            run.ptr = ptr
            if ptr < n and plist[ptr].state == READY:
                return plist[ptr]
            return None
        heap = run.heap
        while heap and plist[heap[0]].state != READY:
            heappop(heap)
        return plist[heap[0]] if heap else None

    def _candidates(self) -> list[TaskOrder]:
        """Jobs are served in arrival order: the first job with a task to decide gives it. A task
        a cloud refused goes first, again. O(log jobs) per task decided (jobs with nothing to
        decide leave the armed set when met)."""
        for refused in self._refused:
            return [refused]
        armed, by_number = self._armed, self._by_number
        while armed:
            number = armed[0]
            order = self._candidate_of(by_number[number])
            if order is not None:
                return [order]
            heappop(armed)
            del by_number[number]
        return []

    def _pick(self, orders: list[TaskOrder], efts: list[list[float]]) -> tuple[int, int]:
        row = efts[0]
        return 0, min(self.tie_order, key=row.__getitem__)


@register_broker("fdmms", "Li et al. feedback dynamic min-min across clouds: of all ready tasks, the "
                          "task-cloud pair with the earliest estimated finish, one per round")
class FdmmsScheduler(DagScheduler):
    """FDMMS (Li et al. Algorithm 2 with the feedback of IV-D). The mappable set is kept as
    arrays over the clouds (:class:`ReadySet`): a round checks every ready task on every cloud
    in O(tasks x clouds) array operations (a few microseconds for thousands of tasks), not a
    Python step per task, so 10,000 tasks ready at once take 10,000 rounds of a few array
    operations each. With few ready tasks a round goes task by task, with the same result."""

    pick_rule = "min-min"

    def join(self, federation: Federation, index: int) -> None:
        super().join(federation, index)
        self._set = ReadySet(len(federation.clouds))
        #: tasks taken out of ``_ready`` since the dict was made (:meth:`_candidates`)
        self._unreadied = 0

    def _make_ready(self, order: TaskOrder) -> None:
        super()._make_ready(order)
        self._set.add(order)

    def _unready(self, order: TaskOrder) -> None:
        super()._unready(order)
        self._set.remove(order)
        self._unreadied += 1

    #: from this many ready tasks on, a round works on arrays (:class:`ReadySet`); below it, task
    #: by task (array operations cost more than they save on a handful); the decisions are the same
    BATCH = 16

    def _candidates(self) -> Any:
        """The mappable set: on arrays (a :class:`Snapshot`, decided by min-min in
        :meth:`_decide_snapshot`) when it is large and the pick is min-min; else the ready tasks
        as a list, which a subclass's own :meth:`_pick` decides. O(1) for the snapshot (plus
        :meth:`ReadySet.snapshot`), O(n) for the list of ``n`` ready tasks (O(1) amortised more
        for the dict made anew)."""
        ready = self._ready             # (the same tasks as the set: its C length, no call)
        if len(ready) > self.BATCH and self.pick_rule == "min-min":
            return self._set.snapshot()
        if self._unreadied > 256 + (len(ready) >> 2):
            # a dict leaves a removed key's place empty until it is made anew, and listing it
            # walks past every empty place: after thousands of tasks ready at once were
            # decided, each round of a few ready tasks walked past thousands (about 2 % of a
            # WfFormat run). Made anew in the same order once more than 256 + n / 4 tasks
            # left it: O(n), at most once per that many decisions (with 16, Li's small sets
            # were made anew more often, for 4 M instructions more in 1,000 jobs)
            ready = self._ready = dict.fromkeys(ready)
            self._unreadied = 0
        return list(ready)

    def _pick(self, orders: list[TaskOrder], efts: list[list[float]]) -> tuple[int, int]:
        best = (INF, 0, 0)
        clouds = self.tie_order
        for k, row in enumerate(efts):
            for c in clouds:
                e = row[c]
                if e < best[0]:
                    best = (e, k, c)
        return best[1], best[2]




def make_dag_scheduler(policy: str, params: Mapping[str, Any] | None = None) -> DagScheduler:
    """A fresh scheduler of a registered DAG policy (``fdls``, ``fdmms`` or a subclass)."""
    from .base import make_broker

    broker = make_broker(policy, dict(params or {}))
    if not isinstance(broker, DagScheduler):
        raise PolicyError(f"policy {policy!r} is not a cloud-system scheduler of DAG jobs (fdls, fdmms)")
    return broker
