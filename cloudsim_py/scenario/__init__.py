"""Scenarios: the YAML schema, its loader and the runner that writes results."""

from .loader import load_scenario
from .run import run_scenario
from .schema import Scenario

__all__ = ["Scenario", "load_scenario", "run_scenario"]
