"""Random workloads under every policy, with the datacenter checking its invariants after
every timestamp; the availability profile against a plain per-second array; conservative
backfilling's lazy compression against a full compression."""

from hypothesis import given, settings, strategies as st

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
    """Textbook conservative backfilling: every reservation is re-placed at every early end."""

    def _compress_queue(self, now):
        profile = self.profile
        for entry in sorted(self._due, key=lambda e: e[1]):
            start, seq, job = entry
            if start <= now:
                continue
            est = job.runtime_estimate
            profile.release(start, est, job.procs)
            new = profile.earliest(now, job.procs, est)
            profile.book(new, est, job.procs)
            self._due.remove(entry)
            self._due.add((new, seq, job))
            self._res[job] = (new, seq, job)
            self._seen[job] = len(self._gains)


@settings(max_examples=80, deadline=None)
@given(job_specs)
def test_lazy_compression_gives_the_same_schedule_as_full_compression(specs):
    fast = simulate(make_jobs(specs), hosts=6, policy="conservative", check=True).records
    full = simulate(make_jobs(specs), hosts=6, policy=FullCompression(), check=True).records
    assert fast["start"].tolist() == full["start"].tolist()


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
