"""Gymnasium environments over the simulator (the optional extra ``[rl]``: ``pip install
'cloudsim_py[rl]'``). Importing this package registers them:
``gymnasium.make("cloudsim_py/JobPicking-v0", ...)`` and ``"cloudsim_py/TierPlacement-v0"``; without importing it first,
``gymnasium.make("cloudsim_py.learning:cloudsim_py/JobPicking-v0", ...)`` imports it. Nothing
else in the package imports gymnasium."""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError("cloudsim_py.learning needs gymnasium: pip install 'cloudsim_py[rl]'") from exc

from .base import DEFAULT_SCENARIO, DecisionBroker, RewardTally, SchedulingEnv
from .picking import JobPickingEnv
from .placement import TierPlacementEnv

__all__ = ["DEFAULT_SCENARIO", "DecisionBroker", "JobPickingEnv", "RewardTally", "SchedulingEnv",
           "TierPlacementEnv", "register_envs"]

ENVS = {"cloudsim_py/JobPicking-v0": "cloudsim_py.learning.picking:JobPickingEnv",
        "cloudsim_py/TierPlacement-v0": "cloudsim_py.learning.placement:TierPlacementEnv"}


def register_envs() -> None:
    """Register the environments with gymnasium (done on import; again is harmless)."""
    for env_id, entry in ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry)


register_envs()
