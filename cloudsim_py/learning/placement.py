"""TierPlacement: a Gymnasium environment for k-tier datacenters whose every step is one
decision of :class:`~cloudsim_py.brokers.placing.PlacementPass`: the tier the queue's head
starts in, or waiting, or moving a background job up a tier (the consolidation policies'
checked actions ``start`` in a tier and ``swap_tiers``). Episodes and rewards as JobPicking's
(:class:`~cloudsim_py.learning.base.SchedulingEnv`)."""

from __future__ import annotations

import os
from typing import Any, Mapping

from ..brokers.placing import PlacementPass, placement_observation_size
from ..errors import ScenarioError
from .base import SchedulingEnv

#: the scenario used when none is given: the quickstart's workload on 64 hosts of two tiers
#: (Liu et al. 2015's interference, CPU usage as in the paper)
DEFAULT_TIERED: dict[str, Any] = {
    "name": "tierplacement",
    "datacenter": {"hosts": 64, "tiers": 2},
    "workload": {"model": {"name": "lublin03", "jobs": 1000, "procs": 64, "load": 0.8},
                 "runtime_estimate": "tsafrir05"},
}


class TierPlacementEnv(SchedulingEnv):
    """Choose the tier of the queue's head, or wait, or promote a background job (actions
    ``0..tiers-1``, ``tiers`` = wait, ``tiers + 1`` = promote; see
    :mod:`cloudsim_py.brokers.placing`). The datacenter needs two tiers or more."""

    def __init__(self, scenario: str | os.PathLike | Mapping[str, Any] | None = None, **options: Any) -> None:
        if scenario is None and options.get("trace") is None:
            tiers = options.pop("tiers", None) or 2
            hosts = options.pop("hosts", None) or 64
            scenario = dict(DEFAULT_TIERED, datacenter={"hosts": hosts, "tiers": tiers})
        super().__init__(scenario, **options)
        if self.tiers < 2:
            raise ScenarioError(f"{self.scenario.source}: datacenter.tiers: TierPlacement needs 2 tiers "
                                f"or more, got {self.tiers}")
        self._spaces(placement_observation_size(self.tiers), self.tiers + 3, self.tiers)

    def _make_pass(self, dc: Any, queue: Any) -> PlacementPass:
        return PlacementPass(dc, queue, time_scale=self.time_scale)
