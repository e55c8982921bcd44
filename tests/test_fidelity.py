"""The event-driven progress model against the papers' time-slice model (factors redrawn every
slice) on a real trace: average wait and bounded slowdown agree within 5 %."""

import attrs
import numpy as np

from cloudsim_py import prepare, read_table, simulate
from tests.conftest import trace


def test_event_driven_model_matches_the_time_slice_model_within_5_percent():
    # ACFCFS (Liu 2015) on the first 3,000 jobs of KTH-SP2 (about 2 months), 100 hosts x 2
    # tiers, liu2015 interference with eff drawn per placement (eff_draw: placement; the preset's
    # own, mean, draws no eff to redraw); slice mode redraws every process's loss and efficiency
    # every 300 s. Means over 4 seeds; measured here: wait 6,221 vs 6,246 s, bsld 33.1 vs 33.6.
    # The progress reading is held at lockstep, where a redraw moves the whole job at once: under
    # the preset's barriers a redraw per process and slice also decides which process the others
    # wait for at each barrier, and the two models part by 8 % on bounded slowdown (measured).
    table = prepare(read_table(trace("KTH-SP2-1996-2.1-cln.swf.gz")), 100, "trace")
    n = 3000
    table = attrs.evolve(table, data=table.data[:n], line=table.line[:n], procs=table.procs[:n],
                         runtime=table.runtime[:n], estimate=table.estimate[:n])
    means = {}
    for mode in ("event", "slice"):
        runs = [simulate(table, hosts=100, tiers=2, policy="acfcfs", seed=seed, fidelity=mode,
                         slice_s=300.0, interference={"preset": "liu2015", "eff_draw": "placement",
                                       "job_progress": "lockstep"}).summary
                for seed in range(4)]
        means[mode] = np.mean([[s["avg_wait"], s["avg_bsld"]] for s in runs], axis=0)
    rel = np.abs(means["event"] - means["slice"]) / means["slice"]
    assert (rel < 0.05).all(), (means, rel)
