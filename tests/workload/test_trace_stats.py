"""Liu 2015 Table 1 on the shared traces, and the statistics ``workload stats`` prints.

Liu 2015 Table 1: of the short jobs (runtime below the workload's average), the percentage in
each size class =1, =2, (2,4], ..., >128. Computed here with the cleaning of ``table.prepare``.
"""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.workload.models.load import offered_load
from cloudsim_py.workload.models.stats import (LIU2015_TABLE1, SIZE_CLASSES, describe, header_problems,
                                               short_job_table, size_class)
from cloudsim_py.workload.table import prepare, read_table


def table1(path, procs):
    t = prepare(read_table(path), procs, estimate="actual")
    return short_job_table(t.procs, t.runtime)


def test_size_classes_are_liu_2015s():
    # =1, =2, (2,4], (4,8], ..., (64,128], >128
    assert list(size_class(np.array([1, 2, 3, 4, 5, 8, 9, 128, 129, 1024]))) == [0, 1, 2, 2, 3, 3, 4, 7, 8, 8]
    assert SIZE_CLASSES[0] == "=1" and SIZE_CLASSES[-1] == ">128"


def test_short_job_table_by_hand():
    # runtimes 10, 10, 10, 90 (mean 30): the three 10 s jobs are short; sizes 1, 1, 4 -> 2/3 in
    # class =1, 1/3 in (2,4]; class =1 is 100 % short, (2,4] 100 %, (4,8] (the 90 s job) 0 %
    t = short_job_table(np.array([1, 1, 4, 8]), np.array([10.0, 10.0, 10.0, 90.0]))
    assert t.threshold == 30.0
    assert t.share_of_short[:4] == pytest.approx((66.667, 0.0, 33.333, 0.0), abs=1e-3)
    assert t.short_within[:4] == (100.0, 0.0, 100.0, 0.0)


@pytest.mark.parametrize("name, file, procs, tol", [
    ("CTC", "CTC-SP2-1996-3.1-cln.swf.gz", 338, 1.5),
    ("KTH", "KTH-SP2-1996-2.1-cln.swf.gz", 100, 1.0),
])
def test_liu_table_1_is_reproduced_on_the_cleaned_traces(shared_trace, name, file, procs, tol):
    # ours (cleaned PWA logs): CTC 35.3 7.8 13.7 14.1 13.9 8.7 4.5 1.2 0.7,
    #                          KTH 29.5 15.3 18.3 15.8 11.9 4.9 3.3 0.9 0.0
    # paper:                   CTC 36.7 7.5 13.4 14.6 13.5 8.8 4.2 0.9 0.4,
    #                          KTH 30.1 14.5 19.3 16.0 11.9 4.7 2.6 0.9 0.0
    ours = table1(shared_trace(file), procs).share_of_short
    paper = LIU2015_TABLE1[name]
    assert max(abs(a - b) for a, b in zip(ours, paper)) < tol


@pytest.mark.parametrize("file, procs", [("CTC-SP2-1996-3.1-cln.swf.gz", 338), ("KTH-SP2-1996-2.1-cln.swf.gz", 100),
                                         ("SDSC-Par-1996-3.1-cln.swf.gz", 400)])
def test_small_jobs_are_mostly_short(shared_trace, file, procs):
    # the qualitative claim: most short jobs are small (<= 8 processors), and most jobs of each
    # small class are short (CTC 61-90 %, KTH 66-89 %, SDSC-Par 73-100 %)
    t = table1(shared_trace(file), procs)
    assert sum(t.share_of_short[:4]) > 60.0
    assert all(v > 55.0 for v in t.short_within[:4])


def test_offered_load_of_the_cleaned_kth_log(shared_trace):
    # PROVENANCE.md: the normalized KTH file (same jobs) has offered load 0.70 on 100 processors
    t = prepare(read_table(shared_trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, estimate="actual")
    assert offered_load(t.data[:, 1], t.procs, t.runtime, 100) == pytest.approx(0.70, abs=0.005)


def test_describe_by_hand():
    # submits 0, 100, 200; sizes 1, 2, 8; runtimes 10, 30, 400 -> load 3270 / (8 x 200) = 2.04375
    d = describe(np.array([0.0, 100, 200]), np.array([1, 2, 8]), np.array([10.0, 30, 400]), 8)
    assert d["offered_load"] == pytest.approx(2.04375)
    assert d["serial_fraction"] == pytest.approx(1 / 3) and d["pow2_parallel_fraction"] == pytest.approx(2 / 3)
    assert d["runtime_median"] == 30 and d["jobs_per_day"] == pytest.approx(3 / (200 / 86400))


def _table(tmp_path, header, rows):
    f = tmp_path / "t.swf"
    lines = [f"; {k}: {v}" for k, v in header.items()]
    lines += [" ".join(str(v) for v in r) for r in rows]
    f.write_text("\n".join(lines) + "\n")
    return read_table(f)


def _row(job, procs, run):
    return [job, job * 10, -1, run, procs, -1, -1, procs, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1]


def test_header_problems_name_the_first_offending_line(tmp_path):
    t = _table(tmp_path, {"MaxProcs": 16, "MaxRuntime": 100, "MaxRecords": 2},
               [_row(1, 8, 50), _row(2, 32, 50), _row(3, 64, 500)])
    problems = header_problems(t)
    src = t.source
    assert problems == [
        f"{src}:5: job 2 uses 32 processors, more than the header's MaxProcs 16 (2 such jobs)",
        f"{src}:6: job 3 runs 500 s, longer than the header's MaxRuntime 100 (1 such jobs)",
        f"{src}: header says MaxRecords 2 but the file has 3 job lines",
    ]


def test_a_consistent_header_has_no_problems(shared_trace):
    # cleaned logs keep the original MaxRecords (more than their job lines): not a problem
    assert header_problems(read_table(shared_trace("KTH-SP2-1996-2.1-cln.swf.gz"))) == []
