"""Execution-time matrix and the runtime/speed alternative; a missing task type names job, task and type."""

import numpy as np
import pytest

from cloudsim_py.errors import PlatformError
from cloudsim_py.clouds.matrix import ExecutionModel, ExecutionTimeMatrix, random_matrix
from cloudsim_py.clouds.vmtypes import VMType
from cloudsim_py.workload.dag import build_dag_job

SMALL = VMType("small", 1, 1024, 10_000, 100.0, speed=1.0)
LARGE = VMType("large", 4, 8192, 10_000, 100.0, speed=2.0)
ETM = ExecutionTimeMatrix(("fft", "sort"), ("small", "large"), np.array([[40.0, 10.0], [9.0, 3.0]]))


@pytest.fixture
def job():
    # task a has a type only; task b a type and a runtime; task c a runtime only
    return build_dag_job("j1", {"a": {"type": "fft"}, "b": {"type": "sort", "runtime": 30.0}, "c": {"runtime": 8.0}},
                         [("a", "b"), ("b", "c")])


def test_a_typed_task_takes_its_matrix_entry(job):
    assert ExecutionModel(ETM).time(job, "a", LARGE) == 10.0


def test_a_task_with_a_runtime_takes_runtime_over_speed(job):
    # b: 30 s at speed 2 -> 15 s, although its type has 3 s in the matrix
    assert ExecutionModel(ETM).time(job, "b", LARGE) == 15.0


def test_use_runtime_false_prefers_the_matrix(job):
    assert ExecutionModel(ETM, use_runtime=False).time(job, "b", LARGE) == 3.0


def test_mean_time_averages_over_vm_types(job):
    # a: (40 + 10) / 2 = 25; c: (8 / 1 + 8 / 2) / 2 = 6
    model = ExecutionModel(ETM)
    assert (model.mean_time(job, "a", [SMALL, LARGE]), model.mean_time(job, "c", [SMALL, LARGE])) == (25.0, 6.0)


def test_a_task_type_missing_from_the_matrix_names_job_task_and_type():
    job = build_dag_job("j2", {"x": {"type": "fft"}, "y": {"type": "gemm"}}, [("x", "y")])
    with pytest.raises(PlatformError, match=r"job j2, task 'y': task type 'gemm' is not in the execution-time matrix "
                                            r"\(types: 'fft', 'sort'\)"):
        ExecutionModel(ETM).check(job, [SMALL, LARGE])


def test_a_typed_task_without_matrix_is_an_error(job):
    with pytest.raises(PlatformError, match=r"job j1, task 'a': type 'fft' needs an execution-time matrix"):
        ExecutionModel().time(job, "a", SMALL)


def test_a_vm_type_missing_from_the_matrix_is_an_error(job):
    with pytest.raises(PlatformError, match=r"VM type 'medium' is not in the execution-time matrix"):
        ExecutionModel(ETM).time(job, "a", VMType("medium", 2, 1024, 0, 10.0))


def test_matrix_shape_and_values_are_checked():
    with pytest.raises(PlatformError, match=r"shape \(2, 2\) does not match 1 task types x 2 VM types"):
        ExecutionTimeMatrix(("fft",), ("small", "large"), np.ones((2, 2)))
    with pytest.raises(PlatformError, match=r"time of task type 'sort' on VM type 'small' = 0.0 must be finite and > 0"):
        ExecutionTimeMatrix(("fft", "sort"), ("small", "large"), np.array([[1.0, 1.0], [0.0, 1.0]]))
    with pytest.raises(PlatformError, match=r"VM type 'small' appears twice"):
        ExecutionTimeMatrix(("fft",), ("small", "small"), np.ones((1, 2)))


def test_the_matrix_is_read_only():
    with pytest.raises(ValueError):
        ETM.times[0, 0] = 1.0


def test_random_matrix_is_base_times_factor_within_braun_ranges_and_seeded():
    # Braun et al. 2001 low/low: tau ~ U[1, 100], x ~ U[1, 10] -> every entry in [1, 1000]
    a = random_matrix(np.random.default_rng(4), 8, ["c0", "c1", "c2", "c3"])
    b = random_matrix(np.random.default_rng(4), 8, ["c0", "c1", "c2", "c3"])
    assert a.times.shape == (8, 4) and np.array_equal(a.times, b.times)
    assert a.times.min() >= 1.0 and a.times.max() <= 1000.0
    assert a.task_types == tuple(range(8))


def test_a_consistent_matrix_orders_vm_types_the_same_way_for_every_task_type():
    m = random_matrix(np.random.default_rng(4), 6, ["c0", "c1", "c2"], consistent=True)
    assert np.all(np.diff(m.times, axis=1) >= 0)


def test_an_inconsistent_matrix_does_not():
    m = random_matrix(np.random.default_rng(4), 6, ["c0", "c1", "c2"])
    assert not np.all(np.diff(m.times, axis=1) >= 0)


def test_time_of_a_tasks_fields_is_its_time(job):
    """``time_of`` with the task's node dict (what a scheduler that read every task's fields
    once passes) gives ``time``'s numbers, matrix entry or runtime, with or without use_runtime."""
    for model in (ExecutionModel(ETM), ExecutionModel(ETM, use_runtime=False)):
        for task in job.order:
            data = job.graph.nodes[task]
            for vm in (SMALL, LARGE):
                if "type" not in data and not (model.use_runtime and "runtime" in data):
                    continue
                assert model.time_of(job, task, data, vm) == model.time(job, task, vm)
