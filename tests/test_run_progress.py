"""``run``'s progress line: the policy being run (of how many) and an ETA from the jobs left."""

import io

from cloudsim_py.cli import Progress


class Job:
    finish_time = 7200.0


def test_the_line_names_the_policy_and_gives_an_eta():
    p = Progress(stream=io.StringIO(), runs=2, clock=lambda: 0.0)
    p.on_run_start("easy", 4000)
    p.done = 1000
    # 1,000 jobs in 10 s: 100 jobs/s, 3,000 left -> 30 s
    assert p.line(10.0, 7200.0) == ("[1/2 easy] 1,000 of 4,000 jobs (25 %), 100 jobs/s, "
                                    "simulated t = 7,200 s, ETA 30s")


def test_without_a_job_count_there_is_no_eta():
    p = Progress(stream=io.StringIO(), clock=lambda: 0.0)
    p.on_run_start("fcfs", None)
    p.done, p.submitted = 50, 60
    assert p.line(5.0, 100.0) == "[1/1 fcfs] 50 jobs done (60 submitted), 10 jobs/s, simulated t = 100 s"


def test_the_second_policy_restarts_the_count_and_is_named():
    now = [0.0]
    stream = io.StringIO()
    p = Progress(stream=stream, delay=0.0, every=0.0, check_every=1, runs=2, clock=lambda: now[0])
    p.on_run_start("fcfs", 2)
    now[0] = 1.0
    p.on_finish(Job())
    p.reset()
    p.on_run_start("easy", 2)
    now[0] = 3.0
    p.on_finish(Job())
    lines = stream.getvalue().split("\n")
    assert "[1/2 fcfs] 1 of 2 jobs (50 %)" in lines[0] and "ETA 1s" in lines[0]
    assert "[2/2 easy] 1 of 2 jobs (50 %)" in lines[1] and "ETA 2s" in lines[1]


def test_run_scenario_tells_the_listener_each_policy_and_its_job_count(tmp_path):
    from cloudsim_py.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("name: s\nseed: 1\ndatacenter: {hosts: 8}\n"
                    "workload: {model: {name: lublin03, jobs: 30, procs: 8}}\nbroker: [fcfs, easy]\n")

    class Probe:
        def __init__(self):
            self.started = []

        def on_run_start(self, policy, jobs):
            self.started.append((policy, jobs))

    probe = Probe()
    run_scenario(load_scenario(str(path)), listeners=[probe])
    assert probe.started == [("fcfs", 30), ("easy", 30)]
