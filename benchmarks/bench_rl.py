#!/usr/bin/env python3
"""Speed of the JobPicking environment (issue 21, item 5): environment steps per second with
K = 32 on Lublin-Feitelson 2003 windows (the quickstart's machine: 64 processors, 80 % load,
Tsafrir 2005 estimates), driven by random legal actions and by the FCFS rule (the oldest job,
else "nothing now"), and the cost per step on episodes of 1,000 and 10,000 jobs (it must not
grow with the episode). CPU seconds (``time.process_time``) of the stepping loop only: the
episode's reset (the model's draw, the world's build) is timed apart; the rule's own cost is in
the loop (a random legal action is one ``flatnonzero`` and one draw).

    python benchmarks/bench_rl.py                       # the table
    python benchmarks/bench_rl.py --episodes 5 --json bench_rl.json
    python benchmarks/bench_rl.py --profile random      # cProfile of one 10,000-job episode
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cloudsim_py.learning import JobPickingEnv, TierPlacementEnv  # noqa: E402

K = 32


def random_rule(rng: np.random.Generator):
    """A random legal action: the agent side of the loop, kept cheap."""
    draws = iter(rng.random(10_000_000).tolist())

    def rule(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[int(next(draws) * len(legal))])
    return rule


def fcfs_rule(mask: np.ndarray) -> int:
    """The FCFS choice: the oldest job if legal, else action K."""
    return 0 if mask[0] else K


def episode(env: JobPickingEnv | TierPlacementEnv, rule, seed: int) -> tuple[int, float, float]:
    """One episode: (steps, CPU seconds of the steps, CPU seconds of the reset)."""
    t0 = time.process_time()
    env.reset(seed=seed)
    t1 = time.process_time()
    picking = env._pass
    step = env.step
    steps = 0
    assert picking is not None
    mask = picking.mask
    while True:
        _, _, terminated, _, _ = step(rule(mask))
        steps += 1
        if terminated:
            break
        mask = env._pass.mask
    return steps, time.process_time() - t1, t1 - t0


def measure(window: int, rule_name: str, episodes: int, backfill: bool = False) -> dict:
    if rule_name == "tiers":        # TierPlacement on 2 tiers, random legal actions
        env: JobPickingEnv | TierPlacementEnv = TierPlacementEnv(window=window)
        rule = random_rule(np.random.default_rng(0))
        episode(TierPlacementEnv(window=200), rule, 99)                    # warm-up, not timed
    else:
        env = JobPickingEnv(window=window, k=K, backfill=backfill, copy_obs=True)
        rule = random_rule(np.random.default_rng(0)) if rule_name == "random" else fcfs_rule
        episode(JobPickingEnv(window=200, k=K, backfill=backfill), rule, 99)     # warm-up, not timed
    steps = 0
    seconds = reset = 0.0
    for e in range(episodes):
        s, t, r = episode(env, rule, seed=e)
        steps += s
        seconds += t
        reset += r
    return {"window": window, "rule": rule_name, "backfill": backfill, "episodes": episodes,
            "steps": steps, "seconds": seconds, "steps_per_s": steps / seconds,
            "us_per_step": 1e6 * seconds / steps, "reset_s": reset / episodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3, help="episodes per row (10,000-job rows: 1)")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--profile", choices=["random", "fcfs"], help="profile one 10,000-job episode")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="target load")
    if args.profile:
        import cProfile
        import pstats

        env = JobPickingEnv(window=10_000, k=K)
        rule = random_rule(np.random.default_rng(0)) if args.profile == "random" else fcfs_rule
        with cProfile.Profile() as prof:
            episode(env, rule, 0)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return
    rows = []
    for rule in ("random", "fcfs"):
        for backfill in (False, True):
            for window, episodes in ((1000, args.episodes), (10_000, max(1, args.episodes // 3))):
                rows.append(measure(window, rule, episodes, backfill))
    for window, episodes in ((1000, args.episodes), (10_000, max(1, args.episodes // 3))):
        rows.append(measure(window, "tiers", episodes))
    print(f"JobPicking, K = {K}, lublin03 64 processors 80 % load, CPU time of env.step "
          "(rule 'tiers': TierPlacement on 2 tiers, random legal actions)")
    print(f"{'rule':8} {'backfill':8} {'jobs':>7} {'steps':>9} {'steps/s':>9} {'us/step':>8} {'reset s':>8}")
    for r in rows:
        print(f"{r['rule']:8} {str(r['backfill']):8} {r['window']:>7,} {r['steps']:>9,} "
              f"{r['steps_per_s']:>9,.0f} {r['us_per_step']:>8.1f} {r['reset_s']:>8.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
