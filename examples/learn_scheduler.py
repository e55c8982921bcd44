"""Learning a job-picking policy with numpy alone: the cross-entropy method over a linear scorer.

    python examples/learn_scheduler.py                         # the full budget (a few minutes)
    python examples/learn_scheduler.py --iterations 2 --population 6 --episodes 2 --test-jobs 2000

The agent is :class:`~cloudsim_py.brokers.learned.LinearPolicy`: each of the first K waiting
jobs gets the score ``w . (wait, processors, estimate, fits now)`` (the JobPicking observation's
per-job features) and the legal job of highest score starts next. The cross-entropy method
(Rubinstein 1999; as used for Tetris by Szita and Lorincz 2006) keeps a Gaussian over ``w``:
each iteration draws a population of weight vectors, plays each on the same training episodes
(windows of lublin03 jobs on 64 processors, EASY backfill after every pick, reward minus the
average bounded slowdown) and refits the Gaussian to the best few. Evaluating the same episodes
for every candidate (common random numbers) makes the comparison between candidates fair.

The weights found are saved as an ``.npz`` file that the ``learned`` broker reads, and that
broker is run on a **held-out trace** (KTH-SP2 from ``$CLOUDSIM_PY_TRACES`` or
``../shared/traces``; a fresh lublin03 draw with another seed when the trace is missing) beside
``fcfs``, ``easy`` and ``sjf-backfill``, with the same metrics. The table printed is what it is:
a linear scorer with four features can learn roughly "short and small first, but not for ever",
which beats FCFS by far and competes with EASY and SJF on the average bounded slowdown; it does
not promise to win on every metric.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from cloudsim_py import load_scenario, run_scenario
from cloudsim_py.brokers.learned import LinearPolicy
from cloudsim_py.brokers.picking import JOB_FEATURES
from cloudsim_py.learning import JobPickingEnv

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
K = 32

#: the training episodes: lublin03 (Lublin and Feitelson 2003) at 80 % load on 64 processors,
#: runtime estimates drawn as users give them (Tsafrir et al. 2005)
def training(jobs: int) -> dict:
    """The training scenario with windows of ``jobs`` jobs."""
    return {"name": "train", "datacenter": {"hosts": 64},
            "workload": {"model": {"name": "lublin03", "jobs": jobs, "procs": 64, "load": 0.8},
                         "runtime_estimate": "tsafrir05"}}
KTH = "KTH-SP2-1996-2.1-cln.swf.gz"


def episode_return(env: JobPickingEnv, policy: LinearPolicy, seed: int) -> float:
    """Play one episode of ``seed`` with ``policy``; its return (minus the average bounded
    slowdown of the window's jobs, the rewards being given per step)."""
    obs, info = env.reset(seed=seed)
    mask = info["action_mask"]
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, info = env.step(policy(obs, mask))
        mask = info["action_mask"]
        total += reward
    return total


def train(iterations: int, population: int, episodes: int, elite: int, seed: int, jobs: int,
          log=print) -> tuple[LinearPolicy, list[float]]:
    """The cross-entropy method; returns the mean of the last Gaussian as a policy and the
    best mean return of each iteration. Every candidate of every iteration plays the same
    ``episodes`` windows, so that returns compare across iterations too."""
    env = JobPickingEnv(training(jobs), k=K, backfill=True, window=None, copy_obs=False,
                        invalid_action="raise")
    seeds = [seed * 1000 + e for e in range(episodes)]
    rng = np.random.default_rng(seed)
    mean = np.zeros(JOB_FEATURES)
    std = np.full(JOB_FEATURES, 1.0)
    history = []
    for it in range(iterations):
        candidates = mean + std * rng.standard_normal((population, JOB_FEATURES))
        scores = np.array([np.mean([episode_return(env, LinearPolicy(w), s) for s in seeds])
                           for w in candidates])
        best = candidates[np.argsort(scores)[::-1][:elite]]
        mean = best.mean(axis=0)
        std = best.std(axis=0) + 0.05          # a floor keeps the search from collapsing early
        history.append(float(scores.max()))
        log(f"iteration {it + 1}/{iterations}: best return {scores.max():8.2f} "
            f"(avg bsld {-scores.max():.2f}), mean w = {np.round(mean, 2).tolist()}")
    return LinearPolicy(mean), history


def held_out(policy_file: str, jobs: int | None) -> tuple[str, dict]:
    """Run fcfs, easy, sjf-backfill and the learned policy on the held-out trace; returns its
    name and {label: summary}."""
    traces = os.environ.get("CLOUDSIM_PY_TRACES") or str(REPO.parent / "shared" / "traces")
    path = Path(traces) / KTH
    if path.is_file():
        name = f"KTH-SP2 ({'all' if jobs is None else f'first {jobs:,}'} jobs, 100 processors)"
        workload: dict = {"trace": str(path), "runtime_estimate": "trace"}
        if jobs is not None:
            workload["limit"] = jobs
        datacenter = {"hosts": 100}
    else:
        n = jobs or 5000
        name = f"lublin03 ({n:,} jobs, seed 99; {KTH} not found)"
        workload = {"model": {"name": "lublin03", "jobs": n, "procs": 64, "load": 0.8},
                    "runtime_estimate": "tsafrir05"}
        datacenter = {"hosts": 64}
    scenario = {"name": "held-out", "seed": 99, "datacenter": datacenter, "workload": workload,
                "broker": ["fcfs", "easy", "sjf-backfill",
                           {"policy": "learned", "label": "learned",
                            "params": {"policy": policy_file, "k": K, "backfill": True}}]}
    runs = run_scenario(load_scenario(scenario))
    return name, {result.label or policy: result.summary for policy, result in runs}


def table(name: str, summaries: dict) -> str:
    rows = [("avg wait (min)", "avg_wait", 1 / 60), ("max wait (min)", "max_wait", 1 / 60),
            ("avg bounded slowdown", "avg_bsld", 1.0), ("max bounded slowdown", "max_bsld", 1.0),
            ("utilization", "utilization", 1.0)]
    labels = list(summaries)
    out = [f"held-out: {name}", f"{'metric':22}" + "".join(f"{lab:>14}" for lab in labels)]
    for title, key, factor in rows:
        out.append(f"{title:22}" + "".join(f"{summaries[lab][key] * factor:14,.2f}" for lab in labels))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=12)
    ap.add_argument("--population", type=int, default=16)
    ap.add_argument("--elite", type=int, default=4)
    ap.add_argument("--episodes", type=int, default=6, help="training episodes per candidate")
    ap.add_argument("--jobs", type=int, default=512, help="jobs per training episode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--test-jobs", type=int, default=None,
                    help="first N jobs of the held-out trace (default: all)")
    ap.add_argument("--save", default=None, help="where to write the policy (.npz; default: a temporary file)")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    policy, history = train(args.iterations, args.population, args.episodes,
                            min(args.elite, args.population), args.seed, args.jobs)
    print(f"trained in {time.process_time() - t0:.0f} CPU s")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.save or os.path.join(tmp, "policy.npz")
        policy.save(path)
        name, summaries = held_out(path, args.test_jobs)
    print(table(name, summaries))
    return {"history": history, "weights": policy.weights.tolist(), "summaries": summaries}


if __name__ == "__main__":
    # the lublin03 draws of small windows miss the target load by a few percent: said once per
    # episode, which is noise here (only when run as a script: the caller's logging is theirs)
    logging.getLogger("cloudsim_py.workload.models").setLevel(logging.ERROR)
    main()
