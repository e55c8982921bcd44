"""Execution time of a task on a VM type: the execution-time matrix (task types x VM types) of
Li et al., or a measured runtime divided by the VM type's speed. Imports numpy, attrs, the
package's errors, VM types and DAG jobs; nothing from the engine.

Li et al. (seed 001, section III-C): "an M x N execution time matrix (ETM) to indicate the
execution time of M types of tasks running on N types of VMs". The paper gives neither the matrix
nor how it was drawn. :func:`random_matrix` uses the range-based method of Braun et al., "A
comparison of eleven static heuristics for mapping a class of independent tasks onto heterogeneous
distributed computing systems", JPDC 61(6), 2001, section 3: a task-type base time
``tau_i ~ U[1, R_task]`` times a VM-type factor ``x_ij ~ U[1, R_mach]``; defaults are their
"low task, low machine heterogeneity" case (``R_task = 100``, ``R_mach = 10``), read as seconds;
``consistent=True`` sorts every row so that a VM type faster for one task type is faster for all
(their "consistent" matrices).
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Iterable, Sequence

import attrs
import numpy as np

from ..errors import PlatformError
from ..workload.dag import DagJob, Task
from .vmtypes import VMType


def _keys(values: Iterable[Hashable]) -> tuple[Hashable, ...]:
    return tuple(values)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen(slots=True, eq=False)
class ExecutionTimeMatrix:
    """``times[i, j]``: seconds of a task of type ``task_types[i]`` on a VM of type ``vm_types[j]``.

    >>> etm = ExecutionTimeMatrix(("a", "b"), ("small", "large"), np.array([[4.0, 2.0], [9.0, 3.0]]))
    >>> etm.time("b", "large"), etm.mean("a")
    (3.0, 3.0)
    """

    task_types: tuple[Hashable, ...] = attrs.field(converter=_keys)
    vm_types: tuple[str, ...] = attrs.field(converter=_names)
    times: np.ndarray = attrs.field(repr=False)
    _row: dict[Hashable, int] = attrs.field(init=False, repr=False)
    _col: dict[str, int] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        times = np.array(self.times, dtype=np.float64)
        shape = (len(self.task_types), len(self.vm_types))
        if times.shape != shape:
            raise PlatformError(f"execution-time matrix: shape {times.shape} does not match {shape[0]} task "
                                f"types x {shape[1]} VM types")
        bad = np.argwhere(~(np.isfinite(times) & (times > 0)))
        if bad.size:
            i, j = bad[0]
            raise PlatformError(f"execution-time matrix: time of task type {self.task_types[i]!r} on VM type "
                                f"{self.vm_types[j]!r} = {float(times[i, j])!r} must be finite and > 0")
        for kind, names in (("task type", self.task_types), ("VM type", self.vm_types)):
            if len(set(names)) != len(names):
                dup = next(n for n in names if list(names).count(n) > 1)
                raise PlatformError(f"execution-time matrix: {kind} {dup!r} appears twice")
        times.setflags(write=False)
        object.__setattr__(self, "times", times)
        object.__setattr__(self, "_row", {t: i for i, t in enumerate(self.task_types)})
        object.__setattr__(self, "_col", {v: j for j, v in enumerate(self.vm_types)})

    def has(self, task_type: Hashable) -> bool:
        return task_type in self._row

    def _i(self, task_type: Hashable) -> int:
        try:
            return self._row[task_type]
        except KeyError:
            raise PlatformError(f"task type {task_type!r} is not in the execution-time matrix "
                                f"(types: {', '.join(map(repr, self.task_types))})") from None

    def _j(self, vm_type: str) -> int:
        try:
            return self._col[vm_type]
        except KeyError:
            raise PlatformError(f"VM type {vm_type!r} is not in the execution-time matrix "
                                f"(VM types: {', '.join(map(repr, self.vm_types))})") from None

    def time(self, task_type: Hashable, vm_type: str) -> float:
        return float(self.times[self._i(task_type), self._j(vm_type)])

    def row(self, task_type: Hashable) -> np.ndarray:
        """Times of one task type on every VM type (read-only view)."""
        return self.times[self._i(task_type)]

    def mean(self, task_type: Hashable) -> float:
        """Average over the VM types (CPOP's average computation cost)."""
        return float(self.times[self._i(task_type)].mean())


def random_matrix(rng: np.random.Generator, task_types: int | Sequence[Hashable], vm_types: Sequence[str],
                  task_range: tuple[float, float] = (1.0, 100.0), machine_range: tuple[float, float] = (1.0, 10.0),
                  consistent: bool = False) -> ExecutionTimeMatrix:
    """Braun et al. 2001 range-based matrix: ``U[task_range]`` per task type times
    ``U[machine_range]`` per (task type, VM type). ``task_types`` is a count (types 0..M-1) or
    the type names. Two draws from ``rng`` in a fixed order, so a seed fixes the matrix."""
    names: tuple[Hashable, ...] = tuple(range(task_types)) if isinstance(task_types, int) else tuple(task_types)
    lo, hi = task_range
    mlo, mhi = machine_range
    if not (0 < lo <= hi and 0 < mlo <= mhi):
        raise PlatformError(f"random_matrix: ranges {task_range} and {machine_range} must be positive and ordered")
    base = rng.uniform(lo, hi, size=len(names))
    factor = rng.uniform(mlo, mhi, size=(len(names), len(vm_types)))
    if consistent:
        factor.sort(axis=1)
    return ExecutionTimeMatrix(names, tuple(vm_types), base[:, None] * factor)


@attrs.frozen(slots=True)
class ExecutionModel:
    """Time of a job's task on a VM type: ``runtime / speed`` when the task carries a runtime (and
    ``use_runtime``), else the matrix entry of its type. A task type missing from the matrix is a
    PlatformError naming the job, the task and the type."""

    matrix: ExecutionTimeMatrix | None = None
    use_runtime: bool = True

    def time(self, job: DagJob, task: Task, vm: VMType) -> float:
        return self.time_of(job, task, job.graph.nodes[task], vm)

    def time_of(self, job: DagJob, task: Task, data: Any, vm: VMType) -> float:
        """:meth:`time` of a task whose fields ``data`` (its node's dict in the job's graph) the
        caller holds already: a scheduler that reads every task's fields once per job saves the
        graph's look-up per task and VM type. O(1)."""
        if self.use_runtime and "runtime" in data:
            return float(data["runtime"]) / vm.speed
        return self._matrix_time(job, task, data, vm.name)

    def _matrix_time(self, job: DagJob, task: Task, data: Any, vm_name: str) -> float:
        if "type" not in data:
            raise PlatformError(f"job {job.id}, task {task!r}: no runtime and no type")
        if self.matrix is None:
            raise PlatformError(f"job {job.id}, task {task!r}: type {data['type']!r} needs an "
                                "execution-time matrix, and there is none")
        if not self.matrix.has(data["type"]):
            raise PlatformError(f"job {job.id}, task {task!r}: task type {data['type']!r} is not in the "
                                f"execution-time matrix (types: {', '.join(map(repr, self.matrix.task_types))})")
        return self.matrix.time(data["type"], vm_name)

    def times(self, job: DagJob, task: Task, vms: Sequence[VMType]) -> list[float]:
        return [self.time(job, task, vm) for vm in vms]

    def mean_time(self, job: DagJob, task: Task, vms: Sequence[VMType]) -> float:
        """Average over ``vms`` (e.g. one per cloud): CPOP's ``w`` of the task."""
        values = self.times(job, task, vms)
        return math.fsum(values) / len(values)

    def check(self, job: DagJob, vms: Sequence[VMType]) -> None:
        """Raise now (PlatformError naming job, task, type) if any task of ``job`` has no time on
        one of ``vms``: for checking a job when it is submitted."""
        for task in job.order:
            for vm in vms:
                self.time(job, task, vm)
