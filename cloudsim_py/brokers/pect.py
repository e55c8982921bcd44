"""``pect``: Scojo-PECT coarse-grain time sharing by runtime class, with conservative backfilling
per class and safe non-type slice backfilling. Reads no YAML; imports the broker base, the
per-pass planner and the reshaping helper.

Sodan 2009 (seed paper 002), sections 3.1-3.2, after Esbaugh and Sodan 2007: jobs are sorted
into runtime classes S, M, L; each interval (1 h) has one time slice per class (M 30 %, L 70 %
of it, an S slice only if S jobs wait); at a slice switch every running job is preempted (to
swap) and the jobs of the next slice resume *on the same resources* (60 s overhead per switch);
jobs of a class are scheduled FCFS with conservative backfilling; "safe non-type slice
backfilling": "preempted or waiting jobs of a different type may be backfilled into a slice -
with this backfilling only being valid until the end of the slice - if they do not delay any job
of the slice type or any of their own type jobs according to the backfilling approach applied".

Model (our reading where the paper is silent, see ``docs/moldable.md``):

- **Layers.** With ``slice_backfill: preempt`` (default) a job belongs to the layer of its own
  class; with ``finish`` to the layer of the slice in which it first started (its class, unless
  it was a non-type backfill that overran its estimate). During slice ``c`` only layer
  ``c`` runs, plus non-type backfills; layer ``c``'s jobs are suspended (``Datacenter.suspend``)
  at the slice end and resumed in place (``Datacenter.resume(job, cost=overhead)``, a context
  switch) at the start of the next ``c`` slice. Layer jobs never share a host, so resumes always
  find their hosts free.
- **Slice lengths** are decided at the start of each interval: the S slice (only if S jobs wait
  or are preempted) lasts as long as the longest of them needs (its estimate, or what is left
  plus the overhead), at most ``s_slice`` (default the S limit, 10 min); M and L share the rest
  of the interval by ``shares`` (default 30 % / 70 %). With ``skip_empty`` (default) a class
  with no job waiting or preempted at the interval start gets no slice and the others share its
  time (the slice times "can be decided at the beginning of each interval").
- **Overhead.** A resumed job progresses only ``overhead`` seconds after its resume (the
  datacenter's ``cost``): the 60 s of swapping out and in per slice switch.
- **Backfilling.** In slice ``c`` the broker plans layer ``c`` in layer time (an availability
  profile of the running jobs' estimated remaining time, :class:`~.plan.Plan`), gives every
  waiting class-``c`` job a conservative reservation in arrival order and starts those reserved
  now. Non-type candidates then follow, shortest class first, preempted jobs of a class before
  its waiting jobs: one starts (or resumes, on its own hosts, paying the overhead) if it fits now
  beside every reservation and its estimate ends by the slice end.
- **Timers.** The broker asks ``dc.wake_at`` for each slice end while it has jobs, and stops
  when it has none (the next arrival starts a new interval); it never polls.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any, Mapping, Sequence

import attrs

from ..engine import Event
from ..errors import PolicyError, SpecError
from ..validate import boolean, choice, kind, number
from ..workload.job import JobState
from ..workload.moldable import original_estimate
from ..workload.reshape import CLASS_NAMES, RuntimeClasses
from .base import Broker, register_broker
from .plan import OVERRUN_S, Plan
from .prio import classes_option
from .reshaping import Reshaper, ReshapeSpec, reshape_spec

S, M, L = 0, 1, 2
SUSPENDED = JobState.SUSPENDED
QUEUED = JobState.QUEUED


#: the readings of "safe non-type slice backfilling" (section 3.1), see :class:`PectSpec`
SLICE_BACKFILL = ("preempt", "finish")


def _shares(value: Any) -> tuple[float, float]:
    """``{M: 0.3, L: 0.7}`` -> (M, L); each in [0, 1], their sum in (0, 1]."""
    if isinstance(value, tuple) and len(value) == 2:
        value = {"M": value[0], "L": value[1]}
    if not isinstance(value, Mapping):
        raise SpecError("shares", f"expected a mapping like {{M: 0.3, L: 0.7}}, got {kind(value)}")
    out = {"M": 0.3, "L": 0.7}
    for key, share in value.items():
        if key not in ("M", "L"):
            raise SpecError(f"shares.{key}", "unknown key; known keys: M, L (the S slice lasts as "
                                             "long as its jobs need, at most s_slice)")
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not math.isfinite(share) \
                or not 0.0 <= share <= 1.0:
            raise SpecError(f"shares.{key}", f"must be a share in [0, 1], got {share!r}")
        out[key] = float(share)
    total = out["M"] + out["L"]
    if total > 1.0 + 1e-9:
        raise SpecError("shares", f"the shares sum to {100 * total:g} %, above 100 % "
                                  f"(M {100 * out['M']:g} % + L {100 * out['L']:g} %)")
    if total <= 0.0:
        raise SpecError("shares", "the shares sum to 0: M or L must get time")
    return (out["M"], out["L"])


@attrs.define(slots=True, frozen=True)
class PectSpec:
    """Parameters of ``pect``: ``interval`` (s, default 3600), ``shares`` of M and L (default
    0.3 / 0.7, sum at most 1), ``overhead`` per slice switch (s, default 60), ``s_slice`` the
    longest S slice (s, default the S limit), ``skip_empty`` (default true), ``classes`` ``{S,
    M}`` limits (s), ``reshape`` (as for ``prio``), ``record_slices`` (keep every slice in
    the broker's ``slices``), ``slice_backfill``: what a non-type slice backfill may do (section
    3.1, "with this backfilling only being valid until the end of the slice - if they do not
    delay any job of the slice type or any of their own type jobs"): ``preempt`` (default) it
    runs until the slice end, is preempted there and goes on in its own class's slices on the
    same hosts, so it must also delay no job of its own class; ``finish`` it must end (by its
    estimate) before the slice ends."""

    interval: float = attrs.field(default=3600.0, validator=number(0.0, low_open=True))
    shares: tuple[float, float] = attrs.field(default=(0.3, 0.7), converter=_shares)
    overhead: float = attrs.field(default=60.0, validator=number(0.0))
    s_slice: float | None = attrs.field(default=None, validator=number(0.0, low_open=True, optional=True))
    skip_empty: bool = attrs.field(default=True, validator=boolean)
    classes: RuntimeClasses = attrs.field(default=None, converter=classes_option)
    reshape: ReshapeSpec | None = attrs.field(default=None, converter=reshape_spec)
    record_slices: bool = attrs.field(default=False, validator=boolean)
    slice_backfill: str = attrs.field(default="preempt", validator=choice(SLICE_BACKFILL))

    def __attrs_post_init__(self) -> None:
        s = self.s_slice if self.s_slice is not None else self.classes.short
        if s >= self.interval:
            raise SpecError("s_slice" if self.s_slice is not None else "interval",
                            f"the S slice ({s:g} s) must be shorter than the interval ({self.interval:g} s)")
        shortest = min(x for x in self.shares if x > 0) * (self.interval - s)
        if self.overhead >= min(s, shortest):
            raise SpecError("overhead", f"must be shorter than every slice (the shortest can be "
                                        f"{min(s, shortest):g} s), got {self.overhead:g}")


@register_broker("pect", "Scojo-PECT: coarse-grain time slices per runtime class (M 30 %, L 70 % of "
                         "1 h, S if waiting), FCFS + conservative and non-type backfilling (Sodan 2009)")
class PectBroker(Broker):
    """Scojo-PECT on tier 0 (see the module docstring for the model). ``slices`` records
    ``(start, class name, end)`` of every slice when ``record_slices`` is true (tests, plots)."""

    params_spec = PectSpec

    def __init__(self, interval: float = 3600.0, shares: Any = (0.3, 0.7), overhead: float = 60.0,
                 s_slice: float | None = None, skip_empty: bool = True, classes: Any = None,
                 reshape: Any = None, record_slices: bool = False, slice_backfill: str = "preempt") -> None:
        self.options = o = PectSpec(interval, shares, overhead, s_slice, skip_empty, classes, reshape,
                                    record_slices, slice_backfill)
        self.carry = o.slice_backfill == "preempt"
        self.classes = o.classes
        self.s_max = o.s_slice if o.s_slice is not None else o.classes.short
        self.record_slices = record_slices
        self.slices: list[tuple[float, str, float]] = []

    def bind(self, dc: Any) -> None:
        super().bind(dc)
        self.capacity = len(dc.hosts)
        spec = self.options.reshape
        self.reshaper = Reshaper(spec, self.capacity) if spec is not None else None
        self.cls: dict[Any, int] = {}                        # runtime class of every job here
        self.waiting: list[list[Any]] = [[], [], []]         # never started, arrival order
        self.layers: list[dict[Any, None]] = [{}, {}, {}]    # started, running or preempted
        self.layer_of: dict[Any, int] = {}
        self.left: dict[Any, float] = {}                     # estimated work left (s)
        self.since: dict[Any, float] = {}                    # a running job progresses from
        self.hosts_of: dict[Any, Sequence] = {}
        self.current: int | None = None                      # class of the running slice
        self.slice_end = math.inf
        self._plan: deque[tuple[int, float]] = deque()       # (class, length) left this interval
        self._timer: Event | None = None

    # ------------------------------------------------------------------ hooks
    def on_submit(self, job: Any) -> None:
        c = int(self.classes.classify(original_estimate(job.desc)))
        self.cls[job] = c
        self.waiting[c].append(job)
        self.queue.add(job)

    def on_finish(self, job: Any) -> None:
        layer = self.layer_of.pop(job, None)
        if layer is not None:
            del self.layers[layer][job]
        self.cls.pop(job, None)
        self.left.pop(job, None)
        self.since.pop(job, None)
        self.hosts_of.pop(job, None)

    def on_timer(self, token: Any) -> None:
        self._timer = None
        self._next_slice(self.dc.now)

    # ------------------------------------------------------------------ slices
    def _has_jobs(self) -> bool:
        return any(self.waiting) or any(self.layers)

    def _preempted(self, layer: int) -> list[Any]:
        return [j for j in self.layers[layer] if j.state is SUSPENDED]

    def _begin_interval(self, now: float) -> None:
        o = self.options
        s_len = 0.0
        needs = [self.left[j] + o.overhead for j in self._preempted(S)] + \
                [j.runtime_estimate for j in self.waiting[S]]
        if needs:
            s_len = min(self.s_max, max(needs))
        rest = o.interval - s_len
        m, l = o.shares
        if o.skip_empty:
            has_m = bool(self.waiting[M] or self.layers[M])
            has_l = bool(self.waiting[L] or self.layers[L])
            if has_m and not has_l:
                m, l = m + l, 0.0
            elif has_l and not has_m:
                m, l = 0.0, m + l
        plan = self._plan
        plan.clear()
        if s_len > 0:
            plan.append((S, s_len))
        if m > 0:
            plan.append((M, m * rest))
        if l > 0:
            plan.append((L, l * rest))

    def _next_slice(self, now: float) -> None:
        """End the running slice and start the next (a new interval after the last)."""
        if not self._plan:
            if not self._has_jobs():
                self._suspend_all(now, keep=None)
                self.current = None
                self.slice_end = math.inf
                return
            self._begin_interval(now)
        c, length = self._plan.popleft()
        self._suspend_all(now, keep=c)
        self.current = c
        self.slice_end = now + length
        if self.record_slices:
            self.slices.append((now, CLASS_NAMES[c], self.slice_end))
        self._resume_layer(c, now)
        self._timer = self.dc.wake_at(self.slice_end, "slice")

    def _suspend_all(self, now: float, keep: int | None) -> None:
        """Preempt every running job but those of layer ``keep``, whose slice begins or goes on
        (a job of that layer running as a non-type backfill is not swapped out and in again)."""
        dc = self.dc
        for job in list(dc.running(0)):
            if keep is not None and self.layer_of.get(job) == keep:
                continue
            self.left[job] = max(0.0, self.left[job] - max(0.0, now - self.since[job]))
            dc.suspend(job)

    def _resume_layer(self, c: int, now: float) -> None:
        """Resume the preempted jobs of layer ``c`` in place. Jobs of one layer never share a
        host and every other job was just preempted, so their hosts are free."""
        dc = self.dc
        for job in self._preempted(c):
            if not all(dc.is_available(h, 0) for h in self.hosts_of[job]):
                raise PolicyError(f"t={now}: pect cannot resume job {job.id} of layer "
                                  f"{CLASS_NAMES[c]} in place: its hosts are busy")
            self._resume(job, now)

    def _resume(self, job: Any, now: float) -> None:
        cost = self.options.overhead
        self.dc.resume(job, cost=cost)
        self.since[job] = now + cost

    def _start(self, job: Any, size: int, now: float, layer: int, hosts: list[int] | None = None) -> None:
        self.hosts_of[job] = self.dc.start(job, 0, hosts, size=size)
        c = layer
        self.layer_of[job] = c
        self.layers[c][job] = None
        self.left[job] = job.runtime_estimate
        self.since[job] = now

    # ------------------------------------------------------------------ the pass
    def schedule(self, now: float) -> None:
        if self.current is None:
            if not self._has_jobs():
                return
            self._next_slice(now)             # a new interval
        c = self.current
        assert c is not None
        dc = self.dc
        layer_of, since, left, end = self.layer_of, self.since, self.left, self.slice_end
        # a non-type job holds its processors in this slice's layer only until the slice end
        plan = Plan(self.capacity, now, ((j.procs, since[j] + left[j] if layer_of[j] == c
                                          else min(since[j] + left[j], end)) for j in dc.running(0)))
        started = False
        rs = self.reshaper
        factors = [1.0, 1.0, 1.0]
        if rs is not None:
            free = plan.free_now()
            factors = [rs.factor(free, sum(j.desc.procs for j in self.waiting[k])) for k in range(3)]
        # FCFS of the slice's class with conservative backfilling, in layer time
        for job in self.waiting[c]:
            if plan.free_now() == 0:
                break
            size = rs.size(job, c, factors[c], plan.blocked) if rs is not None else job.procs
            duration = job.runtime_estimate if size == job.procs else job.desc.estimate(size)
            if plan.reserve(size, duration) == now:
                self._start(job, size, now, c)
                started = True
        # safe non-type slice backfilling: delays no reservation of the slice's class and, with
        # ``finish``, ends by the slice end; with ``preempt`` it runs until the slice end at most
        # and a job started so delays no reservation of its own class either
        limit = end - now
        overhead = self.options.overhead
        carry = self.carry
        for d in (S, M, L):
            if d == c or plan.free_now() == 0:
                continue
            for job in self._preempted(d):
                # a job past its estimate is taken to end OVERRUN_S from now, as in the plan
                # (with nothing left to run by its estimate it would be booked for no time at
                # all, and its processors offered to another job in the same pass)
                need = max(left[job], OVERRUN_S) + overhead
                if carry:
                    if overhead >= limit:
                        continue
                    need = min(need, limit)
                if need <= limit and job.procs <= plan.free_now() and plan.fits_now(job.procs, need) \
                        and all(dc.is_available(h, 0) for h in self.hosts_of[job]):
                    plan.take_now(job.procs, need)
                    self._resume(job, now)
            if carry:
                started |= self._carry_backfill(c, d, plan, limit, rs, factors[d], now)
                continue
            for job in self.waiting[d]:
                free = plan.free_now()
                if free == 0:
                    break
                size = rs.size(job, d, factors[d], True) if rs is not None else job.procs
                if size > free:
                    continue
                duration = job.runtime_estimate if size == job.procs else job.desc.estimate(size)
                if duration <= limit and plan.fits_now(size, duration):
                    plan.take_now(size, duration)
                    self._start(job, size, now, c)
                    started = True
        if started:
            for k in range(3):
                self.waiting[k] = [j for j in self.waiting[k] if j.state is QUEUED]
            self.queue.drop_started()

    def _carry_backfill(self, c: int, d: int, plan: Plan, limit: float, rs: Reshaper | None, factor: float,
                        now: float) -> bool:
        """Start waiting class-``d`` jobs as non-type backfills into the running class-``c``
        slice that go on in their own layer (``slice_backfill: preempt``); returns whether one
        started.

        Layer ``d`` is planned as in its own slice, in its own time: its jobs (all preempted now,
        or running here as backfills) hold their processors for their estimated work left, and
        the waiting class-``d`` jobs are reserved in arrival order. A job starts if it fits now
        both in this slice (until the slice end at most) and in layer ``d`` beside every
        reservation of the jobs before it, on free hosts that no job of layer ``d`` holds (there
        it resumes in place in its own slices); else it is reserved in layer ``d``, so that no
        later job delays it. A job that ends within the slice by its estimate never reaches its
        own slices: it is placed as with ``finish`` (in the slice's layer, on any free hosts)."""
        dc = self.dc
        layer = self.layers[d]
        own = Plan(self.capacity, now, ((j.procs, now + (self.left[j] if j.state is SUSPENDED
                                                          else self.since[j] + self.left[j] - now))
                                        for j in layer))
        held = {h.id for j in layer for h in self.hosts_of[j]}
        hosts = [h.id for h in dc.hosts if h.id not in held and dc.is_available(h, 0)]
        started = False
        for job in self.waiting[d]:
            if plan.free_now() == 0:
                break
            size = rs.size(job, d, factor, True) if rs is not None else job.procs
            duration = job.runtime_estimate if size == job.procs else job.desc.estimate(size)
            if duration <= limit:
                # it ends within the slice (by its estimate): its own class never sees it; it
                # runs in the slice's layer, as with ``finish``
                if size <= plan.free_now() and plan.fits_now(size, duration):
                    plan.take_now(size, duration)
                    self._start(job, size, now, c)
                    hosts = [h for h in hosts if dc.is_available(h, 0)]
                    started = True
                continue
            here = limit
            if size <= len(hosts) and plan.fits_now(size, here) and own.fits_now(size, duration):
                plan.take_now(size, here)
                own.take_now(size, duration)
                self._start(job, size, now, d, hosts[:size])
                del hosts[:size]
                started = True
            else:
                own.reserve(size, duration)
        return started
