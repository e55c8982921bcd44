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


def _shared_file(folder: str, what: str, env: str, name: str) -> Path:
    path = Path(folder) / name
    if not path.is_file():
        pytest.skip(f"{what} {name} not found in {folder} (set {env})")
    return path


@pytest.fixture
def lease_file():
    """``lease_file("haizea-tests/preemption.lwf")`` -> path; skips the test (saying why) if missing."""
    from cloudsim_py.workload.shared_data import leases_dir

    return lambda name: _shared_file(leases_dir(), "lease file", "CLOUDSIM_PY_LEASES", name)


@pytest.fixture
def workflow_file():
    """``workflow_file("montage-....json")`` -> path; skips the test (saying why) if missing."""
    from cloudsim_py.workload.shared_data import workflows_dir

    return lambda name: _shared_file(workflows_dir(), "workflow", "CLOUDSIM_PY_WORKFLOWS", name)
