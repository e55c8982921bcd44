"""The seam between a cloud and the discipline of its waiting best-effort leases.

:class:`~cloudsim_py.clouds.local.LocalCloud` composes one queue discipline (:class:`LeaseQueue`):
the project's FCFS with EASY-style backfilling
(:class:`~cloudsim_py.clouds.backfill_queue.BackfillQueue`) or Haizea 1.0's aggressive
backfilling (:class:`~cloudsim_py.clouds.haizea_queue.AggressiveQueue`). The queue decides
which lease begins where and when; the cloud enacts it, through the steps of
:class:`QueueCloud`. The two protocols are all the two sides know of each other, so neither
discipline imports the cloud. Imports the plans and the slot table; the datacenter for typing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .lease_plan import LocalOptions, Plan
from .slottable import SlotTable

if TYPE_CHECKING:  # pragma: no cover
    from ..infrastructure.datacenter import Datacenter


class LeaseQueue(Protocol):
    """What a cloud asks of its queue discipline."""

    def schedule(self, now: float) -> None:
        """The pass: start or plan what the discipline allows now."""

    def queued(self, p: Plan) -> None:
        """``p`` joined the queue at its end."""

    def look_again(self) -> None:
        """Something other than a new lease changed: the next pass looks at every lease."""


class QueueCloud(Protocol):
    """What a queue discipline asks of its cloud: the state it reads (the slot table, the
    datacenter, the options) and the steps that enact its decisions
    (:class:`~cloudsim_py.clouds.local.LocalCloud` gives them)."""

    table: SlotTable
    dc: "Datacenter"
    options: LocalOptions
    n_vms: int
    fill_gaps: bool

    def free_now(self, now: float, only: tuple[int, ...] | None = None) -> dict[int, float]:
        """The VMs (of ``only``) free now and idle in the datacenter, each with until when."""

    def wake_at(self, t: float) -> None:
        """A pass at ``t``."""

    def start_on(self, p: Plan, vms: tuple[int, ...], how: int, now: float, cut_at: float | None) -> None:
        """Begin ``p`` now on ``vms`` (fresh, in place or moved: ``how``), cut at ``cut_at``."""

    def threshold(self, p: Plan, queued: bool) -> float | None:
        """Haizea's scheduling threshold of ``p`` (``None``: none)."""

    def run_start(self, p: Plan, how: int, start: float) -> float:
        """When ``p``'s run begins if its preparation ``how`` begins at ``start``."""

    def how(self, p: Plan, vms: tuple[int, ...]) -> int:
        """How ``p`` begins on ``vms`` under aggressive backfilling."""

    def commit(self, p: Plan, now: float, s: float, vms: tuple[int, ...], cut: float | None,
               future: bool) -> None:
        """Book ``p`` from ``s`` on ``vms`` and begin it then (Haizea's plan)."""

    def requeue(self, q: Plan, now: float) -> None:
        """``q`` waits in the queue again, ready now."""

    def unplan(self, p: Plan, now: float) -> None:
        """Drop a planned lease's plan."""
