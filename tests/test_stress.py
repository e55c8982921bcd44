"""Stress as a test (issue 11): random small datacenters (1-16 hosts, 1-4 tiers) x random
workloads (ties, tiny and huge runtimes, estimates below and above the runtimes, jobs too big
for the machine) x every built-in policy that takes that tier count x both fidelities, with the
datacenter's invariant checker after every timestamp (``check=True``). What must hold:

- every job is finished, or rejected with a reason (a stuck run raises ``StuckJobsError``);
- FCFS starts jobs in arrival order;
- EASY starts the queue head no later than the shadow time it reserved for it (when no job
  runs past its estimate: an overrun legitimately moves the reservation), and backfilling never
  moves the head's shadow time later within a pass;
- conservative backfilling starts every job no later than any reservation it held (same
  condition).

Each case also draws how a job advances from its processes (``interference.job_progress``:
``lockstep`` or ``per_process``; the default interference model otherwise).

The default run keeps a short profile; ``-m slow`` runs the long one (200-job workloads).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from cloudsim_py import Job, simulate
from cloudsim_py.brokers.base import broker_registry
from cloudsim_py.brokers.conservative import ConservativeBroker
from cloudsim_py.brokers.easy import EasyBroker
from cloudsim_py.brokers.plan import Plan
from cloudsim_py.brokers.profile import AvailabilityProfile
from cloudsim_py.errors import JobError, ScenarioError
from cloudsim_py.scenario import load_scenario

#: the built-in policies (a test module may register broken ones on purpose)
#: every built-in policy that runs a datacenter's rigid jobs (not the cloud-system schedulers)
POLICIES = sorted(n for n, c in broker_registry.items()
                  if c.__module__.startswith("cloudsim_py.") and not getattr(c, "cloud_system", False))
MAX_TIERS = 4
#: slice length of the slice fidelity: short enough that slices cut most runs, long enough that
#: a 1e6 s job is 1,700 slices (each one checked)
SLICE_S = 600.0

# ---------------------------------------------------------------------------------------------
# Known conservative-backfilling failures of issue 11, fixed since (each has an explicit
# example below, which runs in the default profile). Set this to True to leave generated cases that could hit
# them out (`known_conservative_case`), should one of them come back.
KNOWN_CONSERVATIVE_BUGS = False


def known_conservative_case(policy: str, fidelity: str, tiers: int, jobs: list[Job]) -> str | None:
    """The name of the known failure a conservative case may hit, or None."""
    if policy != "conservative" or not KNOWN_CONSERVATIVE_BUGS:
        return None
    # the latest time the run can reach when no job overruns: every job one after the other
    horizon = max((j.submit_time for j in jobs), default=0.0) + sum(j.runtime_estimate for j in jobs)
    for j in jobs:
        if horizon + j.desc.runtime == horizon:
            # (d) a runtime that vanishes on the clock (t + runtime == t) starts the next job 1 s late
            return "runtime below the clock's resolution"
        if j.desc.runtime < j.runtime_estimate and j.desc.runtime < 1.0:
            # (a) releasing the unused booking of a job shorter than its estimate rounds past the
            # booked end (0.001 + (0.01 - 0.001) > 0.01): a bare ValueError. Integer runtimes
            # and estimates release exactly; these are the fractional ones
            return "fractional runtime below its estimate"
        if j.desc.runtime > j.runtime_estimate:
            # (b) slice fidelity on 2+ tiers skips the wake-up and leaves jobs unfinished;
            # (c) an overrunning job is polled once per simulated second (1e5 s = 1e5 events)
            return "runtime above its estimate"
    return None


# ---------------------------------------------------------------------------------------------
# probes: the policies with their reservations recorded


class ProbedEasy(EasyBroker):
    name = "easy"

    def bind(self, dc) -> None:
        super().bind(dc)
        self.reserved: dict[Job, float] = {}     # head -> earliest shadow time it was given
        self.late_passes: list = []

    def _reservation(self, need, free):
        shadow, extra = super()._reservation(need, free)
        head = self.queue.jobs[0]
        self.reserved[head] = min(self.reserved.get(head, math.inf), shadow)
        self._pending = (head, shadow)
        return shadow, extra

    def schedule(self, now):
        self._pending = None
        super().schedule(now)
        if self._pending is not None:
            head, shadow = self._pending
            if head.state.label == "queued":
                # after backfilling, the head's shadow time computed again is no later
                again, _ = super()._reservation(head.procs, self.dc.idle(0))
                if again > shadow:
                    self.late_passes.append((now, head.id, shadow, again))


class ProbedConservative(ConservativeBroker):
    name = "conservative"

    def bind(self, dc) -> None:
        super().bind(dc)
        self.reserved: dict[Job, float] = {}

    def schedule(self, now):
        super().schedule(now)
        # every reservation a job holds after a pass (the broker's own table)
        assert hasattr(self, "_res"), "conservative's reservation table moved: update this probe"
        for job, entry in self._res.items():
            self.reserved[job] = min(self.reserved.get(job, math.inf), entry[0])


def make_broker(policy: str):
    if policy == "easy":
        return ProbedEasy()
    if policy == "conservative":
        return ProbedConservative()
    return policy


# ---------------------------------------------------------------------------------------------
# strategies

def runtimes(huge: tuple[float, ...]):
    return st.one_of(st.sampled_from([1e-9, 1e-3, 0.5]), st.integers(1, 600).map(float), st.sampled_from(huge))



ESTIMATE_FACTORS = st.sampled_from([0.25, 0.5, 1.0, 1.0, 1.0, 2.0, 10.0])
GAPS = st.sampled_from([0.0, 0.0, 1.0, 5.0, 30.0, 600.0, 1e5])


@st.composite
def cases(draw, max_jobs: int, huge: tuple[float, ...] = (1e5, 1e6)):
    policy = draw(st.sampled_from(POLICIES))
    cls = broker_registry.get(policy)
    low, high = cls.min_tiers, min(MAX_TIERS, cls.max_tiers or MAX_TIERS)
    tiers = draw(st.integers(low, high))
    hosts = draw(st.integers(1, 16))
    fidelity = draw(st.sampled_from(["event", "slice"]))
    progress = draw(st.sampled_from(["lockstep", "per_process"]))
    n = draw(st.integers(0, max_jobs))
    jobs = []
    t = 0.0
    for i in range(1, n + 1):
        t += draw(GAPS)
        procs = draw(st.one_of(st.integers(1, hosts), st.just(hosts), st.just(hosts + 1)))
        runtime = draw(runtimes(huge))
        estimate = runtime * draw(ESTIMATE_FACTORS)
        cpu = draw(st.sampled_from([None, 0.3, 0.7, 1.0]))
        jobs.append(Job(i, t, procs, runtime=runtime, runtime_estimate=estimate,
                        cpu_usage=None if cpu is None else (cpu,) * procs))
    return policy, tiers, hosts, fidelity, jobs, progress


def check(policy: str, tiers: int, hosts: int, fidelity: str, jobs: list[Job], broker=None,
          progress: str = "lockstep") -> None:
    broker = broker if broker is not None else make_broker(policy)
    interference = None if progress == "lockstep" or tiers == 1 else {"job_progress": progress}
    r = simulate(jobs, hosts=hosts, tiers=tiers, policy=broker, fidelity=fidelity, slice_s=SLICE_S,
                 check=True, seed=len(jobs), interference=interference)
    s = r.summary
    # every job finished or rejected with a reason (a stuck run has raised already)
    assert s["jobs_finished"] + s["jobs_rejected"] == s["jobs_submitted"] == len(jobs)
    assert s["jobs_unfinished"] == 0
    reasons = r.world.log.reasons
    assert all(reasons.get(j.id) for j in r.rejected)
    assert {j.id for j in r.rejected} >= {j.id for j in jobs if j.procs > hosts}
    finished = sorted((j for j in jobs if j.state.label == "finished"), key=lambda j: j.order)
    overrun = any(j.desc.runtime > j.runtime_estimate for j in jobs)
    if policy == "fcfs":
        starts = [j.first_start for j in finished]
        assert starts == sorted(starts), "FCFS started a job before an earlier arrival"
    if policy == "easy":
        assert broker.late_passes == [], "a backfill moved the head's shadow time later"
        if not overrun:
            late = [(j.id, j.first_start, broker.reserved[j]) for j in finished
                    if j in broker.reserved and j.first_start > broker.reserved[j]]
            assert late == [], "EASY started a head after its reservation"
    if policy == "conservative" and not overrun:
        late = [(j.id, j.first_start, broker.reserved[j]) for j in finished
                if j in broker.reserved and j.first_start > broker.reserved[j]]
        assert late == [], "conservative started a job after a reservation it held"


def run_case(case) -> None:
    policy, tiers, hosts, fidelity, jobs, progress = case
    # known failures of issue 11, fixed since: see KNOWN_CONSERVATIVE_BUGS
    assume(known_conservative_case(policy, fidelity, tiers, jobs) is None)
    check(policy, tiers, hosts, fidelity, jobs, progress=progress)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(cases(max_jobs=20, huge=(1e5,)))
def test_stress_short(case):
    run_case(case)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much,
                                                                   HealthCheck.data_too_large])
@given(cases(max_jobs=200))
def test_stress_long(case):
    run_case(case)


# ---------------------------------------------------------------------------------------------
# the checks can fail


def test_the_easy_check_catches_a_backfill_that_delays_the_head():
    # 2 hosts: J1 (1 proc, 10 s) runs from 0; J2 (2 procs) arrives at 1 and is reserved at 10;
    # J3 (1 proc, 100 s) arrives at 2. A broker that backfills whatever fits starts J3 at 2 and
    # pushes J2 to 102
    class Greedy(ProbedEasy):
        def schedule(self, now):
            super().schedule(now)
            for job in list(self.queue.jobs[1:]):
                if job.procs <= self.dc.idle(0):
                    self.dc.start(job, 0)
                    self.queue.jobs.remove(job)
            head = self.queue.jobs[0] if self.queue.jobs else None
            if head is not None and head in self.reserved and head.procs > self.dc.idle(0):
                again, _ = EasyBroker._reservation(self, head.procs, self.dc.idle(0))
                if again > self.reserved[head]:
                    self.late_passes.append((now, head.id, self.reserved[head], again))

    jobs = [Job(1, 0.0, 1, runtime=10.0), Job(2, 1.0, 2, runtime=5.0), Job(3, 2.0, 1, runtime=100.0)]
    with pytest.raises(AssertionError, match="shadow time later"):
        check("easy", 1, 2, "event", jobs, broker=Greedy())


def test_the_probes_record_the_reservations():
    # same workload under EASY: J2 is reserved at 10 (J1's estimated end) and starts there; J3
    # would end after 10 and needs the host J2 is waiting for, so it waits
    jobs = [Job(1, 0.0, 1, runtime=10.0), Job(2, 1.0, 2, runtime=5.0), Job(3, 2.0, 1, runtime=100.0)]
    easy = ProbedEasy()
    check("easy", 1, 2, "event", jobs, broker=easy)
    assert {j.id: t for j, t in easy.reserved.items()} == {2: 10.0}
    jobs = [Job(1, 0.0, 1, runtime=10.0), Job(2, 1.0, 2, runtime=5.0), Job(3, 2.0, 1, runtime=100.0)]
    cons = ProbedConservative()
    check("conservative", 1, 2, "event", jobs, broker=cons)
    # J2 reserved at 10 (10-15), J3 after it at 15
    assert {j.id: t for j, t in cons.reserved.items()} == {2: 10.0, 3: 15.0}


# ---------------------------------------------------------------------------------------------
# the explicit cases


def test_a_job_larger_than_the_machine_is_rejected_under_every_policy():
    for policy in POLICIES:
        cls = broker_registry.get(policy)
        r = simulate([Job(1, 0.0, 3, runtime=5.0), Job(2, 0.0, 1, runtime=5.0)], hosts=2,
                     tiers=cls.min_tiers, policy=policy, check=True)
        assert (r.summary["jobs_finished"], r.summary["jobs_rejected"]) == (1, 1), policy
        assert r.world.log.reasons[1] == "needs 3 processors, the datacenter has 2"


def test_a_zero_runtime_is_an_error_naming_the_job_before_anything_runs():
    # zero runtimes cannot reach the simulation: a Job refuses them, a scenario names the key
    # (and a trace's runtime <= 0 is skipped and listed: test_outcomes.py); the generated cases
    # use 1e-9 s, a runtime that vanishes on the clock of a late arrival, instead
    with pytest.raises(JobError, match=r"job 1: runtime must be > 0, got 0.0"):
        Job(1, 0.0, 1, runtime=0.0)
    with pytest.raises(ScenarioError, match=r"workload.jobs.1.runtime: must be > 0, got 0"):
        load_scenario({"name": "zero", "datacenter": {"hosts": 1},
                       "workload": {"jobs": [{"submit": 0, "procs": 1, "runtime": 3},
                                             {"submit": 0, "procs": 1, "runtime": 0}]}})


def test_conservative_releases_the_booking_of_a_job_ending_before_its_estimate():
    r = simulate([Job(1, 0.0, 1, runtime=0.001, runtime_estimate=0.01)], hosts=1, policy="conservative")
    assert r.summary["jobs_finished"] == 1


def test_conservative_on_two_tiers_in_slice_fidelity_finishes_every_job():
    # 4 hosts, 2 tiers, slices of 1 s. J1 (3 procs, est 10) runs 0-20; J2 (4 procs, runs 0.25,
    # est 0.5) is reserved at 10 and waits for J1; J3 (4 procs, 1 s) arrives at 15 behind it.
    # J1 ends at 20, J2 runs 20-20.25, J3 must follow (issue 11's example)
    jobs = [Job(1, 0.0, 3, runtime=20.0, runtime_estimate=10.0), Job(2, 1.0, 4, runtime=0.25, runtime_estimate=0.5),
            Job(3, 15.0, 4, runtime=1.0, runtime_estimate=1.0)]
    r = simulate(jobs, hosts=4, tiers=2, policy="conservative", fidelity="slice", slice_s=1.0)
    assert r.summary["jobs_finished"] == 3


def test_conservative_does_not_delay_the_job_after_a_vanishing_runtime():
    # at t = 1e6, 1e6 + 1e-12 == 1e6: J1 starts and ends at 1e6, J2 starts at 1e6 too
    t = 1e6
    jobs = [Job(1, t, 1, runtime=1e-12, runtime_estimate=1e-12), Job(2, t, 1, runtime=1.0, runtime_estimate=1.0)]
    r = simulate(jobs, hosts=1, policy="conservative", check=True)
    assert r.records.by_id()[2]["start"] == t


def test_conservative_keeps_no_vanishing_reservation_where_its_processors_are_busy():
    """The long profile's failure (shrunk to nine jobs of its 172). No two of these jobs fit
    together on 12 processors, so they run one after the other in arrival order, each from the
    previous one's end. Job 129 runs 1,000,000 s against its 250,000 s estimate; 143's estimate,
    2.5e-10 s, vanishes on the clock (t + 2.5e-10 == t at t ~ 4e6). The replan after 129 overran
    kept 143's empty booking inside 129's run (an empty interval read as all free), the pass
    stopped at it, no pass came until 129 ended, and the compression then met gains before the
    profile's origin: ``max() arg is an empty sequence``. Now 143 waits like any job."""
    spec = [(48, 703612.0, 12, 1e5, 1e5), (51, 704812.0, 10, 1e6, 5e5), (64, 706054.0, 8, 1e6, 1e6),
            (115, 1511167.0, 8, 1e6, 1e7), (116, 1511167.0, 12, 1e5, 5e4), (124, 1513002.0, 7, 1e5, 5e4),
            (129, 1613612.0, 12, 1e6, 2.5e5), (141, 1714323.0, 12, 1e5, 2.5e4), (143, 1714353.0, 12, 1e-9, 2.5e-10)]
    jobs = [Job(i, s, p, runtime=r, runtime_estimate=e) for i, s, p, r, e in spec]
    r = simulate(jobs, hosts=12, policy="conservative", check=True)
    starts = {i: row["start"] for i, row in r.records.by_id().items()}
    assert starts == {48: 703612.0, 51: 803612.0, 64: 1803612.0, 115: 2803612.0, 116: 3803612.0,
                      124: 3903612.0, 129: 4003612.0, 141: 5003612.0, 143: 5103612.0}
    check("conservative", 3, 12, "event", [Job(i, s, p, runtime=r, runtime_estimate=e) for i, s, p, r, e in spec])


