from cloudsim_py import Broker, simulate
from tests.helpers import jobs


class Recorder(Broker):
    """FCFS that records what each scheduling pass saw."""

    def bind(self, dc):
        super().bind(dc)
        self.passes = []

    def schedule(self, now):
        self.passes.append((now, self.dc.idle(0)))
        while self.queue and self.queue[0].procs <= self.dc.idle(0):
            self.dc.start(self.queue.pop(0))


def test_jobs_ending_at_the_same_instant_are_seen_in_one_pass():
    # J1 and J2 (2 procs each) both end at 10; J3 (4 procs) waits. The broker is asked once
    # at t=10 and sees all 4 hosts idle, never a state with only one of the two finished.
    broker = Recorder()
    r = simulate(jobs((0, 2, 10), (0, 2, 10), (1, 4, 5)), hosts=4, policy=broker)
    at_10 = [p for p in broker.passes if p[0] == 10.0]
    assert at_10 == [(10.0, 4)]
    assert r.summary["jobs_finished"] == 3


class Sleeper(Broker):
    """Starts jobs only when its own timer rings (a broker that batches decisions)."""

    def bind(self, dc):
        super().bind(dc)
        self.rang = []
        self.armed = False

    def on_submit(self, job):
        super().on_submit(job)
        if not self.armed:
            self.dc.wake_at(self.dc.now + 30.0, "batch")
            self.armed = True

    def on_timer(self, token):
        self.rang.append((self.dc.now, token))
        self.armed = False

    def schedule(self, now):
        if self.rang and self.rang[-1][0] == now:
            while self.queue and self.queue[0].procs <= self.dc.idle():
                self.dc.start(self.queue.pop(0))


def test_wake_at_calls_on_timer_at_that_time_then_a_scheduling_pass():
    # J1 arrives at 0 and J2 at 10: the broker asks to be woken at 30 and starts both then
    broker = Sleeper()
    r = simulate(jobs((0, 1, 5), (10, 1, 5)), hosts=2, policy=broker, check=True)
    assert broker.rang == [(30.0, "batch")]
    assert {int(i): s for i, s in zip(r.records["id"], r.records["start"])} == {1: 30.0, 2: 30.0}
