"""``prio`` (Prio10): space sharing with priorities by runtime class, aging, and conservative
backfilling; with ``priorities: false`` the paper's plain FCFS with conservative backfilling.
Reads no YAML; imports the broker base, the per-pass planner and the reshaping helper.

Sodan 2009 (seed paper 002), section 3.1: "Priorities are based on runtime classes, and classes
with shorter runtime receive higher priority. To avoid starvation, the implementation which is
used here ages jobs to the next higher priority level if their wait time exceeds 10 times their
runtime"; section 3.2: "The backfilling approach applied is for all schedulers conservative
backfilling." Runtimes are exact estimates in the paper; the broker uses the estimates.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from ..engine import Event
from ..validate import boolean, number
from ..workload.moldable import original_estimate
from ..workload.reshape import RuntimeClasses, runtime_classes
from .base import Broker, register_broker
from .ends import EstimatedEnds
from .plan import Plan
from .reshaping import Reshaper, ReshapeSpec, reshape_spec


def classes_option(value: Any) -> RuntimeClasses:
    """A broker's ``classes`` parameter: ``{S: 600, M: 10800}`` (errors name ``classes.M``)."""
    if isinstance(value, RuntimeClasses):
        return value
    return runtime_classes(value, where="classes")


@attrs.define(slots=True, frozen=True)
class PrioSpec:
    """Parameters of ``prio``. ``aging``: a waiting job moves up one level each time it has
    waited this many times its runtime estimate (``0`` or ``null``: never); ``priorities``:
    order by level (else arrival order only: FCFS with conservative backfilling); ``classes``:
    runtime-class limits ``{S, M}`` (s) on the original estimate; ``reshape``: reshaping of
    moldable jobs at start (``LoadA``, ``LoadA_noB``, ``AllA``, ``AllA_noB`` or a mapping)."""

    aging: float | None = attrs.field(default=10.0, validator=number(0.0, optional=True))
    priorities: bool = attrs.field(default=True, validator=boolean)
    classes: RuntimeClasses = attrs.field(default=None, converter=classes_option)
    reshape: ReshapeSpec | None = attrs.field(default=None, converter=reshape_spec)


@register_broker("prio", "Prio10: priorities by runtime class (shorter first), aging after 10 x "
                         "the runtime, conservative backfilling (Sodan 2009)")
class PrioBroker(Broker):
    """Space sharing on tier 0; at every pass the waiting jobs are ordered by (level, arrival)
    and planned by conservative backfilling (:class:`~.plan.Plan`); those reserved now start.

    A job's level is its runtime class index (S 0, M 1, L 2) by its original runtime estimate,
    minus one for each full ``aging x estimate`` it has waited (never below 0). The broker asks
    to be woken (``dc.wake_at``) at the next moment a waiting job moves up a level, since
    re-planning then can start it; it never polls.
    """

    params_spec = PrioSpec

    def __init__(self, aging: float | None = 10.0, priorities: bool = True, classes: Any = None,
                 reshape: Any = None) -> None:
        self.options = PrioSpec(aging, priorities, classes, reshape)
        self.classes = self.options.classes
        self.aging = self.options.aging or 0.0

    def bind(self, dc: Any) -> None:
        super().bind(dc)
        self.ends = dc.subscribe(EstimatedEnds())
        self.capacity = len(dc.hosts)
        spec = self.options.reshape
        self.reshaper = Reshaper(spec, self.capacity) if spec is not None else None
        self._class: dict[Any, int] = {}
        self._timer: Event | None = None
        self._timer_at = math.inf

    def on_submit(self, job: Any) -> None:
        self.queue.add(job)
        self._class[job] = int(self.classes.classify(original_estimate(job.desc)))

    def level(self, job: Any, now: float) -> int:
        """Priority level now (0 highest)."""
        k = self._class[job]
        if k and self.aging > 0 and self.options.priorities:
            k = max(0, k - self._aged(job, now))
        return k

    def _aged(self, job: Any, now: float) -> int:
        """Levels gained by waiting (a relative 1e-9 lets the wake-up time itself count)."""
        return int((now - job.submit_time) / (self.aging * job.runtime_estimate) + 1e-9)

    def schedule(self, now: float) -> None:
        queue = self.queue
        if not queue:
            return
        jobs = list(queue.jobs)
        if self.options.priorities:
            jobs.sort(key=lambda j: (self.level(j, now), j.order))
        plan = Plan(self.capacity, now, ((j.procs, end) for j, end in self.ends.jobs()))
        factors = self._factors(jobs, plan.free_now()) if self.reshaper is not None else None
        dc = self.dc
        started = False
        for job in jobs:
            if plan.free_now() == 0:
                break                      # nobody else can start now: the rest need not be planned
            size = job.procs
            if factors is not None:
                cls = self._class[job]
                size = self.reshaper.size(job, cls, factors[cls], plan.blocked)  # type: ignore[union-attr]
            duration = job.runtime_estimate if size == job.procs else job.desc.estimate(size)
            if plan.reserve(size, duration) == now:
                dc.start(job, 0, size=size)
                del self._class[job]
                started = True
        if started:
            queue.drop_started()
        self._wake_for_aging(now)

    def _factors(self, jobs: list, free: int) -> list[float]:
        """F_dyn per class from the free processors and the class's waiting needs."""
        needs = [0, 0, 0]
        for j in jobs:
            needs[self._class[j]] += j.desc.procs
        return [self.reshaper.factor(free, n) for n in needs]  # type: ignore[union-attr]

    # ------------------------------------------------------------------ aging wake-ups
    def on_timer(self, token: Any) -> None:
        self._timer = None
        self._timer_at = math.inf

    def _wake_for_aging(self, now: float) -> None:
        """Ask to be woken when the next waiting job moves up a level (if before any wake-up
        already asked for)."""
        if self.aging <= 0 or not self.options.priorities:
            return
        nxt = math.inf
        for job in self.queue.jobs:
            k = self._class[job]
            if not k:
                continue
            aged = self._aged(job, now)
            if aged >= k:
                continue
            t = job.submit_time + (aged + 1) * self.aging * job.runtime_estimate
            if t < nxt:
                nxt = t
        if nxt == math.inf or nxt >= self._timer_at:
            return
        if self._timer is not None:
            self.dc.cancel_wake(self._timer)
        self._timer = self.dc.wake_at(nxt, "aging")
        self._timer_at = nxt
