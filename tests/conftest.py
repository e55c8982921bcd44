"""Shared test helpers: where the real traces are, and small worlds built by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from cloudsim_py.experiments.liu2015 import traces_dir as package_traces_dir

REPO = Path(__file__).resolve().parents[1]


def traces_dir() -> Path:
    """``$CLOUDSIM_PY_TRACES`` or ``<repo>/../shared/traces`` (the package's own rule)."""
    return Path(package_traces_dir())


def trace(name: str) -> Path:
    """Path of a shared trace; the calling test is skipped (with the reason) if it is missing."""
    path = traces_dir() / name
    if not path.is_file():
        pytest.skip(f"trace {name} not found in {traces_dir()} (set CLOUDSIM_PY_TRACES)")
    return path


@pytest.fixture
def trace_path():
    return trace
