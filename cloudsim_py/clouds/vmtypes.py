"""VM types of a cloud system: CPUs, memory, disk, bandwidth and relative speed. Imports nothing
from the package but errors.

Li et al. (seed 001, section III-A): every cloud offers VMs of its own type, with "different
numbers of CPUs, amounts of memory and network bandwidths", and CPUs of different computational
characteristics. A lease or task is the tuple ``(n, m, d, b)``: CPUs, memory (MB), disk (MB),
bandwidth (MB/s) (section III-B). ``speed`` is the per-VM-type alternative to the execution-time
matrix for tasks that carry a measured runtime: time = runtime / speed (1 = the machine the
runtime was measured on).
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Mapping

import attrs

from ..errors import PlatformError

#: Keys of a VM type given as a mapping (e.g. from YAML); the first four are required.
VM_TYPE_KEYS = ("cpus", "memory_mb", "disk_mb", "bandwidth_mbps", "speed")


def _real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(float(value))


@attrs.frozen(slots=True)
class VMType:
    """One VM type, validated on construction (:class:`~cloudsim_py.errors.PlatformError` naming
    the VM type and the key).

    >>> VMType("small", cpus=1, memory_mb=1024, disk_mb=10_000, bandwidth_mbps=100).speed
    1.0
    """

    name: str
    cpus: int
    memory_mb: float
    disk_mb: float
    bandwidth_mbps: float          #: network bandwidth b (MB/s): image transfer S_I / b, data transfers
    speed: float = 1.0             #: relative CPU speed: a task of runtime r takes r / speed

    def __attrs_post_init__(self) -> None:
        where = f"VM type {self.name!r}"
        if not isinstance(self.cpus, numbers.Integral) or isinstance(self.cpus, bool) or self.cpus < 1:
            raise PlatformError(f"{where}: cpus = {self.cpus!r} must be an integer >= 1")
        if not (_real(self.memory_mb) and self.memory_mb > 0):
            raise PlatformError(f"{where}: memory_mb = {self.memory_mb!r} must be > 0")
        if not (_real(self.disk_mb) and self.disk_mb >= 0):
            raise PlatformError(f"{where}: disk_mb = {self.disk_mb!r} must be >= 0")
        if not (_real(self.bandwidth_mbps) and self.bandwidth_mbps > 0):
            raise PlatformError(f"{where}: bandwidth_mbps = {self.bandwidth_mbps!r} must be > 0")
        if not (_real(self.speed) and self.speed > 0):
            raise PlatformError(f"{where}: speed = {self.speed!r} must be > 0")

    @classmethod
    def from_mapping(cls, name: str, mapping: Mapping[str, Any]) -> "VMType":
        """From ``{cpus, memory_mb, disk_mb, bandwidth_mbps[, speed]}``; an unknown or missing key
        is a PlatformError naming the VM type and the key."""
        unknown = [k for k in mapping if k not in VM_TYPE_KEYS]
        if unknown:
            raise PlatformError(f"VM type {name!r}: unknown key {unknown[0]!r} (known: {', '.join(VM_TYPE_KEYS)})")
        missing = [k for k in VM_TYPE_KEYS[:4] if k not in mapping]
        if missing:
            raise PlatformError(f"VM type {name!r}: missing key {missing[0]!r}")
        return cls(name=name, **dict(mapping))

    def vms_for(self, cpus: float) -> int:
        """VMs of this type a task or lease of ``cpus`` CPUs needs: ``ceil(cpus / self.cpus)``."""
        if not cpus > 0:
            raise PlatformError(f"VM type {self.name!r}: a request of {cpus!r} CPUs must be > 0")
        return max(1, math.ceil(cpus / self.cpus - 1e-12))

    def run_time(self, runtime_s: float) -> float:
        """Time of a task measured at ``runtime_s`` on a speed-1 machine."""
        return runtime_s / self.speed

    def transfer_time(self, size_mb: float) -> float:
        """``size / b``: a disk image (S_I / b, Li et al. III-A) or edge data into this VM."""
        return size_mb / self.bandwidth_mbps
