"""What it costs to move a lease or task onto, off and between a cloud's VMs: the disk image sent
before it first runs, the state saved on a suspension and reloaded on a resume, what a migration
sends over the network, and (Haizea) the shutdown after a lease's run and the per-VM enactment
overhead of every operation. Imports attrs, the package's errors and validators and the cloud;
no engine, no policy.

Li et al. (seed 001, section III): the image is sent to the task's VMs before it runs, ``S_I /
b``; a preempted task's "current disk image" of size ``M_j`` is copied to a local disk at ``S_c``
(``M_j / S_c``) and reloaded the same way when it resumes. Haizea (Sotomayor, Llorente and
Foster, HPCC 2009) saves and reloads the VM's *memory* at its suspend/resume rate, and a lease
resumed on other nodes has its memory image (and, if not already there, its disk image) sent to
them. Both are options here: ``suspend`` says what is saved (``memory``, the default, as Haizea
and the project so far; ``image``, Li et al.'s ``M_j``), ``migrate`` what a migration sends (the
saved state and the disk image, or the state alone).

Haizea 1.0's arithmetic (Sotomayor et al.; docs/federation.md, "Haizea 1.0 and this project") is
the ``haizea`` preset (:data:`PRESETS`, ``federation.overheads: {preset: haizea}``): every
suspend or resume of one VM takes ``ceil(mem / rate)`` whole seconds and every network transfer
``ceil(MB / speed)``; each operation pays ``enactment_s`` per VM (a suspension of a lease's ``n``
VMs, which Haizea's *local* exclusion runs in parallel, one node per VM, takes ``op + e n``; its
*global* exclusion runs them one after the other, ``n (op + e)``); a best-effort lease's run is
followed by a shutdown of ``shutdown_s + e n``; ``override_suspend_s`` replaces the per-VM suspend
time and the whole-lease suspend estimate (Haizea's ``override-suspend-time``: its tests use 0).
The whole-lease estimates that Haizea's scheduling threshold uses are
``n (ceil(n mem / rate) + e)``: the memory of all ``n`` VMs turned into one time, then counted
``n`` times again (so they grow with ``n^2``).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple

import attrs

from ..errors import SpecError
from ..validate import boolean, number
from .cloud import CloudSpec

SUSPEND = ("memory", "image")
MIGRATE = ("state+image", "state")
EXCLUSION = ("local", "global")
#: Haizea 1.0's network speed of a memory migration: 100 Mbit/s, hard-coded in its simulator
HAIZEA_MIGRATE_MBPS = 12.5

#: named sets of values (``preset: haizea``): Haizea 1.0's test configuration (its
#: ``base_config_simulator.conf``: suspend/resume at 32 MB/s, enactment overhead 2 s per VM,
#: override-suspend-time 0, local exclusion, no image transfer (lease-preparation unmanaged), the
#: memory alone migrated at 100 Mbit/s, times rounded up to whole seconds)
PRESETS: dict[str, dict[str, Any]] = {
    "haizea": {"image": False, "suspend": "memory", "migrate": "state", "suspend_mbps": 32.0,
               "migrate_mbps": HAIZEA_MIGRATE_MBPS, "enactment_s": 2.0, "shutdown_s": 0.0,
               "override_suspend_s": 0.0, "exclusion": "local", "whole_seconds": True},
}


class Times(NamedTuple):
    """The overheads of one lease or task on one cloud, in seconds."""

    transfer: float      #: its disk image sent to its VMs before it first runs (S_I / b)
    save: float          #: its state saved when it is suspended (M_j / S_c)
    reload: float        #: its state read back before it runs again after a suspension
    migrate: float       #: its state (and image) sent to other VMs before a resume there
    shutdown: float = 0.0          #: after a best-effort run that was not cut short (Haizea)
    save_estimate: float = 0.0     #: Haizea's whole-lease suspend estimate (its threshold)
    reload_estimate: float = 0.0   #: Haizea's whole-lease resume estimate


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
    the disk image the two are the same); ``suspend_mbps``: the save and reload speed ``S_c``
    (default: each cloud's ``copy_mbps``); ``migrate_mbps``: the network speed of a migration
    (default: the VM type's bandwidth; Haizea: 12.5 MB/s, its hard-coded 100 Mbit/s).

    Haizea's arithmetic (module docstring): ``enactment_s`` (Haizea's ``enactment-overhead``, per
    VM and operation), ``shutdown_s`` (its ``shutdown-time``), ``override_suspend_s`` (its
    ``override-suspend-time``; ``None``: not overridden), ``exclusion`` (``local``: a lease's VMs
    suspend and resume in parallel; ``global``: one after the other), ``whole_seconds`` (each
    VM's suspend or resume and every transfer rounded up to whole seconds).

    >>> from cloudsim_py.clouds.vmtypes import VMType
    >>> cloud = CloudSpec("c", VMType("v", 1, 1024, 0, 128), 4, copy_mbps=32)
    >>> Overheads().times(cloud, image_mb=1024, memory_mb=1024)[:4]
    (8.0, 32.0, 32.0, 16.0)
    >>> Overheads(suspend="image").times(cloud, image_mb=512, memory_mb=1024)[:4]
    (4.0, 16.0, 16.0, 4.0)
    >>> t = Overheads.preset("haizea", enactment_s=0, override_suspend_s=None).times(cloud, 1024, 1024, vms=2)
    >>> t.save, t.migrate, t.shutdown, t.save_estimate
    (32.0, 82.0, 0.0, 128.0)
    """

    image: bool = attrs.field(default=True, validator=boolean)
    suspend: str = attrs.field(default="memory", validator=_choice(SUSPEND))
    migrate: str = attrs.field(default="state+image", validator=_choice(MIGRATE))
    suspend_mbps: float | None = attrs.field(default=None, validator=number(0.0, low_open=True, optional=True))
    migrate_mbps: float | None = attrs.field(default=None, validator=number(0.0, low_open=True, optional=True))
    enactment_s: float = attrs.field(default=0.0, validator=number(0.0))
    shutdown_s: float = attrs.field(default=0.0, validator=number(0.0))
    override_suspend_s: float | None = attrs.field(default=None, validator=number(0.0, optional=True))
    exclusion: str = attrs.field(default="local", validator=_choice(EXCLUSION))
    whole_seconds: bool = attrs.field(default=False, validator=boolean)

    @classmethod
    def preset(cls, name: str, **changes: Any) -> "Overheads":
        """The values of preset ``name`` (:data:`PRESETS`), with ``changes``."""
        return cls(**with_preset("preset", name, PRESETS, changes))

    def _up(self, seconds: float) -> float:
        """Haizea's rounding of an operation's time up to a whole second (``whole_seconds``)."""
        return float(math.ceil(round(seconds, 9))) if self.whole_seconds else seconds

    def times(self, cloud: CloudSpec | None, image_mb: float, memory_mb: float, vms: int = 1) -> Times:
        """The overheads of a lease or task of ``vms`` VMs with an ``image_mb`` disk image and
        ``memory_mb`` of memory per VM on ``cloud`` (``None``: a plain datacenter, no
        overheads)."""
        if cloud is None:
            return Times(0.0, 0.0, 0.0, 0.0)
        n, e = vms, self.enactment_s
        state = memory_mb if self.suspend == "memory" else image_mb
        rate = self.suspend_mbps if self.suspend_mbps is not None else cloud.copy_mbps
        op = self._up(state / rate) if state else 0.0
        op_save = op if self.override_suspend_s is None else self.override_suspend_s
        if self.exclusion == "local":          # one VM per node: the VMs in parallel
            save, reload = op_save + e * n, op + e * n
        else:                                  # one after the other
            save, reload = n * (op_save + e), n * (op + e)
        whole = n * (self._up(n * state / rate) + e)
        save_est = whole if self.override_suspend_s is None else self.override_suspend_s
        moved = state + image_mb if self.migrate == "state+image" and self.suspend == "memory" else state
        speed = self.migrate_mbps if self.migrate_mbps is not None else cloud.vm_type.bandwidth_mbps
        mig = self._up(moved / speed) if moved else 0.0
        xfer = self._up(cloud.transfer_s(image_mb)) if self.image else 0.0
        return Times(xfer, save, reload, mig, self.shutdown_s + e * n, save_est, whole)


def with_preset(key: str, name: Any, presets: Mapping[str, Mapping[str, Any]],
                changes: Mapping[str, Any]) -> dict[str, Any]:
    """The values of preset ``name`` updated with ``changes`` (an unknown preset is a
    :class:`SpecError` naming ``key`` and the known ones)."""
    if name is None:
        return dict(changes)
    if not isinstance(name, str) or name not in presets:
        raise SpecError(key, f"unknown preset {name!r}; known: {', '.join(presets)}")
    return {**presets[name], **changes}
