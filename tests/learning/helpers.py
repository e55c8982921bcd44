"""Shared pieces of the learning tests: scenarios, decision rules, driving an environment."""

from __future__ import annotations

from typing import Any, Callable

from cloudsim_py.scenario import load_scenario


def kth_scenario(path: Any, policy: str = "fcfs", params: dict | None = None, jobs: int = 2000) -> dict:
    """The first ``jobs`` jobs of KTH-SP2 on its 100 processors, estimates as requested."""
    return {"name": "kth", "datacenter": {"hosts": 100},
            "workload": {"trace": str(path), "runtime_estimate": "trace", "limit": jobs},
            "broker": {"policy": policy, "params": params or {}}}


def broker_starts(mapping: dict) -> dict[int, float]:
    """Job id -> start time under the scenario's (first) broker."""
    sc = load_scenario(mapping)
    prepared = sc.system.prepare(sc.name, sc.source, sc.seed)
    world = prepared.world(sc.brokers[0], sc.seed)
    world.run()
    _, records = world.results()
    return dict(zip(records["id"].tolist(), records["start"].tolist()))


def drive(env: Any, rule: Callable[[Any, Any], int], seed: int = 0) -> tuple[dict[int, float], float, int]:
    """Run one episode with ``rule(obs, mask)``; job id -> start, the return and the steps."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        obs, reward, terminated, truncated, info = env.step(rule(obs, info["action_mask"]))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    _, records = env.world.results()
    return dict(zip(records["id"].tolist(), records["start"].tolist())), total, steps
