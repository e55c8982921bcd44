"""A custom listener: watch every run of a scenario without touching the policies.

    python examples/custom_listener.py

A listener is any object with some of the datacenter's hooks (``on_submit``, ``on_start``,
``on_finish``, ``on_suspend``, ...); subclassing :class:`DatacenterListener` documents them, and
only the hooks a subclass overrides are called. ``run_scenario`` subscribes the listeners it is
given to every run's datacenter after the broker, tells them ``on_run_start(label, jobs)``
before each run and calls their ``reset()`` after it. This one counts the starts in each tier
and the longest queue of each policy of the two-tier scenario ``k2_consolidation.yaml``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from cloudsim_py import DatacenterListener, load_scenario, run_scenario

HERE = Path(__file__).resolve().parent


class TierWatch(DatacenterListener):
    """Starts per tier and the longest waiting queue, per run (keyed by the broker's label)."""

    def __init__(self) -> None:
        self.starts: dict[str, Counter[int]] = {}
        self.longest_queue: dict[str, int] = {}
        self._label = ""
        self._queued = 0

    def on_run_start(self, label: str, jobs: int | None) -> None:
        self._label = label
        self.starts[label] = Counter()
        self.longest_queue[label] = 0

    def reset(self) -> None:
        self._queued = 0

    def on_submit(self, job: Any) -> None:
        self._queued += 1
        if self._queued > self.longest_queue[self._label]:
            self.longest_queue[self._label] = self._queued

    def on_start(self, job: Any) -> None:
        # a job starts from the queue (a killed job went back to it: on_kill below)
        self._queued -= 1
        self.starts[self._label][job.tier] += 1

    def on_kill(self, job: Any) -> None:
        self._queued += 1


def main() -> TierWatch:
    watch = TierWatch()
    run_scenario(load_scenario(HERE / "k2_consolidation.yaml"), listeners=[watch])
    for label, starts in watch.starts.items():
        tiers = "  ".join(f"tier {t}: {n:3}" for t, n in sorted(starts.items()))
        print(f"{label:7} starts {tiers:24} longest queue {watch.longest_queue[label]:3} jobs")
    return watch


if __name__ == "__main__":
    main()
