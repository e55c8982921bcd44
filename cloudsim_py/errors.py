"""Exception hierarchy: one root, one subclass per kind of failure (imports nothing from the package)."""

from __future__ import annotations


class CloudSimError(Exception):
    """Root of every error raised by cloudsim_py."""


class ScenarioError(CloudSimError):
    """A scenario file or mapping is invalid; the message names file, line and key path."""


class TraceError(CloudSimError):
    """A workload file is malformed or inconsistent; the message names file and line."""


class CapacityError(CloudSimError):
    """A datacenter action would violate capacity (two processes in one slot, too few idle slots...)."""


class JobStateError(CloudSimError):
    """An illegal job state transition (e.g. finishing a queued job)."""


class PolicyError(CloudSimError):
    """A broker is unknown, misconfigured or asks for what the datacenter cannot give."""


class ExperimentError(CloudSimError):
    """A sweep, results table, plot, report or schedule file cannot be used as asked."""
