#!/usr/bin/env python3
"""The Gantt chart docs/experiments.md shows: examples/leases.yaml (Haizea-style leases on one
cloud of 8 VMs: an advance reservation suspends the best-effort lease in its way, which resumes
after it; image transfers, saves and reloads as grey bars), drawn from the run's
``intervals.csv`` exactly as ``cloudsim-py gantt`` draws it.

    python scripts/docs_gantt.py        # docs/figures/gantt-leases.png

The same by hand:

    cloudsim-py run examples/leases.yaml --out /tmp/leases
    cloudsim-py gantt /tmp/leases --out docs/figures/gantt-leases.png
"""

from __future__ import annotations

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cloudsim_py.cli import main  # noqa: E402

OUT = os.path.join(REPO, "docs", "figures", "gantt-leases.png")

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "leases")
        code = main(["run", os.path.join(REPO, "examples", "leases.yaml"), "--out", run, "--quiet"])
        code = code or main(["gantt", run, "--out", OUT])
    sys.exit(code)
