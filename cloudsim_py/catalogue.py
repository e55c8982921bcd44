"""The catalogue of metrics: for each measure a run reports, its label, the unit it is stored
in, the unit it is shown in (minutes for waits and responses, as the papers print them), its
bounds and its preferred axis scale. One place, so that ``plot``, ``report``, ``timeline`` and
the run tables name and scale a metric alike. Imports nothing."""

from __future__ import annotations

import math

import attrs


@attrs.define(slots=True, frozen=True)
class Metric:
    """One measure: ``label`` (words, no unit), ``unit`` as shown (``""``: a pure number),
    ``scale`` the factor from the stored value to the shown one (1/60: seconds shown in
    minutes), ``lower``/``upper`` the bounds of the stored value (a band never leaves them),
    ``log`` whether a log axis suits it (values over orders of magnitude)."""

    name: str
    label: str
    unit: str = ""
    scale: float = 1.0
    lower: float = -math.inf
    upper: float = math.inf
    log: bool = False

    @property
    def axis_label(self) -> str:
        """``average wait (min)``: the label and the shown unit."""
        return f"{self.label} ({self.unit})" if self.unit else self.label

    def shown(self, value: float) -> float:
        """A stored value in the shown unit."""
        return value * self.scale

    def clamp(self, value: float) -> float:
        """A stored value inside the bounds."""
        return min(max(value, self.lower), self.upper)


def _minutes(name: str, label: str, log: bool = False) -> Metric:
    return Metric(name, label, "min", 1 / 60, 0.0, math.inf, log)


#: the metrics a run reports, by results-table column
METRICS: dict[str, Metric] = {m.name: m for m in (
    _minutes("avg_wait", "average wait"),
    _minutes("max_wait", "maximum wait", log=True),
    _minutes("avg_response", "average response time"),
    _minutes("max_response", "maximum response time", log=True),
    Metric("avg_bsld", "average bounded slowdown", "", 1.0, 1.0),
    Metric("max_bsld", "maximum bounded slowdown", "", 1.0, 1.0, log=True),
    Metric("avg_slowdown", "average slowdown", "", 1.0, 1.0),
    Metric("utilization", "utilization", "", 1.0, 0.0, 1.0),
    Metric("jobs_finished", "jobs finished", "", 1.0, 0.0),
    Metric("jobs_rejected", "jobs rejected", "", 1.0, 0.0),
    Metric("kills", "kills", "", 1.0, 0.0),
    Metric("migrations", "migrations", "", 1.0, 0.0),
    Metric("preemptions", "preemptions", "", 1.0, 0.0),
    Metric("makespan", "makespan", "h", 1 / 3600, 0.0),
    Metric("wall_seconds", "wall-clock time", "s", 1.0, 0.0),
)}

#: parameters commonly on an x axis, by results-table column
PARAMETERS: dict[str, Metric] = {m.name: m for m in (
    Metric("workload.model.load", "offered load", "", 1.0, 0.0),
    Metric("workload.moldable.factor", "reshaping factor F_A", "", 1.0, 0.0),
    Metric("workload.moldable.vm_factor", "machine factor F_VM", "", 1.0, 0.0),
    Metric("seed", "seed"),
    Metric("policy", "policy"),
    Metric("time", "time", "s", 1.0, 0.0),
    Metric("queued", "jobs waiting", "", 1.0, 0.0),
    Metric("busy", "busy processors", "", 1.0, 0.0),
)}

#: per-class metrics (``avg_wait_S``...): the class in the label
CLASS_SUFFIXES = ("S", "M", "L")


def metric(name: str) -> Metric:
    """The catalogue's entry for a column, else one whose label is the column itself (no unit,
    no bounds): an unknown column is shown as it is rather than refused. A class suffix
    (``avg_response_L``) keeps the base metric's unit and bounds."""
    if name in METRICS:
        return METRICS[name]
    if name in PARAMETERS:
        return PARAMETERS[name]
    base, _, suffix = name.rpartition("_")
    if suffix in CLASS_SUFFIXES and base in METRICS:
        return attrs.evolve(METRICS[base], name=name, label=f"{METRICS[base].label}, class {suffix}")
    if "wait" in name or "response" in name:     # another time of a job: seconds, shown in minutes
        return Metric(name, name, "min", 1 / 60, 0.0)
    return Metric(name, name)
