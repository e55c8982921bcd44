"""The datacenter: a thin facade over its hosts, capacity index, progress model and placement
strategy, with the only actions that change them (start, kill, suspend, resume, swap_tiers,
reject, wake_at, send). Each action checks capacity and raises on a violation, so a policy bug
fails loudly; every change is told to the subscribed listeners (the broker first). Must not
import brokers or scenarios."""

from __future__ import annotations

from itertools import islice
from typing import AbstractSet, Any, Callable, Iterable, Sequence, cast

from ..engine import Event, Message, Simulation
from ..errors import CapacityError, LimitError, PolicyError, PolicyFailure
from ..execution.progress import progress_model
from ..workload.cpu import usage_values
from ..workload.job import Job, JobState
from .arrivals import ArrivalIndex
from .capacity import CapacityIndex
from .host import Host, LazyHosts, TierSlot
from .listener import HOOKS, emitted_hooks, is_declared, overridden_hooks
from .phases import MESSAGE, RELEASE, SLICE, TIMER
from .placement import FirstIdle, JobDispatch, Placement
from .recorder import Entry, ScheduleRecorder
from .runstate import RunState
from .spans import SpanHosts, SpanQueue
from .spec import MAX_SLICES, DatacenterSpec

PENDING = JobState.PENDING
QUEUED = JobState.QUEUED
RUNNING = JobState.RUNNING
SUSPENDED = JobState.SUSPENDED
_TRUSTED = (JobDispatch, FirstIdle)


def policy_failure(broker: Any, where: str, now: float, exc: Exception, shown: int = 5) -> PolicyFailure:
    """The error for an exception raised while ``broker``'s code ran (raise it ``from exc``):
    the policy, the time, the exception and the first ``shown`` jobs of its queue."""
    name = getattr(broker, "name", "") or type(broker).__name__
    head: tuple = ()
    size = "?"
    try:
        queue = broker.queue
        size = str(len(queue))
        head = tuple(islice(iter(queue), shown))
    except Exception:  # noqa: BLE001 - a broken queue must not hide the original error
        pass
    listed = ", ".join(f"job {j.id} ({j.procs} procs, estimate {j.runtime_estimate:g}, submitted "
                       f"{j.submit_time:g})" for j in head)
    more = ", ..." if size.isdigit() and int(size) > len(head) else ""
    return PolicyFailure(f"policy {name!r} failed in {where} at t={now:g}: {type(exc).__name__}: {exc}\n"
                         f"  queue ({size} jobs): {listed or '(empty)'}{more}", name, now, head)


