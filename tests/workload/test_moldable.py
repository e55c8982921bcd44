"""Moldable job descriptions (Sodan 2009 section 3.2): size chosen at start, runtime and
estimate by the efficiency model, static reshaping by F_A, machine resizing by F_VM."""

import pytest

from cloudsim_py import Job
from cloudsim_py.engine import Simulation
from cloudsim_py.errors import CapacityError, JobError, SpecError
from cloudsim_py.infrastructure import Datacenter
from cloudsim_py.metrics import JobLog
from cloudsim_py.workload.description import JobDescription, RigidJob
from cloudsim_py.workload.efficiency import E1, WC
from cloudsim_py.workload.moldable import MoldableJob, MoldableSpec, moldable_descriptions


def test_a_moldable_job_implements_the_description_protocol():
    assert isinstance(MoldableJob.of(1, 0.0, 4, 100.0), JobDescription)


def test_runtime_and_estimate_follow_the_efficiency_model_at_any_size():
    # 4 processors, 100 s (estimate 200 s), E1: efficiency 0.8 at 2 = 0.5 x 4, 0.65 at 4,
    # 0.4 at 8 = 2 x 4. work(n) = 100 * 4 * 0.65 / (n * E(n)):
    # n = 2: 260 / 1.6 = 162.5; n = 8: 260 / 3.2 = 81.25; n = 4: 100 exactly.
    j = MoldableJob.of(1, 0.0, 4, 100.0, 200.0, E1)
    assert j.work(2) == pytest.approx(162.5)
    assert j.work(8) == pytest.approx(81.25)
    assert j.work(4) == 100.0
    # the estimate moves by the same ratio: 200 x 1.625 = 325
    assert j.estimate(2) == pytest.approx(325.0)


def test_a_moldable_job_can_run_on_one_processor():
    j = MoldableJob.of(1, 0.0, 64, 100.0, model=WC)
    assert j.min_procs == 1
    assert j.work(1) == pytest.approx(6400.0)  # work-conserving: 64 x 100


def test_asking_for_a_reshaped_size_sets_runtime_and_estimate_there():
    j = MoldableJob.of(1, 0.0, 128, 3600.0, 7200.0, E1, procs=64)
    assert (j.procs, j.original_procs) == (64, 128)
    assert j.runtime == pytest.approx(3600.0 * 1.625)
    assert j.runtime_estimate == pytest.approx(7200.0 * 1.625)


@pytest.mark.parametrize("size", [0, -1, 2.5, True])
def test_impossible_sizes_are_refused(size):
    with pytest.raises(JobError, match="size must be a positive integer"):
        MoldableJob.of(1, 0.0, 4, 100.0).work(size)


def test_reshaping_rounds_up_keeps_serial_jobs_and_caps_at_the_machine():
    # F_A = 0.3 on a 96-node VM: 10 -> ceil(3.0) = 3; 1 stays 1; 128 -> ceil(38.4) = 39;
    # F_A = 1.5: 100 -> 150, capped at 96; 7 -> ceil(10.5) = 11.
    rigid = [RigidJob.checked(i, 0.0, n, 100.0) for i, n in enumerate([10, 1, 128, 100, 7], 1)]
    assert [d.procs for d in moldable_descriptions(rigid, E1, 0.3, 96)] == [3, 1, 39, 30, 3]
    assert [d.procs for d in moldable_descriptions(rigid, E1, 1.5, 96)] == [15, 1, 96, 96, 11]
    # F_A = 1 on a smaller VM: only the 128- and 100-processor jobs shrink, to 96
    shrunk = list(moldable_descriptions(rigid, E1, 1.0, 96))
    assert [d.procs for d in shrunk] == [10, 1, 96, 96, 7]
    assert shrunk[0].runtime == 100.0 and shrunk[2].runtime == pytest.approx(E1.runtime(100.0, 128, 96))


def test_the_original_job_is_kept_for_classes_and_slowdowns():
    rigid = [RigidJob.checked(7, 5.0, 16, 1000.0, 1500.0, row=3)]
    (d,) = moldable_descriptions(rigid, E1, 0.5, 128)
    assert (d.id, d.submit_time, d.row) == (7, 5.0, 3)
    assert (d.original_procs, d.original_runtime, d.original_estimate) == (16, 1000.0, 1500.0)
    assert d.procs == 8 and d.runtime == pytest.approx(1625.0)


def test_a_moldable_start_gets_the_work_of_the_size_it_is_given():
    # 8 hosts; a 4-processor E1 job of 100 s started on 2 processors runs 162.5 s (see above);
    # the broker's view follows the size: procs 2, estimate 162.5.
    sim = Simulation()
    dc = Datacenter(sim, hosts=8)
    log = dc.subscribe(JobLog())
    job = Job(MoldableJob.of(1, 0.0, 4, 100.0, model=E1))
    dc.submit(job)
    dc.start(job, size=2)
    assert (job.procs, dc.idle(0)) == (2, 6)
    assert job.runtime_estimate == pytest.approx(162.5)
    sim.run()
    assert job.finish_time == pytest.approx(162.5)
    # the records' runtime is the work of the size it ran on, not the description's own
    rec = log.records()
    assert rec["runtime"][0] == pytest.approx(162.5) and rec["procs"][0] == 2
    assert rec["wait"][0] == pytest.approx(0.0)


def test_a_moldable_job_cannot_start_larger_than_the_machine():
    sim = Simulation()
    dc = Datacenter(sim, hosts=8)
    job = Job(MoldableJob.of(1, 0.0, 4, 100.0))
    dc.submit(job)
    with pytest.raises(CapacityError, match="size 9 exceeds"):
        dc.start(job, size=9)


def test_moldable_spec_resizes_the_machine_by_f_vm():
    assert [MoldableSpec(vm_factor=f).machine(128) for f in (0.75, 0.875, 1.125, 1.25)] == [96, 112, 144, 160]


def test_moldable_spec_names_its_efficiency_by_name_or_curve():
    assert MoldableSpec(efficiency="e1").efficiency is E1
    curve = MoldableSpec(efficiency={"name": "curve", "points": [[0.5, 0.9], [1.0, 0.8]]}).efficiency
    assert curve.efficiency(10, 10) == pytest.approx(0.8)


@pytest.mark.parametrize("kw, key", [
    ({"factor": 0}, "factor"), ({"factor": -0.5}, "factor"), ({"vm_factor": 0.0}, "vm_factor"),
    ({"factor": "half"}, "factor"),
    ({"efficiency": {"name": "curve", "points": [[0.5, 0.9], [1.0, -0.1]]}}, "efficiency.points.1.efficiency"),
    ({"efficiency": {"name": "curve", "points": [[0.5, 0.0]]}}, "efficiency.points.0.efficiency"),
])
def test_bad_moldable_options_name_the_key(kw, key):
    with pytest.raises(SpecError) as err:
        MoldableSpec(**kw)
    assert err.value.path == key
