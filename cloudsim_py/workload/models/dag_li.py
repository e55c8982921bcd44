"""Random DAG jobs with the settings of Li et al. (seed 001, section V-A): up to 16 tasks per job,
fan-in and fan-out at most 3, task types drawn for the execution-time matrix, jobs submitted to
random clouds at "loose" or "tight" arrival times, a share of the jobs advance reservations.
Imports numpy, networkx, attrs and the package's DAG job; nothing from the engine.

What the paper says, and the reading chosen where it does not say (docs/dag-and-leases.md):

- "64 unique jobs, and each application is composed of up to 16 tasks": the number of tasks of a
  job is uniform on ``1..max_tasks`` (``min_tasks`` = 1).
- "the maximum fan-in and fan-out are both 3": tasks are numbered in a topological order; every
  task but the first gets ``k ~ U{1..3}`` parents drawn uniformly among the earlier tasks that
  still have fewer than 3 children (fewer if fewer are available; there is always one, because
  the earlier tasks have at most ``3 (j - 1)`` edges among them and ``3 j`` child slots). So every
  job is acyclic and connected, with one entry task, in- and out-degrees at most 3.
- "The weight of a task represents the task type": types uniform on ``0..task_types-1`` (rows of
  the execution-time matrix, :func:`cloudsim_py.federation.matrix.random_matrix`).
- The paper gives no task sizes: a task needs ``cpus ~ U{cpus}`` CPUs (VMs = ceil(cpus / VM CPUs)),
  a disk image of ``image_mb`` (S_I, Haizea's 600 MB by default) and saves ``memory_mb`` (M_j,
  Haizea's 1024 MB) when suspended; an edge carries ``data_mb ~ U(data_mb)``.
- "submitted to random clouds": the owner cloud is uniform on ``0..clouds-1``.
- "at arbitrary arrival times", "loose" (spread widely, jobs rarely contend) or "tight" (close,
  jobs usually wait): arrival times are i.i.d. uniform on ``[0, jobs x gap]``, sorted (a Poisson
  process conditioned on the number of jobs); ``gap`` = 3600 s for loose, 10 s for tight (with
  the default matrix a task takes 50.5 x 5.5 = 278 s on average, a job's critical path about
  1,300 s), or any number of seconds.
- "Among these 64 jobs, 12 jobs are in the AR modes": exactly ``round(ar_share x jobs)`` jobs,
  chosen uniformly without replacement, are advance-reservation jobs. "For the AR mode, the
  lease also includes the required start time" (III-B), given in advance: an AR job asks for its
  resources from ``start = submit + notice``, the notice ``ar_notice_s`` a number of seconds or a
  ``(low, high)`` range drawn uniformly per job (default 0: from its arrival; the paper gives no
  value); its tasks are reserved (its entry tasks for that start, at submission) and may preempt
  best-effort tasks (section III-B); the other jobs are best-effort.

Every random quantity is drawn in bulk (one array per quantity, in a fixed order), so a seed
fixes the jobs; only the parent choice of each task is a short Python step over pre-drawn keys.
"""

from __future__ import annotations

from typing import Any

import attrs
import networkx as nx
import numpy as np

from ...errors import ScenarioError
from ...workload.dag import DagJob
from ...workload.lease import LeaseMode

#: Mean gap between job arrivals (s) of the two situations of Li et al. section V-A.
ARRIVAL_GAPS = {"loose": 3600.0, "tight": 10.0}


def _range(name: str, value: Any, integer: bool = False) -> tuple[float, float]:
    lo, hi = (value, value) if np.isscalar(value) else tuple(value)
    if not (0 <= lo <= hi) or (integer and (int(lo) != lo or int(hi) != hi or lo < 1)):
        raise ScenarioError(f"dag_li: {name} = {value!r} must be a number or a (low, high) pair "
                            f"with 0 <= low <= high{' (integers >= 1)' if integer else ''}")
    return float(lo), float(hi)