class Datacenter:
    """Hosts with ``tiers`` prioritized VM tier slots each (tier 0 highest), in a simulation.

    ``Datacenter(sim, DatacenterSpec(hosts=64, tiers=2))`` or ``Datacenter(sim, hosts=64,
    tiers=2)`` (the keywords build the spec, which checks them). Any number of datacenters can
    share one simulation; each runs its broker's scheduling pass at the end of a timestamp in
    which something happened to it.

    Read-only queries for brokers: :meth:`idle`, :meth:`available`, :meth:`running`,
    :meth:`job_at`, :meth:`host_load`, :meth:`load_above`, :meth:`threshold_load`,
    :meth:`over_threshold`,
    :meth:`is_available`, :meth:`can_swap`, :meth:`choose_hosts`, :attr:`hosts` (ids, speeds,
    types), :attr:`tiers`,
    :attr:`now`. Actions: :meth:`start`, :meth:`kill`, :meth:`suspend`, :meth:`resume`,
    :meth:`swap_tiers`, :meth:`reject`, :meth:`wake_at`, :meth:`send`.

    ``factors``: where the interference factors of each placement come from (default: random
    draws from the model, see ``execution.interference``); ``record=True``: keep every action
    in :attr:`log` (a :class:`~cloudsim_py.infrastructure.recorder.ScheduleRecorder`).
    """

    #: a one-tier datacenter of identical hosts starts in span mode from this many hosts on
    #: (below it, where jobs are narrow, the per-host queue costs less per start and finish)
    span_mode_hosts = 2048

    def __init__(self, sim: Simulation, spec: DatacenterSpec | None = None, *, factors: Any = None,
                 record: bool = False, **options: Any) -> None:
        if spec is None:
            spec = DatacenterSpec(**options)
        elif options:
            raise TypeError(f"give either a DatacenterSpec or keywords, not both ({', '.join(options)})")
        self.spec = spec
        self.name = spec.name
        self.sim = sim
        self.tiers = tiers = spec.tiers
        groups = spec.host_groups()
        #: every host has speed 1
        self._uniform = uniform = all(g.speed == 1.0 for g in groups if g.count)
        hosts: Sequence[Host]
        span_mode = tiers == 1 and uniform and sum(g.count for g in groups) >= self.span_mode_hosts
        if span_mode:
            # span mode (below) reads no host: each is made when something asks for it
            hosts = LazyHosts(((g.count, g.speed, g.type) for g in groups), tiers)
        else:
            made: list[Host] = []
            for group in groups:
                for _ in range(group.count):
                    made.append(Host.make(len(made), tiers, group.speed, group.type))
            hosts = made
        #: the hosts (a list; in span mode a :class:`~cloudsim_py.infrastructure.host.LazyHosts`,
        #: each host made at its first read)
        self.hosts = hosts
        model = spec.interference_model()
        self.interference = model
        self.threshold = model.threshold
        #: source of the (eff, loss) factors of each placement: the model's random draws by default
        self._factors = factors if factors is not None else model.sampler(sim.random["interference"])
        self.migration_cost = float(spec.migration_cost)
        self.fidelity = spec.fidelity
        self.slice_s = float(spec.slice_s)
        #: slice ends are scheduled (two tiers or more): ``fidelity: slice`` redraws both
        #: factors, ``interference.eff_draw: slice`` only ``eff`` (docs/progress.md)
        self._slicing = tiers > 1 and (spec.fidelity == "slice" or model.eff_draw == "slice")
        self.check = spec.check
        self._index = CapacityIndex(hosts, tiers, self.threshold,
                                   foreground=spec.tier_threshold == "foreground")
        self._idle: list[Any] = self._index.idle
        self._open: list[Any] = self._index.open
        self._running: list[dict[Job, None]] = [{} for _ in range(tiers)]
        #: the running jobs of each tier in arrival order, kept from the first time a broker
        #: asks for them (:meth:`running_by_arrival`); None until then, so that policies which
        #: never ask (FCFS, EASY) pay nothing for it
        self._arrivals: list[ArrivalIndex] | None = None
        self._slots0 = [h.slots[0] for h in hosts] if isinstance(hosts, list) else []
        #: the finish action, bound once (a bound method made per start would be an allocation)
        self._done = self._job_done
        self.progress = progress_model(tiers, uniform, sim, self._done, RELEASE, model.idle_floor,
                                       model.job_progress in ("per_process", "per_process_all_idle"),
                                       all_idle=model.job_progress == "per_process_all_idle",
                                       barrier=model.barrier_work)
        self._push = sim.events.push
        self.placement: Placement = JobDispatch()
        #: k = 1, identical hosts, the default placement: start takes the first idle hosts inline
        self._fast = tiers == 1 and uniform
        #: span mode (``_fast`` datacenters of at least ``span_mode_hosts`` hosts, until something
        #: asks for per-host state): the idle hosts are this queue of spans of ids and each
        #: running job holds a :class:`~cloudsim_py.infrastructure.spans.SpanHosts`; the slots
        #: and the capacity index are not written (:meth:`_per_host` writes them, leaving the mode)
        self._spans: SpanQueue | None = None
        if span_mode:
            self._spans = SpanQueue(len(hosts))
            self._idle = self._open = [self._spans]
        self.suspended: dict[Job, None] = {}
        self._spare: list[RunState] = []     # run states of finished jobs, for the next starts
        self.submitted = 0
        self.finished = 0
        self.rejected = 0
        self.kills = 0
        self.suspensions = 0
        self.context_switches = 0
        self.migrations = 0
        self.swaps = 0
        self.broker: Any = None
        self._listeners: list[Any] = []
        self._on_submit: list[Callable[[Job], None]] = []
        self._on_start: list[Callable[[Job], None]] = []
        self._on_finish: list[Callable[[Job], None]] = []
        self._on_kill: list[Callable[[Job], None]] = []
        self._on_suspend: list[Callable[[Job], None]] = []
        self._on_resume: list[Callable[[Job], None]] = []
        self._on_swap: list[Callable[[Job], None]] = []
        self._on_reject: list[Callable[[Job, str], None]] = []
        self._emitted: dict[str, list[Callable[..., None]]] = {}   # kind -> on_<kind> of listeners
        self._dirty = False
        self._slice_event: Event | None = None
        self._slices = 0                       # slices scheduled so far (bounded by MAX_SLICES)
        self.recorder: ScheduleRecorder | None = None
        if record:
            self.recorder = ScheduleRecorder(self)
            self.subscribe(self.recorder)
        sim.after_timestamp(self._end_of_timestamp)
        sim.on_resume(self._end_of_timestamp)   # actions a program took between two runs

    # ------------------------------------------------------------------ wiring
    def attach(self, broker: Any) -> Any:
        """Give the datacenter its policy (subscribed first, asked to ``schedule`` once per
        timestamp in which something happened here). A broker needing more tiers fails here,
        not mid-run."""
        if self.broker is not None:
            raise PolicyError(f"datacenter {self.name!r} already has a broker")
        need = getattr(broker, "min_tiers", 1)
        if need > self.tiers:
            raise PolicyError(f"policy {broker.name!r} needs at least {need} tiers; "
                              f"the datacenter has {self.tiers}")
        most = getattr(broker, "max_tiers", None)
        if most is not None and self.tiers > most:
            raise PolicyError(f"policy {broker.name!r} uses at most {most} tiers; "
                              f"the datacenter has {self.tiers}")
        placement = getattr(broker, "placement", None)
        if placement is not None:
            self.placement = placement
        self._fast = self.tiers == 1 and isinstance(self.placement, _TRUSTED) and self._uniform
        if not self._fast:
            self._per_host()
        self.broker = broker
        broker.bind(self)
        self.subscribe(broker, first=True)
        return broker

    def subscribe(self, listener: Any, first: bool = False) -> Any:
        """Tell ``listener`` of every submit, start, finish, kill, suspend, resume, swap and
        reject here, through its ``on_<event>`` methods (only those it overrides are called),
        and of the declared kinds of event sent by :meth:`emit`. An ``on_`` method matching no
        known event is a :class:`~cloudsim_py.errors.PolicyError` naming it (it would never be
        called). ``first``: before the listeners already subscribed. Returns the listener."""
        if listener in self._listeners:
            raise PolicyError(f"{listener!r} already listens to datacenter {self.name!r}")
        emitted = emitted_hooks(listener)       # checked before anything is registered
        self._listeners.insert(0, listener) if first else self._listeners.append(listener)
        for name, fn in overridden_hooks(listener).items():
            hooks = self._hook_list(name)
            hooks.insert(0, fn) if first else hooks.append(fn)
        for kind, fn in emitted.items():
            hooks = self._emitted.setdefault(kind, [])
            hooks.insert(0, fn) if first else hooks.append(fn)
        return listener

    def unsubscribe(self, listener: Any) -> None:
        self._listeners.remove(listener)
        for name, fn in overridden_hooks(listener).items():
            self._hook_list(name).remove(fn)
        for kind, fn in emitted_hooks(listener).items():
            self._emitted[kind].remove(fn)

    def emit(self, kind: str, *args: Any, **kwargs: Any) -> int:
        """Tell every listener with an ``on_<kind>`` method of an event of a declared kind
        (:func:`~cloudsim_py.infrastructure.listener.declare_event`), with ``args``: the generic
        path for events the datacenter does not send itself (a host failing, a price change),
        kept apart from the built-in hooks' lists. Returns how many listeners heard it; an
        undeclared kind is an error (a typo would reach nobody)."""
        hooks = self._emitted.get(kind, ())
        if not hooks and not is_declared(kind):
            raise PolicyError(f"datacenter {self.name!r}: emit({kind!r}): no such kind of event; "
                              f"declare it first (declare_event({kind!r}))")
        for fn in tuple(hooks):
            fn(*args, **kwargs)
        return len(hooks)

    def _hook_list(self, name: str) -> list:
        assert name in HOOKS
        return getattr(self, f"_{name}")

    @property
    def listeners(self) -> tuple[Any, ...]:
        return tuple(self._listeners)

    @property
    def index(self) -> CapacityIndex:
        """The capacity index (which slots are idle and open, each host's load), current: on
        a datacenter in span mode, reading it leaves the mode (:meth:`_per_host`)."""
        if self._spans is not None:
            self._per_host()
        return self._index

    def _per_host(self) -> None:
        """Leave span mode for good: write every running job's slots and the idle hosts, in
        their queue order, into the slots and the capacity index; O(hosts), once. Called by
        whatever reads per-host state (a host's slot, the idle ids, a placement by strategy or
        by hand), so that it reads what the per-host model would hold."""
        spans = self._spans
        if spans is None:
            return
        self._spans = None
        if isinstance(self.hosts, LazyHosts):
            self.hosts = self._index.hosts = self.hosts.listed()
        self._slots0 = [h.slots[0] for h in self.hosts]
        idle = self._index.idle[0]
        idle.clear()
        idle.update(dict.fromkeys(spans))
        self._idle = self._index.idle
        self._open = self._index.open
        slots = self._slots0
        for job in self._running[0]:
            hosts = job.run.hosts   # type: ignore[union-attr]
            for i, h in enumerate(hosts or ()):
                slot = slots[h.id]
                slot.job = job
                slot.process = i

    @property
    def now(self) -> float:
        return self.sim.now

    @property
    def log(self) -> list[Entry] | None:
        """Every action as ``(time, action, job id, tier, host ids)`` with ``record=True``."""
        return self.recorder.log if self.recorder is not None else None

    def request_pass(self) -> None:
        """Ask for a scheduling pass at the end of this timestamp (e.g. from a listener of
        another datacenter that learnt something its broker should act on)."""
        self._dirty = True

    # ------------------------------------------------------------------ read-only queries
    def idle(self, tier: int = 0) -> int:
        """Idle slots in ``tier``; O(1)."""
        return len(self._idle[tier])

    def available(self, tier: int = 0) -> int:
        """Idle slots in ``tier`` where a process may be placed (higher tiers on the host below
        the threshold, by the estimates the broker has); O(1). Equals :meth:`idle` for tier 0."""
        return len(self._open[tier])

    def idle_hosts(self, tier: int = 0) -> AbstractSet[int]:
        """Ids of hosts whose ``tier`` slot is idle (insertion order; a live view: O(1) to
        ask whether a host is in it)."""
        if self._spans is not None:
            self._per_host()
        return self._idle[tier].keys()

    def available_hosts(self, tier: int = 0) -> Iterable[int]:
        if self._spans is not None:
            self._per_host()
        return self._open[tier].keys()

    def running(self, tier: int | None = None) -> Iterable[Job]:
        """Running jobs of ``tier`` (all tiers if ``None``), in start order."""
        if tier is not None:
            return self._running[tier].keys()
        return [j for r in self._running for j in r]

    def running_by_arrival(self, tier: int) -> list[Job]:
        """Running jobs of ``tier`` in arrival order (``job.order``), kept as they start, move
        and end: O(1) to read (O(running) once, at the first call of a run). The list is the
        datacenter's own and changes with its next action: read it, copy it to keep it."""
        if self._arrivals is None:
            self._arrivals = [ArrivalIndex(r) for r in self._running]
        return self._arrivals[tier].jobs

    def arrived_after(self, tier: int, job: Job) -> int:
        """Position in :meth:`running_by_arrival` (``tier``) of the first job that arrived after
        ``job``; O(log running)."""
        if self._arrivals is None:
            self._arrivals = [ArrivalIndex(r) for r in self._running]
        return self._arrivals[tier].after(job.order)

    def running_count(self) -> int:
        return sum(len(r) for r in self._running)

    def used(self, tier: int = 0) -> int:
        return len(self.hosts) - len(self._idle[tier])

    def job_at(self, host: Host | int, tier: int) -> Job | None:
        """The job whose process holds ``tier`` on ``host``, or ``None``; O(1)."""
        if self._spans is not None:
            self._per_host()
        h = self.hosts[host] if isinstance(host, int) else host
        return h.slots[tier].job

    def hosts_of(self, job: Job) -> Sequence[Host]:
        """The hosts of a running job, ``hosts_of(job)[i]`` running process i (a list, or in
        span mode a :class:`~cloudsim_py.infrastructure.spans.SpanHosts` listed at first read)."""
        r = job.run
        if r is None or r.hosts is None:
            raise CapacityError(f"t={self.sim.now}: job {job.id} is {job.state.label}, not running")
        return r.hosts

    def host_load(self, host: Host | int) -> float:
        """Estimated CPU load of the host's busy slots (unknown usage counts 0), as the capacity
        index keeps it; O(1)."""
        return self._index.load_buf[host if isinstance(host, int) else host.id]

    def hosts_loaded(self, hosts: Iterable[Host], level: float) -> list[Host]:
        """The hosts among ``hosts`` whose estimated CPU load is at least ``level`` (one call
        for a whole placement, where :meth:`host_load` per host would cost a call each);
        O(hosts)."""
        load = self._index.load_buf
        return [h for h in hosts if load[h.id] >= level]

    def over_threshold(self, hosts: Iterable[Host], tier: int) -> dict[Job, None]:
        """The jobs of the tiers below ``tier`` on ``hosts`` whose host's :meth:`threshold_load`
        for their tier is at least the threshold (the processes the threshold rule evicts after
        a placement in ``tier``), each once, in the order of ``hosts``, then of the tiers. One
        call for a whole placement (a policy asking :meth:`host_load`, :meth:`job_at` and
        :meth:`threshold_load` per host paid three calls a host): only hosts whose load reaches
        the threshold are looked at (the tiers above any slot use at most the host's load);
        O(hosts) plus O(k) per such host."""
        if self._spans is not None:
            self._per_host()
        victims: dict[Job, None] = {}
        threshold = self.threshold
        load = self._index.load_buf
        threshold_load = self._index.threshold_load
        lower = range(tier + 1, self.tiers)
        for h in hosts:
            if load[h.id] >= threshold:
                for low in lower:
                    other = h.slots[low].job
                    if other is not None and threshold_load(h, low) >= threshold:
                        victims[other] = None
        return victims

    def load_above(self, host: Host | int, tier: int, exclude: Job | None = None) -> float:
        """Estimated CPU load of the tiers above ``tier`` on ``host`` (what the threshold rule
        looks at), leaving out ``exclude``'s process; O(tier)."""
        if self._spans is not None:
            self._per_host()
        h = self.hosts[host] if isinstance(host, int) else host
        return self._index.load_above(h, tier, exclude)

    def threshold_load(self, host: Host | int, tier: int, exclude: Job | None = None) -> float:
        """The estimated load the threshold rule reads for ``tier`` on ``host``: tier 0's alone
        (``datacenter.tier_threshold: foreground``, the default) or every tier above
        (``stacked``); leaving out ``exclude``'s process; O(tier)."""
        if self._spans is not None:
            self._per_host()
        h = self.hosts[host] if isinstance(host, int) else host
        return self._index.threshold_load(h, tier, exclude)

    def is_available(self, host: Host | int, tier: int) -> bool:
        """Whether ``tier`` on ``host`` is idle and accepts a placement; O(1)."""
        if self._spans is not None:
            self._per_host()
        hid = host if isinstance(host, int) else host.id
        return hid in self._open[tier]

    def can_swap(self, job: Job, tier: int) -> bool:
        """Whether :meth:`swap_tiers` (``job``, ``tier``) would succeed now."""
        return self._swap_problem(job, tier) is None

    def choose_hosts(self, job: Job, tier: int, prefer: Sequence[Host] = ()) -> list[Host]:
        """Hosts for ``job`` in ``tier`` by the placement strategy (the broker's, default
        :class:`~cloudsim_py.infrastructure.placement.JobDispatch`)."""
        if self._spans is not None:
            self._per_host()
        return self.placement.choose(self, job, tier, prefer)

    def speed_of(self, job: Job) -> float:
        """A running job's current speed (work seconds per second; 0 while it pays a
        migration cost)."""
        return job.run.speed if job.run is not None and job.state is RUNNING else 0.0

    def remaining_work(self, job: Job) -> float:
        """Work (seconds on dedicated reference processors) a started job has left now."""
        r = job.run
        if r is None:
            return job.desc.work(job.procs)
        if job.state is RUNNING:
            return r.remaining - r.speed * (self.sim.now - r.settled_at)
        return r.remaining

    # ------------------------------------------------------------------ arrivals
    def submit(self, job: Job) -> None:
        """A job arrives: rejected if it can never fit, else told to the listeners (the broker
        queues it)."""
        if job.state is not PENDING:
            job.refuse(QUEUED, self.sim.now)
        job.state = QUEUED
        self.submitted += 1
        if job.procs > len(self.hosts) and job.desc.min_procs > len(self.hosts):
            self._reject(job, f"needs {job.desc.min_procs} processors, the datacenter has "
                              f"{len(self.hosts)}")
            return
        self._dirty = True
        for fn in self._on_submit:
            fn(job)

    # ------------------------------------------------------------------ actions
    def start(self, job: Job, tier: int = 0, hosts: Sequence[Host | int] | None = None,
              size: int | None = None) -> Sequence[Host]:
        """Start a queued job from scratch in ``tier`` on ``size`` processors (default: the
        size it asks for; a moldable description gives its work at that size); ``hosts[i]``
        runs process i (chosen by the placement strategy when ``None``). Raises
        :class:`CapacityError` if a slot is busy or closed by the threshold, or too few slots
        are available. Returns the hosts (a list, or in span mode a
        :class:`~cloudsim_py.infrastructure.spans.SpanHosts`).

        Cost: in span mode (k = 1, identical hosts, the default placement, nothing has asked
        for per-host state) O(spans taken) from the idle queue, independent of the width (one
        span in the usual case); otherwise O(processes) plus the placement's choice and, with
        k >= 2, the progress model's re-rating of the jobs on the hosts taken."""
        now = self.sim.now
        if job.state is not QUEUED:
            job.refuse(RUNNING, now)
        if size is not None and size != job.procs:
            self._resize(job, size)
        r = job.run
        if r is None:
            # a run state finished jobs gave back, or a new one (no allocation per start)
            r = job.run = self._spare.pop() if self._spare else RunState()
        r.size = n = job.procs
        desc = job.desc
        # the description's runtime is its work at the size it asks for (the protocol says so)
        r.work = work = desc.runtime if n == desc.procs else desc.work(n)
        if self._fast and hosts is None and tier == 0:
            # Fast path of every k = 1 policy on identical hosts: the first idle hosts, as
            # FirstIdle/JobDispatch choose them, and the finish at now + work, as
            # OneTierProgress.start has it (tests/infrastructure/test_fast_paths.py).
            idle = self._idle[0]
            if n > len(idle):
                raise CapacityError(f"t={now}: job {job.id} needs {n} slots in tier 0, "
                                    f"{len(idle)} available")
            spans = self._spans
            placed: Sequence[Host]
            if spans is not None:
                placed = r.hosts = SpanHosts(self.hosts, *spans.take(n))
                job.tier = r.tier = 0
                self._running[0][job] = None
                if self._arrivals is not None:
                    self._arrivals[0].add(job)
            else:
                placed = self._occupy_one_tier(job, list(islice(idle, n)))
            self._running_from(job, r, now, work)
            r.speed = 1.0
            r.finish_event = self._push(now + work, RELEASE, self._done, job)
        elif self._fast and tier == 0 and self._spans is None:
            # Hosts given on one tier of identical hosts (a cloud's local mapping starts a lease
            # on the VMs it booked): checked and taken as _place does with them, the finish as
            # OneTierProgress.start has it (tests/clouds/test_dag_fast_paths.py)
            r.usage = usage_values(desc.usage(n))
            idle = self._idle[0]
            assert hosts is not None
            ids: list[int]
            plain = len(hosts) == n
            if plain:                   # every one an idle id (a loop: no generator's frame)
                for h in hosts:
                    if type(h) is not int or h not in idle:
                        plain = False
                        break
            if plain and (n == 1 or len(set(hosts)) == n):
                ids = cast("list[int]", list(hosts))    # distinct idle ids: what the check passes
            else:
                given = [h if isinstance(h, Host) else self.hosts[h] for h in hosts]
                self._check_hosts(job, 0, given)
                ids = [h.id for h in given]
            placed = self._occupy_one_tier(job, ids)
            self._running_from(job, r, now, work)
            r.restoring = False
            r.speed = 1.0
            r.finish_event = self._push(now + work, RELEASE, self._done, job)
        else:
            r.usage = usage_values(job.desc.usage(n))
            placed = self._place(job, tier, hosts)
            self._running_from(job, r, now, work)
            r.restoring = False
            self.progress.start(job)
            if self._slicing:
                self._ensure_slice()
        for fn in self._on_start:
            fn(job)
        return placed

    @staticmethod
    def _running_from(job: Job, r: RunState, now: float, work: float) -> None:
        """What every way of starting a job records: it runs from now with all its work ahead."""
        job.state = RUNNING
        if job.first_start is None:
            job.first_start = now
        job.start_time = r.settled_at = now
        r.remaining = work

    def _resize(self, job: Job, size: int) -> None:
        """Give a queued job another size before it starts (a moldable job's size is chosen
        then); what the broker sees follows the description at that size."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise CapacityError(f"t={self.sim.now}: job {job.id}: size must be a positive integer, "
                                f"got {size!r}")
        if size > len(self.hosts):
            raise CapacityError(f"t={self.sim.now}: job {job.id}: size {size} exceeds the "
                                f"datacenter's {len(self.hosts)} processors")
        desc = job.desc
        desc.work(size)       # a rigid description refuses another size here
        job.procs = size
        job.runtime_estimate = desc.estimate(size)
        job.cpu_estimate = desc.usage_estimate(size)

    def kill(self, job: Job) -> None:
        """Stop a running job and throw its work away (a failed tentative run): it goes back to
        QUEUED with all its work to do; the caller keeps it in its queue. Cost: that of
        :meth:`_vacate` (O(spans) in span mode, else O(processes)), and with k >= 2 the
        re-rating of the jobs left on its hosts."""
        job.transition(QUEUED, self.sim.now)
        r = job.run
        assert r is not None
        self.progress.settle(r)
        job.lost_work += r.work - max(r.remaining, 0.0)
        job.kills += 1
        self.kills += 1
        hosts = self._vacate(job)
        r.remaining = r.work
        r.restoring = False
        if self.tiers > 1:
            self.progress.refresh(hosts)
        self._dirty = True
        for fn in self._on_kill:
            fn(job)

    def suspend(self, job: Job) -> None:
        """Save a running job's state and free its slots; it keeps its remaining work and
        remembers where it ran (:meth:`resume` can put it back there). Cost: that of
        :meth:`_vacate`, and with k >= 2 the re-rating of the jobs left on its hosts (a resume
        leaves span mode: it places by host)."""
        job.transition(SUSPENDED, self.sim.now)
        r = job.run
        assert r is not None
        self.progress.settle(r)
        job.suspensions += 1
        self.suspensions += 1
        hosts = self._vacate(job)
        r.restoring = False
        self.suspended[job] = None
        if self.tiers > 1:
            self.progress.refresh(hosts)
        self._dirty = True
        for fn in self._on_suspend:
            fn(job)

    def resume(self, job: Job, tier: int | None = None, hosts: Sequence[Host | int] | None = None,
               *, migrate: bool = False, cost: float | None = None) -> list[Host]:
        """Run a suspended job again.

        With no ``hosts`` it resumes *in place*: the hosts and (default) tier it was suspended
        on, which must be available; a context switch, free. On other ``hosts`` or another
        tier it *migrates*: it progresses only after ``migration_cost`` seconds and counts a
        migration. ``migrate=True`` restores the saved state as a migration even where the
        placement strategy picks the same hosts (Liu 2013's preemption: a preempted job's state
        is saved and restored, wherever it resumes). ``cost``: seconds before it progresses,
        instead of the default (the migration cost, or 0 in place)."""
        now = self.sim.now
        if job.state is not SUSPENDED:
            job.refuse(RUNNING, now)
        r = job.run
        assert r is not None and r.last_hosts is not None
        if tier is None:
            tier = r.last_tier
        last = r.last_hosts
        if hosts is None and not migrate:
            hosts = last
        placed = self._place(job, tier, hosts)
        moved = migrate or tier != r.last_tier or any(a is not b for a, b in zip(placed, last))
        job.state = RUNNING
        del self.suspended[job]
        job.start_time = now
        r.settled_at = now
        r.speed = 0.0
        if moved:
            job.migrations += 1
            self.migrations += 1
        else:
            job.context_switches += 1
            self.context_switches += 1
        delay = (self.migration_cost if moved else 0.0) if cost is None else float(cost)
        if delay < 0:
            raise CapacityError(f"t={now}: job {job.id}: resume cost must be >= 0, got {delay}")
        if delay > 0:
            r.restoring = True
            self.sim.events.push(now + delay, RELEASE, self._restored, job)
        self.progress.refresh(placed)
        if self._slicing:
            self._ensure_slice()
        for fn in self._on_resume:
            fn(job)
        return placed

    def _swap_problem(self, job: Job, tier: int) -> str | None:
        if job.state is not RUNNING:
            return f"it is {job.state.label}"
        if not 0 <= tier < self.tiers:
            return f"tier {tier} does not exist (tiers 0..{self.tiers - 1})"
        if tier == job.tier:
            return f"it already runs in tier {tier}"
        load_above = self._index.threshold_load
        for h in job.hosts or ():
            other = h.slots[tier].job
            if other is not None:
                return f"host {h.id} holds job {other.id} there"
            if tier > 0 and load_above(h, tier, job) >= self.threshold:
                return f"on host {h.id} higher tiers use >= {self.threshold:g}"
        return None

    def swap_tiers(self, job: Job, tier: int | None = None) -> None:
        """Move a running job to ``tier`` on the same hosts by swapping VM priorities: free,
        and only when those slots are idle (and, for a lower tier, open under the threshold).
        With two tiers ``tier`` defaults to the other one."""
        now = self.sim.now
        if tier is None:
            if self.tiers != 2:
                raise CapacityError(f"t={now}: swap_tiers(job {job.id}) needs a target tier when k={self.tiers}")
            tier = 1 - job.tier
        problem = self._swap_problem(job, tier)
        if problem is not None:
            raise CapacityError(f"t={now}: cannot swap job {job.id} to tier {tier}: {problem}")
        r = job.run
        assert r is not None and r.hosts is not None
        self.progress.settle(r)
        src = job.tier
        idle_s, idle_t = self._idle[src], self._idle[tier]
        for h in r.hosts:
            a, b = h.slots[src], h.slots[tier]
            b.job, b.process, b.cpu, b.cpu_est, b.eff, b.loss = job, a.process, a.cpu, a.cpu_est, a.eff, a.loss
            a.job, a.process = None, -1
            idle_s[h.id] = None
            del idle_t[h.id]
        self._index.hosts_changed(r.hosts)
        r.slots = [h.slots[tier] for h in r.hosts]
        del self._running[src][job]
        self._running[tier][job] = None
        if self._arrivals is not None:
            self._arrivals[src].remove(job)
            self._arrivals[tier].add(job)
        job.tier = r.tier = tier
        job.swaps += 1
        self.swaps += 1
        self.progress.refresh(r.hosts)
        self._dirty = True
        for fn in self._on_swap:
            fn(job)

    def reject(self, job: Job, reason: str) -> None:
        """A broker gives up on a queued job; it is reported in ``jobs_rejected``."""
        self._reject(job, reason)

    def wake_at(self, time: float, token: Any = None) -> Event:
        """Ask for ``broker.on_timer(token)`` at ``time`` (then a scheduling pass)."""
        return self.sim.schedule(time, self._timer_fired, token, TIMER)

    def cancel_wake(self, event: Event) -> None:
        self.sim.cancel(event)

    def schedule_action(self, time: float, action: Callable[[Any], Any], arg: Any = None,
                        phase: int = TIMER) -> Event:
        """Run a broker-side ``action(arg)`` at ``time`` in ``phase`` (one of
        :mod:`~cloudsim_py.infrastructure.phases`: ``PREEMPT`` for capacity freed on purpose,
        ``TIMER`` for capacity taken), then a scheduling pass. An exception is reported as a
        failure of the policy, like one in its hooks. Cancel with :meth:`cancel_wake`."""
        return self.sim.schedule(time, self._action_fired, (action, arg), phase)

    def _action_fired(self, call: tuple[Callable[[Any], Any], Any]) -> None:
        self._dirty = True
        action, arg = call
        try:
            action(arg)
        except LimitError:
            raise
        except Exception as exc:
            raise policy_failure(self.broker, getattr(action, "__qualname__", "an action"), self.sim.now,
                                 exc) from exc

    def send(self, dest: Any, payload: Any, delay: float | None = None) -> Event:
        """Send ``payload`` to another entity (a datacenter or a broker): its ``receive`` gets a
        :class:`~cloudsim_py.engine.Message` after ``delay`` (default: the simulation's
        latency)."""
        return self.sim.send(dest, payload, delay, sender=self, phase=MESSAGE)

    def receive(self, message: Message) -> None:
        """A message for this datacenter: its broker's ``on_message``, then a scheduling pass."""
        self._dirty = True
        handler = getattr(self.broker, "on_message", None)
        if handler is None:
            raise PolicyError(f"t={self.sim.now}: datacenter {self.name!r} got a message but its "
                              f"broker {self.broker!r} has no on_message")
        handler(message)

    # ------------------------------------------------------------------ placement
    def _check_tier(self, tier: int) -> None:
        if not 0 <= tier < self.tiers:
            raise CapacityError(f"t={self.sim.now}: tier {tier} does not exist (tiers 0..{self.tiers - 1})")

    def _place(self, job: Job, tier: int, hosts: Sequence[Host | int] | None) -> list[Host]:
        """Put ``job``'s processes in ``tier`` on ``hosts`` (chosen by the placement strategy
        when ``None``): the slots, their interference factors, the capacity index; O(processes)
        plus the placement strategy's choice (the index's update:
        :meth:`CapacityIndex.slots_changed`).
        Leaves span mode (:meth:`_per_host`)."""
        if self._spans is not None:
            self._per_host()
        if not 0 <= tier < self.tiers:
            self._check_tier(tier)
        if hosts is None:
            placed = self.placement.choose(self, job, tier)
            if not isinstance(self.placement, _TRUSTED):
                self._check_hosts(job, tier, placed)
        else:
            placed = [h if isinstance(h, Host) else self.hosts[h] for h in hosts]
            self._check_hosts(job, tier, placed)
        if self.tiers == 1:  # no interference to model: only the slot and the index change
            return self._occupy_one_tier(job, [h.id for h in placed])
        r = job.run
        assert r is not None
        idle = self._idle[tier]
        usage = r.usage
        est = usage_values(job.cpu_estimate)
        factors = self._factors.draw_many(job, len(placed))
        slots: list[TierSlot] = []
        add = slots.append
        i = 0
        for h, (eff, loss) in zip(placed, factors):
            slot = h.slots[tier]
            add(slot)
            slot.job = job
            slot.process = i
            slot.cpu = usage[i] if usage is not None else 1.0
            slot.cpu_est = est[i] if est is not None else None
            slot.eff = eff
            slot.loss = loss
            del idle[h.id]
            i += 1
        self._index.slots_changed(placed, tier, True, est)
        r.slots = slots
        r.hosts = placed
        job.tier = r.tier = tier
        self._running[tier][job] = None
        if self._arrivals is not None:
            self._arrivals[tier].add(job)
        return placed

    def _check_hosts(self, job: Job, tier: int, placed: list[Host]) -> None:
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
            raise CapacityError(f"t={self.sim.now}: cannot place job {job.id} in tier {tier}: {problem}")

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
        r = job.run
        r.hosts = placed   # type: ignore[union-attr]
        job.tier = r.tier = 0   # type: ignore[union-attr]
        self._running[0][job] = None
        if self._arrivals is not None:
            self._arrivals[0].add(job)
        return placed

    def _vacate(self, job: Job) -> Sequence[Host]:
        """Free a job's slots and cancel its finish event; returns its former hosts (also kept
        as the run's ``last_hosts``). O(spans) in span mode (its spans back at the end of the
        idle queue), else O(processes) and with k >= 2 the index's update of its hosts."""
        r: RunState = job.run  # type: ignore[assignment]
        if r.finish_event is not None:
            self.sim.events.cancel(r.finish_event)
            r.finish_event = None
        tier = r.tier
        idle = self._idle[tier]
        hosts = r.hosts
        assert hosts is not None
        spans = self._spans
        if spans is not None:
            spans.put(hosts.spans, hosts.ends)   # type: ignore[attr-defined]
        else:
            for h in hosts:
                slot = h.slots[tier]
                slot.job = None
                slot.process = -1
                idle[h.id] = None
        if self.tiers > 1:
            self._index.slots_changed(hosts, tier, False)
        del self._running[tier][job]
        if self._arrivals is not None:
            self._arrivals[tier].remove(job)
        r.last_hosts = hosts
        r.last_tier = tier
        r.hosts = None
        r.slots = None
        r.speed = 0.0
        return hosts

    # ------------------------------------------------------------------ event actions
    def _job_done(self, job: Job) -> None:
        """A job's finish event: it ends and frees its slots (:meth:`_vacate`: O(spans) in
        span mode, whatever its width; else O(processes) and with k >= 2 the re-rating of the
        jobs sharing its hosts), then the listeners hear of it."""
        now = self.sim.now
        r: RunState = job.run  # type: ignore[assignment]
        r.finish_event = None
        r.remaining = 0.0
        r.settled_at = now
        if job.state is not RUNNING:  # pragma: no cover - a cancelled finish cannot fire
            job.refuse(JobState.FINISHED, now)
        job.state = JobState.FINISHED
        job.finish_time = now
        job.work = r.work
        hosts = self._vacate(job)
        if self.tiers > 1:
            self.progress.refresh(hosts)
        self.finished += 1
        self._dirty = True
        for fn in self._on_finish:
            fn(job)
        job.run = None   # a finished job holds no run state; the next start reuses this one
        self._spare.append(r)

    def _restored(self, job: Job) -> None:
        r = job.run
        if job.state is RUNNING and r is not None and r.restoring:
            r.restoring = False
            self.progress.rerate((job,))
            self._dirty = True

    def _timer_fired(self, token: Any) -> None:
        self._dirty = True
        try:
            self.broker.on_timer(token)
        except LimitError:
            raise
        except Exception as exc:
            raise policy_failure(self.broker, "on_timer()", self.sim.now, exc) from exc

    def _slice_ended(self, _: Any) -> None:
        """Slice end: redraw every busy slot's factors (``fidelity: slice``) or only its ``eff``
        (``interference.eff_draw: slice``, Liu 2015 section 4.1: eff is the share of a time
        slice that counts), then re-rate every running job."""
        self._slice_event = None
        jobs = self.running()
        both = self.fidelity == "slice"
        for job in jobs:
            r = job.run
            assert r is not None and r.slots is not None
            for slot, (eff, loss) in zip(r.slots, self._factors.draw_many(job, job.procs)):
                slot.eff = eff
                if both:
                    slot.loss = loss
        self.progress.refresh({h: None for job in jobs for h in (job.run.hosts or ())})  # type: ignore[union-attr]
        if jobs:
            self._next_slice(self.sim.now + self.slice_s)

    def _ensure_slice(self) -> None:
        if self._slice_event is None:
            self._next_slice((int(self.sim.now // self.slice_s) + 1) * self.slice_s)

    def _next_slice(self, at: float) -> None:
        """Schedule the next slice end; a run of more than :data:`MAX_SLICES` slices, or a slice
        too short to move the clock at this time, is an error naming ``slice_s`` (not a run that
        never ends)."""
        now = self.sim.now
        self._slices += 1
        if at <= now or self._slices > MAX_SLICES:
            why = (f"the clock cannot move by it at t = {now:g} s" if at <= now
                   else f"this run needs more than {MAX_SLICES:,} slices (MAX_SLICES) by t = {now:g} s")
            raise LimitError("slice_s", f"{self.slice_s:g} s is too short: {why}; give a longer slice_s")
        self._slice_event = self.sim.schedule(at, self._slice_ended, None, SLICE)

    def _end_of_timestamp(self, now: float) -> None:
        if self._dirty:
            self._dirty = False
            if self.broker is not None:
                try:
                    self.broker.schedule(now)
                except LimitError:
                    raise
                except Exception as exc:
                    raise policy_failure(self.broker, "schedule()", now, exc) from exc
        if self.check:
            self._check()

    def _reject(self, job: Job, reason: str) -> None:
        job.transition(JobState.REJECTED, self.sim.now)
        self.rejected += 1
        for fn in self._on_reject:
            fn(job, reason)

    # ------------------------------------------------------------------ invariants
    def _check(self) -> None:
        """Verify the capacity index (in span mode: the idle spans) and every running job;
        raises AssertionError."""
        if self._spans is not None:
            self._check_spans()
        else:
            self._index.check()
        now = self.sim.now
        for t in range(self.tiers if self._spans is None else 0):
            for job in self._running[t]:
                r = job.run
                assert r is not None and r.hosts is not None
                assert job.state is RUNNING and job.tier == t == r.tier, f"job {job.id} misfiled"
                assert len(r.hosts) == job.procs == r.size, f"job {job.id} holds {len(r.hosts)} slots"
                assert len({h.id for h in r.hosts}) == job.procs, f"job {job.id} twice on a host"
                for i, h in enumerate(r.hosts):
                    slot = h.slots[t]
                    assert slot.job is job and slot.process == i, \
                        f"job {job.id} process {i} is not in host {h.id} tier {t}"
                rem = r.remaining - r.speed * (now - r.settled_at)
                assert rem >= -1e-6 * max(1.0, r.work), f"job {job.id} remaining {rem} < 0"
        if self._arrivals is not None:
            for t, index in enumerate(self._arrivals):
                assert index.jobs == sorted(self._running[t], key=lambda j: j.order) and \
                    index.keys == [j.order for j in index.jobs], f"tier {t}: arrival index out of date"
        if self._spans is None:
            seen = sum(1 for h in self.hosts for s in h.slots if s.job is not None)
            held = sum(j.procs for r in self._running for j in r)
            assert seen == held, f"{seen} busy slots but running jobs hold {held}"
        for job in self.suspended:
            assert job.state is SUSPENDED and job.run is not None and job.run.hosts is None, \
                f"job {job.id} misfiled as suspended"

    def _check_spans(self) -> None:
        """Span mode: the idle spans and the running jobs' spans cover every host once, each
        job holds its size, the idle count is right; O(S log S) for S spans."""
        q = self._spans
        assert q is not None
        every = list(q.spans)
        assert q.count == sum(b - a for a, b in every), "idle count out of date"
        now = self.sim.now
        for job in self._running[0]:
            r = job.run
            assert r is not None and isinstance(r.hosts, SpanHosts), f"job {job.id} holds no spans"
            assert job.state is RUNNING and job.tier == 0 == r.tier, f"job {job.id} misfiled"
            held = sum(b - a for a, b in r.hosts.spans)
            assert held == r.hosts.size == job.procs == r.size, f"job {job.id} holds {held} slots"
            every += r.hosts.spans
            rem = r.remaining - r.speed * (now - r.settled_at)
            assert rem >= -1e-6 * max(1.0, r.work), f"job {job.id} remaining {rem} < 0"
        every.sort()
        at = 0
        for a, b in every:
            assert a == at and b > a, f"hosts {at}..{a} covered twice or not at all"
            at = b
        assert at == len(self.hosts), f"hosts {at}.. neither idle nor running"

    def __repr__(self) -> str:
        return f"<Datacenter {self.name!r}: {len(self.hosts)} hosts x {self.tiers} tiers>"
