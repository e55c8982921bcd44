"""Write your own policy: subclass Broker, register it, run it beside the built-ins.

    python examples/custom_broker.py [N_JOBS]

The policy here is "shortest estimated job first" with no reservation at all (it can starve
wide jobs: compare its maximum wait with EASY's)."""

from __future__ import annotations

import sys

from cloudsim_py import Broker, Job, register_broker, simulate


@register_broker("sjf", "Shortest estimated job first, no reservations (example)")
class ShortestFirst(Broker):
    def schedule(self, now: float) -> None:
        for job in sorted(self.queue, key=lambda j: (j.runtime_estimate, j.submit_time)):
            if job.procs <= self.dc.idle():
                self.dc.start(job)          # checked by the datacenter: raises if it cannot fit
                self.queue.remove(job)


def workload(n: int) -> list[Job]:
    """A deterministic toy workload: sizes 1..8, runtimes 10..1000 s, one arrival every 30 s."""
    jobs = []
    for i in range(1, n + 1):
        procs = 1 + (i * 5) % 8
        runtime = 10.0 + (i * 137) % 990
        jobs.append(Job(i, submit_time=30.0 * i, procs=procs, runtime=runtime,
                        runtime_estimate=runtime * (1 + i % 3)))
    return jobs


def main(n: int = 400) -> dict[str, dict]:
    out = {}
    for policy in ("fcfs", "easy", "sjf"):
        s = simulate(workload(n), hosts=8, policy=policy).summary
        out[policy] = s
        print(f"{policy:5} avg wait {s['avg_wait'] / 60:7.1f} min   max wait {s['max_wait'] / 60:7.1f} min   "
              f"avg bsld {s['avg_bsld']:6.2f}")
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
