"""A lease request: what a user asks of a cloud (advance reservation, best-effort or immediate).
Imports nothing from the package but errors; knows nothing of schedulers or datacenters.

The model is Haizea's (Sotomayor, Keahey and Foster, HPDC 2008; Sotomayor, Llorente and Foster,
HPCC 2009), which Li et al. (seed 001, section III-B) build on: a lease is a set of ``nodes`` VMs,
each with ``cpus_per_node`` CPUs and ``memory_mb`` of memory, booted from a disk image of
``image_mb`` that is transferred before the lease starts (``S_I / b``), in one of three modes:

- **advance reservation** (AR): starts at ``start`` (>= its submission), runs ``duration``, is
  not preemptible;
- **best-effort**: queued, runs as soon as possible, preemptible (suspend/resume) by default;
- **immediate**: now or never (rejected when the resources are not free at submission).

``real_duration`` (Haizea's ``<realduration>``) is how long the lease really runs when it ends
before its requested ``duration``; a scheduler plans with ``duration`` and frees the slots at
``real_duration``. Times are seconds from the start of the workload.
"""

from __future__ import annotations

import enum
import math
import numbers

import attrs

from ..errors import LeaseError


class LeaseMode(enum.Enum):
    """How a lease wants its resources (Li et al. section III-B; Haizea's three lease types)."""

    AR = "ar"                    #: advance reservation: at a given start time
    BEST_EFFORT = "best-effort"  #: queued, as soon as possible
    IMMEDIATE = "immediate"      #: now, or rejected

    @property
    def label(self) -> str:
        return self.value


#: Reasons a lease request is invalid (``LeaseError.reason``); loaders count skipped leases by them.
AR_BEFORE_SUBMIT = "advance reservation starts before its submission"
BAD_DURATION = "duration not a finite number > 0"
BAD_REAL_DURATION = "real duration not a finite number > 0 or above the requested duration"
BAD_NODES = "nodes not a positive integer"
BAD_RESOURCES = "CPUs per node not > 0, or memory, disk or image size not >= 0, or one of them not finite"
BAD_TIME = "submit time negative or not finite"
BAD_START = "start given for a lease that is not an advance reservation, or missing for one"
PREEMPTIBLE_AR = "advance reservation marked preemptible"


_INF = math.inf


def _default_preemptible(mode: LeaseMode) -> bool:
    return mode is LeaseMode.BEST_EFFORT


def _finite(value: object) -> bool:
    """A finite real number, not a bool: what every time, duration and size must be (``inf``
    memory or a ``nan`` duration would reach the scheduler's arithmetic otherwise)."""
    kind = type(value)
    if kind is float:                   # the usual case first (no abstract-class check)
        return math.isfinite(value)     # type: ignore[arg-type]
    if kind is int:
        return True
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    return isinstance(value, numbers.Integral) or math.isfinite(value)