def test_pect_holds_the_processors_of_a_job_whose_estimate_vanishes():
    """The long profile's failure under Scojo-PECT (shrunk to seven jobs of its 146): job 125's
    estimate, 2.5e-10 s, vanishes on the clock at t = 4,932,112.001. Its booking in the pass's
    plan had no length, so the plan still showed its 13 processors free and offered them to
    job 146 in the same pass: the datacenter refused the start (``needs 13 slots in tier 0, 0
    available``). Now 125 holds them for its instant and 146 starts after it."""
    spec = [(70, 808032.0, 13, 1e6, 1e6), (95, 1209424.0, 13, 0.001, 0.00025), (96, 1209429.0, 13, 1e6, 2e6),
            (97, 1209430.0, 2, 1e6, 1e7), (101, 1310035.0, 13, 1e6, 2.5e5), (125, 1512549.0, 13, 1e-9, 2.5e-10),
            (146, 1913906.0, 13, 0.5, 0.125)]
    for tiers in (1, 3):
        check("pect", tiers, 13, "event", [Job(i, s, p, runtime=r, runtime_estimate=e) for i, s, p, r, e in spec])


def test_a_plan_holds_a_vanishing_booking_for_its_instant():
    t = 5e6
    plan = Plan(13, t)
    plan.take_now(13, 2.5e-10)                        # t + 2.5e-10 == t
    assert plan.free_now() == 0 and not plan.fits_now(1, 1.0)
    assert Plan(13, t).reserve(13, 2.5e-10) == t
    busy = Plan(13, t, [(13, t + 10.0)])
    assert not busy.fits_now(1, 2.5e-10)              # its instant is taken too


