"""Random moldable workloads under ``prio`` and ``pect`` (with and without reshaping), with the
datacenter checking its invariants after every timestamp: every job finishes, none starts
before it arrives, and a job that never was preempted ran exactly its work at its size."""

from hypothesis import given, settings, strategies as st

from cloudsim_py import simulate
from cloudsim_py.workload.efficiency import E1, WC
from cloudsim_py.workload.moldable import MoldableJob

job_specs = st.lists(
    st.tuples(st.integers(0, 60), st.integers(1, 6), st.integers(1, 60), st.integers(-10, 30)),
    min_size=1, max_size=25)

BROKERS = [
    ("prio", {"classes": {"S": 5, "M": 20}}),
    ("prio", {"classes": {"S": 5, "M": 20}, "reshape": "LoadA_noB"}),
    ("prio", {"priorities": False, "reshape": "AllA"}),
    ("pect", {"interval": 40, "overhead": 2, "classes": {"S": 5, "M": 20}}),
    ("pect", {"interval": 40, "overhead": 2, "classes": {"S": 5, "M": 20}, "reshape": "LoadA"}),
    ("pect", {"interval": 40, "overhead": 0, "classes": {"S": 5, "M": 20}, "skip_empty": False}),
    ("pect", {"interval": 40, "overhead": 2, "classes": {"S": 5, "M": 20}, "slice_backfill": "finish"}),
    ("pect", {"interval": 40, "overhead": 2, "classes": {"S": 5, "M": 20}, "slice_backfill": "finish",
              "reshape": "LoadA_noB"}),
    ("pect", {"interval": 40, "overhead": 2, "classes": {"S": 5, "M": 20}, "reshape": "AllA_noB"}),
]


def make(specs, model):
    specs = sorted(specs, key=lambda s: s[0])
    return [MoldableJob.of(i, float(sub), procs, float(rt), float(max(1, rt + err)), model)
            for i, (sub, procs, rt, err) in enumerate(specs, 1)]


@settings(max_examples=80, deadline=None)
@given(job_specs, st.sampled_from(range(len(BROKERS))), st.sampled_from([E1, WC]))
def test_moldable_workloads_finish_under_every_paper_policy(specs, which, model):
    policy, params = BROKERS[which]
    r = simulate(make(specs, model), hosts=6, policy=policy, params=params, check=True)
    assert r.summary["jobs_finished"] == len(specs) and r.summary["jobs_unfinished"] == 0
    rec = r.records
    assert (rec["start"] >= rec["submit"]).all()
    whole = rec["suspensions"] == 0
    assert (abs(rec["finish"] - rec["start"] - rec["runtime"])[whole] < 1e-6).all()
    assert (rec["finish"] - rec["start"] >= rec["runtime"] - 1e-6).all()
