"""What the environments share: a scenario's datacenter and workload turned into episodes
(windows of a trace, or draws of a workload model, seeded), a world stepped with the stepping
API to each scheduling pass of the environment's broker, the decisions of that pass taken by
the agent, and the rewards. A subclass says which decision procedure (a pass object of
``cloudsim_py.brokers``: ``begin``, ``apply``, ``obs``, ``mask``, ``active``) the broker runs.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping

import attrs
import gymnasium
import numpy as np
from gymnasium import spaces

from ..brokers.base import Broker
from ..engine import RandomStreams
from ..errors import ScenarioError, SpecError
from ..infrastructure.listener import DatacenterListener
from ..scenario import load_scenario
from ..systems.datacenter import DatacenterSystem, PreparedDatacenter
from ..workload.table import COL, WorkloadTable

REWARDS = ("bsld", "wait", "utilization")
REWARD_AT = ("step", "end")

#: the scenario used when none is given: the quickstart's machine and model (Lublin-Feitelson
#: 2003 on 64 processors at 80 % load, Tsafrir 2005 user estimates)
DEFAULT_SCENARIO: dict[str, Any] = {
    "name": "jobpicking",
    "datacenter": {"hosts": 64},
    "workload": {"model": {"name": "lublin03", "jobs": 1000, "procs": 64, "load": 0.8},
                 "runtime_estimate": "tsafrir05"},
}


class DecisionBroker(Broker):
    """An environment's broker: its ``schedule(now)`` only notes that a pass is asked for (the
    environment then runs the decision procedure between steps, with the agent's actions).
    ``make_pass(dc, queue)`` makes that procedure when the broker is attached. Not registered:
    it is useful only inside an environment."""

    name = "environment"
    description = "an environment's broker (decisions taken between steps)"

    def __init__(self, make_pass: Callable[[Any, Any], Any]) -> None:
        self._make_pass = make_pass
        self.pending = False
        self.decisions: Any = None

    def bind(self, dc: Any) -> None:
        super().bind(dc)
        self.decisions = self._make_pass(dc, self.queue)

    def schedule(self, now: float) -> None:
        self.pending = True


class RewardTally(DatacenterListener):
    """Running sums for the per-step rewards: the waits of the jobs started (at their first
    start), the bounded slowdowns of the jobs finished (as the records compute them:
    ``max(1, response / max(work, tau))``), and the busy processor-seconds (every tier). The
    environments' actions never kill nor suspend a job, so a job is busy from its start to its
    finish."""

    __slots__ = ("tau", "wait", "bsld", "area", "used", "last")

    def __init__(self, tau: float) -> None:
        self.tau = tau
        self.wait = self.bsld = self.area = 0.0
        self.used = 0
        self.last = 0.0

    def advance(self, now: float) -> None:
        """Count the busy processor-time up to ``now``."""
        self.area += self.used * (now - self.last)
        self.last = now

    def on_start(self, job: Any) -> None:
        now = job.start_time
        self.advance(now)
        self.used += job.procs
        if job.first_start == now:
            self.wait += now - job.submit_time


    def on_finish(self, job: Any) -> None:
        now = job.finish_time
        self.advance(now)
        self.used -= job.procs
        response = now - job.submit_time
        b = response / max(job.work, self.tau)
        self.bsld += b if b > 1.0 else 1.0


def window_rows(table: WorkloadTable, start: int, stop: int) -> WorkloadTable:
    """Rows ``start:stop`` of a prepared workload table (views, no copy of the data)."""
    assert table.procs is not None and table.runtime is not None and table.estimate is not None
    return attrs.evolve(table, data=table.data[start:stop],
                        line=table.line[start:stop] if table.line is not None else None,
                        procs=table.procs[start:stop], runtime=table.runtime[start:stop],
                        estimate=table.estimate[start:stop], report=None)


class SchedulingEnv(gymnasium.Env, ABC):
    """Episodes of a scenario's datacenter and workload, decided by the agent.

    ``scenario``: a scenario file, or mapping, of a datacenter system (default:
    :data:`DEFAULT_SCENARIO`); ``trace`` (an SWF file, estimates as the trace requests) and
    ``hosts`` are a short way to give one (``tiers`` too). ``window``: jobs per episode
    (``None``: the whole trace, or the model's ``jobs``); ``window_start``: a fixed first row
    in the trace (default: drawn at each reset). ``reward``: ``bsld`` (minus the average
    bounded slowdown, tau = ``tau`` s), ``wait`` (minus the average wait, in ``time_scale``
    units) or ``utilization``; ``reward_at``: ``step`` (per decision: for ``bsld`` minus the
    bounded slowdowns of the jobs that finished since the last decision, for ``wait`` minus
    the waits of the jobs started, each over the window's job count, so that an episode's
    return is the episode's metric when no job is refused; for ``utilization`` minus the idle
    processor-time since the last decision over hosts x ``time_scale``, whose sum falls as the
    makespan grows) or ``end`` (0 until the last step, then the episode's metric from its
    records: ``-avg_bsld``, ``-avg_wait / time_scale``, ``utilization``). ``copy_obs``: return
    a copy of the observation (``False``: the pass's own buffer, rewritten at the next step).
    ``invalid_action``: what an action outside the mask does: ``fallback`` (the default, so
    that agents without masks and ``check_env``'s random actions work) carries out the *wait*
    action instead if it is legal, else the first legal action, and says so in
    ``info["invalid_action"]``; ``raise``: an
    :class:`~cloudsim_py.brokers.picking.InvalidAction`. Each environment owns its world and
    random streams (no global state)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, scenario: str | os.PathLike | Mapping[str, Any] | None = None, *,
                 trace: str | os.PathLike | None = None, hosts: int | None = None,
                 tiers: int | None = None, window: int | None = 1000, window_start: int | None = None,
                 reward: str = "bsld", reward_at: str = "step", tau: float = 10.0,
                 time_scale: float = 3600.0, copy_obs: bool = True, invalid_action: str = "fallback") -> None:
        super().__init__()
        if reward not in REWARDS:
            raise SpecError("reward", f"expected one of {', '.join(REWARDS)}, got {reward!r}")
        if reward_at not in REWARD_AT:
            raise SpecError("reward_at", f"expected one of {', '.join(REWARD_AT)}, got {reward_at!r}")
        if window is not None and (isinstance(window, bool) or not isinstance(window, int) or window < 1):
            raise SpecError("window", f"must be a positive integer or None, got {window!r}")
        if invalid_action not in ("fallback", "raise"):
            raise SpecError("invalid_action", f"expected fallback or raise, got {invalid_action!r}")
        if not tau > 0:
            raise SpecError("tau", f"must be > 0, got {tau!r}")
        if not time_scale > 0:
            raise SpecError("time_scale", f"must be > 0, got {time_scale!r}")
        dc: dict[str, Any] = {}
        if hosts is not None:
            dc["hosts"] = hosts
        if tiers is not None:
            dc["tiers"] = tiers
        if trace is not None:
            if scenario is not None:
                raise SpecError("trace", "give either a scenario or a trace, not both")
            scenario = {"name": "environment", "datacenter": dc,
                        "workload": {"trace": os.fspath(trace), "runtime_estimate": "trace"}}
        elif scenario is None:
            scenario = dict(DEFAULT_SCENARIO, datacenter={"hosts": 64, **dc})
        elif dc:
            raise SpecError("hosts" if hosts is not None else "tiers",
                            "give the machine in the scenario's datacenter section")
        loaded = load_scenario(scenario)
        system = loaded.system
        if not isinstance(system, DatacenterSystem):
            raise ScenarioError(f"{loaded.source}: the environment needs a datacenter system (datacenter "
                                f"and workload), not a {system.kind} system")
        if system.moldable is not None:
            raise ScenarioError(f"{loaded.source}: moldable: the environments schedule rigid jobs only")
        self.scenario = loaded
        self.window = window
        self.window_start = window_start
        self.reward_kind = reward
        self.reward_at = reward_at
        self.tau = float(tau)
        self.time_scale = float(time_scale)
        self.copy_obs = copy_obs
        self.invalid_action = invalid_action
        w = system.workload
        self._model = w.model is not None
        self._prepared: PreparedDatacenter | None = None
        if w.model is not None:
            # each episode draws ``window`` jobs from the model
            jobs = window if window is not None else int(w.model["jobs"])
            self._system = attrs.evolve(system, workload=attrs.evolve(w, model={**w.model, "jobs": jobs},
                                                                       limit=None))
            self.hosts = self._system.prepare(loaded.name, loaded.source, loaded.seed).hosts
        else:
            # the whole trace read and cleaned once; episodes are windows of it
            self._system = system
            self._prepared = system.prepare(loaded.name, loaded.source, loaded.seed)
            self.hosts = self._prepared.hosts
            rows = len(self._prepared.table)
            if rows == 0:
                raise ScenarioError(f"{loaded.source}: workload: no job left after cleaning")
            if window_start is not None and not 0 <= window_start < rows:
                raise SpecError("window_start", f"must be in 0..{rows - 1}, got {window_start!r}")
        self.tiers = system.datacenter.tiers
        self.world: Any = None
        self.table: WorkloadTable | None = None
        self._broker: DecisionBroker | None = None
        self._pass: Any = None
        self._tally = RewardTally(self.tau)
        self._jobs = 0
        self._last = 0.0
        self._over = True
        self.episode_seed = 0

    # ------------------------------------------------------------------ what a subclass gives
    @abstractmethod
    def _make_pass(self, dc: Any, queue: Any) -> Any:
        """The decision procedure of an episode's broker (attached to ``dc``, its queue): a
        subclass without it cannot be made (abstract)."""

    def _spaces(self, size: int, actions: int, wait: int) -> None:
        """Set the observation space (``size`` floats), the action space and the *wait*
        action (the fallback of an illegal action)."""
        self.observation_space = spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(actions)
        self._wait_action = wait
        self._done_obs = np.zeros(size, dtype=np.float32)
        self._done_mask = np.zeros(actions, dtype=bool)
        self._done_mask[wait] = True

    # ------------------------------------------------------------------ episodes
    def _episode_table(self, seed: int) -> tuple[PreparedDatacenter, WorkloadTable]:
        """The prepared system and the window of jobs of the episode of ``seed``."""
        if self._model:
            loaded = self.scenario
            prepared = self._system.prepare(loaded.name, loaded.source, seed)
            return prepared, prepared.table
        given = self._prepared
        assert given is not None
        table = given.table
        rows = len(table)
        n = rows if self.window is None else min(self.window, rows)
        if self.window_start is not None:
            start = min(self.window_start, rows - n)
        else:
            start = int(RandomStreams(seed)["window"].integers(0, rows - n + 1))
        return given, window_rows(table, start, start + n)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Start an episode: a new window (its start and, for a model, its jobs drawn from named
        streams of an episode seed taken from the environment's generator, so ``reset(seed=s)``
        gives the same episode), its world built and run to the first decision."""
        super().reset(seed=seed)
        self.episode_seed = int(self.np_random.integers(0, 2**63 - 1))
        prepared, table = self._episode_table(self.episode_seed)
        self.table = table
        self._jobs = max(len(table), 1)
        broker = DecisionBroker(self._make_pass)
        tally = self._tally = RewardTally(self.tau)
        world = prepared if table is prepared.table else attrs.evolve(prepared, table=table)
        self.world = world.world(broker, self.episode_seed, listeners=(tally,))  # type: ignore[arg-type]
        self._broker = broker
        self._pass = broker.decisions
        tally.last = self.scenario_start
        self._last = 0.0
        self._over = not self._advance()
        return self._obs(), {"action_mask": self.action_masks()}

    def _advance(self) -> bool:
        """Step the world until a pass is asked for while jobs wait; ``False`` when the world
        has nothing left to do (the episode's end)."""
        broker = self._broker
        decisions = self._pass
        assert broker is not None
        step = self.world.sim.step
        while True:
            broker.pending = False
            t = step()
            if t is None:
                return False
            if broker.pending and decisions.begin(t):
                return True

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Apply ``action`` to the pending decision; advance the world to the next decision
        when the pass ends."""
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        decisions = self._pass
        invalid = False
        if self.invalid_action == "fallback":
            mask = decisions.mask
            try:
                legal = 0 <= action < mask.shape[0] and int(action) == action and bool(mask[int(action)])
            except (TypeError, ValueError):
                legal = False
            if not legal:
                invalid = True
                wait = self._wait_action
                action = wait if mask[wait] else int(np.argmax(mask))
        if not decisions.apply(action):
            self._over = not self._advance()
        reward = self._reward()
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if invalid:
            info["invalid_action"] = True
        return self._obs(), reward, self._over, False, info

    def _reward(self) -> float:
        tally = self._tally
        if self.reward_at == "end":
            if not self._over:
                return 0.0
            summary, _ = self.world.results(tau=self.tau)
            if self.reward_kind == "bsld":
                return -float(summary["avg_bsld"])
            if self.reward_kind == "wait":
                return -float(summary["avg_wait"]) / self.time_scale
            return float(summary["utilization"])
        if self.reward_kind == "bsld":
            total = tally.bsld / self._jobs
        elif self.reward_kind == "wait":
            total = tally.wait / (self._jobs * self.time_scale)
        else:
            tally.advance(self.world.sim.now)
            idle = self.hosts * (tally.last - self.scenario_start) - tally.area
            total = idle / (self.hosts * self.time_scale)
        r = self._last - total
        self._last = total
        return r

    @property
    def scenario_start(self) -> float:
        """Submit time of the episode's first job (the start of the utilization's span)."""
        table = self.table
        return float(table.data[0, COL["submit"]]) if table is not None and len(table) else 0.0

    def _obs(self) -> np.ndarray:
        if self._over:
            return self._done_obs.copy()
        return self._pass.obs.copy() if self.copy_obs else self._pass.obs

    def action_masks(self) -> np.ndarray:
        """The legal actions of the pending decision (at the episode's end only *wait*): the
        sb3-contrib MaskablePPO convention."""
        if self._over or self._pass is None:
            return self._done_mask.copy()
        return self._pass.mask.copy()

    @property
    def now(self) -> float:
        """The simulated time of the pending decision."""
        return float(self.world.sim.now) if self.world is not None else 0.0

    @property
    def datacenter(self) -> Any:
        """The episode's datacenter (read it; act on it only through the actions)."""
        return self.world.datacenter

    @property
    def queue(self) -> list:
        """The waiting jobs in arrival order."""
        assert self._pass is not None
        return self._pass.jobs
