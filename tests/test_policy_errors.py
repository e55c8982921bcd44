"""A policy bug (its code, or an action it asks for, raises inside ``schedule()``) is reported
with the policy, the simulated time, the head of its queue and the traceback into the policy."""

import sys
import textwrap

import pytest

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.base import Broker
from cloudsim_py.brokers.base import broker_registry
from cloudsim_py.cli import main
from cloudsim_py.errors import CapacityError, PolicyError, PolicyFailure


class StartsTooMuch(Broker):
    """Starts every queued job at once, whether it fits or not."""

    name = "starts-too-much"

    def schedule(self, now):
        for job in list(self.queue):
            self.dc.start(job)
            self.queue.remove(job)


class Typo(Broker):
    name = "typo"

    def schedule(self, now):
        if len(self.queue) > 1:
            return self.queue.jobz   # AttributeError: a bug in the policy's own code


def test_an_action_that_raises_in_schedule_is_a_policy_error_with_time_queue_and_cause():
    # 2 hosts: at t=3 job 2 (2 procs) and job 3 (1 proc) arrive while job 1 holds one host;
    # starting job 2 needs 2 idle slots, 1 is idle
    jobs = [Job(1, 0.0, 1, runtime=10.0), Job(2, 3.0, 2, runtime=5.0), Job(3, 3.0, 1, runtime=5.0)]
    with pytest.raises(PolicyFailure) as info:
        simulate(jobs, hosts=2, policy=StartsTooMuch())
    err = info.value
    assert isinstance(err, PolicyError) and isinstance(err.__cause__, CapacityError)
    text = str(err)
    assert text.startswith("policy 'starts-too-much' failed in schedule() at t=3: CapacityError: "
                           "t=3.0: job 2 needs 2 slots in tier 0, 1 available")
    assert "queue (2 jobs): job 2 (2 procs, estimate 5, submitted 3), job 3 (1 procs, estimate 5, submitted 3)" in text
    assert (err.policy, err.time, [j.id for j in err.queue]) == ("starts-too-much", 3.0, [2, 3])


def test_a_bug_in_the_policy_code_is_chained_not_swallowed():
    jobs = [Job(1, 0.0, 1, runtime=1.0), Job(2, 0.0, 1, runtime=1.0)]
    with pytest.raises(PolicyFailure, match=r"policy 'typo' failed in schedule\(\) at t=0: AttributeError") as info:
        simulate(jobs, hosts=1, policy=Typo())
    assert isinstance(info.value.__cause__, AttributeError)


def test_the_cli_shows_policy_time_queue_and_the_traceback_into_schedule(tmp_path, capsys):
    (tmp_path / "buggy_policy_cli.py").write_text(textwrap.dedent("""\
        from cloudsim_py import Broker, register_broker

        @register_broker("buggy-cli", "starts everything")
        class Buggy(Broker):
            def schedule(self, now):
                for job in list(self.queue):
                    self.dc.start(job)
                    self.queue.remove(job)
        """))
    path = tmp_path / "s.yaml"
    path.write_text("name: x\nplugins: [./buggy_policy_cli.py]\ndatacenter: {hosts: 1}\n"
                    "workload: {jobs: [{submit: 0, procs: 1, runtime: 5}, {submit: 0, procs: 1, runtime: 5}]}\n"
                    "broker: buggy-cli\n")
    try:
        assert main(["run", str(path), "--quiet"]) == 2
    finally:
        sys.modules.pop("buggy_policy_cli", None)
        broker_registry.unregister("buggy-cli")   # later tests list the known policies
    err = capsys.readouterr().err
    assert "policy 'buggy-cli' failed in schedule() at t=0: CapacityError" in err
    assert "queue (1 jobs): job 2 (1 procs, estimate 5, submitted 0)" in err
    assert "buggy_policy_cli.py\", line 7, in schedule" in err and "self.dc.start(job)" in err
