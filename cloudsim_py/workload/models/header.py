"""The SWF header a generator writes: machine size, the model, every parameter, the load.

SWF header lines are ``; Key: value`` (WORKLOAD_MODELS.md section 1); the reader keeps the first
line of each key, so every parameter gets its own ``Param_<name>`` key. A file written from a
generated table therefore says which model made it, with which parameters, and what offered
load it has - enough to regenerate it (with the seed, which the CLI adds).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..swf import SWFHeader

#: Header key of the achieved offered load.
OFFERED_LOAD_KEY = "OfferedLoad"


def format_value(value: Any) -> str:
    """A parameter value as header text (shortest exact float form, ``true``/``false``, lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def model_header(model: str, title: str, procs: int, jobs: int, params: Mapping[str, Any],
                 offered_load: float, target_load: float | None, max_runtime: int | None = None,
                 notes: Iterable[str] = ()) -> SWFHeader:
    """Header fields of a generated workload (``MaxProcs``/``MaxNodes`` = ``procs``)."""
    fields: dict[str, str] = {
        "Version": "2.2",
        "Computer": f"synthetic machine of {procs} processors",
        "Installation": "cloudsim_py workload generator",
        "Information": title,
        "MaxJobs": str(jobs),
        "MaxRecords": str(jobs),
        "MaxNodes": str(procs),
        "MaxProcs": str(procs),
    }
    if max_runtime is not None:
        fields["MaxRuntime"] = str(int(max_runtime))
    fields["Model"] = model
    for name, value in params.items():
        fields[f"Param_{name}"] = format_value(value)
    fields["TargetLoad"] = "none (the model's own arrival rate)" if target_load is None else format_value(target_load)
    fields[OFFERED_LOAD_KEY] = f"{offered_load:.6f}"
    for i, note in enumerate(notes, 1):
        fields[f"Note{i}" if i > 1 else "Note"] = note
    return SWFHeader(fields=fields)


def header_load(header: SWFHeader) -> float | None:
    """The offered load a generator recorded in ``header`` (``None`` if absent)."""
    value = header.fields.get(OFFERED_LOAD_KEY)
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
