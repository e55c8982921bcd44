"""Progress models (process and job speeds from tier occupancy) and the interference presets."""

from .interference import FactorSampler, FixedFactors, InterferenceModel, presets
from .progress import (KTierProgress, OneTierProgress, ProgressModel, TwoTierProgress,
                       process_speed, progress_model)

__all__ = ["FactorSampler", "FixedFactors", "InterferenceModel", "KTierProgress",
           "OneTierProgress", "ProgressModel", "TwoTierProgress", "presets", "process_speed",
           "progress_model"]
