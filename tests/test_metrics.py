import pytest

from tests.helpers import run


def test_wait_response_and_bounded_slowdown_follow_the_paper():
    # 2 hosts. J1 (2 procs, 100 s) 0-100. J2 (1 proc, 4 s) submitted at 0 waits until 100.
    # J2: response 104, wait 104 - 4 = 100, bsld = 104 / max(10, 4) = 10.4.
    # J1: response 100, wait 0, bsld max(1, 100/100) = 1.
    r = run([(0, 2, 100), (0, 1, 4)], hosts=2, policy="fcfs")
    s = r.summary
    assert s["avg_wait"] == pytest.approx(50.0) and s["max_wait"] == pytest.approx(100.0)
    assert s["avg_response"] == pytest.approx(102.0)
    assert s["avg_bsld"] == pytest.approx((1.0 + 10.4) / 2) and s["max_bsld"] == pytest.approx(10.4)


def test_utilization_is_work_over_capacity_of_the_makespan():
    # 2 hosts busy: J1 2x100, J2 1x4 -> 204 processor-seconds over 2 x 104
    r = run([(0, 2, 100), (0, 1, 4)], hosts=2, policy="fcfs")
    assert r.summary["makespan"] == 104.0
    assert r.summary["utilization"] == pytest.approx(204 / 208)


def test_tau_is_configurable():
    r = run([(0, 2, 100), (0, 1, 4)], hosts=2, policy="fcfs", tau=1.0)
    assert r.summary["max_bsld"] == pytest.approx(104 / 4)


def test_warmup_trims_the_earliest_jobs_from_averages_only():
    # 4 jobs, warmup 0.5 drops J1 and J2 from the averages; counts still cover all 4.
    specs = [(0, 1, 10), (1, 1, 10), (2, 1, 10), (3, 1, 10)]
    r = run(specs, hosts=1, policy="fcfs", warmup=0.5)
    # starts 0, 10, 20, 30 -> waits of J3, J4: 18, 27 (wait = start - submit here)
    assert r.summary["avg_wait"] == pytest.approx((18 + 27) / 2)
    assert r.summary["jobs_finished"] == 4


def test_every_summary_key_of_the_architecture_is_present():
    r = run([(0, 1, 10)], hosts=1, policy="fcfs")
    for key in ("jobs_submitted", "jobs_finished", "jobs_rejected", "avg_wait", "max_wait",
                "avg_response", "avg_bsld", "max_bsld", "utilization", "kills", "migrations",
                "preemptions", "makespan", "events", "wall_seconds"):
        assert key in r.summary


def test_the_records_of_a_long_run_hold_one_copy_of_each_column():
    # 10,000 one-process jobs on 10,000 hosts, all at t=0, runtimes decreasing with the id:
    # they finish in the reverse of their arrival order, so the log must sort every column.
    # The log's 14 raw columns take 14 x 8 = 112 bytes a job; making the records adds the 3
    # derived columns (24 bytes) and, while sorting, the permutation and one column at a time
    # (8 + 8, freed before the derived ones are made): about 24 at the peak. Sorting all 14
    # before letting the unsorted ones go (as before) peaked at 112 + 8 = 120
    import tracemalloc

    from cloudsim_py import Job
    from cloudsim_py.infrastructure.spec import DatacenterSpec
    from cloudsim_py.runner import build

    n = 10_000
    tracemalloc.start()          # from the start: the log's columns are traced too
    try:
        world = build([Job(i, 0.0, 1, runtime=float(n + 1 - i)) for i in range(1, n + 1)],
                      datacenter=DatacenterSpec(hosts=n), broker="fcfs")
        world.run()
        world.log.columns()      # the chunks merged: what a run holds at its end
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        records = world.log.records()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert records["id"][0] == 1 and records["finish"][0] == float(n)
    assert (peak - base) / n < 80, f"{(peak - base) / n:.0f} bytes a job while making the records"


def test_records_taken_mid_run_stay_valid_while_the_log_grows(monkeypatch):
    # chunks of 2 jobs and room for 2 at first: the log's columns are grown (copied) twice
    # after the first records are taken at t=15; those keep their 3 rows and values
    from cloudsim_py import Job
    from cloudsim_py.infrastructure.spec import DatacenterSpec
    from cloudsim_py.metrics import JobLog
    from cloudsim_py.runner import build

    monkeypatch.setattr(JobLog.__init__, "__defaults__", (2, ()))
    # one host, FCFS: job i runs from 10(i-1) to 10i
    world = build([Job(i, 0.0, 1, runtime=10.0) for i in range(1, 9)], datacenter=DatacenterSpec(hosts=1))
    world.run(until=35.0)
    early = world.log.records()
    world.run()
    final = world.log.records()
    assert early["id"].tolist() == [1, 2, 3] and early["finish"].tolist() == [10.0, 20.0, 30.0]
    assert final["id"].tolist() == list(range(1, 9))
    assert final["finish"].tolist() == [10.0 * i for i in range(1, 9)]


def test_raw_columns_read_each_jobs_attribute_named_in_raw_fields():
    # raw_columns reads the attributes by comprehensions written out: the same values, in the
    # same dtypes, as reading RAW_FIELDS' attributes one by one; over finished rigid jobs and
    # DAG tasks
    from operator import attrgetter

    import numpy as np

    from cloudsim_py.metrics import RAW_FIELDS, RetainingJobLog, raw_columns
    from cloudsim_py.systems.clouds import build_dag_system
    from tests.clouds.test_dag_fast_paths import clouds_of, random_dags

    rigid = RetainingJobLog()
    run([(0, 2, 100), (0, 1, 4), (3, 3, 7.5), (9, 1, 2)], hosts=3, policy="easy", listeners=[rigid])
    kept = RetainingJobLog()
    system = build_dag_system(random_dags(2, jobs=10, clouds=2), clouds_of(2), policy="fdmms",
                              latency=0.1, listeners=[kept])
    system.run()
    assert len(rigid.finished) == 4
    for jobs in (kept.finished, rigid.finished):
        cols = raw_columns(jobs)
        assert list(cols) == [name for name, _, _ in RAW_FIELDS]
        for name, dtype, attr in RAW_FIELDS:
            plain = np.fromiter(map(attrgetter(attr), jobs), dtype=dtype, count=len(jobs))
            assert cols[name].dtype == plain.dtype and cols[name].tolist() == plain.tolist()
    assert len(kept.finished) > 20
