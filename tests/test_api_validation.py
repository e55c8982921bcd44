"""The Python API refuses what a scenario file refuses (issue 17, "Silently wrong"): a job with
a NaN or infinite time or an id that is not a whole number, a ``simulate`` argument that is not
finite, a file name where jobs or a scenario are expected. Each is a ``CloudSimError`` naming
the argument, raised when the job is made or the function is called, before anything runs."""

import math
from pathlib import Path

import pytest

from cloudsim_py import (CloudSimError, DatacenterSpec, Job, JobError, RigidJob, SpecError,
                         build, run_scenario, simulate)
from cloudsim_py.errors import ScenarioError, TraceError


def jobs():
    return [Job(1, submit_time=0.0, procs=1, runtime=10.0)]


# -- Job ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_job_with_a_submit_time_that_is_not_finite_is_refused(value):
    with pytest.raises(JobError, match=rf"^job 1: submit_time must be a finite number, got {value}$"):
        Job(1, submit_time=value, procs=1, runtime=10.0)


def test_a_job_with_a_negative_submit_time_is_refused_as_in_a_scenario():
    with pytest.raises(JobError, match=r"^job 1: submit_time must be >= 0, got -5.0$"):
        Job(1, submit_time=-5.0, procs=1, runtime=10.0)


def test_a_job_with_a_submit_time_given_as_text_is_refused():
    with pytest.raises(JobError, match=r"^job 1: submit_time must be a number, got str '0'$"):
        Job(1, submit_time="0", procs=1, runtime=10.0)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_a_job_with_a_runtime_that_is_not_finite_is_refused(value):
    with pytest.raises(JobError, match=rf"^job 1: runtime must be a finite number, got {value}$"):
        Job(1, submit_time=0.0, procs=1, runtime=value)


def test_a_job_with_an_infinite_runtime_estimate_is_refused():
    with pytest.raises(JobError, match=r"^job 1: runtime_estimate must be a finite number, got inf$"):
        Job(1, submit_time=0.0, procs=1, runtime=10.0, runtime_estimate=math.inf)


def test_a_job_with_a_string_id_is_refused():
    with pytest.raises(JobError, match=r"^job 'a': id must be an integer within \+-2\^53 - 1, got str 'a'$"):
        Job("a", submit_time=0.0, procs=1, runtime=10.0)


def test_a_job_id_beyond_what_float64_columns_keep_exactly_is_refused():
    with pytest.raises(JobError, match=r"^job 9007199254740992: id must be an integer within"):
        Job(2**53, submit_time=0.0, procs=1, runtime=10.0)


def test_a_job_with_true_as_its_processor_count_is_refused():
    with pytest.raises(JobError, match=r"^job 1: procs must be an integer, got bool True$"):
        Job(1, submit_time=0.0, procs=True, runtime=10.0)


def test_a_job_with_a_nan_cpu_usage_is_refused_wherever_it_is_in_the_list():
    with pytest.raises(JobError, match=r"^job 1: cpu_usage outside \(0, 1\]: nan$"):
        Job(1, submit_time=0.0, procs=2, runtime=10.0, cpu_usage=(0.5, math.nan))


def test_a_numpy_integer_id_is_accepted_as_a_python_int():
    np = pytest.importorskip("numpy")
    job = Job(np.int64(7), submit_time=0.0, procs=1, runtime=10.0)
    assert job.id == 7 and type(job.id) is int


def test_a_description_made_unchecked_with_a_nan_submit_time_is_refused_when_it_arrives():
    with pytest.raises(TraceError, match=r"^job 1: submit time must be a finite number, got nan$"):
        simulate([RigidJob(1, math.nan, 1, 10.0, 10.0)], hosts=1)


# -- simulate and build -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tau", "warmup"])
def test_simulate_refuses_a_nan_metrics_option_naming_it(name):
    with pytest.raises(SpecError, match=rf"^{name}: must be a finite number, got nan$"):
        simulate(jobs(), hosts=1, **{name: math.nan})


def test_simulate_refuses_a_tau_of_zero_as_metrics_tau_is_refused():
    with pytest.raises(SpecError, match=r"^tau: must be > 0, got 0$"):
        simulate(jobs(), hosts=1, tau=0.0)


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_simulate_refuses_an_until_that_is_not_finite(value):
    with pytest.raises(SpecError, match=rf"^until: must be a finite number, got {value}$"):
        simulate(jobs(), hosts=1, until=value)


def test_simulate_refuses_a_seed_that_is_not_a_whole_number():
    with pytest.raises(SpecError, match=r"^seed: expected an integer >= 0, got float 1.5$"):
        simulate(jobs(), hosts=1, seed=1.5)


def test_simulate_given_a_file_name_says_how_to_read_the_file():
    with pytest.raises(SpecError, match=r"^workload: expected jobs, job descriptions, a WorkloadTable or "
                                        r"a function of the simulation, got str 's.yaml'; a file is read "
                                        r"first: run_scenario\(load_scenario\(path\)\) for a scenario, "
                                        r"read_table\(path\) for a trace$"):
        simulate("s.yaml", hosts=1)


def test_simulate_given_a_path_object_says_how_to_read_the_file():
    with pytest.raises(SpecError, match=r"^workload: .*Path\('s.yaml'\); a file is read first"):
        simulate(Path("s.yaml"), hosts=1)


def test_simulate_given_none_names_the_workload_argument():
    with pytest.raises(SpecError, match=r"^workload: expected jobs, job descriptions, a WorkloadTable or "
                                        r"a function of the simulation, got NoneType None$"):
        simulate(None, hosts=1)


def test_simulate_refuses_a_list_of_jobs_that_repeats_an_id():
    twice = [Job(1, submit_time=0.0, procs=1, runtime=10.0), Job(2, submit_time=1.0, procs=1, runtime=5.0),
             Job(1, submit_time=2.0, procs=1, runtime=5.0)]
    with pytest.raises(SpecError, match=r"^workload\[2\]: job id 1 is used twice: workload\[0\] and workload\[2\] "
                                        r"\(outputs name jobs by id\)$"):
        simulate(twice, hosts=1)


def test_build_refuses_a_file_name_before_building_anything():
    with pytest.raises(SpecError, match=r"^workload: .*got str 's.yaml'"):
        build("s.yaml", datacenter=DatacenterSpec(hosts=1))


def test_a_world_run_until_nan_is_refused_and_the_clock_stays():
    world = build(jobs(), datacenter=DatacenterSpec(hosts=1))
    with pytest.raises(SpecError, match=r"^until: must be a finite time, got nan$"):
        world.run(until=math.nan)
    assert world.sim.now == 0.0


# -- run_scenario -------------------------------------------------------------------------------


def test_run_scenario_given_a_file_name_says_to_load_it_first():
    with pytest.raises(ScenarioError, match=r"^run_scenario: scenario: expected a Scenario \(from "
                                            r"load_scenario\), got str 'path.yaml'; load it first: "
                                            r"run_scenario\(load_scenario\('path.yaml'\)\)$"):
        run_scenario("path.yaml")


def test_every_refusal_of_the_api_is_a_cloudsim_error():
    for call in (lambda: Job(1, submit_time=math.nan, procs=1, runtime=1.0),
                 lambda: simulate(None, hosts=1), lambda: run_scenario(None)):
        with pytest.raises(CloudSimError):
            call()