@attrs.frozen(slots=True)
class LiDagModel:
    """Generator of Li et al.'s DAG jobs (see the module docstring for every reading).

    >>> jobs = LiDagModel().generate(64, np.random.default_rng(1))
    >>> len(jobs), sum(job.mode is LeaseMode.AR for job in jobs), max(job.tasks for job in jobs) <= 16
    (64, 12, True)
    """

    max_tasks: int = 16
    min_tasks: int = 1
    max_fan_in: int = 3
    max_fan_out: int = 3
    task_types: int = 8
    clouds: int = 4
    arrivals: str | float = "loose"            #: "loose", "tight" or the mean gap in seconds
    ar_share: float = 12 / 64
    ar_notice_s: Any = 0.0                     #: an AR job's notice (s): a number or a (low, high) range
    cpus: Any = (1, 16)                        #: CPUs per task: a number or an integer range
    image_mb: Any = 600.0                      #: S_I per task: a number or a (low, high) range
    memory_mb: Any = 1024.0                    #: M_j per task: a number or a (low, high) range
    data_mb: Any = (10.0, 100.0)               #: data per edge: a number or a (low, high) range

    def __attrs_post_init__(self) -> None:
        if not (1 <= self.min_tasks <= self.max_tasks):
            raise ScenarioError(f"dag_li: need 1 <= min_tasks ({self.min_tasks}) <= max_tasks ({self.max_tasks})")
        for key in ("max_fan_in", "max_fan_out", "task_types", "clouds"):
            if int(getattr(self, key)) < 1:
                raise ScenarioError(f"dag_li: {key} = {getattr(self, key)!r} must be >= 1")
        if not 0 <= self.ar_share <= 1:
            raise ScenarioError(f"dag_li: ar_share = {self.ar_share!r} must be in [0, 1]")
        _range("ar_notice_s", self.ar_notice_s)
        self.gap_s()
        _range("cpus", self.cpus, integer=True)
        for key in ("image_mb", "memory_mb", "data_mb"):
            _range(key, getattr(self, key))

    def gap_s(self) -> float:
        """Mean gap between arrivals (s)."""
        if isinstance(self.arrivals, str):
            if self.arrivals not in ARRIVAL_GAPS:
                raise ScenarioError(f"dag_li: arrivals = {self.arrivals!r}; known: {', '.join(ARRIVAL_GAPS)} "
                                    "or a number of seconds")
            return ARRIVAL_GAPS[self.arrivals]
        if not float(self.arrivals) >= 0:
            raise ScenarioError(f"dag_li: arrivals = {self.arrivals!r} s must be >= 0")
        return float(self.arrivals)

    def generate(self, jobs: int, rng: np.random.Generator) -> list[DagJob]:
        """``jobs`` DAG jobs, ids ``0..jobs-1`` in arrival order."""
        if jobs < 0:
            raise ScenarioError(f"dag_li: jobs = {jobs} must be >= 0")
        # -- per job (one array each, fixed order of draws) ------------------------------------
        arrival = np.sort(rng.uniform(0.0, jobs * self.gap_s(), size=jobs))
        n_tasks = rng.integers(self.min_tasks, self.max_tasks + 1, size=jobs)
        cloud = rng.integers(0, self.clouds, size=jobs)
        n_ar = int(round(self.ar_share * jobs))
        is_ar = np.zeros(jobs, dtype=bool)
        is_ar[rng.choice(jobs, size=n_ar, replace=False)] = True
        # -- per task --------------------------------------------------------------------------
        total = int(n_tasks.sum())
        first = np.concatenate(([0], np.cumsum(n_tasks)))
        task_type = rng.integers(0, self.task_types, size=total)
        clo, chi = _range("cpus", self.cpus, integer=True)
        task_cpus = rng.integers(int(clo), int(chi) + 1, size=total)
        image = rng.uniform(*_range("image_mb", self.image_mb), size=total)
        memory = rng.uniform(*_range("memory_mb", self.memory_mb), size=total)
        fan_in = rng.integers(1, self.max_fan_in + 1, size=total)
        keys = rng.random((total, self.max_tasks))
        # -- structure (short Python step per task over the pre-drawn keys) -----------------------
        n_l, first_l, fan_l = n_tasks.tolist(), first.tolist(), fan_in.tolist()
        edges = [self._edges(n_l[j], fan_l[first_l[j]:first_l[j + 1]], keys[first_l[j]:first_l[j + 1]].tolist())
                 for j in range(jobs)]
        n_edges = np.array([len(e) for e in edges], dtype=np.int64)
        data = rng.uniform(*_range("data_mb", self.data_mb), size=int(n_edges.sum()))
        efirst = np.concatenate(([0], np.cumsum(n_edges)))
        nlo, nhi = _range("ar_notice_s", self.ar_notice_s)
        # drawn last, and only for a range: a fixed notice leaves every earlier draw as it was
        notice = rng.uniform(nlo, nhi, size=jobs).tolist() if nhi > nlo else [nlo] * jobs
        # -- jobs ------------------------------------------------------------------------------
        types, cpus_l = task_type.tolist(), task_cpus.tolist()
        image_l, memory_l, data_l = image.tolist(), memory.tolist(), data.tolist()
        arrival_l, cloud_l, ar_l, efirst_l = arrival.tolist(), cloud.tolist(), is_ar.tolist(), efirst.tolist()
        out = []
        for j in range(jobs):
            a, b = first_l[j], first_l[j + 1]
            g: nx.DiGraph[int] = nx.DiGraph()
            # the tasks, then each one's fields into its attribute dict, met beside it in
            # nodes(data=True) (the same graph as add_nodes_from of (task, fields) pairs, which
            # takes each through a caught TypeError, without a look-up through the view a task)
            g.add_nodes_from(range(b - a))
            for i, fields in g.nodes(data=True):     # (networkx's own dicts, in task order)
                k = a + i
                fields.update(type=types[k], cpus=cpus_l[k], image_mb=image_l[k], memory_mb=memory_l[k])
            e0 = efirst_l[j]
            g.add_edges_from([(u, v, {"data_mb": data_l[e0 + k]}) for k, (u, v) in enumerate(edges[j])])
            submit = arrival_l[j]
            ar = ar_l[j]
            out.append(DagJob(id=j, graph=g, submit_time=submit, cloud=cloud_l[j],
                              mode=LeaseMode.AR if ar else LeaseMode.BEST_EFFORT,
                              start=submit + notice[j] if ar else None))
        return out

    def _edges(self, n: int, fan_in: list[int], keys: list[list[float]]) -> list[tuple[int, int]]:
        """Parents of tasks 1..n-1: ``fan_in[t]`` of the earlier tasks with spare fan-out, those
        with the smallest keys (a uniform sample without replacement; ``keys[t]`` task ``t``'s
        row of keys as Python floats, the same numbers as the drawn array). The earlier tasks
        with spare fan-out are kept in a list, ascending (what ``[i for i in range(t) if
        out_deg[i] < max_fan_out]`` gives), made again only when a parent's fan-out fills:
        O(fan-in) per task instead of O(t)."""
        out_deg = [0] * n
        edges: list[tuple[int, int]] = []
        max_out = self.max_fan_out
        spare = [0]                     # the earlier tasks with spare fan-out, ascending
        for t in range(1, n):
            k = fan_in[t]
            if len(spare) > k:
                parents = sorted(sorted(spare, key=keys[t].__getitem__)[:k])
            else:
                parents = spare
            filled = False
            for p in parents:
                d = out_deg[p] = out_deg[p] + 1
                if d >= max_out:
                    filled = True
                edges.append((p, t))
            if filled:
                spare = [i for i in spare if out_deg[i] < max_out]
            spare.append(t)
        return edges
