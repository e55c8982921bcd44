"""The tier-placement decision procedure for k-tier datacenters, the TierPlacement
environment's (``cloudsim_py.learning``): at each decision the agent chooses where the queue's
head (the oldest waiting job) starts, or waits, or moves a background job up a tier; only
the datacenter's checked actions are used (``start`` in a tier, ``swap_tiers``).

Actions (``tiers + 3``):

* ``t < tiers``: start the head in tier ``t`` (legal when at least its processors are
  available there: idle in tier 0, idle and open under the threshold above); the pass goes
  on with the next head.
* ``tiers`` (*wait*): start nothing more now; the pass ends (legal while something runs).
* ``tiers + 1`` (*promote*): the oldest running job of a tier above 0 that can move one tier
  down the numbers (to higher priority) on its own hosts is swapped there (free, as the
  consolidation policies do); the pass goes on (legal when there is such a job).
* ``tiers + 2`` (*restart*): the oldest running job of a tier above 0 that fits the idle
  tier-0 VMs is killed (its tentative run's work is lost) and started again in tier 0 on
  idle VMs (Liu et al. 2015, Algorithm 1 lines 29-31: a background job selected by FCFS whose
  own foreground VMs are busy); the pass goes on (legal when there is such a job).

A kill that sends a job back to the queue is not offered: the pass starts only the queue's
head, so every running job arrived before every waiting one, and no waiting job has a later
arrival to evict (ACFCFS's eviction); a killed job is therefore restarted at once.

Observation (``float32``, length ``4 + 3 * tiers + 2``): the head's wait / time_scale, its
processors / hosts, its runtime estimate / time_scale, the waiting jobs / 32; per tier whether
the head fits there now, the available processors / hosts and the busy processors / hosts;
then 1 if a promotion is possible, 1 if a restart is possible.

Cost of a decision: O(tiers) for the head and the tiers, plus the search of the promotion and
restart candidates, O(running jobs above tier 0) at worst (the oldest first; the search stops
at the first that qualifies in each tier)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..errors import PolicySpecError
from .picking import InvalidAction, checked_action

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter
    from ..workload.job import Job
    from .queues import FifoQueue

HEAD_FEATURES = 4
#: scale of the queue-length feature
QUEUE_SCALE = 32.0


def placement_observation_size(tiers: int) -> int:
    """Length of :class:`PlacementPass`'s observation for ``tiers`` tiers."""
    return HEAD_FEATURES + 3 * tiers + 2


class PlacementPass:
    """The decisions of one broker's scheduling passes on a k-tier datacenter (see the
    module's docstring). Same protocol as :class:`~cloudsim_py.brokers.picking.PickingPass`:
    ``begin(now)``, then while :attr:`active` read :attr:`obs` and :attr:`mask` and
    ``apply(action)``."""

    __slots__ = ("dc", "queue", "jobs", "tiers", "hosts", "time_scale", "obs", "mask", "active",
                 "now", "started", "wait_action", "promote_action", "restart_action", "_candidate",
                 "_restart")

    def __init__(self, dc: "Datacenter", queue: "FifoQueue", *, time_scale: float = 3600.0) -> None:
        if not time_scale > 0:
            raise PolicySpecError("time_scale", f"must be > 0, got {time_scale!r}")
        self.dc = dc
        self.queue = queue
        self.jobs = queue.jobs
        self.tiers = dc.tiers
        self.hosts = len(dc.hosts)
        self.time_scale = float(time_scale)
        #: the observation, rewritten in place at each decision
        self.obs = np.zeros(placement_observation_size(dc.tiers), dtype=np.float32)
        #: legal actions (``tiers + 3`` booleans), rewritten in place
        self.mask = np.zeros(dc.tiers + 3, dtype=bool)
        self.wait_action = dc.tiers
        self.promote_action = dc.tiers + 1
        self.restart_action = dc.tiers + 2
        self._candidate: Job | None = None
        self._restart: Job | None = None
        self.active = False
        self.now = 0.0
        self.started = 0

    def begin(self, now: float) -> bool:
        """Open a pass at ``now``; whether a decision is asked (jobs are waiting)."""
        self.now = now
        self.started = 0
        self.active = bool(self.jobs)
        if self.active:
            self._observe()
        return self.active

    def apply(self, action: Any, path: str = "action") -> bool:
        """Carry out ``action``; returns whether the pass goes on. An illegal action is an
        :class:`InvalidAction` naming ``path``, and changes nothing."""
        a = checked_action(action, self.active, self.now, self.mask, path)
        if a == self.wait_action:
            self.active = False
            return False
        if a == self.promote_action:
            job = self._candidate
            assert job is not None       # the mask allowed it
            self.dc.swap_tiers(job, job.tier - 1)
        elif a == self.restart_action:
            job = self._restart
            assert job is not None       # the mask allowed it
            self.dc.kill(job)
            self.dc.start(job, 0)
        else:
            self.dc.start(self.jobs[0], a)
            del self.jobs[0]
            self.started += 1
            if not self.jobs:
                self.active = False
                return False
        self._observe()
        return True

    def _oldest_above(self, qualifies: "Callable[[Job, int], bool]") -> "Job | None":
        """The oldest running job of a tier above 0 for which ``qualifies(job, tier)`` holds:
        in each tier the first in arrival order that does, then the oldest of those;
        O(running jobs above tier 0) at worst."""
        best: Job | None = None
        for t in range(1, self.tiers):
            for job in self.dc.running_by_arrival(t):
                if qualifies(job, t):
                    if best is None or job.order < best.order:
                        best = job
                    break
        return best

    def _promotable(self) -> "Job | None":
        """The oldest running job above tier 0 that can swap one tier down the numbers."""
        can_swap = self.dc.can_swap
        return self._oldest_above(lambda job, t: can_swap(job, t - 1))

    def _restartable(self) -> "Job | None":
        """The oldest running job above tier 0 that fits the idle tier-0 VMs."""
        idle = self.dc.idle(0)
        return self._oldest_above(lambda job, t: job.procs <= idle)

    def _observe(self) -> None:
        dc = self.dc
        head = self.jobs[0]
        obs = self.obs
        mask = self.mask
        hosts = self.hosts
        p = head.procs
        obs[0] = (self.now - head.submit_time) / self.time_scale
        obs[1] = p / hosts
        obs[2] = head.runtime_estimate / self.time_scale
        obs[3] = len(self.jobs) / QUEUE_SCALE
        i = HEAD_FEATURES
        running = False
        for t in range(self.tiers):
            avail = dc.idle(0) if t == 0 else dc.available(t)
            fits = p <= avail
            mask[t] = fits
            busy = hosts - dc.idle(t)
            running = running or busy > 0
            obs[i] = fits
            obs[i + 1] = avail / hosts
            obs[i + 2] = busy / hosts
            i += 3
        self._candidate = cand = self._promotable() if self.tiers > 1 else None
        obs[i] = cand is not None
        self._restart = again = self._restartable() if self.tiers > 1 else None
        obs[i + 1] = again is not None
        mask[self.wait_action] = running
        mask[self.promote_action] = cand is not None
        mask[self.restart_action] = again is not None
        if not mask.any():          # nothing can start and nothing runs: let the pass end
            mask[self.wait_action] = True
