"""benchmarks/bench_imports.py kept alive: its run of three jobs succeeds and every row is
printed (no time is asserted: speed is measured in benchmarks/, not in tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_bench_imports_times_a_run_and_numpy_against_a_bare_interpreter():
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_imports.py"), "--repeat", "1"],
                         env=env, capture_output=True, text=True, check=True).stdout
    rows = [line.split("  ")[0] for line in out.splitlines()[2:]]
    assert rows[:2] == ["bare interpreter", "cloudsim-py run (3 jobs)"]
    assert rows[2].startswith("imports of a run (") and "cloudsim_py" not in rows[2]
    assert rows[3:] == ["import numpy", "import numpy, 1 BLAS thread"]
