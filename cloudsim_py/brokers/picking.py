"""The job-picking decision procedure, shared by the ``learned`` broker and the JobPicking
Gymnasium environment (``cloudsim_py.learning``), so that the environment *is* the simulator:
the same code turns an action into the same checked actions on the datacenter in both.

A scheduling pass (a broker's ``schedule(now)``) is a sequence of decisions at one instant.
Each decision sees the first ``k`` waiting jobs of the broker's FIFO queue (arrival order) and
picks one of ``k + 1`` actions:

* ``i < k``: job ``i`` (in queue order among the first ``k``) starts next. If it fits now it
  starts at once on tier 0 and the pass goes on (a new decision at the same instant). If it
  does not fit and ``backfill`` is on, it gets an EASY reservation (its shadow time from the
  running jobs' estimated ends, as :class:`~cloudsim_py.brokers.easy.EasyBroker` computes it),
  the other waiting jobs are backfilled around it in queue order, and the pass ends. With
  ``backfill`` off such a pick is masked.
* ``k``: start nothing more now; the pass ends. With ``backfill`` on, the other waiting jobs
  are first backfilled (EASY) around a reservation for the *oldest* waiting job (a
  reservation at ``now`` if that job fits now: it keeps its processors, the rest may be used).

The mask hides empty slots, jobs that cannot start now (unless ``backfill`` is on) and action
``k`` while nothing is running (an agent cannot idle an empty machine for ever). A new pass is
asked at every scheduling pass while jobs wait; nothing is committed between passes, which is
what makes "always the oldest job" exactly FCFS (backfill off) and EASY (backfill on).

The observation is one preallocated ``float32`` vector (:attr:`PickingPass.obs`, rewritten in
place at each decision): ``k`` rows of :data:`JOB_FEATURES` features, per visible job
``(wait so far / time_scale, procs / hosts, runtime estimate / time_scale, fits now)``, zeros
for empty slots, then per tier the idle processors / hosts, then the number of waiting jobs / k.
Only the ``k`` visible jobs are read per decision; backfilling scans the queue as EASY does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..errors import PolicySpecError
from ..workload.job import JobState
from .ends import EstimatedEnds, backfill, reservation

if TYPE_CHECKING:  # pragma: no cover
    from ..workload.job import Job
    from ..infrastructure.datacenter import Datacenter
    from .queues import FifoQueue

#: features per visible job: wait so far, processors, runtime estimate (the first and last in
#: units of ``time_scale``, processors as a fraction of the hosts), fits now (0 or 1)
JOB_FEATURES = 4
QUEUED = JobState.QUEUED


class InvalidAction(PolicySpecError):
    """An action out of ``range(k + 1)`` or masked at this decision; ``path`` names the option
    that chose it (``action`` in the environment, ``params.policy`` in the learned broker)."""


def checked_action(action: Any, active: bool, now: float, mask: np.ndarray, path: str,
                   why: "Callable[[int], str] | None" = None) -> int:
    """``action`` as an int, checked against a pass's state: a decision pending (``active``),
    an integer in ``range(len(mask))``, legal by ``mask`` (``why(a)`` says why not, if given).
    Errors are :class:`InvalidAction` naming ``path``, and change nothing."""
    if not active:
        raise InvalidAction(path, f"t={now}: no decision is pending")
    try:
        a = int(action)
    except (TypeError, ValueError):
        raise InvalidAction(path, f"t={now}: expected an integer action, got {action!r}") from None
    last = mask.shape[0] - 1
    if not 0 <= a <= last or a != action:
        raise InvalidAction(path, f"t={now}: action {action!r} out of range 0..{last}")
    if not mask[a]:
        raise InvalidAction(path, f"t={now}: action {a} is masked" + (f" ({why(a)})" if why else ""))
    return a


def observation_size(k: int, tiers: int) -> int:
    """Length of the observation vector of :class:`PickingPass` for ``k`` jobs and ``tiers``."""
    return k * JOB_FEATURES + tiers + 1


class PickingPass:
    """The decisions of one broker's scheduling passes (see the module's docstring).

    ``dc``: the datacenter; ``queue``: the broker's :class:`~cloudsim_py.brokers.queues.FifoQueue`
    (arrival order); ``ends``: an :class:`EstimatedEnds` subscribed to ``dc`` (needed when
    ``backfill``). Use: ``begin(now)`` at the broker's ``schedule(now)``; while :attr:`active`,
    read :attr:`obs` and :attr:`mask` and call ``apply(action)``. :attr:`started` counts the
    jobs the pass started (picks and backfills).

    The visible jobs are kept from one decision to the next (a list of at most ``k`` jobs and
    their static features in preallocated arrays): a pick removes one slot and brings in the
    next waiting job, arrivals fill empty slots, and only the waits and the fits-now flags are
    recomputed (a few vectorised operations over ``k``), so a decision costs O(k) whatever the
    queue's length. The queue is changed only by the pass (and appended to by arrivals); if
    something else changed it, the window is read again from the queue."""

    __slots__ = ("dc", "jobs", "queue", "ends", "k", "backfill", "time_scale", "hosts", "tiers",
                 "obs", "mask", "active", "now", "started", "_feat", "_procs", "_submit", "_vis",
                 "_free", "_machine", "_wait", "_fits", "_fitsb", "_tmp", "_stale")

    def __init__(self, dc: "Datacenter", queue: "FifoQueue", ends: EstimatedEnds | None, *, k: int = 32,
                 backfill: bool = False, time_scale: float = 3600.0) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise PolicySpecError("k", f"must be a positive integer, got {k!r}")
        if not time_scale > 0:
            raise PolicySpecError("time_scale", f"must be > 0, got {time_scale!r}")
        if backfill and ends is None:
            raise PolicySpecError("backfill", "needs the running jobs' estimated ends (EstimatedEnds)")
        self.dc = dc
        self.queue = queue
        self.jobs = queue.jobs
        self.ends = ends
        self.k = k
        self.backfill = bool(backfill)
        self.time_scale = float(time_scale)
        self.hosts = len(dc.hosts)
        self.tiers = dc.tiers
        #: the observation, rewritten in place at each decision
        self.obs = np.zeros(observation_size(k, dc.tiers), dtype=np.float32)
        #: legal actions at this decision (``k + 1`` booleans), rewritten in place
        self.mask = np.zeros(k + 1, dtype=bool)
        self._feat = feat = self.obs[:k * JOB_FEATURES].reshape(k, JOB_FEATURES)
        self._wait = feat[:, 0]
        self._fits = feat[:, 3]
        self._machine = self.obs[k * JOB_FEATURES:]
        self._procs = np.zeros(k, dtype=np.int64)
        self._submit = np.zeros(k, dtype=np.float64)
        self._tmp = np.zeros(k, dtype=np.float64)
        self._fitsb = np.zeros(k, dtype=bool)
        #: the visible jobs (the queue's first ``k`` at the last decision)
        self._vis: list[Job] = []
        self._stale = True
        self._free = 0
        #: a decision is pending
        self.active = False
        self.now = 0.0
        self.started = 0

    # ------------------------------------------------------------------ the pass
    def begin(self, now: float) -> bool:
        """Open a pass at ``now`` (the broker's ``schedule(now)``); whether a decision is asked
        (jobs are waiting)."""
        self.now = now
        self.started = 0
        self.active = bool(self.jobs)
        if self.active:
            self._sync()
            self._observe()
        return self.active

    def apply(self, action: Any, path: str = "action") -> bool:
        """Carry out ``action`` (an int in ``range(k + 1)``, legal by :attr:`mask`); returns
        whether the pass goes on (a new decision at the same instant). An illegal action is an
        :class:`InvalidAction` naming ``path``, and changes nothing."""
        a = checked_action(action, self.active, self.now, self.mask, path, self._why)
        jobs = self.jobs
        if a == self.k:
            if self.backfill:
                self._backfill_around(jobs[0])
            self.active = False
            return False
        job = jobs[a]
        if job.procs <= self._free:
            self.dc.start(job, 0)
            del jobs[a]
            self.started += 1
            if not jobs:
                self._drop(a)
                self.active = False
                return False
            self._drop(a)
            self._observe()
            return True
        self._backfill_around(job)     # backfill on (else the pick was masked)
        self.active = False
        return False

    def _why(self, a: int) -> str:
        if a == self.k:
            return "nothing is running: some waiting job must start"
        if a >= len(self._vis):
            return f"slot {a} is empty ({len(self._vis)} job(s) visible)"
        return (f"job {self._vis[a].id} needs {self._procs[a]} processors, {self._free} idle, "
                "and backfill is off")

    def _backfill_around(self, head: "Job") -> None:
        """EASY backfill of the waiting jobs other than ``head`` (queue order) around a
        reservation for ``head`` (at ``now`` if it fits now)."""
        free = self.dc.idle(0)
        if free == 0 or len(self.jobs) < 2:
            return
        now = self.now
        need = head.procs
        if need <= free:
            shadow, extra = now, free - need
        else:
            assert self.ends is not None
            shadow, extra = reservation(self.ends, need, free)
        backfilled = backfill(self.dc, (job for job in self.jobs if job is not head), now, free,
                              shadow, extra)
        if backfilled:
            self.started += backfilled
            self.queue.drop_started()
            self._compact()

    def _compact(self) -> None:
        """After a backfill: the visible jobs still waiting move up, in order (they are the
        queue's first ones again); the next pass brings the jobs behind them in."""
        vis = self._vis
        keep = [i for i, job in enumerate(vis) if job.state is QUEUED]
        n, m = len(vis), len(keep)
        if m == n:
            return
        self._feat[:m] = self._feat[keep]
        self._procs[:m] = self._procs[keep]
        self._submit[:m] = self._submit[keep]
        self._feat[m:n] = 0.0
        vis[:] = [vis[i] for i in keep]

    # ------------------------------------------------------------------ the visible window
    def _put(self, i: int, job: "Job") -> None:
        """The static features of ``job`` into slot ``i``."""
        row = self._feat[i]
        p = job.procs
        self._procs[i] = p
        self._submit[i] = job.submit_time
        row[1] = p / self.hosts
        row[2] = job.runtime_estimate / self.time_scale

    def _sync(self) -> None:
        """Bring the window up to the queue at the start of a pass: arrivals fill empty slots;
        anything else read again (O(k))."""
        vis = self._vis
        jobs = self.jobs
        n = len(vis)
        k = self.k
        if not self._stale and len(jobs) >= n and (
                n == 0 or (jobs[0] is vis[0] and jobs[n - 1] is vis[n - 1])):
            if n < k and len(jobs) > n:
                for i, job in enumerate(jobs[n:k], n):
                    vis.append(job)
                    self._put(i, job)
            return
        old = n
        vis[:] = jobs[:k]
        for i, job in enumerate(vis):
            self._put(i, job)
        n = len(vis)
        if n < old:
            self._feat[n:old] = 0.0
        self._stale = False

    def _drop(self, a: int) -> None:
        """Slot ``a``'s job started: the slots behind it move up and the next waiting job, if
        any, comes into the last one."""
        vis = self._vis
        n = len(vis)
        del vis[a]
        if a < n - 1:
            self._feat[a:n - 1] = self._feat[a + 1:n]
            self._procs[a:n - 1] = self._procs[a + 1:n]
            self._submit[a:n - 1] = self._submit[a + 1:n]
        jobs = self.jobs
        if len(jobs) >= n:           # a job beyond the window comes in
            job = jobs[n - 1]
            vis.append(job)
            self._put(n - 1, job)
        else:
            self._feat[n - 1] = 0.0

    # ------------------------------------------------------------------ observation
    def _observe(self) -> None:
        """Write :attr:`obs` and :attr:`mask` for the visible jobs: O(k), vectorised."""
        dc = self.dc
        k = self.k
        n = len(self._vis)
        free = self._free = dc.idle(0)
        tmp = self._tmp[:n]
        np.subtract(self.now, self._submit[:n], out=tmp)
        np.divide(tmp, self.time_scale, out=self._wait[:n])
        fits = self._fitsb[:n]
        np.less_equal(self._procs[:n], free, out=fits)
        self._fits[:n] = fits
        mask = self.mask
        if self.backfill:
            mask[:n] = True
        else:
            mask[:n] = fits
        mask[n:k] = False
        hosts = self.hosts
        mask[k] = free < hosts or dc.running_count() > 0
        machine = self._machine
        machine[0] = free / hosts
        for t in range(1, self.tiers):
            machine[t] = dc.idle(t) / hosts
        machine[self.tiers] = len(self.jobs) / k
        if not n or not mask.any():  # nothing can start and nothing runs: only possible with
            mask[k] = True           # foreign jobs holding tier 0; let the pass end
