"""docs/getting-started.md's Python blocks run as written, top to bottom in one interpreter, as
a reader pastes them into a notebook: each block after the ones above it (the "Stepping" block
builds a world from jobs a block above already simulated)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

DOC = REPO / "docs" / "getting-started.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_blocks_run_in_order_in_one_interpreter():
    pytest.importorskip("pandas", reason="a block makes DataFrames")
    if not (REPO.parent / "shared" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz").is_file():
        pytest.skip("the first block reads ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz")
    assert len(BLOCKS) >= 4
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", "\n".join(BLOCKS)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
