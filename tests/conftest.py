"""Shared test helpers: where the real traces are, and small worlds built by hand."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def traces_dir() -> Path:
    """``$CLOUDSIM_PY_TRACES`` or ``<repo>/../shared/traces``."""
    env = os.environ.get("CLOUDSIM_PY_TRACES")
    return Path(env) if env else REPO.parent / "shared" / "traces"


def trace(name: str) -> Path:
    """Path of a shared trace; the calling test is skipped (with the reason) if it is missing."""
    path = traces_dir() / name
    if not path.is_file():
        pytest.skip(f"trace {name} not found in {traces_dir()} (set CLOUDSIM_PY_TRACES)")
    return path


@pytest.fixture
def trace_path():
    return trace
