"""Where the shared lease workloads and workflows are: the package's trace-folder rule applied to
``../shared/leases`` and ``../shared/workflows``. Imports nothing from the package."""

from __future__ import annotations

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _shared(kind: str, env: str) -> str:
    value = os.environ.get(env)
    if value:
        return value
    return os.path.normpath(os.path.join(_HERE, "..", "..", "..", "shared", kind))


def leases_dir() -> str:
    """``$CLOUDSIM_PY_LEASES``, else ``../shared/leases`` beside the repository (Haizea's LWF files)."""
    return _shared("leases", "CLOUDSIM_PY_LEASES")


def workflows_dir() -> str:
    """``$CLOUDSIM_PY_WORKFLOWS``, else ``../shared/workflows`` beside the repository (WfFormat files)."""
    return _shared("workflows", "CLOUDSIM_PY_WORKFLOWS")
