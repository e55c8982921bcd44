"""Progress model: process speeds from tier occupancy and the interference presets."""

from .interference import FactorSampler, FixedFactors, InterferenceModel, presets
from .progress import process_speed

__all__ = ["FactorSampler", "FixedFactors", "InterferenceModel", "presets", "process_speed"]
