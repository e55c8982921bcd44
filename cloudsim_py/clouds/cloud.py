"""One cloud of a cloud system: a name, a VM type and a number of VMs, and the datacenter options
that make it (every host is one VM of the type). Imports attrs, the package's errors, validators,
VM types and the datacenter's option class; nothing from the engine or the brokers.

Li et al. (seed 001, section III-A): "The provision of these computational resources is in the
form of virtual machines (VMs) deployed in a provider's data center"; every cloud offers VMs of
its own type. A cloud here is a :class:`~cloudsim_py.infrastructure.datacenter.Datacenter` of
``vms`` hosts of speed 1 and type ``vm_type.name``, one tier: a VM runs one lease or task at a
time. Host speed stays 1 because a task's time on the cloud is computed when it is placed (the
execution-time matrix is not a speed factor; a runtime is divided by the VM type's ``speed``
then, see :class:`~cloudsim_py.clouds.matrix.ExecutionModel`); the identical hosts keep the
datacenter on its fast path.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from ..errors import SpecError
from ..infrastructure.spec import MAX_HOSTS, DatacenterSpec, HostGroup
from ..validate import integer, number, text
from .vmtypes import VMType


def _vm_type(inst: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, VMType):
        raise SpecError(attribute.name, f"expected a VM type, got {type(value).__name__}")


@attrs.define(slots=True, frozen=True)
class CloudSpec:
    """``vms`` VMs of type ``vm_type`` under the name ``name``; ``copy_mbps`` is the disk copy
    speed ``S_c`` at which a suspended lease's memory is saved and reloaded (default 32 MB/s,
    Haizea's suspend and resume rate).

    >>> c = CloudSpec("east", VMType("small", 1, 1024, 0, 128), 4)
    >>> c.datacenter_spec().host_count, c.transfer_s(1024), c.copy_s(1024)
    (4, 8.0, 32.0)
    """

    name: str = attrs.field(validator=text())
    vm_type: VMType = attrs.field(validator=_vm_type)
    vms: int = attrs.field(validator=integer(1, MAX_HOSTS))
    copy_mbps: float = attrs.field(default=32.0, validator=number(0.0, low_open=True))

    def datacenter_spec(self, check: bool = False) -> DatacenterSpec:
        """One tier, ``vms`` hosts of speed 1 and type ``vm_type.name``; no migration cost (the
        lease scheduler gives every resume its cost)."""
        return DatacenterSpec(groups=(HostGroup(self.vms, 1.0, self.vm_type.name),), name=self.name,
                              check=check, migration_cost=0.0)

    def transfer_s(self, size_mb: float) -> float:
        """``size / b`` into a VM of this cloud (S_I / b of Li et al. III-A)."""
        return size_mb / self.vm_type.bandwidth_mbps if size_mb else 0.0

    def copy_s(self, size_mb: float) -> float:
        """``M_j / S_c`` on this cloud."""
        return copy_time(size_mb, self.copy_mbps)

    def vms_for(self, cpus: float) -> int:
        return self.vm_type.vms_for(cpus)


def copy_time(size_mb: float, copy_mbps: float) -> float:
    """``M_j / S_c``: saving (or reloading) a suspended lease's memory image at disk speed ``S_c``."""
    if not size_mb:
        return 0.0
    if not (copy_mbps > 0 and math.isfinite(copy_mbps)):
        raise SpecError("copy_mbps", f"must be a finite number > 0, got {copy_mbps!r}")
    return size_mb / copy_mbps
