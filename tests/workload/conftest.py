"""Fixtures of the workload-model tests: the shared trace folder (skip when a trace is missing)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def shared_traces_dir() -> Path:
    """``$CLOUDSIM_PY_TRACES`` or ``<repo>/../shared/traces``."""
    env = os.environ.get("CLOUDSIM_PY_TRACES")
    return Path(env) if env else REPO.parent / "shared" / "traces"


@pytest.fixture
def shared_trace():
    """``shared_trace(name)`` -> path of a shared trace; skips the test (saying why) if missing."""

    def get(name: str) -> Path:
        path = shared_traces_dir() / name
        if not path.is_file():
            pytest.skip(f"trace {name} not found in {shared_traces_dir()} (set CLOUDSIM_PY_TRACES)")
        return path

    return get
