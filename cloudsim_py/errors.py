"""Exception hierarchy: one root, one subclass per kind of failure (imports nothing from the package)."""

from __future__ import annotations


class CloudSimError(Exception):
    """Root of every error raised by cloudsim_py."""


class ScenarioError(CloudSimError):
    """A scenario file or mapping is invalid; the message names file, line and key path."""


class SpecError(ScenarioError, ValueError):
    """An option object refuses a value (also a ``ValueError``); ``path`` is the key path inside it (``hosts``,
    ``groups.1.speed``), which a loader prefixes with where the object came from."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message

    def within(self, prefix: str) -> "SpecError":
        """The same error one level down: ``prefix.path``."""
        if prefix and self.path:
            return type(self)(f"{prefix}.{self.path}", self.message)
        return type(self)(prefix or self.path, self.message)


class TraceError(CloudSimError):
    """A workload file is malformed or inconsistent; the message names file and line."""


class CapacityError(CloudSimError):
    """A datacenter action would violate capacity (two processes in one slot, too few idle slots...)."""


class JobStateError(CloudSimError):
    """An illegal job state transition (e.g. finishing a queued job)."""


class PolicyError(CloudSimError):
    """A broker is unknown, misconfigured or asks for what the datacenter cannot give."""


class PolicySpecError(SpecError, PolicyError):
    """A broker's options are invalid (unknown policy, unknown or refused parameter)."""


class JobError(CloudSimError, ValueError):
    """A job description is impossible (no processors, no runtime, usage outside (0, 1]...)."""
