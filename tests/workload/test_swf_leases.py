"""SWF rows as best-effort leases (Haizea's mapping) and the Blue 30-day trace with injected ARs."""

import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload import swf_leases as S
from cloudsim_py.workload.lease import LeaseMode
from cloudsim_py.workload.lwf import read_lwf
from cloudsim_py.workload.swf_leases import combine, leases_from_swf, swf_with_injected_ar

# job submit wait run alloc avgcpu mem req_procs req_time req_mem status user group app queue part prec think
ROWS = """1 0 5 100 32 -1 -1 4 200 -1 1 1 -1 -1 1 -1 -1 -1
2 10 0 300 8 -1 -1 1 200 -1 1 1 -1 -1 1 -1 -1 -1
3 20 50 -1 -1 -1 -1 2 600 -1 5 1 -1 -1 1 -1 -1 -1
4 30 0 0 8 -1 -1 1 60 -1 1 1 -1 -1 1 -1 -1 -1
5 40 0 10 8 -1 -1 1 -1 -1 1 1 -1 -1 1 -1 -1 -1
"""


@pytest.fixture
def swf(tmp_path):
    path = tmp_path / "t.swf"
    path.write_text(ROWS)
    return path


def test_rows_map_to_best_effort_leases_one_node_per_requested_processor(swf):
    # job 1: 4 requested "processors" (field 8) -> 4 nodes of 1 CPU; requested 200 s, ran 100 s
    w = leases_from_swf(swf)
    first = w.leases[0]
    assert (first.id, first.mode, first.submit_time, first.nodes, first.cpus_per_node, first.duration,
            first.real_duration, first.memory_mb, first.image_mb, first.preemptible) == \
        (1, LeaseMode.BEST_EFFORT, 0.0, 4, 1.0, 200.0, 100.0, 1024.0, 600.0, True)


def test_run_time_above_the_request_is_cut_and_zero_raised_to_one_second(swf):
    # job 2 ran 300 s of a 200 s request -> 200 s; job 4 ran 0 s -> 1 s
    w = leases_from_swf(swf)
    real = {lease.id: lease.real_duration for lease in w.leases}
    assert (real[2], real[4]) == (200.0, 1.0)
    assert w.report.adjusted == {S.ADJUST_CUT: 1, S.ADJUST_ZERO_RUN: 1}


def test_cancelled_rows_and_rows_without_request_are_skipped_and_counted(swf):
    # job 3: run -1 (status 5, cancelled while queued); job 5: requested time -1
    w = leases_from_swf(swf)
    assert [lease.id for lease in w.leases] == [1, 2, 4]
    assert (w.report.records, w.report.kept, w.report.skipped) == (5, 3, {S.SKIP_NO_REQUEST: 1, S.SKIP_CANCELLED: 1})
    assert w.lines == (1, 2, 4)


def test_strict_mode_names_file_and_line_of_the_first_skipped_row(swf):
    with pytest.raises(TraceError, match=r"t\.swf:5: job 5: no requested time \(SWF field 9 <= 0\) \(strict mode\)"):
        leases_from_swf(swf, strict=True)


def test_resources_per_node_are_options(swf):
    lease = leases_from_swf(swf, cpus_per_node=8, memory_mb=2048, image_mb=0.0).leases[0]
    assert (lease.cpus, lease.memory_mb, lease.image_mb) == (32.0, 2048.0, 0.0)


def test_blue_30_days_gives_5108_best_effort_leases(lease_file):
    # 5,545 rows; 437 with run time -1 (all status 5); 512 of the others ran longer than requested.
    # First row "13 0 22 43 32 0.03 -1 4 64800 ...": 4 nodes, 64,800 s requested, 43 s run.
    w = leases_from_swf(lease_file("blue-30days/30days.swf"))
    assert (w.report.records, w.report.kept, w.report.skipped, w.report.adjusted) == \
        (5545, 5108, {S.SKIP_CANCELLED: 437}, {S.ADJUST_CUT: 512})
    first = w.leases[0]
    assert (first.id, first.nodes, first.duration, first.real_duration) == (13, 4, 64800.0, 43.0)
    assert max(lease.nodes for lease in w.leases) == 140   # the machine has 144 nodes


def test_blue_with_injected_ars_renumbers_them_after_the_last_swf_job(lease_file):
    # 5,108 best-effort leases + the 411 ARs of the file; the largest job number of the trace is
    # 8735 (a row skipped as cancelled while queued; the largest kept is 8718): ARs get
    # 8736..9146, so no AR shares an id with a skipped row (both have a row in jobs.csv)
    swf = lease_file("blue-30days/30days.swf")
    injected = lease_file("blue-30days/injected/work_10-dur_2h-size_1small.lwf")
    w = swf_with_injected_ar(swf, injected)
    ars = [lease for lease in w.leases if lease.mode is LeaseMode.AR]
    assert (len(w), len(ars)) == (5519, 411)
    assert sorted(lease.id for lease in ars) == list(range(8736, 9147))
    assert [lease.submit_time for lease in w.leases] == sorted(lease.submit_time for lease in w.leases)
    assert len({lease.id for lease in w.leases}) == 5519
    assert w.report.records == 5545 + 411


def test_no_injected_file_is_the_trace_alone(lease_file):
    swf = lease_file("blue-30days/30days.swf")
    assert len(swf_with_injected_ar(swf, None)) == 5108


def test_combine_is_stable_best_effort_first_at_equal_submit_times(swf, tmp_path):
    # AR submitted at 0 like SWF job 1: job 1 stays first, the AR second; it is numbered after
    # the largest job number of the trace, 5 (job 5 is skipped: it keeps its own row): 6
    old = tmp_path / "ar.lwf"
    old.write_text("0 100 50 50 1 1 1024 0 x 600\n")
    w = combine(leases_from_swf(swf), read_lwf(old))
    assert [lease.id for lease in w.leases] == [1, 6, 2, 4]
