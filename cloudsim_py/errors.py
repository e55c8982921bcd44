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


class LimitError(SpecError):
    """A run reached a limit of the program, not of the policy (more time slices than
    ``MAX_SLICES``, a ``slice_s`` too short to move the clock): ``path`` names the option. Raised
    through a policy's call unwrapped: the policy is not at fault."""


class CapacityError(CloudSimError):
    """A datacenter action would violate capacity (two processes in one slot, too few idle slots...)."""


class JobStateError(CloudSimError):
    """An illegal job state transition (e.g. finishing a queued job)."""


class PolicyError(CloudSimError):
    """A broker is unknown, misconfigured or asks for what the datacenter cannot give."""


class PolicyFailure(PolicyError):
    """A policy's own code raised while the simulation called it (``schedule``, ``on_timer``):
    the message names the policy, the time and the head of its queue; ``__cause__`` is the
    original exception, whose traceback goes into the policy. ``policy``, ``time`` and ``queue``
    (a few ``Job`` objects) are kept as attributes."""

    def __init__(self, message: str, policy: str = "", time: float = 0.0, queue: tuple = ()) -> None:
        super().__init__(message)
        self.policy = policy
        self.time = time
        self.queue = queue


class StuckJobsError(PolicyError):
    """A run ran out of events with jobs neither finished nor rejected (a policy that never starts
    them, or leaves them suspended). ``jobs`` are those jobs; ``result`` is the run's
    :class:`~cloudsim_py.runner.RunResult` (its records and summary as far as the run went)."""

    def __init__(self, message: str, jobs: tuple = (), result: object = None) -> None:
        super().__init__(message)
        self.jobs = jobs
        self.result = result


class OutputError(CloudSimError):
    """Results cannot be written where asked (a non-empty output folder without ``--force``, a
    folder that cannot be created or written)."""


class PolicySpecError(SpecError, PolicyError):
    """A broker's options are invalid (unknown policy, unknown or refused parameter)."""


class JobError(CloudSimError, ValueError):
    """A job description is impossible (no processors, no runtime, usage outside (0, 1]...)."""


class LeaseError(CloudSimError):
    """A lease request is invalid (an AR starting before its submission, a non-positive duration...);
    the message names the lease and the key. ``reason`` is a short category that loaders count."""

    def __init__(self, message: str, reason: str = "invalid lease"):
        super().__init__(message)
        self.reason = reason


class DAGError(CloudSimError):
    """A DAG job is invalid (a cycle, a missing or unknown task field); the message names the job,
    the task and the key."""


class PlatformError(CloudSimError):
    """A VM type, cloud or execution-time matrix is invalid, or a task type is missing from the
    matrix; the message names the VM type, task type, job or task and the key."""


class ExperimentError(CloudSimError):
    """A sweep, results table, plot, report or schedule file cannot be used as asked."""


class MissingExtraError(CloudSimError, ImportError):
    """An optional extra is not installed (pandas for DataFrames, matplotlib for figures): the
    message names the ``pip install`` that adds it."""
