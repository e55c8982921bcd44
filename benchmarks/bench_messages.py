#!/usr/bin/env python3
"""The engine's cost of one message: what a protocol of messages between schedulers (Li et al.'s
task checks, answers, transfers and completion notices, about 11 events per task on four clouds)
costs before any scheduling is done. Two entities send a message back and forth through
:meth:`Simulation.send` (a :class:`Message`, an event in the queue, its delivery to
``receive``), with ``--hooks`` end-of-timestamp hooks (a datacenter's scheduling pass, here
doing nothing: one per cloud), each message at a new timestamp as with a latency; prints CPU
microseconds per message, best of ``--repeat``.

    python benchmarks/bench_messages.py
    python benchmarks/bench_messages.py --messages 1000000 --hooks 4 --repeat 5
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence

from cloudsim_py.engine import Simulation


class Peer:
    """Answers every message with another to its peer, until ``limit`` have been delivered."""

    def __init__(self, sim: Simulation, limit: int) -> None:
        self.sim = sim
        self.limit = limit
        self.other: Peer | None = None
        self.seen = 0

    def receive(self, message: Any) -> None:
        self.seen += 1
        if self.seen + self.other.seen < self.limit:   # type: ignore[union-attr]
            self.sim.send(self.other, message.payload, 0.5, sender=self)


def per_message(messages: int, hooks: int) -> float:
    """CPU microseconds per message delivered."""
    sim = Simulation()
    a, b = Peer(sim, messages), Peer(sim, messages)
    a.other, b.other = b, a
    for _ in range(hooks):
        sim.after_timestamp(lambda now: None)
    sim.send(b, "check", 0.5, sender=a)
    t0 = time.process_time()
    sim.run()
    seconds = time.process_time() - t0
    return 1e6 * seconds / (a.seen + b.seen)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200_000)
    ap.add_argument("--hooks", type=int, default=4, help="end-of-timestamp hooks (clouds)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    best = min(per_message(args.messages, args.hooks) for _ in range(args.repeat))
    print(f"{args.messages:,} messages, {args.hooks} end-of-timestamp hooks: {best:.2f} CPU us per message "
          f"({1e6 / best:,.0f} messages/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
