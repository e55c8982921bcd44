"""JobPicking: a Gymnasium environment whose every step is one decision of the simulator's own
job-picking pass (:class:`~cloudsim_py.brokers.picking.PickingPass`, the same code the
``learned`` broker runs), so that a policy trained here behaves identically in scenarios.

An episode is a window of ``window`` jobs, drawn from the scenario's trace (a random start,
or ``window_start``) or from its workload model (a fresh draw of ``window`` jobs), simulated on
the scenario's datacenter (size, tiers, interference, runtime and CPU estimates: anything the
YAML can express; the scenario's broker is replaced by the environment's). The environment
steps the world with the stepping API (``World.step``) until the broker asks for a scheduling
pass while jobs wait; the agent then picks actions until the pass ends, and the world goes on.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from ..brokers.ends import EstimatedEnds
from ..brokers.picking import PickingPass, observation_size
from ..errors import SpecError
from .base import SchedulingEnv


class JobPickingEnv(SchedulingEnv):
    """Pick which of the first ``k`` waiting jobs starts next (see
    :mod:`cloudsim_py.brokers.picking` for the actions ``0..k``, the mask and the
    observation). ``k``, ``backfill``, ``time_scale``: the pass's options (the ``learned``
    broker's parameters must be the same to run the policy in a scenario). The episodes, the
    rewards and the other options are :class:`~cloudsim_py.learning.base.SchedulingEnv`'s;
    the *wait* action is ``k``."""

    def __init__(self, scenario: str | os.PathLike | Mapping[str, Any] | None = None, *, k: int = 32,
                 backfill: bool = False, **options: Any) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise SpecError("k", f"must be a positive integer, got {k!r}")
        super().__init__(scenario, **options)
        self.k = k
        self.backfill = bool(backfill)
        self._spaces(observation_size(k, self.tiers), k + 1, k)

    def _make_pass(self, dc: Any, queue: Any) -> PickingPass:
        ends = dc.subscribe(EstimatedEnds()) if self.backfill else None
        return PickingPass(dc, queue, ends, k=self.k, backfill=self.backfill, time_scale=self.time_scale)
