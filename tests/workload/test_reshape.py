"""Static reshaping by F_A, VM resizing by F_VM, runtime classes and per-class metrics
(Sodan 2009 sections 3.1, 3.2 and 5)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.metrics import JobRecords
from cloudsim_py.errors import SpecError
from cloudsim_py.workload.efficiency import E1, WC
from cloudsim_py.workload.reshape import (RuntimeClasses, class_metrics, flatten_class_metrics,
                                          relative_improvement, reshape_factor, reshape_jobs,
                                          reshape_size, reshape_sizes, runtime_classes, vm_size)


def test_sizes_are_rounded_up():
    # 5 x 0.5 = 2.5 -> 3; 3 x 0.3 = 0.9 -> 1; 7 x 1.5 = 10.5 -> 11
    assert reshape_size(5, 0.5, 128) == 3
    assert reshape_size(3, 0.3, 128) == 1
    assert reshape_size(7, 1.5, 128) == 11


def test_products_that_are_integers_in_decimal_are_not_rounded_up_by_floating_point_error():
    # 50 * 1.1 = 55.00000000000001 in binary floating point; the paper means 55
    assert 50 * 1.1 > 55
    assert reshape_size(50, 1.1, 128) == 55
    assert reshape_sizes(np.array([50, 10]), 1.1, 128).tolist() == [55, 11]


def test_serial_jobs_never_change_size():
    assert reshape_size(1, 1.5, 128) == 1
    assert reshape_size(1, 0.3, 128) == 1
    assert reshape_sizes(np.array([1, 1]), 1.5, 128).tolist() == [1, 1]


def test_jobs_never_grow_beyond_the_machine_and_larger_ones_shrink_to_it():
    # "jobs with maximum size never grow beyond this size and can only become smaller"
    assert reshape_size(128, 1.5, 128) == 128
    assert reshape_size(100, 1.5, 128) == 128
    assert reshape_size(128, 0.5, 128) == 64
    # a 96-node VM with F_A = 1: a 128-node job is capped at 96
    assert reshape_size(128, 1.0, 96) == 96


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=1, max_size=30), st.floats(0.01, 3.0), st.integers(1, 256))
def test_vectorised_reshaping_agrees_with_one_job_at_a_time(sizes, factor, machine):
    expected = [reshape_size(s, factor, machine) for s in sizes]
    got = reshape_sizes(np.array(sizes), factor, machine)
    assert got.dtype == np.int64 and got.tolist() == expected
    assert all(1 <= g <= max(machine, 1) or s == 1 for g, s in zip(got, sizes))


@pytest.mark.parametrize("bad", [0, -0.5, float("nan"), float("inf"), "half", True, None])
def test_reshape_factors_that_are_not_positive_numbers_are_errors_naming_the_key(bad):
    with pytest.raises(SpecError) as info:
        reshape_factor(bad, "workload.moldable.factor")
    assert info.value.path == "workload.moldable.factor"
    assert str(info.value).startswith("workload.moldable.factor: ")


def test_reshaping_functions_reject_a_zero_factor():
    with pytest.raises(SpecError, match="factor"):
        reshape_size(4, 0.0, 128)
    with pytest.raises(SpecError, match="factor"):
        reshape_sizes(np.array([4]), -1.0, 128)
    with pytest.raises(SpecError, match="factor"):
        vm_size(128, 0)


def test_vm_sizes_of_the_paper():
    # section 5: 96, 112, 144 and 160 nodes from the original 128
    assert [vm_size(128, f) for f in (0.75, 0.875, 1.0, 1.125, 1.25)] == [96, 112, 128, 144, 160]
    # rounded to the nearest processor, at least one
    assert vm_size(10, 0.33) == 3 and vm_size(10, 0.35) == 4 and vm_size(2, 0.1) == 1


def test_reshape_jobs_applies_the_efficiency_model_and_keeps_the_originals():
    # E1, F_A = 0.5: serial job unchanged; 128 -> 64 and 10 -> 5 both at half size, so
    # runtime x 2 * 0.65 / 0.8 = 1.625: 100 -> 162.5; estimates scale by the same ratio
    r = reshape_jobs(np.array([1, 128, 10]), np.array([100.0, 100.0, 100.0]), 0.5, 128, E1,
                     estimate=np.array([200.0, 150.0, 100.0]))
    assert r.procs.tolist() == [1, 64, 5]
    assert r.runtime.tolist() == pytest.approx([100.0, 162.5, 162.5])
    assert r.estimate.tolist() == pytest.approx([200.0, 243.75, 162.5])
    assert r.original_procs.tolist() == [1, 128, 10] and r.original_runtime.tolist() == [100.0] * 3
    # work 100 + 64 * 162.5 + 5 * 162.5 = 11312.5 against 100 + 12800 + 1000 = 13900
    assert r.work == pytest.approx(11312.5) and r.original_work == pytest.approx(13900.0)


def test_work_conserving_reshaping_keeps_the_work_even_with_rounding():
    # 10 procs x 0.3 -> 3 procs, runtime 100 * 10/3: work stays 1000
    r = reshape_jobs([1, 10, 64], [50.0, 100.0, 10.0], 0.3, 128, WC)
    assert r.procs.tolist() == [1, 3, 20]
    assert r.work == pytest.approx(r.original_work)


def test_runtime_classes_of_the_paper():
    classes = RuntimeClasses()
    # S <= 10 min, M <= 3 h, L otherwise (limits inclusive)
    assert classes.classify(np.array([1, 600, 600.5, 10800, 10801])).tolist() == [0, 0, 1, 1, 2]
    assert [classes.class_of(t) for t in (600, 601, 10800, 10801)] == ["S", "M", "M", "L"]


def test_runtime_class_limits_are_configurable():
    classes = runtime_classes({"S": 60, "M": 3600})
    assert classes.classify([60, 61, 3600, 3601]).tolist() == [0, 1, 1, 2]
    assert runtime_classes({"M": 7200}) == RuntimeClasses(600.0, 7200.0)
    assert runtime_classes(None) == RuntimeClasses()


@pytest.mark.parametrize("spec, key, what", [
    ({"S": 600, "M": 600}, "metrics.classes.M", "above the S limit"),
    ({"S": 3600, "M": 600}, "metrics.classes.M", "above the S limit"),
    ({"S": 0}, "metrics.classes.S", "> 0"),
    ({"M": -5}, "metrics.classes.M", "> 0"),
    ({"S": "10 min"}, "metrics.classes.S", "number"),
    ({"L": 100000}, "metrics.classes.L", "unknown key"),
    ([600, 10800], "metrics.classes", "mapping"),
])
def test_bad_class_limits_are_errors_naming_the_key(spec, key, what):
    with pytest.raises(SpecError, match=what) as info:
        runtime_classes(spec)
    assert info.value.path == key


def _records() -> dict[str, np.ndarray]:
    """Five jobs reshaped with F_A = 0.5 under E1 (runtimes x 1.625 except the serial one).

    id  submit start finish  runtime  original  class (by original)
    1     0      0    100     100      100        S   (serial, unchanged)
    2     0     50    862.5   812.5    500        S   (reshaped runtime would be M)
    3    10    100   6600    6500     4000        M
    4    20   1000  27000   26000    16000        L
    5    30   2000  18250   16250    10000        M
    """
    return {
        "id": np.array([1, 2, 3, 4, 5]),
        "submit": np.array([0.0, 0.0, 10.0, 20.0, 30.0]),
        "start": np.array([0.0, 50.0, 100.0, 1000.0, 2000.0]),
        "finish": np.array([100.0, 862.5, 6600.0, 27000.0, 18250.0]),
        "procs": np.array([1, 4, 8, 16, 2]),
        "runtime": np.array([100.0, 812.5, 6500.0, 26000.0, 16250.0]),
        "original_runtime": np.array([100.0, 500.0, 4000.0, 16000.0, 10000.0]),
    }


def test_class_metrics_use_the_original_runtime_for_class_and_slowdown():
    m = class_metrics(_records())
    # S: jobs 1, 2. responses 100 and 862.5; bsld 100/100 = 1 and 862.5/500 = 1.725 (against the
    # original 500, not the reshaped 812.5); wait = response - runtime: 0 and 50
    assert m["S"]["count"] == 2
    assert m["S"]["avg_response"] == pytest.approx((100 + 862.5) / 2)
    assert m["S"]["avg_bsld"] == pytest.approx((1.0 + 1.725) / 2)
    assert m["S"]["avg_wait"] == pytest.approx(25.0)
    # M: jobs 3 (response 6590, bsld 6590/4000 = 1.6475) and 5 (response 18220, bsld 1.822)
    assert m["M"]["count"] == 2
    assert m["M"]["avg_bsld"] == pytest.approx((1.6475 + 1.822) / 2)
    assert m["M"]["avg_start_wait"] == pytest.approx((90 + 1970) / 2)
    assert m["M"]["avg_elapsed"] == pytest.approx((6500 + 16250) / 2)
    # L: job 4, response 26980, bsld 26980/16000 = 1.68625, runtime 26000
    assert m["L"] == pytest.approx({"count": 1, "avg_wait": 980.0, "avg_response": 26980.0, "avg_bsld": 1.68625,
                                    "avg_runtime": 26000.0, "avg_start_wait": 980.0, "avg_elapsed": 26000.0})
    assert m["all"]["count"] == 5
    assert m["all"]["avg_bsld"] == pytest.approx((1.0 + 1.725 + 1.6475 + 1.68625 + 1.822) / 5)


def test_without_original_runtimes_the_run_runtime_is_the_reference():
    cols = _records()
    del cols["original_runtime"]
    m = class_metrics(cols)
    # classes by the run runtimes: job 2 (812.5 s) and job 3 are M, jobs 4 and 5 (16250 s) L
    assert (m["S"]["count"], m["M"]["count"], m["L"]["count"]) == (1, 2, 2)
    assert m["M"]["avg_bsld"] == pytest.approx((862.5 / 812.5 + 6590 / 6500) / 2)
    explicit = class_metrics(cols, original_runtime=_records()["original_runtime"])
    assert explicit == class_metrics(_records())


def test_class_metrics_read_job_records_and_apply_tau():
    cols = _records()
    cols["runtime"] = np.array([4.0, 812.5, 6500.0, 26000.0, 16250.0])
    cols["finish"] = cols["finish"].copy()
    cols["finish"][0] = 8.0  # job 1: response 8, runtime 4 -> bsld max(1, 8 / max(10, 4)) = 1
    rec = JobRecords({k: cols[k] for k in ("id", "submit", "start", "finish", "procs", "runtime")})
    m = class_metrics(rec, tau=10.0)
    assert m["S"]["count"] == 1 and m["S"]["avg_bsld"] == 1.0
    # tau = 1: 8 / max(1, 4) = 2
    assert class_metrics(rec, tau=1.0)["S"]["avg_bsld"] == 2.0


def test_an_empty_class_has_count_zero_and_nan_averages():
    cols = {k: v[:2] for k, v in _records().items()}
    m = class_metrics(cols)
    assert m["L"]["count"] == 0 and math.isnan(m["L"]["avg_bsld"])
    assert m["all"]["count"] == 2


def test_warmup_drops_the_earliest_submitted_jobs():
    # 5 jobs, warmup 0.4 -> drop 2: jobs 1 and 2 (submitted at 0; ties by id)
    m = class_metrics(_records(), warmup=0.4)
    assert m["S"]["count"] == 0 and m["all"]["count"] == 3
    with pytest.raises(ValueError):
        class_metrics(_records(), warmup=1.0)


def test_flattened_keys_carry_the_class():
    flat = flatten_class_metrics(class_metrics(_records()))
    assert flat["count_L"] == 1 and flat["count_all"] == 5
    assert flat["avg_bsld_L"] == pytest.approx(1.68625)


def test_relative_improvement_is_balanced_and_positive_when_better():
    # F_A < 1: RR / RR_A - 1 ; F_A > 1: -(RR_A / RR - 1)
    assert relative_improvement(10.0, 4.0, 0.5) == pytest.approx(1.5)
    assert relative_improvement(10.0, 25.0, 1.5) == pytest.approx(-1.5)
    assert relative_improvement(10.0, 10.0, 1.0) == 0.0