def test_the_profile_has_nothing_free_before_its_origin():
    profile = AvailabilityProfile(12, 100.0)
    assert profile.max_free(50.0, 60.0) == 0          # over before the origin
    assert profile.max_free(50.0, 150.0) == 12        # reaches into it


def test_conservative_does_not_poll_while_a_job_overruns():
    # job 1 runs 1e5 s past its 10 s estimate; job 2 waits for it: a handful of events, not 1e5
    jobs = [Job(1, 0.0, 1, runtime=1e5, runtime_estimate=10.0), Job(2, 1.0, 1, runtime=5.0)]
    r = simulate(jobs, hosts=1, policy="conservative")
    assert r.summary["events"] < 100


def test_conservative_compresses_to_a_fixed_point():
    # 2 processors: K(0, 1 proc, 10 s, est 10), R(0, 1, 2 s, est 20), A(1, 2, 5 s, est 5),
    # B(1, 1, 4 s, est 4). R ends at 2 instead of 20; after compression both processors are idle
    # over [10, 14), so A can start at 10 (when K ends), not 14
    jobs = [Job(1, 0.0, 1, runtime=10.0, runtime_estimate=10.0), Job(2, 0.0, 1, runtime=2.0, runtime_estimate=20.0),
            Job(3, 1.0, 2, runtime=5.0, runtime_estimate=5.0), Job(4, 1.0, 1, runtime=4.0, runtime_estimate=4.0)]
    r = simulate(jobs, hosts=2, policy="conservative")
    assert r.records.by_id()[3]["start"] == 10.0
