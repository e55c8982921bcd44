"""Synthetic workload models: generators, runtime-estimate model, moldability building blocks.

Generators (registered in :data:`workload_models`, each an attrs class with its parameters as
defaults and ``generate(jobs, rng) -> WorkloadTable``):

- ``lublin03`` - Lublin & Feitelson 2003 (every published constant);
- ``jann97`` - the Jann et al. 1997 model form **refitted to the CTC SP2 log** (Jann's own
  parameter table is not available, WORKLOAD_MODELS.md 5);
- ``feitelson96`` - the Feitelson 1996 model structure **with constants fitted to PWA logs**
  (the published constants are not available, WORKLOAD_MODELS.md 3).

Also: the ``tsafrir05`` runtime-estimate mode (registered, importing this on first use, in
:data:`cloudsim_py.workload.table.estimate_modes`), the Downey 1997 speedup function and the
Cirne & Berman 2001 moldability model. From YAML: ``workload: {model: {name: jann97, jobs:
10000, procs: 320, load: 0.8}}`` -> :func:`generate_from_spec`.
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs
import numpy as np

from ...errors import ScenarioError
from ...registry import Registry
from ..table import WorkloadTable, jobs_over_limit
from .params import ParameterError

#: Workload generators by name (entry point group ``cloudsim_py.workload_models``).
workload_models: Registry[Any] = Registry("workload model", entry_point_group="cloudsim_py.workload_models",
                                          error=ScenarioError)

from .lublin03 import Lublin03  # noqa: E402
from .jann97 import Jann97  # noqa: E402
from .feitelson96 import Feitelson96  # noqa: E402
from .tsafrir05 import Tsafrir05, tsafrir05_estimates  # noqa: E402  (registers the estimate mode)
from .downey97 import downey_cmax, downey_runtime, downey_speedup, downey_work  # noqa: E402
from .cirne01 import MoldabilityModel, MoldableJobs, uniform_log  # noqa: E402

workload_models.register("lublin03")(Lublin03)
workload_models.register("jann97")(Jann97)
workload_models.register("feitelson96")(Feitelson96)

#: Largest target load accepted from a scenario (the papers sweep 0.5 ... 0.95).
MAX_LOAD = 1.5


def model_parameters(cls: type) -> list[str]:
    """The parameter names a generator class accepts (its attrs init fields)."""
    return [a.name for a in attrs.fields(cls) if a.init]


def generate_from_spec(spec: Mapping[str, Any], rng: np.random.Generator,
                       where: str = "workload.model") -> WorkloadTable:
    """Generate a workload from its YAML form ``{name: ..., jobs: N, procs: ..., load: ..., ...}``.

    ``name`` selects a registered generator, ``jobs`` is the number of jobs, every other key is
    a parameter of that generator. Unknown names and keys, wrong types or ranges and a load of 0
    or above 1.5 raise :class:`~cloudsim_py.errors.ScenarioError` whose message starts with the
    key path, e.g. ``workload.model.load: ...``.
    """
    generator, jobs = validate_spec(spec, where)
    try:
        return generator.generate(jobs, rng)
    except ParameterError as exc:
        raise ScenarioError(f"{where}.{exc.param}: {exc.detail}") from None
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def validate_spec(spec: Mapping[str, Any], where: str = "workload.model") -> tuple[Any, int]:
    """Check a generator spec (as :func:`generate_from_spec` does) without generating anything;
    returns the configured generator and the job count. Scenarios call it at load time."""
    if not isinstance(spec, Mapping):
        raise ScenarioError(f"{where}: must be a mapping with at least 'name' and 'jobs', got {spec!r}")
    if "name" not in spec:
        raise ScenarioError(f"{where}.name: missing; known models: {', '.join(workload_models.names())}")
    name = spec["name"]
    try:
        cls = workload_models.get(name)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}.name: {exc}") from None
    if "jobs" not in spec:
        raise ScenarioError(f"{where}.jobs: missing (the number of jobs to generate)")
    jobs = spec["jobs"]
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ScenarioError(f"{where}.jobs: must be a positive integer, got {jobs!r}")
    too_many = jobs_over_limit(jobs)
    if too_many is not None:
        raise ScenarioError(f"{where}.jobs: {too_many}")
    known = model_parameters(cls)
    params = {k: v for k, v in spec.items() if k not in ("name", "jobs")}
    for key in params:
        if key not in known:
            raise ScenarioError(f"{where}.{key}: unknown parameter of workload model {name!r}; "
                                f"known: name, jobs, {', '.join(known)}")
    load = params.get("load")
    if load is not None:
        if isinstance(load, bool) or not isinstance(load, (int, float)):
            raise ScenarioError(f"{where}.load: must be a number in (0, {MAX_LOAD}], got {load!r}")
        if not 0 < load <= MAX_LOAD:
            raise ScenarioError(f"{where}.load: must be in (0, {MAX_LOAD}] (target offered load), got {load!r}")
    try:
        return cls(**params), jobs
    except ParameterError as exc:
        raise ScenarioError(f"{where}.{exc.param}: {exc.detail}") from None
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None


__all__ = ["Feitelson96", "Jann97", "Lublin03", "MoldabilityModel", "MoldableJobs", "ParameterError",
           "Tsafrir05", "downey_cmax", "downey_runtime", "downey_speedup", "downey_work",
           "generate_from_spec", "model_parameters", "validate_spec", "tsafrir05_estimates", "uniform_log",
           "workload_models"]
