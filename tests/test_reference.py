"""Cross-check: the engine's FCFS and EASY against deliberately naive reimplementations.

The references below are written for obviousness, not speed: a plain loop over the distinct
event times, with the running set and the queue kept in lists and everything recomputed at
every step. Estimates are the actual runtimes. Every job's start time must agree exactly."""

import pytest

from cloudsim_py import prepare, read_table, simulate
from tests.conftest import trace


def naive(jobs, P, backfill):
    """jobs: list of (submit, procs, runtime, estimate). Returns start times by index."""
    start = [None] * len(jobs)
    running = []          # (end, est_end, procs)
    queue = []            # indices in submit order
    nxt = 0
    t = 0.0
    while nxt < len(jobs) or queue or running:
        times = [e for e, _, _ in running]
        if nxt < len(jobs):
            times.append(jobs[nxt][0])
        t = min(times)
        running = [r for r in running if r[0] > t]                     # all finishes at t
        while nxt < len(jobs) and jobs[nxt][0] <= t:                      # all arrivals at t
            queue.append(nxt)
            nxt += 1
        free = P - sum(p for _, _, p in running)
        while queue and jobs[queue[0]][1] <= free:                        # FCFS part
            i = queue.pop(0)
            start[i] = t
            running.append((t + jobs[i][2], t + jobs[i][3], jobs[i][1]))
            free -= jobs[i][1]
        if backfill and queue:
            need = jobs[queue[0]][1]
            # shadow: earliest estimated end by which enough are free; extra: free then - need
            shadow = min(e for _, e, _ in running
                         if free + sum(p for _, e2, p in running if e2 <= e) >= need)
            extra = free + sum(p for _, e, p in running if e <= shadow) - need
            for i in list(queue[1:]):
                s, p, r, est = jobs[i]
                if p <= free and (t + est <= shadow or p <= extra):
                    if t + est > shadow:
                        extra -= p
                    queue.remove(i)
                    start[i] = t
                    running.append((t + r, t + est, p))
                    free -= p
    return start


@pytest.fixture(scope="module")
def kth():
    return prepare(read_table(trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, "actual")


@pytest.mark.parametrize("policy,backfill", [("fcfs", False), ("easy", True)])
def test_engine_matches_the_naive_reference_on_kth(kth, policy, backfill):
    jobs = list(zip(kth.data[:, 1].tolist(), kth.procs.tolist(), kth.runtime.tolist(),
                    kth.estimate.tolist()))
    expected = naive(jobs, 100, backfill)
    rec = simulate(kth, hosts=100, policy=policy).records
    got = rec["start"].tolist()            # records are in (submit, id) order, like the table
    assert len(got) == len(expected) == 28467
    mismatches = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert mismatches == []
