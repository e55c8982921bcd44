"""A prepared table becomes job descriptions a chunk at a time: the same descriptions (values,
CPU usage draws, table rows) whatever the chunk size, jobs too big for the machine included."""

import numpy as np

from cloudsim_py.workload.cpu import CpuEstimateModel, CpuUsageModel
from cloudsim_py.workload.jobs import descriptions_from_table
from cloudsim_py.workload.table import WorkloadTable, prepare


def table():
    # 7 jobs on 4 processors; job 4 asks for 6 (kept: the datacenter rejects it at arrival)
    procs = np.array([1, 2, 4, 6, 3, 1, 2], dtype=float)
    return prepare(WorkloadTable.from_columns({
        "job": np.arange(11, 18), "submit": np.arange(7) * 10.0, "run": np.arange(1, 8) * 7.0,
        "alloc_procs": procs, "req_procs": procs, "req_time": np.arange(1, 8) * 9.0}),
        4, "trace", too_big="keep")


def descriptions(chunk):
    return list(descriptions_from_table(table(), CpuUsageModel("paper"), CpuEstimateModel("exact"),
                                        np.random.default_rng(5), np.random.default_rng(6), chunk=chunk))


def test_descriptions_do_not_depend_on_the_chunk_size():
    whole = descriptions(4096)
    assert [d.id for d in whole] == list(range(11, 18))
    assert [d.row for d in whole] == list(range(7))
    # job 4 (6 processes > 4) gets no CPU usage drawn; the others one value per process
    assert whole[3].cpu_usage is None
    assert [len(d.cpu_usage) for i, d in enumerate(whole) if i != 3] == [1, 2, 4, 3, 1, 2]
    for chunk in (1, 2, 3):
        assert descriptions(chunk) == whole, chunk
