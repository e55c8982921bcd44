"""What it costs to move a lease or task onto, off and between a cloud's VMs: the disk image sent
before it first runs, the state saved on a suspension and reloaded on a resume, what a migration
sends over the network. Imports attrs, the package's errors and validators and the cloud; no
engine, no policy.

Li et al. (seed 001, section III): the image is sent to the task's VMs before it runs, ``S_I /
b``; a preempted task's "current disk image" of size ``M_j`` is copied to a local disk at ``S_c``
(``M_j / S_c``) and reloaded the same way when it resumes. Haizea (Sotomayor, Llorente and
Foster, HPCC 2009) saves and reloads the VM's *memory* at its suspend/resume rate, and a lease
resumed on other nodes has its memory image (and, if not already there, its disk image) sent to
them. Both are options here: ``suspend`` says what is saved (``memory``, the default, as Haizea
and the project so far; ``image``, Li et al.'s ``M_j``), ``migrate`` what a migration sends (the
saved state and the disk image, or the state alone).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from ..errors import SpecError
from ..validate import boolean, number
from .cloud import CloudSpec

SUSPEND = ("memory", "image")
MIGRATE = ("state+image", "state")


class Times(NamedTuple):
    """The overheads of one lease or task on one cloud, in seconds."""

    transfer: float      #: its disk image sent to its VMs before it first runs (S_I / b)
    save: float          #: its state saved when it is suspended (M_j / S_c)
    reload: float        #: its state read back before it runs again after a suspension
    migrate: float       #: its state (and image) sent to other VMs before a resume there


def _choice(options: tuple[str, ...]) -> Any:
    def check(inst: Any, attribute: Any, value: Any) -> None:
        if value not in options:
            raise SpecError(attribute.name, f"expected one of {', '.join(options)}, got {value!r}")
    return check


@attrs.frozen(slots=True)
class Overheads:
    """``image``: send the disk image before a first start; ``suspend``: what a suspension saves
    (``memory``: the VM's memory, Haizea; ``image``: the disk image, Li et al.'s ``M_j``);
    ``migrate``: what a migration sends over the network (``state+image``: the saved state and the
    disk image; ``state``: the state alone, Haizea's setting on SDSC Blue; when the saved state is
    the disk image the two are the same); ``suspend_mbps``: the save and reload speed ``S_c`` (default: each
    cloud's ``copy_mbps``).

    >>> from cloudsim_py.clouds.vmtypes import VMType
    >>> cloud = CloudSpec("c", VMType("v", 1, 1024, 0, 128), 4, copy_mbps=32)
    >>> Overheads().times(cloud, image_mb=1024, memory_mb=1024)
    Times(transfer=8.0, save=32.0, reload=32.0, migrate=16.0)
    >>> Overheads(suspend="image").times(cloud, image_mb=512, memory_mb=1024)
    Times(transfer=4.0, save=16.0, reload=16.0, migrate=4.0)
    """

    image: bool = attrs.field(default=True, validator=boolean)
    suspend: str = attrs.field(default="memory", validator=_choice(SUSPEND))
    migrate: str = attrs.field(default="state+image", validator=_choice(MIGRATE))
    suspend_mbps: float | None = attrs.field(default=None, validator=number(0.0, low_open=True, optional=True))

    def times(self, cloud: CloudSpec | None, image_mb: float, memory_mb: float) -> Times:
        """The overheads of a lease or task with an ``image_mb`` disk image and ``memory_mb`` of
        memory per VM on ``cloud`` (``None``: a plain datacenter, no overheads)."""
        if cloud is None:
            return Times(0.0, 0.0, 0.0, 0.0)
        state = memory_mb if self.suspend == "memory" else image_mb
        rate = self.suspend_mbps if self.suspend_mbps is not None else cloud.copy_mbps
        save = state / rate if state else 0.0
        moved = state + image_mb if self.migrate == "state+image" and self.suspend == "memory" else state
        xfer = cloud.transfer_s(image_mb) if self.image else 0.0
        return Times(xfer, save, save, cloud.transfer_s(moved))
