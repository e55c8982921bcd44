import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload.table import prepare, read_table

#        job submit wait run procs ... req_procs req_time
TRACE = """; MaxProcs: 8
1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 5 0 0 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1
3 6 0 50 -1 -1 -1 3 40 -1 1 1 1 -1 -1 -1 -1 -1
4 7 0 30 -1 -1 -1 -1 40 -1 1 1 1 -1 -1 -1 -1 -1
5 8 0 30 16 -1 -1 16 40 -1 1 1 1 -1 -1 -1 -1 -1
6 9 0 30 0 -1 -1 2 40 -1 1 1 1 -1 -1 -1 -1 -1
7 9 0 70 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "c.swf"
    p.write_text(TRACE)
    return p


def test_skipped_jobs_are_counted_by_reason(path):
    # job 2: runtime 0; job 4: no processor count at all; job 6: 0 allocated (field 5 is
    # 0, not -1, so field 8 is not used); job 5: 16 > 8 processors
    t = prepare(read_table(path), 8, "trace")
    r = t.report
    assert r.records == 7 and r.kept == 3
    assert r.skipped == {"runtime <= 0 (cancelled or unknown)": 1,
                         "processors <= 0 or unknown": 2,
                         "more processors than the machine (8)": 1}


def test_requested_processors_are_used_where_allocated_is_unknown(path):
    t = prepare(read_table(path), 8, "trace")
    assert t.procs.tolist() == [4, 3, 1]     # job 3 has field 5 = -1 and field 8 = 3


def test_trace_estimates_raise_low_requests_and_fill_missing_ones(path):
    # job 1: requested 200 >= 100 kept; job 3: requested 40 < runtime 50 -> 50;
    # job 7: requested -1 -> its runtime 70
    t = prepare(read_table(path), 8, "trace")
    assert t.estimate.tolist() == [200.0, 50.0, 70.0]
    assert (t.report.estimates_raised, t.report.estimates_missing) == (1, 1)


def test_actual_estimates_are_the_runtimes(path):
    assert prepare(read_table(path), 8, "actual").estimate.tolist() == [100.0, 50.0, 70.0]


def test_strict_mode_makes_the_first_bad_job_an_error_with_its_line(path):
    with pytest.raises(TraceError, match=r"c\.swf:3: runtime <= 0 .*strict"):
        prepare(read_table(path), 8, "trace", strict=True)


def test_unknown_estimate_mode_lists_the_known_ones(path):
    with pytest.raises(TraceError, match="unknown runtime estimate mode 'oracle'; known: actual"):
        prepare(read_table(path), 8, "oracle")
