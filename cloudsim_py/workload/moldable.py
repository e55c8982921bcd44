"""Moldable job descriptions: the size is chosen when the job starts and the runtime follows an
efficiency model; the workload options of static reshaping (F_A) and machine resizing (F_VM).
Imports only the workload layer (descriptions, efficiency, reshaping) and errors: no engine,
infrastructure, brokers or scenario.

Sodan 2009 (seed paper 002), sections 3.2 and 5. A job generated with ``original_procs``
processors and ``original_runtime`` seconds runs on ``n`` processors for
``model.runtime(original_runtime, original_procs, n)`` (:mod:`.efficiency`); its estimate scales
the same way ("runtimes are considered to be correct estimates": the estimate is the original
estimate moved by the same efficiency ratio). Static reshaping by ``F_A`` sets the size the job
*asks for* (``procs``: ``ceil(original x F_A)``, serial jobs unchanged, at most the machine it
runs on, :func:`~.reshape.reshape_size`); a broker may still start it at another size
(``Datacenter.start(job, size=k)`` asks the description for ``work(k)``), which is how the
load-adaptive policies reshape at start time.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, NamedTuple

import attrs

from ..errors import JobError, SpecError
from .description import JobDescription
from .efficiency import WC, EfficiencyModel, efficiency_model
from .reshape import reshape_factor, reshape_size, vm_size


class MoldableJob(NamedTuple):
    """A moldable job: any size from ``min_procs`` (1) up to the machine.

    ``procs``, ``runtime`` and ``runtime_estimate`` are those at the size asked for (after
    static reshaping); ``original_*`` are the job as generated (F_A = 1), which classes it and
    is the denominator of the paper's bounded slowdown. ``work(n)`` and ``estimate(n)`` follow
    ``model``. A NamedTuple, as :class:`~.description.RigidJob`: cheap to make per job.

    >>> from .efficiency import E1
    >>> j = MoldableJob.of(1, 0.0, 128, 3600.0, 3600.0, E1, procs=64)
    >>> j.procs, j.runtime, j.work(32) > j.work(64) > j.work(128)
    (64, 5850.0, True)
    """

    id: int
    submit_time: float
    procs: int                     #: size asked for (static reshaping applied)
    runtime: float                 #: true runtime at ``procs``
    runtime_estimate: float        #: estimate at ``procs``
    original_procs: int
    original_runtime: float
    original_estimate: float
    model: EfficiencyModel
    row: int = -1

    @classmethod
    def of(cls, id: int, submit_time: float, original_procs: int, original_runtime: float,
           original_estimate: float | None = None, model: EfficiencyModel = WC,
           procs: int | None = None, row: int = -1) -> "MoldableJob":
        """A checked moldable job asking for ``procs`` (default: its original size)."""
        if isinstance(original_procs, bool) or not isinstance(original_procs, int) or original_procs < 1:
            raise JobError(f"job {id}: original procs must be a positive integer, got {original_procs!r}")
        if not original_runtime > 0:
            raise JobError(f"job {id}: runtime must be > 0, got {original_runtime}")
        est = original_runtime if original_estimate is None else original_estimate
        if not est > 0:
            raise JobError(f"job {id}: runtime estimate must be > 0, got {est}")
        if not isinstance(model, EfficiencyModel):
            raise JobError(f"job {id}: {model!r} is not an EfficiencyModel")
        n = original_procs if procs is None else procs
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise JobError(f"job {id}: procs must be a positive integer, got {n!r}")
        return cls(id, float(submit_time), n, model.runtime(original_runtime, original_procs, n),
                   model.runtime(est, original_procs, n), original_procs, float(original_runtime),
                   float(est), model, row)

    @property
    def min_procs(self) -> int:
        return 1

    def _size(self, size: int) -> int:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise JobError(f"job {self.id}: size must be a positive integer, got {size!r}")
        return size

    def work(self, size: int) -> float:
        """Seconds on ``size`` dedicated processors (the efficiency model's runtime)."""
        if size == self.procs:
            return self.runtime
        return self.model.runtime(self.original_runtime, self.original_procs, self._size(size))

    def estimate(self, size: int) -> float:
        """The estimate at ``size``: the original estimate moved by the same efficiency ratio."""
        if size == self.procs:
            return self.runtime_estimate
        return self.model.runtime(self.original_estimate, self.original_procs, self._size(size))

    def usage(self, size: int) -> tuple[float, ...] | None:
        return None                # every process uses its processor fully

    def usage_estimate(self, size: int) -> tuple[float, ...] | None:
        return None


def original_size(desc: Any) -> int:
    """The size a job was generated with: ``original_procs`` of a moldable description, else
    its ``procs``."""
    return getattr(desc, "original_procs", desc.procs)


def original_estimate(desc: Any) -> float:
    """The estimate at the original size (what runtime classes are decided on by a broker)."""
    return getattr(desc, "original_estimate", desc.runtime_estimate)


def is_moldable(desc: Any) -> bool:
    return isinstance(desc, MoldableJob)


# ---------------------------------------------------------------------------------- options


def _model(value: Any) -> EfficiencyModel:
    name = value.get("name") if isinstance(value, Mapping) else value
    if isinstance(name, str) and ":" in name:
        # a scenario key never imports user code (docs/scenarios.md, Plugins): a plugin
        # registers its model (efficiency_models.register("mine")) and the scenario names it
        raise SpecError("efficiency.name" if isinstance(value, Mapping) else "efficiency",
                        f"{name!r} names user code; register the model from a plugin "
                        "(plugins: [...]) and give its registered name")
    return efficiency_model(value, where="efficiency")


def _factor(inst: Any, attribute: Any, value: Any) -> None:
    reshape_factor(value, attribute.name)


@attrs.define(slots=True, frozen=True)
class MoldableSpec:
    """``workload.moldable`` in a scenario: every job becomes a :class:`MoldableJob`.

    ``efficiency``: the model (``WC``, ``E1``, ``E2``, ``E3``, ``{name: curve, points: ...}``,
    ``{name: downey, ...}``, default ``WC``); ``factor``: F_A, static reshaping of every job's
    size (default 1); ``vm_factor``: F_VM, the simulated machine is ``round(hosts x F_VM)`` while
    the workload stays the one generated for ``hosts`` (default 1). Factors must be finite
    numbers > 0; errors name the key (``efficiency.points.1.efficiency``, ``factor``).
    """

    efficiency: EfficiencyModel = attrs.field(default=WC, converter=_model)
    factor: float = attrs.field(default=1.0, validator=_factor)
    vm_factor: float = attrs.field(default=1.0, validator=_factor)

    def machine(self, hosts: int) -> int:
        """The simulated machine for a workload generated for ``hosts`` processors."""
        return vm_size(hosts, self.vm_factor)

    def mold(self, descs: Iterable[JobDescription], hosts: int) -> Iterator[MoldableJob]:
        """Every description as a moldable job of this efficiency, asking for its size
        reshaped by ``factor`` and capped at the (resized) machine."""
        return moldable_descriptions(descs, self.efficiency, self.factor, self.machine(hosts))


def moldable_descriptions(descs: Iterable[JobDescription], model: EfficiencyModel,
                          factor: float = 1.0, machine: int | None = None) -> Iterator[MoldableJob]:
    """Each description (rigid, as generated) as a :class:`MoldableJob` whose original size,
    runtime and estimate are the description's, asking for ``reshape_size(procs, factor,
    machine)`` processors. Lazy, one job at a time."""
    if not factor > 0:
        raise SpecError("factor", f"must be a finite number > 0, got {factor!r}")
    new = tuple.__new__
    runtime = model.runtime
    for d in descs:
        n0 = d.procs
        cap = machine if machine is not None else n0
        n = reshape_size(n0, factor, cap) if (factor != 1.0 or n0 > cap) else n0
        t0, e0 = float(d.runtime), float(d.runtime_estimate)
        if n == n0:
            t, e = t0, e0
        else:
            t, e = runtime(t0, n0, n), runtime(e0, n0, n)
        yield new(MoldableJob, (d.id, d.submit_time, n, t, e, n0, t0, e0, model, d.row))
