"""Several datacenters in one simulation: their own brokers, messages between them, listeners
that watch more than one."""

from __future__ import annotations

from cloudsim_py import Broker, Datacenter, DatacenterListener, Job, Simulation


class Forwarder(Broker):
    """Runs what fits; what does not fit is offered to a peer broker by a message, and the
    peer runs what it is sent (a two-cloud toy protocol)."""

    def __init__(self) -> None:
        self.peer: Broker | None = None
        self.inbox: list[tuple[float, str, int]] = []

    def schedule(self, now: float) -> None:
        for job in list(self.queue):
            if job.procs <= self.dc.idle():
                self.queue.remove(job)
                self.dc.start(job)
            elif self.peer is not None:
                self.queue.remove(job)
                self.send(self.peer, ("take", job.desc))

    def on_message(self, message) -> None:
        kind, desc = message.payload
        self.inbox.append((self.dc.now, kind, desc.id))
        self.dc.submit(Job(desc))          # a copy of the job, submitted here


def two_clouds(latency: float):
    sim = Simulation(seed=1, latency=latency)
    a = Datacenter(sim, hosts=2, name="a")
    b = Datacenter(sim, hosts=4, name="b")
    ba, bb = a.attach(Forwarder()), b.attach(Forwarder())
    ba.peer = bb
    return sim, a, b, ba, bb


def test_two_datacenters_with_their_own_brokers_exchange_a_message_with_latency():
    # cloud a (2 hosts) gets job 2 (1 process, 20 s) then job 1 (2 processes, 10 s) at t=0:
    # job 2 starts in a, job 1 no longer fits, so a's broker sends it to b's broker; with
    # latency 5 it arrives at t=5, b (4 hosts) starts it at once: finish at 15; job 2 at 20.
    sim, a, b, ba, bb = two_clouds(latency=5.0)
    sim.schedule(0.0, a.submit, Job(2, 0.0, 1, runtime=20.0))
    sim.schedule(0.0, a.submit, Job(1, 0.0, 2, runtime=10.0))
    sim.run()
    assert bb.inbox == [(5.0, "take", 1)]
    assert (a.submitted, a.finished, b.submitted, b.finished) == (2, 1, 1, 1)
    assert sim.now == 20.0


def test_a_listener_subscribed_to_both_datacenters_sees_every_finish():
    sim, a, b, ba, bb = two_clouds(latency=0.0)
    seen: list[tuple[str, int, float]] = []

    class Probe(DatacenterListener):
        def __init__(self, label: str) -> None:
            self.label = label

        def on_finish(self, job: Job) -> None:
            seen.append((self.label, job.id, job.finish_time))

    a.subscribe(Probe("a"))
    b.subscribe(Probe("b"))
    for i, procs in enumerate((1, 2, 2), 1):
        sim.schedule(float(i), a.submit, Job(i, float(i), procs, runtime=4.0))
    sim.run()
    # job 1 runs in a [1, 5]; jobs 2 and 3 (2 processes) do not fit a's one free host and
    # go to b at once: [2, 6] and [3, 7]
    assert sorted(seen) == [("a", 1, 5.0), ("b", 2, 6.0), ("b", 3, 7.0)]


def test_one_listener_object_can_watch_two_datacenters():
    sim, a, b, ba, bb = two_clouds(latency=0.0)

    class Count(DatacenterListener):
        def __init__(self) -> None:
            self.finished = 0

        def on_finish(self, job: Job) -> None:
            self.finished += 1

    probe = Count()
    a.subscribe(probe)
    b.subscribe(probe)
    sim.schedule(0.0, a.submit, Job(1, 0.0, 1, runtime=1.0))
    sim.schedule(0.0, a.submit, Job(2, 0.0, 2, runtime=1.0))   # no room left in a: to b
    sim.run()
    assert probe.finished == 2


def test_each_datacenter_gets_its_own_scheduling_pass_only_when_something_happened_to_it():
    sim = Simulation()
    passes: dict[str, list[float]] = {"a": [], "b": []}

    class Quiet(Broker):
        def __init__(self, label: str) -> None:
            self.label = label

        def schedule(self, now: float) -> None:
            passes[self.label].append(now)
            for job in list(self.queue):
                self.queue.remove(job)
                self.dc.start(job)

    a = Datacenter(sim, hosts=1, name="a")
    b = Datacenter(sim, hosts=1, name="b")
    a.attach(Quiet("a"))
    b.attach(Quiet("b"))
    sim.schedule(1.0, a.submit, Job(1, 1.0, 1, runtime=2.0))
    sim.schedule(2.0, b.submit, Job(2, 2.0, 1, runtime=2.0))
    sim.run()
    # a: arrival at 1, finish at 3; b: arrival at 2, finish at 4
    assert passes == {"a": [1.0, 3.0], "b": [2.0, 4.0]}
