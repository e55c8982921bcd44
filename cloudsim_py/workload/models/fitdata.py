"""Fitted constants shipped as JSON in ``models/data`` (written by ``scripts/fit_*.py``).

File names are ``<model>_<fit name, lower case>.json``; a fit's JSON records the trace (with its
sha256), the period, the cleaning, the method and the script that produced it.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .params import ParameterError


def available_fits(model: str) -> list[str]:
    """Names of the shipped fits of ``model`` (as written in each file's ``fit`` key)."""
    out = []
    for entry in resources.files(__package__).joinpath("data").iterdir():
        if entry.name.startswith(f"{model}_") and entry.name.endswith(".json"):
            out.append(json.loads(entry.read_text(encoding="utf-8")).get("fit", entry.name[len(model) + 1:-5]))
    return sorted(out)


def load_fit(model: str, fit: str) -> dict[str, Any]:
    """The JSON data of fit ``fit`` of ``model``; :class:`ParameterError` (``fit``) if unknown."""
    if not isinstance(fit, str) or not fit:
        raise ParameterError("fit", f"must be the name of a shipped fit, got {fit!r}")
    entry = resources.files(__package__).joinpath("data").joinpath(f"{model}_{fit.lower()}.json")
    if not entry.is_file():
        known = ", ".join(available_fits(model)) or "none"
        raise ParameterError("fit", f"no fitted constants {fit!r} for {model}; shipped: {known}")
    return json.loads(entry.read_text(encoding="utf-8"))
