"""Random workloads under every policy, with the datacenter checking its invariants after
every timestamp; the availability profile against a plain per-second array; conservative
backfilling's lazy compression against a full compression."""

from hypothesis import example, given, settings, strategies as st

from cloudsim_py import Job, broker_registry, simulate
from cloudsim_py.brokers.conservative import ConservativeBroker
from cloudsim_py.brokers.profile import INF, AvailabilityProfile

job_specs = st.lists(
    st.tuples(st.integers(0, 50), st.integers(1, 6), st.integers(1, 40), st.integers(0, 30)),
    min_size=1, max_size=25)


def make_jobs(specs):
    specs = sorted(specs, key=lambda s: s[0])
    return [Job(i, float(sub), procs, runtime=float(rt), runtime_estimate=float(rt + extra))
            for i, (sub, procs, rt, extra) in enumerate(specs, 1)]


@settings(max_examples=60, deadline=None)
@given(job_specs, st.sampled_from(["fcfs", "easy", "conservative"]))
def test_every_policy_finishes_every_job_and_keeps_the_invariants(specs, policy):
    r = simulate(make_jobs(specs), hosts=6, policy=policy, check=True)
    s = r.summary
    assert s["jobs_finished"] == len(specs) and s["jobs_unfinished"] == 0
    rec = r.records
    assert (rec["start"] >= rec["submit"]).all()
    assert (rec["finish"] - rec["start"] == rec["runtime"]).all()   # k = 1: no slowdown


@settings(max_examples=60, deadline=None)
@given(job_specs)
def test_fcfs_never_starts_a_job_before_an_earlier_one(specs):
    rec = simulate(make_jobs(specs), hosts=6, policy="fcfs").records
    assert all(a <= b for a, b in zip(rec["start"][:-1], rec["start"][1:]))


class FullCompression(ConservativeBroker):
    """Textbook conservative backfilling (Mu'alem and Feitelson 2001): when capacity comes
    back, every reservation, in arrival order, is released and booked again at the earliest
    window that fits; passes repeat until no reservation moves."""

    def _compress_queue(self, now):
        profile = self.profile
        moved = True
        while moved:
            moved = False
            for entry in sorted(self._due, key=lambda e: e[1]):
                start, seq, job = entry
                est = job.runtime_estimate
                if start < INF:
                    profile.release_span(start, start + est, job.procs)
                new = profile.earliest(now, job.procs, est)
                if new < INF:
                    profile.book_span(new, new + est, job.procs)
                assert new <= start, "compression moved a reservation later"
                if new < start:
                    self._due.remove(entry)
                    self._due.add((new, seq, job))
                    self._res[job] = (new, seq, job)
                    moved = True


# runtimes from a millionth of a second to 40 s; estimates exact, above or below the runtime
any_runtime = st.one_of(st.integers(1, 40).map(float), st.sampled_from([1e-6, 0.001, 0.5]))
any_estimate = st.one_of(st.none(), st.integers(1, 70).map(float), st.sampled_from([1e-6, 0.01, 0.5]))
loose_specs = st.lists(st.tuples(st.integers(0, 50), st.integers(1, 6), any_runtime, any_estimate),
                       min_size=1, max_size=25)


def make_loose_jobs(specs):
    specs = sorted(specs, key=lambda s: s[0])
    return [Job(i, float(sub), procs, runtime=rt, runtime_estimate=est)
            for i, (sub, procs, rt, est) in enumerate(specs, 1)]


# an overrun, then a job moved in a second pass of compression whose old place lets a later
# arrival move: a lazy version that retried only the jobs before the last mover missed it
SECOND_PASS_OPENS_A_LATER_WINDOW = [
    (2, 2, 25.0, None), (6, 1, 43.0, 86.0), (15, 1, 41.0, None), (21.73732721697589, 1, 28.96373639806892, None),
    (24, 1, 17.52044484701206, 35.04088969402412), (34, 1, 12.0, 1e-09),
    (42.30821705136203, 2, 19.111237784513666, 52.384940098052766), (55.49020606261733, 1, 1e-06, 76.0),
    (80.15045896235594, 1, 1e-06, 28.0), (88, 2, 1e-06, 15.436669585196874),
    (89.10550768524325, 1, 8.793380104111376, None), (93.12250448358672, 1, 46.0, None)]


@settings(max_examples=80, deadline=None)
@given(loose_specs, st.integers(1, 6), st.sampled_from([(1, "event"), (2, "slice")]))
@example(SECOND_PASS_OPENS_A_LATER_WINDOW, 2, (1, "event"))
def test_lazy_compression_gives_the_same_schedule_as_full_compression(specs, hosts, world):
    tiers, fidelity = world
    kw = dict(hosts=hosts, tiers=tiers, fidelity=fidelity, slice_s=1.0, check=True)
    fast = simulate(make_loose_jobs(specs), policy="conservative", **kw)
    full = simulate(make_loose_jobs(specs), policy=FullCompression(), **kw)
    s = fast.summary
    assert s["jobs_finished"] + s["jobs_rejected"] == len(specs)   # too large for `hosts`: rejected
    assert fast.records["start"].tolist() == full.records["start"].tolist()


class FirstReservations(ConservativeBroker):
    """Conservative backfilling that remembers the first reservation of every job."""

    def bind(self, dc):
        super().bind(dc)
        self.first = {}

    def _reserve(self, job, now, seq):
        super()._reserve(job, now, seq)
        self.first.setdefault(job.id, self._res[job][0])


@settings(max_examples=60, deadline=None)
@given(job_specs)
def test_conservative_starts_no_job_later_than_its_first_reservation(specs):
    # estimates >= runtimes (make_jobs): no job overruns, so no reservation is ever lost
    broker = FirstReservations()
    rec = simulate(make_jobs(specs), hosts=6, policy=broker, check=True).records
    for job_id, start in zip(rec["id"].tolist(), rec["start"].tolist()):
        assert start <= broker.first[job_id]


bookings = st.lists(st.tuples(st.integers(0, 30), st.integers(1, 15), st.integers(1, 4)), max_size=12)


@settings(max_examples=100, deadline=None)
@given(bookings, st.integers(1, 4), st.integers(1, 20), st.integers(0, 10))
def test_profile_earliest_matches_a_per_second_array(books, procs, duration, now):
    cap, horizon = 4, 200
    profile = AvailabilityProfile(cap, 0.0)
    free = [cap] * horizon
    for start, length, p in books:
        t = float(profile.earliest(float(start), p, float(length)))
        profile.book(t, float(length), p)
        for s in range(int(t), int(t) + length):
            free[s] -= p
    assert all(f >= 0 for f in free)
    profile.advance(float(now))
    got = profile.earliest(float(now), procs, float(duration))
    want = next(t for t in range(now, horizon) if all(free[s] >= procs for s in range(t, t + duration)))
    assert got == want and got != INF


def test_every_registered_policy_has_a_description():
    for name, cls in broker_registry.items():
        assert cls.description, name