@attrs.frozen(slots=True)
class LeaseRequest:
    """One lease request, validated on construction (:class:`~cloudsim_py.errors.LeaseError`
    naming the lease and the key).

    >>> lease = LeaseRequest(id=2, submit_time=900.0, mode=LeaseMode.AR, start=1800.0,
    ...                      duration=1800.0, nodes=4, memory_mb=1024, image_mb=1024)
    >>> lease.end, lease.preemptible, lease.run_time
    (3600.0, False, 1800.0)
    """

    id: int
    submit_time: float
    mode: LeaseMode
    duration: float                       #: requested duration (s): what a scheduler plans with
    nodes: int                            #: number of VMs (Haizea's ``numnodes``)
    cpus_per_node: float = 1.0            #: CPUs of each VM (Haizea's CPU amount / 100)
    memory_mb: float = 0.0                #: memory of each VM (MB); ``M_j`` when it is suspended
    image_mb: float = 0.0                 #: disk image size ``S_I`` (MB); 0 = no image to transfer
    start: float | None = None            #: requested start (AR only)
    real_duration: float | None = None    #: how long it really runs (None = the requested duration)
    preemptible: bool = attrs.field(default=attrs.Factory(lambda self: _default_preemptible(self.mode),
                                                          takes_self=True))
    image_id: str | None = None           #: disk image name (leases sharing one may reuse it)
    disk_mb: float = 0.0                  #: disk space per VM beyond the image (MB)

    def __attrs_post_init__(self) -> None:
        if self._plain_best_effort():
            return
        self._validate()

    def _plain_best_effort(self) -> bool:
        """Whether this is a best-effort request whose times are plain floats in range, whose
        sizes plain floats or ints in range (a scenario's ``memory_mb: 1024``) and whose nodes a
        plain int >= 1 (what the trace readers make, row after row): every check of
        :meth:`_validate` passes then, decided in one expression (a float is finite and ``>= 0``
        exactly when ``0 <= x < inf``: ``nan`` fails both; a plain int is always finite and
        compares exactly with ``inf``). Anything else is
        checked by :meth:`_validate`, which names what is wrong. O(1)."""
        st, du, real, cpn = self.submit_time, self.duration, self.real_duration, self.cpus_per_node
        mem, img, disk, nodes = self.memory_mb, self.image_mb, self.disk_mb, self.nodes
        return (self.mode is LeaseMode.BEST_EFFORT and self.start is None
                and type(st) is float and 0.0 <= st < _INF and type(du) is float and 0.0 < du < _INF
                and (real is None or type(real) is float and 0.0 < real <= du)
                and type(nodes) is int and nodes >= 1
                and (type(cpn) is float or type(cpn) is int) and 0.0 < cpn < _INF
                and (type(mem) is float or type(mem) is int) and 0.0 <= mem < _INF
                and (type(img) is float or type(img) is int) and 0.0 <= img < _INF
                and (type(disk) is float or type(disk) is int) and 0.0 <= disk < _INF)

    def _validate(self) -> None:
        """Every field checked in turn; the first wrong one is a :class:`LeaseError` naming the
        lease, the key and the reason."""
        name = f"lease {self.id}"
        if not (_finite(self.submit_time) and self.submit_time >= 0):
            raise LeaseError(f"{name}: submit_time {self.submit_time!r} must be finite and >= 0", BAD_TIME)
        if not (_finite(self.duration) and self.duration > 0):
            raise LeaseError(f"{name}: duration {self.duration!r} must be > 0 and finite", BAD_DURATION)
        real = self.real_duration
        if real is not None and not (_finite(real) and 0 < real <= self.duration):
            raise LeaseError(f"{name}: real_duration {real!r} must be > 0 and at most the "
                             f"requested duration {self.duration!r}", BAD_REAL_DURATION)
        if isinstance(self.nodes, bool) or not isinstance(self.nodes, numbers.Integral) or self.nodes < 1:
            raise LeaseError(f"{name}: nodes {self.nodes!r} must be a positive integer", BAD_NODES)
        if not (_finite(self.cpus_per_node) and self.cpus_per_node > 0):
            raise LeaseError(f"{name}: cpus_per_node {self.cpus_per_node!r} must be > 0 and finite", BAD_RESOURCES)
        for key in ("memory_mb", "image_mb", "disk_mb"):
            value = getattr(self, key)
            if not (_finite(value) and value >= 0):
                raise LeaseError(f"{name}: {key} {value!r} must be >= 0 and finite", BAD_RESOURCES)
        if self.mode is LeaseMode.AR:
            if not _finite(self.start):
                raise LeaseError(f"{name}: an advance reservation needs a finite start time (start = "
                                 f"{self.start!r})", BAD_START)
            if self.start < self.submit_time:
                raise LeaseError(f"{name}: advance reservation starts at {self.start:g} s, before its "
                                 f"submission at {self.submit_time:g} s", AR_BEFORE_SUBMIT)
            if self.preemptible:
                raise LeaseError(f"{name}: an advance reservation cannot be preemptible", PREEMPTIBLE_AR)
        elif self.start is not None:
            raise LeaseError(f"{name}: start {self.start!r} given for a {self.mode.label} lease "
                             f"(only advance reservations have one)", BAD_START)

    @property
    def run_time(self) -> float:
        """How long the lease really runs: ``real_duration`` if given, else ``duration``."""
        return self.duration if self.real_duration is None else self.real_duration

    @property
    def end(self) -> float | None:
        """Requested end of an AR (``start + duration``); None for other modes."""
        return None if self.start is None else self.start + self.duration

    @property
    def cpus(self) -> float:
        """All CPUs of the lease (``nodes x cpus_per_node``), the ``n`` of Li et al.'s tuple."""
        return self.nodes * self.cpus_per_node
