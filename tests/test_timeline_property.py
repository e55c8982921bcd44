"""timeline.csv agrees with jobs.csv and schedule.csv on any small workload: at every row the busy
processors are those of the jobs running then, the queue those submitted and not started, never
above the datacenter's capacity."""

from __future__ import annotations

import csv
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cloudsim_py.scenario import load_scenario, run_scenario


@st.composite
def workloads(draw):
    hosts = draw(st.integers(2, 8))
    n = draw(st.integers(1, 14))
    submits = sorted(draw(st.lists(st.integers(0, 200), min_size=n, max_size=n)))
    jobs = []
    for submit in submits:
        runtime = draw(st.integers(1, 120))
        jobs.append({"submit": submit, "procs": draw(st.integers(1, hosts)), "runtime": runtime,
                     "estimate": runtime + draw(st.integers(0, 60))})
    return hosts, jobs


def run(hosts, jobs, policy, tiers=1, seed=0):
    doc = {"name": "p", "seed": seed, "datacenter": {"hosts": hosts, "tiers": tiers},
           "workload": {"jobs": jobs}, "broker": policy, "output": {"schedule": True, "timeline": True}}
    with tempfile.TemporaryDirectory() as folder:
        run_scenario(load_scenario(doc), os.path.join(folder, "out"))
        read = {}
        for name in ("timeline.csv", "jobs.csv", "schedule.csv"):
            with open(os.path.join(folder, "out", name), encoding="utf-8", newline="") as fh:
                read[name] = list(csv.DictReader(fh))
    return read


def steps_are_changes(rows, tiers):
    keys = ["running", "queued", "suspended"] + [f"busy_{t}" for t in range(tiers)]
    times = [float(r["time"]) for r in rows]
    assert times == sorted(set(times)), "one row per time, in time order"
    for a, b in zip(rows, rows[1:]):
        assert [a[k] for k in keys] != [b[k] for k in keys], f"t={b['time']}: a row without a change"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads(), st.sampled_from(["fcfs", "easy", "conservative"]))
def test_busy_processors_and_the_queue_are_those_of_jobs_csv(work, policy):
    hosts, jobs = work
    files = run(hosts, jobs, policy)
    done = [(float(j["submit"]), float(j["start"]), float(j["finish"]), int(j["procs"]))
            for j in files["jobs.csv"]]
    assert len(done) == len(jobs)
    rows = files["timeline.csv"]
    steps_are_changes(rows, 1)
    for row in rows:
        t = float(row["time"])
        on = [p for s, a, f, p in done if a <= t < f]
        assert int(row["busy_0"]) == sum(on) <= hosts, f"t={t}"
        assert int(row["running"]) == len(on), f"t={t}"
        assert int(row["queued"]) == sum(1 for s, a, f, p in done if s <= t < a), f"t={t}"
    assert rows == [] or rows[-1]["running"] == rows[-1]["queued"] == rows[-1]["busy_0"] == "0"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads(), st.sampled_from(["ccfcfs", "acfcfs", "ktcbf"]), st.integers(0, 3))
def test_with_two_tiers_kills_and_swaps_the_busy_hosts_are_those_of_the_schedule(work, policy, seed):
    hosts, jobs = work
    files = run(hosts, jobs, policy, tiers=2, seed=seed)
    rows = files["timeline.csv"]
    steps_are_changes(rows, 2)
    holding: dict[str, tuple[int, int]] = {}       # job -> (tier, hosts) after each time's actions
    busy_at: dict[float, list[int]] = {}
    for a in files["schedule.csv"]:
        if a["action"] in ("start", "resume", "swap"):
            holding[a["job"]] = (int(a["tier"]), len(a["hosts"].split()))
        elif a["action"] in ("finish", "kill", "suspend"):
            del holding[a["job"]]
        busy = [0, 0]
        for tier, n in holding.values():
            busy[tier] += n
        busy_at[float(a["time"])] = busy
    for row in rows:
        t = float(row["time"])
        busy = [int(row["busy_0"]), int(row["busy_1"])]
        assert max(busy) <= hosts, f"t={t}: {busy} busy on {hosts} hosts"
        if t in busy_at:        # a time of arrivals only changes the queue
            assert busy == busy_at[t], f"t={t}"
