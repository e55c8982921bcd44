"""Step a simulation, look at the datacenter between steps, act on it (as an RL agent would).

    python examples/step_by_step.py

`build` wires the world without running it; `world.run(until=t)` advances to t and returns
(`world.step()` advances by one timestamp), so a program can inspect the datacenter (idle
slots, running jobs, queue) and decide between steps."""

from __future__ import annotations

from cloudsim_py import Broker, DatacenterSpec, Job, build


class Manual(Broker):
    """A broker that does nothing on its own: the program below makes every decision."""

    def schedule(self, now: float) -> None:
        pass


def main() -> list[tuple[float, int, int]]:
    jobs = [Job(i, submit_time=10.0 * i, procs=1 + i % 4, runtime=25.0) for i in range(1, 9)]
    world = build(jobs, datacenter=DatacenterSpec(hosts=4), broker=Manual())
    dc, broker = world.datacenter, world.broker
    trail = []
    for t in range(0, 200, 10):
        world.run(until=float(t))
        # the "agent": start the oldest queued job that fits, one per step
        for job in list(broker.queue):
            if job.procs <= dc.idle():
                dc.start(job)
                broker.queue.remove(job)
                break
        trail.append((dc.now, dc.idle(), len(broker.queue)))
        print(f"t={dc.now:5.0f}  idle={dc.idle()}  queued={len(broker.queue)}  finished={dc.finished}")
    world.run()
    return trail


if __name__ == "__main__":
    main()
