"""Experiments: reproduction of published tables (and, later, sweeps and plots)."""
