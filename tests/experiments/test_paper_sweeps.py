"""Every sweep of scenarios/papers/ is valid (every run passes load_scenario) and has the number
of runs docs/experiments.md gives for it."""

from pathlib import Path

import pytest

from cloudsim_py.experiments.sweep import load_sweep
from tests.conftest import REPO, trace

PAPERS = REPO / "scenarios" / "papers"
#: file -> (runs, traces it reads)
RUNS = {
    "liu2015-table2.yaml": (64, ["KTH-SP2-1996-2.1-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz"]),
    "liu2015-table2-eff-draw.yaml": (60, ["KTH-SP2-1996-2.1-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz"]),
    # 2 traces x (4 eff_draw readings + slice at 600 s) x 2 policies x 3 seeds
    "liu2015-figs4-6.yaml": (400, []),            # 2 workloads x 10 loads x 4 policies x 5 seeds
    "liu2015-figs4-6-small.yaml": (80, []),       # 2 x 5 x 4 x 2
    "liu2015-figs7-8-cpu-estimate.yaml": (600, []),   # 2 x 10 x 6 variants x 5
    "liu2015-figs9-10-cpu-mean.yaml": (700, []),      # 2 x 10 x 7 variants x 5
    "liu2013-figs3-4.yaml": (600, []),            # 2 x 10 x 6 policies x 5
    "liu2013-sec5.4.yaml": (570, []),             # 2 x 3 loads x 5 seeds x (1 + 4 + 8 + 6)
    "liu2015-figs4-10-small.yaml": (330, []),     # 2 workloads x 11 variants x 5 loads x 3 seeds
    "liu2013-small.yaml": (450, []),              # 2 x 3 seeds x (6 policies x 5 loads + 15 AMCBF variants x 3)
    "liu-fw-sensitivity.yaml": (560, []),         # 8 FW readings x 2 seeds x (4 x 5 + 5 x 3)
    "liu-fw-size.yaml": (40, []),                 # 4 policies x 5 loads x 2 seeds, 100,000 jobs
    "reproduce-traces.yaml": (312, None),         # 16 x (2 + 3 x 5) + 2 x 4 x 5; every shared trace
    "sodan2009-figs1-3.yaml": (189, []),          # (4 x 5 + 1) F_A points x 3 schedulers x 3 seeds
    "sodan2009-fig7-vm.yaml": (69, []),           # (3 + 4 + 6 + 2 x 5) points x 3 seeds
    "sodan2009-fig6-adaptive.yaml": (18, []),     # 6 variants x 3 seeds
    "sodan2009-pect-shares.yaml": (33, []),       # (2 x 5 + 1) F_A points x 3 seeds
    "li-fig1-loose.yaml": (110, []),              # 11 alphas x 10 seeds (fdls and fdmms in each run)
    "li-fig2-tight.yaml": (110, []),
    "haizea-blue-ar.yaml": (145, []),             # 72 AR files x 2 preemption modes + no ARs
}
#: file -> the shared lease files it reads (through $CLOUDSIM_PY_LEASES)
LEASE_FILES = {
    "haizea-blue-ar.yaml": ["blue-30days/30days.swf", "blue-30days/injected/work_30-dur_4h-size_3large.lwf"],
}


def test_every_paper_sweep_is_listed():
    assert sorted(p.name for p in PAPERS.glob("*.yaml")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_paper_sweep_expands_to_valid_runs(name, monkeypatch):
    runs, traces = RUNS[name]
    if name in LEASE_FILES:
        from cloudsim_py.workload.shared_data import leases_dir

        for f in LEASE_FILES[name]:
            if not (Path(leases_dir()) / f).is_file():
                pytest.skip(f"lease file {f} not found in {leases_dir()} (set CLOUDSIM_PY_LEASES)")
        monkeypatch.setenv("CLOUDSIM_PY_LEASES", leases_dir())
    if traces is None:   # every trace named by scenarios/traces/*.yaml (".../traces}/NAME")
        for scenario in (REPO / "scenarios" / "traces").glob("*.yaml"):
            text = scenario.read_text()
            trace(text.split("traces}/", 1)[1].split()[0])
    for t in traces or ():
        trace(t)
    specs = load_sweep(Path(PAPERS / name)).expand()
    assert len(specs) == runs
    assert len({s.run_id for s in specs}) == runs
