"""The datacenter: hosts with k tier slots, the capacity index, and the only actions that change
them (start, kill, suspend, resume, swap_tiers, reject, wake_at). Each action checks capacity and
raises on a violation, so a policy bug fails loudly. Keeps every running job's progress rate up to
date (ARCHITECTURE.md, Progress). Must not import brokers or scenarios."""

from __future__ import annotations

from array import array
from itertools import islice

import numpy as np
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..engine import Event, EventKind, Simulation
from ..errors import CapacityError, PolicyError
from ..execution.interference import InterferenceModel, presets
from ..execution.progress import process_speed
from ..workload.job import Job, JobState
from .host import Host

if TYPE_CHECKING:  # pragma: no cover
    from ..brokers.base import Broker

RUNNING = JobState.RUNNING
_EPS = 1e-9
_speed_of = attrgetter("speed")


class Datacenter:
    """``hosts`` processors, each with ``tiers`` prioritized VM tier slots (tier 0 highest).

    Read-only view for brokers: :meth:`idle`, :meth:`available`, :meth:`running`,
    :attr:`hosts`, :attr:`tiers`, :attr:`now`. Actions: :meth:`start`, :meth:`kill`,
    :meth:`suspend`, :meth:`resume`, :meth:`swap_tiers`, :meth:`reject`, :meth:`wake_at`.

    ``fidelity="slice"`` redraws the interference factors of every busy slot every ``slice_s``
    seconds (the papers' time-slice model); ``"event"`` draws them once per placement.
    """

    def __init__(self, sim: Simulation, hosts: int, tiers: int = 1,
                 interference: InterferenceModel | str | None = None,
                 migration_cost: float = 20.0, fidelity: str = "event", slice_s: float = 60.0,
                 check: bool = False, factors: Any = None, record: bool = False) -> None:
        if not isinstance(hosts, int) or hosts < 1:
            raise CapacityError(f"a datacenter needs at least one host, got {hosts!r}")
        if not isinstance(tiers, int) or tiers < 1:
            raise CapacityError(f"tiers must be an integer >= 1, got {tiers!r}")
        if fidelity not in ("event", "slice"):
            raise CapacityError(f"fidelity must be 'event' or 'slice', got {fidelity!r}")
        if migration_cost < 0:
            raise CapacityError(f"migration cost must be >= 0, got {migration_cost}")
        if fidelity == "slice" and not slice_s > 0:
            raise CapacityError(f"slice length must be > 0, got {slice_s}")
        self.sim = sim
        sim.model = self
        self.tiers = tiers
        self.hosts: list[Host] = [Host.make(i, tiers) for i in range(hosts)]
        if interference is None:
            interference = "liu2015" if tiers > 1 else "none"
        if isinstance(interference, str):
            interference = presets.get(interference)
        self.interference: InterferenceModel = interference
        self.threshold = interference.threshold
        self._floor = interference.idle_floor
        #: source of the (eff, loss) factors of each placement: the model's random draws by default
        self._factors = factors if factors is not None else interference.sampler(sim.random["interference"])
        self.migration_cost = float(migration_cost)
        self.fidelity = fidelity
        self.slice_s = float(slice_s)
        self.check = check
        # capacity index: hosts whose slot in tier t is idle (insertion-ordered dict as a set),
        # and those idle slots where placement is allowed (higher tiers below the threshold)
        self._idle: list[dict[int, None]] = [dict.fromkeys(range(hosts)) for _ in range(tiers)]
        # lower tiers: idle slots where placement is allowed (the tiers above use less than
        # the threshold, by estimates); tier 0: every idle slot
        self._open: list[dict[int, None]] = [self._idle[0]] + [
            dict.fromkeys(range(hosts)) for _ in range(1, tiers)]
        # with k >= 2, numpy mirrors of the same sets and of each host's estimated load, so
        # JobDispatch ranks the available slots in C, O(H), instead of keeping a sorted index
        # (written through plain Python buffers, which are cheap to set, and read as numpy views)
        self._load_buf = array("d", bytes(8 * hosts))
        self._load = np.frombuffer(self._load_buf, dtype=np.float64)
        self._mask_buf = [bytearray(b"\x01" * hosts) for _ in range(tiers)] if tiers > 1 else []
        self._mask = [np.frombuffer(b, dtype=bool) for b in self._mask_buf]
        self._running: list[dict[Job, None]] = [{} for _ in range(tiers)]
        self._slots0 = [h.slots[0] for h in self.hosts]
        self.suspended: dict[Job, None] = {}
        self.finished: list[Job] = []
        self.rejected: list[Job] = []
        self.reject_reasons: dict[int, str] = {}
        self.submitted = 0
        self.kills = 0
        self.suspensions = 0
        self.migrations = 0
        self.swaps = 0
        self.broker: Broker | None = None
        #: with ``record=True``: every action as (time, action, job id, tier, host ids)
        self.log: list[tuple] | None = [] if record else None
        self._dirty = False
        self._slice_event: Event | None = None
        sim.on(EventKind.FINISH, self._on_finish)
        sim.on(EventKind.RESTORE, self._on_restore)
        sim.on(EventKind.TIMER, self._on_timer)
        if fidelity == "slice":
            sim.on(EventKind.SLICE, self._on_slice)
        sim.after_timestamp(self._end_of_timestamp)

    # ------------------------------------------------------------------ wiring
    def attach(self, broker: "Broker") -> "Broker":
        """Give the datacenter its policy. A broker needing more tiers fails here, not mid-run."""
        if self.broker is not None:
            raise PolicyError("this datacenter already has a broker")
        need = getattr(broker, "min_tiers", 1)
        if need > self.tiers:
            raise PolicyError(f"policy {broker.name!r} needs at least {need} tiers; "
                              f"the datacenter has {self.tiers}")
        most = getattr(broker, "max_tiers", None)
        if most is not None and self.tiers > most:
            raise PolicyError(f"policy {broker.name!r} uses at most {most} tiers; "
                              f"the datacenter has {self.tiers}")
        self.broker = broker
        broker.bind(self)
        return broker

    @property
    def now(self) -> float:
        return self.sim.now

    # ------------------------------------------------------------------ read-only view
    def idle(self, tier: int = 0) -> int:
        """Idle slots in ``tier``; O(1)."""
        return len(self._idle[tier])

    def available(self, tier: int = 0) -> int:
        """Idle slots in ``tier`` where a process may be placed (higher tiers on the host below
        the threshold, by the estimates the broker has); O(1). Equals :meth:`idle` for tier 0."""
        return len(self._open[tier])

    def idle_hosts(self, tier: int = 0) -> Iterable[int]:
        """Ids of hosts whose ``tier`` slot is idle (insertion order)."""
        return self._idle[tier].keys()

    def available_hosts(self, tier: int = 0) -> Iterable[int]:
        return self._open[tier].keys()

    def running(self, tier: int | None = None) -> Iterable[Job]:
        """Running jobs of ``tier`` (all tiers if ``None``), in start order."""
        if tier is not None:
            return self._running[tier].keys()
        return [j for r in self._running for j in r]

    def running_count(self) -> int:
        return sum(len(r) for r in self._running)

    def used(self, tier: int = 0) -> int:
        return len(self.hosts) - len(self._idle[tier])

    # ------------------------------------------------------------------ arrivals
    def submit(self, job: Job) -> None:
        """A job arrives: rejected if it can never fit, else handed to the broker."""
        job.transition(JobState.QUEUED, self.sim.now)
        self.submitted += 1
        if job.procs > len(self.hosts):
            self._reject(job, f"needs {job.procs} processors, the datacenter has {len(self.hosts)}")
            return
        self._dirty = True
        self.broker.on_submit(job)  # type: ignore[union-attr]

    # ------------------------------------------------------------------ actions
    def start(self, job: Job, tier: int = 0, hosts: Sequence[Host | int] | None = None) -> list[Host]:
        """Start a queued job from scratch in ``tier``; ``hosts[i]`` runs process i (chosen by
        the papers' JobDispatch heuristic when ``None``). Raises :class:`CapacityError` if a
        slot is busy or closed by the threshold, or too few slots are available."""
        if job.state is not JobState.QUEUED:
            job.refuse(RUNNING, self.sim.now)
        now = self.sim.now
        if self.tiers == 1 and hosts is None and tier == 0:
            # hot path of every k = 1 policy: the first idle hosts, no checks to repeat
            idle = self._idle[0]
            if job.procs > len(idle):
                raise CapacityError(f"t={now}: job {job.id} needs {job.procs} slots in tier 0, "
                                    f"{len(idle)} available")
            placed = self._occupy_one_tier(job, list(islice(idle, job.procs)))
        else:
            placed = self._place(job, tier, hosts)
        job.state = RUNNING
        if job.first_start is None:
            job.first_start = now
        job.start_time = job.settled_at = now
        job.remaining_work = job._runtime
        if self.tiers == 1:
            job.speed = 1.0
            job.finish_event = self.sim.schedule(now + job._runtime, EventKind.FINISH, job)
        else:
            job.speed = 0.0
            self._refresh(placed)
            if self.fidelity == "slice":
                self._ensure_slice()
        if self.log is not None:
            self._record("start", job)
        return placed

    def kill(self, job: Job) -> None:
        """Stop a running job and throw its work away (a failed tentative run): it goes back to
        QUEUED with all its work to do; the caller keeps it in its queue."""
        job.transition(JobState.QUEUED, self.sim.now)
        if self.log is not None:
            self._record("kill", job)
        self._settle(job)
        job.lost_work += job._runtime - max(job.remaining_work, 0.0)
        job.kills += 1
        self.kills += 1
        hosts = self._vacate(job)
        job.remaining_work = job._runtime
        job.restoring = False
        self._refresh(hosts)
        self._dirty = True

    def suspend(self, job: Job) -> None:
        """Save a running job's state and free its slots; it keeps its remaining work."""
        job.transition(JobState.SUSPENDED, self.sim.now)
        if self.log is not None:
            self._record("suspend", job)
        self._settle(job)
        job.suspensions += 1
        self.suspensions += 1
        hosts = self._vacate(job)
        job.restoring = False
        self.suspended[job] = None
        self._refresh(hosts)
        self._dirty = True

    def resume(self, job: Job, tier: int = 0, hosts: Sequence[Host | int] | None = None) -> list[Host]:
        """Restore a suspended job, anywhere; it progresses after the migration cost (counted in
        ``migrations``)."""
        if job.state is not JobState.SUSPENDED:
            job.refuse(RUNNING, self.sim.now)
        placed = self._place(job, tier, hosts)
        job.state = RUNNING
        del self.suspended[job]
        now = self.sim.now
        job.start_time = now
        job.settled_at = now
        job.speed = 0.0
        job.migrations += 1
        self.migrations += 1
        if self.migration_cost > 0:
            job.restoring = True
            self.sim.schedule(now + self.migration_cost, EventKind.RESTORE, job)
        self._refresh(placed)
        if self.tiers > 1 and self.fidelity == "slice":
            self._ensure_slice()
        if self.log is not None:
            self._record("resume", job)
        return placed

    def swap_tiers(self, job: Job, tier: int | None = None) -> None:
        """Move a running job to ``tier`` on the same hosts by swapping VM priorities: free,
        and only when those slots are idle (and, for a lower tier, open under the threshold).
        With two tiers ``tier`` defaults to the other one."""
        now = self.sim.now
        if job.state is not RUNNING:
            raise CapacityError(f"t={now}: cannot swap job {job.id}: it is {job.state.label}")
        src = job.tier
        if tier is None:
            if self.tiers != 2:
                raise CapacityError(f"t={now}: swap_tiers(job {job.id}) needs a target tier when k={self.tiers}")
            tier = 1 - src
        self._check_tier(tier)
        if tier == src:
            raise CapacityError(f"t={now}: job {job.id} already runs in tier {tier}")
        for h in job.hosts:
            if h.slots[tier].job is not None:
                raise CapacityError(f"t={now}: cannot swap job {job.id} to tier {tier}: host {h.id} "
                                    f"holds job {h.slots[tier].job.id} there")
            if tier > 0 and self.load_above(h, tier, exclude=job) >= self.threshold:
                raise CapacityError(f"t={now}: cannot swap job {job.id} to tier {tier} on host {h.id}: "
                                    f"higher tiers use >= {self.threshold:g}")
        self._settle(job)
        idle_s, idle_t = self._idle[src], self._idle[tier]
        for h in job.hosts:
            a, b = h.slots[src], h.slots[tier]
            b.job, b.process, b.cpu, b.cpu_est, b.eff, b.loss = job, a.process, a.cpu, a.cpu_est, a.eff, a.loss
            a.job, a.process = None, -1
            idle_s[h.id] = None
            del idle_t[h.id]
        self._hosts_changed(job.hosts)
        job.slots = [h.slots[tier] for h in job.hosts]
        del self._running[src][job]
        self._running[tier][job] = None
        job.tier = tier
        job.swaps += 1
        self.swaps += 1
        if self.log is not None:
            self._record("swap", job)
        self._refresh(job.hosts)
        self._dirty = True

    def reject(self, job: Job, reason: str) -> None:
        """A broker gives up on a queued job; it is reported in ``jobs_rejected``."""
        self._reject(job, reason)

    def wake_at(self, time: float, token: Any = None) -> Event:
        """Ask for ``broker.on_timer(token)`` at ``time`` (then a scheduling pass)."""
        return self.sim.schedule(time, EventKind.TIMER, token)

    def cancel_wake(self, event: Event) -> None:
        self.sim.cancel(event)

    # ------------------------------------------------------------------ placement
    def _check_tier(self, tier: int) -> None:
        if not 0 <= tier < self.tiers:
            raise CapacityError(f"t={self.sim.now}: tier {tier} does not exist (tiers 0..{self.tiers - 1})")

    def load_above(self, host: Host, tier: int, exclude: Job | None = None) -> float:
        """Estimated CPU load of the tiers above ``tier`` on ``host`` (what the threshold rule
        looks at), leaving out ``exclude``'s process."""
        load = 0.0
        for slot in host.slots[:tier]:
            if slot.job is not None and slot.job is not exclude and slot.cpu_est is not None:
                load += slot.cpu_est
        return load

    def _host_changed(self, host: Host) -> None:
        """Re-derive the host's estimated load and, tier by tier, whether its idle slots accept a
        placement (for lower tiers: the tiers above use less than the threshold); O(k)."""
        hid = host.id
        slots = host.slots
        masks = self._mask_buf
        threshold = self.threshold
        above = 0.0
        for t, slot in enumerate(slots):
            job = slot.job
            if t:
                if job is None and above < threshold:
                    self._open[t][hid] = None
                    masks[t][hid] = 1
                else:
                    self._open[t].pop(hid, None)
                    masks[t][hid] = 0
            else:
                masks[0][hid] = job is None
            if job is not None and slot.cpu_est is not None:
                above += slot.cpu_est
        host.load = above
        self._load_buf[hid] = above

    def _hosts_changed(self, hosts: Iterable[Host]) -> None:
        """:meth:`_host_changed` for many hosts, with the two-tier case unrolled and the
        lookups hoisted out of the loop (this runs for every process placed or freed)."""
        if self.tiers != 2:
            for h in hosts:
                self._host_changed(h)
            return
        mask0, mask1 = self._mask_buf
        open1 = self._open[1]
        load_buf = self._load_buf
        threshold = self.threshold
        for host in hosts:
            hid = host.id
            fg, bg = host.slots
            if fg.job is None:
                above = 0.0
                mask0[hid] = 1
            else:
                above = fg.cpu_est if fg.cpu_est is not None else 0.0
                mask0[hid] = 0
            if bg.job is None:
                if above < threshold:
                    open1[hid] = None
                    mask1[hid] = 1
                else:
                    open1.pop(hid, None)
                    mask1[hid] = 0
                load = above
            else:
                open1.pop(hid, None)
                mask1[hid] = 0
                load = above + bg.cpu_est if bg.cpu_est is not None else above
            host.load = load
            load_buf[hid] = load

    def is_available(self, host: Host | int, tier: int) -> bool:
        """Whether ``tier`` on ``host`` is idle and accepts a placement; O(1)."""
        hid = host if isinstance(host, int) else host.id
        return hid in self._open[tier]

    def choose_hosts(self, job: Job, tier: int, prefer: Sequence[Host] = ()) -> list[Host]:
        """Liu 2015 Alg. 2 ``JobDispatch`` (also Liu 2013 Alg. 2 dispatch): processes in
        descending order of (estimated) CPU usage go to available slots in ascending order of
        the estimated load of the host's other tiers (ties: lowest host id). ``prefer``:
        available hosts to take first (a job moving up keeps the hosts it can). Unknown usage:
        random slots. O(H) in numpy for k >= 2, O(n) for one tier."""
        n = job.procs
        avail = self._open[tier]
        if n > len(avail):
            raise CapacityError(f"t={self.sim.now}: job {job.id} needs {n} slots in tier {tier}, "
                                f"{len(avail)} available")
        hosts = self.hosts
        if self.tiers == 1:
            return [hosts[i] for i in islice(avail, n)]
        chosen_ids = [h.id for h in prefer if h.id in avail][:n]
        need = n - len(chosen_ids)
        if need:
            mask = self._mask[tier]
            if chosen_ids:
                mask = mask.copy()
                mask[chosen_ids] = False
            cand = np.flatnonzero(mask)          # ascending ids
            if job.cpu_estimate is None:         # no usage known: random slots
                picks = self.sim.random["placement"].choice(cand.shape[0], need, replace=False)
                chosen_ids += cand[picks].tolist()
            else:
                loads = self._load[cand]
                if need == 1:                    # the lightest host, lowest id among equals
                    chosen_ids.append(int(cand[int(np.argmin(loads))]))
                elif need < cand.shape[0]:
                    # the need lightest hosts, ties to the lowest id, without a full sort
                    v = np.partition(loads, need - 1)[need - 1]
                    below = loads < v
                    first = cand[below][np.argsort(loads[below], kind="stable")]
                    tied = cand[loads == v][:need - first.shape[0]]
                    chosen_ids += first.tolist() + tied.tolist()
                else:
                    chosen_ids += cand[np.argsort(loads, kind="stable")].tolist()
        est = job.cpu_estimate
        if est is None:
            return [hosts[i] for i in chosen_ids]
        order = sorted(range(n), key=lambda i: -est[i])
        chosen: list[Host] = [None] * n  # type: ignore[list-item]
        for rank, proc in enumerate(order):
            chosen[proc] = hosts[chosen_ids[rank]]
        return chosen

    def _place(self, job: Job, tier: int, hosts: Sequence[Host | int] | None) -> list[Host]:
        self._check_tier(tier)
        now = self.sim.now
        if hosts is None:
            placed = self.choose_hosts(job, tier)
        else:
            placed = [h if isinstance(h, Host) else self.hosts[h] for h in hosts]
            problem = None
            if len(placed) != job.procs:
                problem = f"{len(placed)} hosts given for {job.procs} processes"
            elif len({h.id for h in placed}) != len(placed):
                problem = "the same host is given twice"
            else:
                for h in placed:
                    if h.slots[tier].job is not None:
                        problem = f"host {h.id} tier {tier} holds job {h.slots[tier].job.id}"
                        break
                    if tier > 0 and h.id not in self._open[tier]:
                        problem = f"host {h.id}: higher tiers use >= {self.threshold:g} of the CPU"
                        break
            if problem is not None:
                raise CapacityError(f"t={now}: cannot place job {job.id} in tier {tier}: {problem}")
        idle = self._idle[tier]
        k = self.tiers
        if k == 1:  # no interference to model: only the slot and the index change
            return self._occupy_one_tier(job, [h.id for h in placed])
        usage = job._cpu_usage
        est = job.cpu_estimate
        factors = self._factors.draw_many(job, len(placed))
        slots = []
        for i, h in enumerate(placed):
            slot = h.slots[tier]
            slot.job = job
            slot.process = i
            slot.cpu = usage[i] if usage is not None else 1.0
            slot.cpu_est = est[i] if est is not None else None
            slot.eff, slot.loss = factors[i]
            del idle[h.id]
            slots.append(slot)
        self._hosts_changed(placed)
        job.slots = slots
        job.hosts = placed
        job.tier = tier
        self._running[tier][job] = None
        return placed

    def _occupy_one_tier(self, job: Job, ids: list[int]) -> list[Host]:
        """One tier: put process i of ``job`` on host ``ids[i]``; O(processes)."""
        idle = self._idle[0]
        slots = self._slots0
        placed = []
        for i, hid in enumerate(ids):
            del idle[hid]
            slot = slots[hid]
            slot.job = job
            slot.process = i
            placed.append(slot.host)
        job.hosts = placed
        job.tier = 0
        self._running[0][job] = None
        return placed

    def _vacate(self, job: Job) -> list[Host]:
        """Free a job's slots and cancel its finish event; returns its former hosts."""
        if job.finish_event is not None:
            self.sim.cancel(job.finish_event)
            job.finish_event = None
        tier = job.tier
        idle = self._idle[tier]
        hosts = job.hosts
        if self.tiers > 1:
            for h in hosts:
                slot = h.slots[tier]
                slot.job = None
                slot.process = -1
                idle[h.id] = None
            self._hosts_changed(hosts)
        else:
            for h in hosts:
                slot = h.slots[0]
                slot.job = None
                slot.process = -1
                idle[h.id] = None
        del self._running[tier][job]
        job.hosts = None
        job.slots = None
        job.speed = 0.0
        return hosts

    # ------------------------------------------------------------------ progress
    def _settle(self, job: Job) -> None:
        now = self.sim.now
        job.remaining_work -= job.speed * (now - job.settled_at)
        job.settled_at = now

    def _refresh(self, hosts: Iterable[Host]) -> None:
        """Occupancy changed on ``hosts``: recompute the speed of every process there, then
        re-rate the jobs those processes belong to (their other processes are unchanged)."""
        floor = self._floor
        jobs: dict[Job, None] = {}
        if self.tiers == 1:
            for h in hosts:
                if h.slots[0].job is not None:
                    jobs[h.slots[0].job] = None
            self._rerate(jobs)
            return
        if self.tiers == 2:
            # the two-tier papers' equations, inlined (Liu 2015 eqs. 1-2): this is the hot path
            for h in hosts:
                fg, bg = h.slots
                a, b = fg.job, bg.job
                if a is not None:
                    fg.speed = 1.0 - fg.loss if b is not None else 1.0
                    jobs[a] = None
                if b is not None:
                    if a is None:
                        bg.speed = 1.0
                    else:
                        left = 1.0 - fg.cpu
                        if left < floor:
                            left = floor
                        share = left / bg.cpu
                        bg.speed = bg.eff * (share if share < 1.0 else 1.0)
                    jobs[b] = None
            self._rerate(jobs)
            return
        for h in hosts:
            slots = h.slots
            for slot in slots:
                job = slot.job
                if job is not None:
                    slot.speed = process_speed(slots, slot.tier, floor)
                    jobs[job] = None
        self._rerate(jobs)

    def _rerate(self, jobs: Iterable[Job]) -> None:
        """Settle each job at its old speed, take the new one (its slowest process, or 0 while
        it pays a migration cost) and move its finish event; O(processes) per job."""
        now = self.sim.now
        sim = self.sim
        for job in jobs:
            if job.state is not RUNNING:
                continue
            old = job.speed
            if now != job.settled_at:
                job.remaining_work -= old * (now - job.settled_at)
                job.settled_at = now
            if job.restoring:
                new = 0.0
            elif job.slots is None:   # one tier: nothing slows a process down
                new = 1.0
            else:
                new = min(map(_speed_of, job.slots))
            if new == old and job.finish_event is not None:
                continue
            job.speed = new
            if job.finish_event is not None:
                sim.cancel(job.finish_event)
                job.finish_event = None
            if new > 0.0:
                rem = job.remaining_work
                t = now + rem / new if rem > _EPS else now
                job.finish_event = sim.schedule(t, EventKind.FINISH, job)

    # ------------------------------------------------------------------ event handlers
    def _on_finish(self, ev: Event) -> None:
        job: Job = ev.target
        now = self.sim.now
        job.finish_event = None
        job.remaining_work = 0.0
        job.settled_at = now
        if job.state is not RUNNING:  # pragma: no cover - a cancelled finish cannot fire
            job.refuse(JobState.FINISHED, now)
        job.state = JobState.FINISHED
        job.finish_time = now
        if self.log is not None:
            self._record("finish", job)
        hosts = self._vacate(job)
        if self.tiers > 1:
            self._refresh(hosts)
        self.finished.append(job)
        self._dirty = True
        self.broker.on_finish(job)  # type: ignore[union-attr]

    def _on_restore(self, ev: Event) -> None:
        job: Job = ev.target
        if job.state is RUNNING and job.restoring:
            job.restoring = False
            self._rerate((job,))
            self._dirty = True

    def _on_timer(self, ev: Event) -> None:
        self._dirty = True
        self.broker.on_timer(ev.target)  # type: ignore[union-attr]

    def _on_slice(self, ev: Event) -> None:
        """Slice fidelity: redraw every busy slot's factors, then re-rate every running job."""
        self._slice_event = None
        jobs = self.running()
        for job in jobs:
            for slot, (eff, loss) in zip(job.slots, self._factors.draw_many(job, job.procs)):
                slot.eff, slot.loss = eff, loss
        self._refresh({h: None for job in jobs for h in job.hosts})
        if jobs:
            self._slice_event = self.sim.schedule(self.sim.now + self.slice_s, EventKind.SLICE, None)

    def _ensure_slice(self) -> None:
        if self._slice_event is None:
            now = self.sim.now
            nxt = (int(now // self.slice_s) + 1) * self.slice_s
            self._slice_event = self.sim.schedule(nxt, EventKind.SLICE, None)

    def _end_of_timestamp(self, now: float) -> None:
        if self._dirty:
            self._dirty = False
            self.broker.schedule(now)  # type: ignore[union-attr]
        if self.check:
            self._check()

    def _record(self, action: str, job: Job) -> None:
        hosts = tuple(h.id for h in job.hosts) if job.hosts is not None else ()
        self.log.append((self.sim.now, action, job.id, job.tier, hosts))  # type: ignore[union-attr]

    def _reject(self, job: Job, reason: str) -> None:
        job.transition(JobState.REJECTED, self.sim.now)
        if self.log is not None:
            self.log.append((self.sim.now, "reject", job.id, -1, ()))
        self.rejected.append(job)
        self.reject_reasons[job.id] = reason

    # ------------------------------------------------------------------ invariants
    def _check(self) -> None:
        """Verify the capacity index and every running job; raises AssertionError."""
        for t in range(self.tiers):
            idle = {h.id for h in self.hosts if h.slots[t].job is None}
            assert idle == set(self._idle[t]), f"tier {t}: idle index out of date"
            if t > 0:
                op = {h.id for h in self.hosts if h.slots[t].job is None
                      and self.load_above(h, t) < self.threshold}
                assert op == set(self._open[t]), f"tier {t}: open index out of date"
            if self.tiers > 1:
                assert np.flatnonzero(self._mask[t]).tolist() == sorted(self._open[t]), \
                    f"tier {t}: availability mask out of date"
                assert all(self._load[h.id] == h.load for h in self.hosts), "load mirror out of date"
            for job in self._running[t]:
                assert job.state is RUNNING and job.tier == t, f"job {job.id} misfiled"
                assert len(job.hosts) == job.procs, f"job {job.id} holds {len(job.hosts)} slots"
                assert len({h.id for h in job.hosts}) == job.procs, f"job {job.id} twice on a host"
                for i, h in enumerate(job.hosts):
                    slot = h.slots[t]
                    assert slot.job is job and slot.process == i, \
                        f"job {job.id} process {i} is not in host {h.id} tier {t}"
                rem = job.remaining_work - job.speed * (self.sim.now - job.settled_at)
                assert rem >= -1e-6 * max(1.0, job._runtime), f"job {job.id} remaining {rem} < 0"
        seen = sum(1 for h in self.hosts for s in h.slots if s.job is not None)
        held = sum(j.procs for r in self._running for j in r)
        assert seen == held, f"{seen} busy slots but running jobs hold {held}"
