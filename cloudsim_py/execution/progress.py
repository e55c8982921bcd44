"""Progress models: the speed of every process from its host's tier occupancy and speed, the
speed of every job (its slowest process), and each running job's finish event
(ARCHITECTURE.md, Progress: rates, not time slices). One strategy per tier count; the datacenter
picks it. Imports nothing from infrastructure or brokers (hosts and slots are duck-typed).

Tier by tier: the CPU share left to tier t is what the busy tiers above it leave, never below
``idle_floor``; a process under a busy higher tier runs at ``eff * min(1, left / cpu)``
(Liu 2015 eq. 2, Liu 2013 section 5.1); a process with nothing busy above but something busy
below runs at ``1 - loss`` (Liu 2015 eq. 1); alone it runs at 1. Every speed is then multiplied
by the host's speed (1 for the traces' reference processor).

How a job advances from its processes' speeds (``interference.job_progress``, Liu 2013 section
5.1: "the progress of a job depends on the progress of the slowest process in the job"):
``lockstep`` (default): at every moment the job advances at its slowest process's speed, as a
tightly coupled job whose processes wait for each other; ``per_process``: every process
advances at its own speed and the job's progress is its least advanced process's, so it ends
when its last process has done its work (a process ahead of the others does not wait for them);
``barriers``: as ``per_process``, but the processes wait for each other every ``barrier_work``
seconds of work (a bulk-synchronous job: no process starts a step before every process has
finished the previous one), which is ``lockstep`` as the step shrinks and ``per_process`` once
it exceeds the job's work (:class:`~.barriers.BarrierClock`).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from operator import attrgetter
from typing import Any, Callable, Iterable

from ..workload.job import JobState
from .barriers import barrier_clock, current_clock
from .slowest import SlowestSpeed, slowest

__all__ = ["ProgressModel", "OneTierProgress", "TwoTierProgress", "KTierProgress", "SlowestSpeed",
           "slowest", "process_speed", "progress_model", "WIDE_SPEEDS"]

_EPS = 1e-9
_speed_of = attrgetter("speed")
RUNNING = JobState.RUNNING

#: a job of more than this many processes keeps its slots' speeds in a :class:`SlowestSpeed`
#: (two tiers, ``lockstep``): narrower ones take the ``min`` of their slots, cheaper there
WIDE_SPEEDS = 32


def process_speed(slots: list, tier: int, idle_floor: float) -> float:
    """Speed (work seconds per second on a speed-1 host) of the process in ``slots[tier]``:
    the general formula for any number of tiers."""
    me = slots[tier]
    left = 1.0
    above = False
    for u in range(tier):
        other = slots[u]
        if other.job is not None:
            above = True
            used = other.cpu if other.cpu < left else left
            left -= used
            if left < idle_floor:
                left = idle_floor
    if above:
        share = left / me.cpu
        return float(me.eff * (share if share < 1.0 else 1.0))
    for u in range(tier + 1, len(slots)):
        if slots[u].job is not None:
            return 1.0 - me.loss
    return 1.0


_UNSEEN = object()


def _current(run: Any, now: float) -> "SlowestSpeed | None":
    """``run``'s :class:`SlowestSpeed` if it is current (built from its present slots);
    ``now`` is not needed here: the signature is :func:`~.barriers.current_clock`'s, so that
    a refresh looks either up the same way."""
    if run is None:
        return None
    ss = run.speeds
    return ss if ss is not None and ss.of is run.slots else None


class ProgressModel(ABC):
    """Base: settle work at the old speed, take the new speed, move the finish event.

    ``finish(job)`` is called by the finish event (with ``phase``); ``idle_floor`` is the
    least CPU share a lower tier is assumed to get."""

    __slots__ = ("sim", "finish", "phase", "floor", "per_process", "barrier")

    #: a job's speed is its slowest slot's (:meth:`job_speed` as defined here): :meth:`rerate`
    #: reads it inline instead of calling the method
    slowest_slot = True
    #: :meth:`refresh` keeps each run's aggregate of its slots' speeds (``run.speeds``) as it
    #: writes them: under ``lockstep`` a wide run's :class:`SlowestSpeed`, where :meth:`rerate`
    #: reads a wide job's slowest speed; under ``barriers`` every run's
    #: :class:`~.barriers.BarrierClock`
    keeps_slowest = False

    def __init__(self, sim: Any, finish: Callable[[Any], None], phase: int, idle_floor: float,
                 per_process: bool = False, barrier: float = 0.0) -> None:
        self.sim = sim
        self.finish = finish
        self.phase = phase
        self.floor = idle_floor
        #: ``job_progress: barriers``: the work of one step between two barriers (0: none);
        #: each run's processes are kept by a :class:`~.barriers.BarrierClock`
        self.barrier = barrier
        #: ``job_progress: per_process`` (and its variants): each process keeps its own
        #: remaining work (``run.proc_remaining``)
        self.per_process = per_process

    def job_speed(self, run: Any) -> float:
        """A running job's speed from its processes' speeds (its slowest)."""
        return float(slowest(run.slots))

    def start(self, job: Any) -> None:
        """A job was placed from scratch: rate it and schedule its finish (every process
        starts with the job's remaining work)."""
        r = job.run
        r.speed = 0.0
        r.proc_remaining = r.proc_speed = r.speeds = None
        self.refresh(r.hosts)

    def settle(self, run: Any) -> None:
        """Bring ``run.remaining`` up to now at the current speed (each process's, per process
        or under barriers: the least advanced one's; there the run's clock then stands still
        until its next re-rate: a kill, a suspension or a swap follows)."""
        now = self.sim.now
        if self.barrier:
            c = run.speeds
            if c is not None:
                run.remaining = c.settle(now)
            run.settled_at = now
            return
        if self.per_process:
            self._settle_processes(run, now)
            return
        run.remaining -= run.speed * (now - run.settled_at)
        run.settled_at = now

    def _settle_processes(self, r: Any, now: float) -> list[float]:
        """Per process: bring every process's remaining work up to now at its own speed;
        ``r.remaining`` becomes the least advanced process's. O(processes)."""
        rem = r.proc_remaining
        if rem is None or len(rem) != r.size:
            rem = r.proc_remaining = [r.remaining] * r.size
            r.proc_speed = [0.0] * r.size
        else:
            dt = now - r.settled_at
            if dt != 0.0:
                for i, v in enumerate(r.proc_speed):
                    if v:
                        rem[i] -= v * dt
            r.remaining = max(rem)
        r.settled_at = now
        return rem

    @abstractmethod
    def refresh(self, hosts: Iterable[Any]) -> None:
        """Occupancy changed on ``hosts``: recompute the speed of every process there, then
        re-rate the jobs those processes belong to."""

    def rerate(self, jobs: Iterable[Any]) -> None:
        """Settle each job at its old speed, take the new one (0 while it pays a migration
        cost) and move its finish event; O(processes) per job, except for a job of more than
        :data:`WIDE_SPEEDS` processes in a model that ``keeps_slowest``: O(1) amortized there
        (its :class:`SlowestSpeed`, built in O(processes) when its slots change)."""
        sim = self.sim
        now = sim.now
        events = sim.events
        finish = self.finish
        phase = self.phase
        if self.barrier:
            self._rerate_barriers(jobs)
            return
        if self.per_process:
            self._rerate_processes(jobs)
            return
        job_speed = None if self.slowest_slot else self.job_speed
        keeps = self.keeps_slowest
        cancel = events.cancel
        push = events.push
        for job in jobs:
            if job.state is not RUNNING:
                continue
            r = job.run
            old = r.speed
            settled = r.settled_at
            if now != settled:
                r.remaining -= old * (now - settled)
                r.settled_at = now
            if r.restoring:
                new = 0.0
            elif keeps and r.size > WIDE_SPEEDS:   # kept by refresh as the slots changed
                ss = r.speeds
                if ss is None or ss.of is not r.slots:
                    ss = r.speeds = SlowestSpeed(r.slots)
                new = float(ss.min())
            elif job_speed is None:   # the slowest process's speed, as job_speed has it
                new = float(slowest(r.slots))
            else:
                new = job_speed(r)
            ev = r.finish_event
            if new == old and ev is not None:
                continue
            r.speed = new
            if ev is not None:
                cancel(ev)
                r.finish_event = None
            if new > 0.0:
                rem = r.remaining
                r.finish_event = push(now + rem / new if rem > _EPS else now, phase, finish, job)

    def _rerate_processes(self, jobs: Iterable[Any]) -> None:
        """``rerate`` per process: settle every process at its old speed, take its new one, and
        put the job's finish where its last process ends (none while a process with work left
        stands still). ``r.speed`` becomes the rate at which the least advanced process's work
        reaches 0 at that finish, so :meth:`settle`-free reads of ``remaining - speed * dt``
        stay exact at the finish. O(processes) per job."""
        sim = self.sim
        now = sim.now
        events = sim.events
        for job in jobs:
            if job.state is not RUNNING:
                continue
            r = job.run
            rem = self._settle_processes(r, now)
            speeds = r.proc_speed
            end = now
            if r.restoring:
                for i in range(len(speeds)):
                    speeds[i] = 0.0
                end = math.inf
            else:
                for i, slot in enumerate(r.slots):
                    v = speeds[i] = slot.speed
                    left = rem[i]
                    if left > _EPS:
                        t = now + left / v if v > 0.0 else math.inf
                        if t > end:
                            end = t
            if r.finish_event is not None:
                events.cancel(r.finish_event)
                r.finish_event = None
            if end == math.inf:
                r.speed = 0.0
                continue
            # end == now: every process is done (within _EPS)
            r.speed = r.remaining / (end - now) if end > now else 1.0
            r.finish_event = events.push(end, self.phase, self.finish, job)

    def _rerate_barriers(self, jobs: Iterable[Any]) -> None:
        """``rerate`` under barriers: each job's clock (made, rebuilt on new slots, or caught up
        to now) gives its finish, and the finish event moves only when that time changed.
        Between two settles ``r.remaining`` is the work the slowest process does by the finish
        (``r.speed`` being that speed), so reads of ``remaining - speed * dt`` reach 0 there;
        :meth:`settle` gives the least advanced process's true work. O(1) amortized per job
        whose clock is current and passed no barrier, O(processes) otherwise (a barrier, a new
        placement)."""
        sim = self.sim
        now = sim.now
        events = sim.events
        step = self.barrier
        for job in jobs:
            if job.state is not RUNNING:
                continue
            r = job.run
            ev = r.finish_event
            if r.restoring:       # no progress until it is restored: settle and stand still
                c = r.speeds
                if c is not None and not c.frozen:
                    r.remaining = c.settle(now)
                if ev is not None:
                    events.cancel(ev)
                    r.finish_event = None
                r.settled_at = now
                r.speed = 0.0
                continue
            c = barrier_clock(r, step, now)
            end = c.end(now)
            if ev is not None:
                if end == c.due:
                    continue
                events.cancel(ev)
                r.finish_event = None
            c.due = end
            r.settled_at = now
            if end == math.inf:
                r.speed = 0.0
                continue
            if end > now:
                r.speed = least = c.least()     # (known: end read it)
                r.remaining = least * (end - now)
            else:
                r.speed = 1.0
                r.remaining = 0.0
            r.finish_event = events.push(end, self.phase, self.finish, job)


class OneTierProgress(ProgressModel):
    """One tier: nothing slows a process down but its host; a job runs at its slowest host's
    speed (1 on identical reference hosts, where a start is one addition: ``now + work``)."""

    __slots__ = ("uniform",)
    slowest_slot = False

    def __init__(self, sim: Any, finish: Callable[[Any], None], phase: int, idle_floor: float,
                 uniform: bool = True) -> None:
        super().__init__(sim, finish, phase, idle_floor)
        self.uniform = uniform

    def job_speed(self, run: Any) -> float:
        return 1.0 if self.uniform else float(min(h.speed for h in run.hosts))

    def start(self, job: Any) -> None:
        r = job.run
        if self.uniform:
            r.speed = 1.0
            t = self.sim.now + r.work
        else:
            r.speed = s = self.job_speed(r)
            t = self.sim.now + r.work / s
        r.finish_event = self.sim.events.push(t, self.phase, self.finish, job)

    def refresh(self, hosts: Iterable[Any]) -> None:
        self.rerate({h.slots[0].job: None for h in hosts if h.slots[0].job is not None})


class TwoTierProgress(ProgressModel):
    """Two tiers: the two-tier papers' equations inlined (Liu 2015 eqs. 1-2). Fast path of
    every consolidation run; equal to :class:`KTierProgress` on two tiers
    (tests/execution/test_progress.py). Under ``lockstep`` it keeps each wide job's
    :class:`SlowestSpeed`, under ``barriers`` every job's :class:`~.barriers.BarrierClock`
    (``keeps_slowest``)."""

    __slots__ = ("keeps_slowest", "all_idle")

    def __init__(self, sim: Any, finish: Callable[[Any], None], phase: int, idle_floor: float,
                 per_process: bool = False, all_idle: bool = False, barrier: float = 0.0) -> None:
        super().__init__(sim, finish, phase, idle_floor, per_process, barrier)
        self.keeps_slowest = not self.per_process
        #: ``job_progress: per_process_all_idle``: the full-speed cases of Liu 2015 eqs. 1-2
        #: ("its fg VMs are all idle", "its bg VMs are all idle") read over the whole job
        self.all_idle = all_idle

    def refresh(self, hosts: Iterable[Any]) -> None:
        """Recompute the speed of every busy slot on ``hosts``, tell each wide job's
        :class:`SlowestSpeed` (each job's clock under barriers) of its slots whose speed
        changed (if it is current: built from the run's present slots), then :meth:`rerate`
        the jobs there. O(hosts) plus O(log d) per changed slot of a wide job (O(1) under
        barriers), plus the re-rating."""
        floor = self.floor
        keeps = self.keeps_slowest
        kept = current_clock if self.barrier else _current
        now = self.sim.now
        # job -> its current SlowestSpeed or clock, or None (narrow, not built yet, out of
        # date, or not kept): looked up once per job and refresh
        jobs: dict[Any, Any] = {}
        get = jobs.get
        for h in hosts:
            fg, bg = h.slots
            a, b = fg.job, bg.job
            hs = h.speed
            if a is not None:
                old = fg.speed
                fg.speed = new = (1.0 - fg.loss if b is not None else 1.0) * hs
                ss = get(a, _UNSEEN)
                if ss is _UNSEEN:
                    ss = jobs[a] = kept(a.run, now) if keeps else None
                if ss is not None and new != old:
                    ss.moved(fg, old, new)
            if b is not None:
                old = bg.speed
                if a is None:
                    bg.speed = new = hs
                else:
                    left = 1.0 - fg.cpu
                    if left < floor:
                        left = floor
                    share = left / bg.cpu
                    bg.speed = new = bg.eff * (share if share < 1.0 else 1.0) * hs
                ss = get(b, _UNSEEN)
                if ss is _UNSEEN:
                    ss = jobs[b] = kept(b.run, now) if keeps else None
                if ss is not None and new != old:
                    ss.moved(bg, old, new)
        if self.all_idle:
            self._job_wide(jobs)
        self.rerate(jobs)

    def _job_wide(self, jobs: Iterable[Any]) -> None:
        """``per_process_all_idle``: every slot of each job in ``jobs`` again, with eq. 1's
        and eq. 2's first case read for the job: a background process runs at the host's speed
        only while no foreground VM of its job is busy, else at ``eff * min(1, left / cpu)``
        (``eff`` under an idle foreground VM); a foreground process at ``1 - loss`` while any
        background VM of its job is busy. O(processes) per job (only under ``per_process``,
        whose re-rate costs as much)."""
        floor = self.floor
        for job in jobs:
            r = job.run
            if r is None or r.hosts is None:
                continue
            hosts, slots = r.hosts, r.slots
            if r.tier == 0:
                busy = any(h.slots[1].job is not None for h in hosts)
                for h, s in zip(hosts, slots):
                    s.speed = (1.0 - s.loss if busy else 1.0) * h.speed
            else:
                busy = any(h.slots[0].job is not None for h in hosts)
                for h, s in zip(hosts, slots):
                    if not busy:
                        s.speed = h.speed
                        continue
                    fg = h.slots[0]
                    left = 1.0 - fg.cpu if fg.job is not None else 1.0
                    if left < floor:
                        left = floor
                    share = left / s.cpu
                    s.speed = s.eff * (share if share < 1.0 else 1.0) * h.speed


class KTierProgress(ProgressModel):
    """Any number of tiers: :func:`process_speed` for every busy slot of the changed hosts."""

    __slots__ = ()

    def refresh(self, hosts: Iterable[Any]) -> None:
        """Every busy slot's speed on ``hosts`` again (under barriers, each job's clock told of
        its slots whose speed changed), then :meth:`rerate` the jobs there. O(hosts x k^2)
        plus the re-rating."""
        floor = self.floor
        barrier = self.barrier
        now = self.sim.now
        jobs: dict[Any, Any] = {}
        for h in hosts:
            slots = h.slots
            hs = h.speed
            for slot in slots:
                job = slot.job
                if job is not None:
                    new = process_speed(slots, slot.tier, floor) * hs
                    if not barrier:
                        slot.speed = new
                        jobs[job] = None
                        continue
                    old = slot.speed
                    slot.speed = new
                    c = jobs.get(job, _UNSEEN)
                    if c is _UNSEEN:
                        c = jobs[job] = current_clock(job.run, now)
                    if c is not None and new != old:
                        c.moved(slot, old, new)
        self.rerate(jobs)


def progress_model(tiers: int, uniform: bool, sim: Any, finish: Callable[[Any], None], phase: int,
                   idle_floor: float, per_process: bool = False, all_idle: bool = False,
                   barrier: float = 0.0) -> ProgressModel:
    """The strategy for ``tiers`` tiers (``uniform``: every host has speed 1; ``per_process``:
    ``job_progress: per_process`` or ``per_process_all_idle``, ``all_idle`` the latter, two
    tiers only: Liu 2015's equations; ``barrier``: ``job_progress: barriers``, its step's
    work). On one tier a process's speed is its host's for the whole run, so a job ends at its
    slowest host's pace under any reading: one tier ignores it."""
    if tiers == 1:
        return OneTierProgress(sim, finish, phase, idle_floor, uniform)
    if tiers == 2:
        return TwoTierProgress(sim, finish, phase, idle_floor, per_process, all_idle, barrier)
    if all_idle:
        raise ValueError("job_progress per_process_all_idle reads Liu 2015's two-tier equations: "
                         f"it needs 2 tiers, not {tiers}")
    return KTierProgress(sim, finish, phase, idle_floor, per_process, barrier)
