import pytest

from cloudsim_py import Job, JobState
from cloudsim_py.errors import JobStateError


def test_a_queued_job_cannot_finish():
    job = Job(1, 0.0, 2, runtime=10.0)
    job.transition(JobState.QUEUED, 0.0)
    with pytest.raises(JobStateError, match="job 1 cannot go from queued to finished"):
        job.transition(JobState.FINISHED, 3.0)


def test_a_finished_job_cannot_run_again():
    job = Job(1, 0.0, 2, runtime=10.0)
    for state in (JobState.QUEUED, JobState.RUNNING, JobState.FINISHED):
        job.transition(state, 0.0)
    with pytest.raises(JobStateError):
        job.transition(JobState.RUNNING, 1.0)


@pytest.mark.parametrize("kw,msg", [
    (dict(procs=0, runtime=1.0), "procs must be >= 1"),
    (dict(procs=2, runtime=0.0), "runtime must be > 0"),
    (dict(procs=2, runtime=5.0, cpu_usage=(0.5,)), "1 values for 2 processes"),
    (dict(procs=2, runtime=5.0, cpu_usage=(0.5, 1.5)), r"outside \(0, 1\]"),
])
def test_impossible_jobs_are_refused(kw, msg):
    procs = kw.pop("procs")
    with pytest.raises(ValueError, match=msg):
        Job(9, 0.0, procs, **kw)


def test_estimate_defaults_to_the_runtime():
    assert Job(1, 0.0, 1, runtime=42.0).runtime_estimate == 42.0
