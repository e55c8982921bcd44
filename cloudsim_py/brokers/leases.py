"""The scheduler of one cloud running leases (advance reservation, best-effort, immediate), Haizea's
model as Li et al. take it (seed 001, sections III-B and IV-C): a policy over the cloud's local
mapping (:class:`~cloudsim_py.clouds.local.LocalCloud`, which holds the slot table, enacts
bookings on the datacenter and keeps the local discipline: ARs reserved, preempting best-effort
leases by suspend/resume; best-effort FCFS with backfilling; immediate now or never).
tests/clouds/test_lease_scheduler.py has the worked examples.
"""

from __future__ import annotations

import abc
from typing import Any, Mapping

import attrs

from ..clouds.cloud import CloudSpec
from ..clouds.lease_plan import LocalOptions
from ..clouds.local import LocalCloud
from ..clouds.overheads import Overheads
from ..workload.job import Job
from .base import Broker, register_broker


class CloudScheduler(Broker, abc.ABC):
    """A broker of one cloud of a cloud system: it owns the cloud's local mapping (``local``),
    made when it is attached to the cloud's datacenter; :meth:`use_cloud` gives it the cloud (VM
    type, copy speed) and the system's overheads. Without a cloud (a plain datacenter) leases run
    on 1-CPU VMs with no overheads."""

    cloud_system = True
    local: LocalCloud

    def __init__(self, preemption: str = "suspend", backfill: bool | str = True, migrate: bool = True,
                 fill_gaps: bool = True, ar_vms: str = "free-first", *, options: LocalOptions | None = None) -> None:
        self.options = options if options is not None else LocalOptions(
            preemption=preemption, backfill=backfill, migrate=migrate, fill_gaps=fill_gaps, ar_vms=ar_vms)

    def bind(self, dc: Any) -> None:
        super().bind(dc)
        self.local = LocalCloud(dc, None, self.options)

    def use_cloud(self, cloud: CloudSpec, overheads: Overheads | None = None) -> LocalCloud:
        """The cloud this scheduler runs (its VM type, copy speed ``S_c``) and what moving work on
        and off its VMs costs; returns the local mapping (a fresh one: call before the run)."""
        self.local = LocalCloud(self.dc, cloud, self.options, overheads)
        return self.local

    def on_submit(self, job: Job) -> None:
        if not self.local.knows(job):        # work the policy placed itself comes with its plan
            self.local.admit(job)

    def on_finish(self, job: Job) -> None:
        self.local.finished(job)

    def schedule(self, now: float) -> None:
        self.local.schedule(now)

    def counters(self) -> Mapping[str, float]:
        return attrs.asdict(self.local.counters)


#: "not given": a ``leases`` parameter left to its preset or its default
UNSET: Any = attrs.NOTHING


@register_broker("leases", "Haizea-style lease scheduling in one cloud: AR reserved (preempting best-effort "
                           "by suspend/resume), best-effort FCFS with backfilling, immediate now or rejected")
class LeaseScheduler(CloudScheduler):
    """See the module docstring. ``preemption``: ``suspend`` (ARs preempt best-effort leases),
    ``reject`` (no preemption: an AR whose VMs are busy at its start is refused) or
    ``start-late`` (no preemption: such an AR starts when its VMs are free); ``backfill``: later
    best-effort leases may start around the first blocked one (else strict FCFS); ``migrate``: a
    suspended lease may resume on other VMs; ``fill_gaps``: a preemptible lease may start in a
    gap before a reservation and be suspended for it (suspend mode only); ``ar_vms``: which VMs
    an AR gets (``free-first`` or ``arbitrary``, :class:`~cloudsim_py.clouds.lease_plan.LocalOptions`).

    Haizea 1.0's rules (Sotomayor et al.), each off by default: ``backfill: aggressive``,
    ``threshold_factor``, ``preempt_order``, ``preempt_max_age``, ``copy_ahead``; ``preset:
    haizea`` switches them all on (its test configuration's discipline; the other keys given
    change it). Its costs are ``federation.overheads: {preset: haizea}``
    (:class:`~cloudsim_py.clouds.overheads.Overheads`). docs/federation.md, "Haizea 1.0 and this
    project", lists every rule."""

    def __init__(self, preset: str | None = None, preemption: str = UNSET, backfill: bool | str = UNSET,
                 migrate: bool = UNSET, fill_gaps: bool = UNSET, ar_vms: str = UNSET,
                 threshold_factor: float | None = UNSET, preempt_order: str = UNSET,
                 preempt_max_age: float | None = UNSET, copy_ahead: bool = UNSET) -> None:
        given = {"preemption": preemption, "backfill": backfill, "migrate": migrate, "fill_gaps": fill_gaps,
                 "ar_vms": ar_vms, "threshold_factor": threshold_factor, "preempt_order": preempt_order,
                 "preempt_max_age": preempt_max_age, "copy_ahead": copy_ahead}
        super().__init__(options=LocalOptions.preset(preset, **{k: v for k, v in given.items() if v is not UNSET}))
