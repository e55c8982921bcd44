"""Several clouds in one simulation (Li et al., seed 001): VM types, execution-time matrices and
per-cloud slot tables. The data layer here imports nothing from the engine."""
