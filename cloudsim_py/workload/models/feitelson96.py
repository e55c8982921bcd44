"""Feitelson 1996 model structure, with constants fitted by cloudsim_py to PWA logs.

D. G. Feitelson, "Packing schemes for gang scheduling", JSSPP 1996, LNCS 1162, pp. 89-110.
What is known of the model (WORKLOAD_MODELS.md section 3): job sizes follow a harmonic
distribution of order 1.5 (P(n) ~ n^-1.5, n = 1..M) hand-tuned to put extra weight on small
sizes and powers of two; runtimes are more variable than exponential and weakly correlated with
size; jobs are run repeatedly.

**The published constants were not obtained (section 3.1); these are ours.** The structure is
kept and every number is fitted by ``scripts/fit_feitelson96.py`` to one log of the Parallel
Workloads Archive (by default the SDSC Paragon 1996 log - the Paragon was one of the three
machines Feitelson analysed directly; a fit to the NASA Ames iPSC/860 log, another of the three,
is shipped as ``fit: NASA-iPSC-1993``):

- sizes: P(n) ~ w(n) n^-harmonic_order with w(1) = ``serial_weight``, w(2^k) =
  ``pow2_weights[2^k]`` and w(n) = ``other_weight`` otherwise (weights relative to the plain
  harmonic level 1; fitted by maximum likelihood, which reproduces the log's share of serial
  jobs, of each power of two and of the other sizes);
- runtimes: two-branch hyper-exponential whose short-branch probability falls linearly with size,
  p(n) = clip(short_prob_intercept + short_prob_slope x n, 0, 1) - the form the document
  *believes* the paper uses (unverified); the four constants are fitted to the log's runtime
  mean, median, coefficient of variation and size-runtime correlation;
- repeated runs: a job is run K times, P(K = k) ~ k^-repeat_exponent for k = 1..max_repeats (the
  Zipf-like law the document believes, unverified; exponent fitted by maximum likelihood to runs
  of consecutive jobs of one user with the same size); each repetition is submitted when the
  previous run ends (SWF fields 17/18: preceding job, think time 0) and has the same size and
  runtime (our choice: in the logs consecutive runs' log-runtimes correlate 0.65-0.9);
- new jobs arrive as a Poisson process (presumed, unverified) at the log's rate of new jobs.

Two knobs calibrate the fitted form to what Liu 2013/2015 say of their Feitelson workload
(docs/workload-models.md, "Calibrated to Liu's FWload"): ``runtime_scale`` multiplies both
runtime branch means (Liu 2013 section 5.4 implies a mean runtime of 2,500 s: 600 s is "24
percent of the average job execution time"), and ``max_size`` caps the job size (Liu 2013
section 5.1: "between 1 and 256" processes when using workload models); sizes above it get
probability 0 and the others keep their relative weights.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs
import numpy as np

from ...logs import logger
from ..table import WorkloadTable
from ..work import processor_seconds
from .fitdata import load_fit
from .header import model_header
from .load import offered_load, solve_scale
from .params import ParameterError, check_integer, check_real, integer, machine_procs, real, target_load

log = logger(__name__)

TITLE = ("Feitelson 1996 model structure (JSSPP 1996, LNCS 1162) with constants FITTED by "
         "cloudsim_py to a PWA log - not the paper's published constants")

_FITTED = ("serial_weight", "pow2_weights", "other_weight", "short_mean", "long_mean",
           "short_prob_intercept", "short_prob_slope", "repeat_exponent", "max_repeats",
           "mean_interarrival")


def _pow2_weights(value: Any) -> dict[int, float] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ParameterError("pow2_weights", f"must map powers of two to weights, got {value!r}")
    out = {}
    for key, w in value.items():
        try:
            k = int(key)
        except (TypeError, ValueError):
            raise ParameterError("pow2_weights", f"key {key!r} is not an integer") from None
        if k < 2 or k & (k - 1):
            raise ParameterError("pow2_weights", f"key {key!r} is not a power of two >= 2")
        check_real(f"pow2_weights.{k}", w, 0.0)
        out[k] = float(w)
    return out


@attrs.define(slots=True)
class Feitelson96:
    """Feitelson 1996 generator; constants default to the fit named by ``fit`` (module docstring).

    ``procs`` defaults to the fitted machine; ``load``: target offered load, reached by scaling
    the gaps between new jobs (repetitions follow their predecessor, so the scale is solved
    iteratively); ``None`` keeps the fitted arrival rate.

    ``procs`` and the fitted constants accept ``None`` (their default): ``__attrs_post_init__``
    replaces it by the fit's value, so after construction each of them holds a value (hence the
    non-optional annotations).
    """

    fit: str = attrs.field(default="SDSC-Par-1996")
    procs: int = attrs.field(default=None, validator=machine_procs(optional=True))
    load: float | None = attrs.field(default=None, validator=target_load())
    harmonic_order: float = attrs.field(default=1.5, validator=real(0.0))
    serial_weight: float = attrs.field(default=None, validator=real(0.0, optional=True))
    pow2_weights: dict[int, float] = attrs.field(default=None, converter=_pow2_weights)
    other_weight: float = attrs.field(default=None, validator=real(0.0, optional=True))
    short_mean: float = attrs.field(default=None, validator=real(0.0, lo_open=True, optional=True))
    long_mean: float = attrs.field(default=None, validator=real(0.0, lo_open=True, optional=True))
    short_prob_intercept: float = attrs.field(default=None, validator=real(optional=True))
    short_prob_slope: float = attrs.field(default=None, validator=real(optional=True))
    repeat_exponent: float = attrs.field(default=None, validator=real(0.0, optional=True))
    max_repeats: int = attrs.field(default=None, validator=integer(1, optional=True))
    mean_interarrival: float = attrs.field(default=None, validator=real(0.0, lo_open=True, optional=True))
    runtime_scale: float = attrs.field(default=1.0, validator=real(0.0, lo_open=True))
    max_size: int | None = attrs.field(default=None, validator=integer(1, optional=True))
    label: str = attrs.field(default="", init=False)
    achieved_load: float | None = attrs.field(default=None, init=False)

    def __attrs_post_init__(self) -> None:
        if any(getattr(self, name) is None for name in _FITTED) or self.procs is None:
            data = load_fit("feitelson96", self.fit)
            constants = data["constants"]
            for name in _FITTED:
                if getattr(self, name) is None:
                    value = constants[name]
                    setattr(self, name, _pow2_weights(value) if name == "pow2_weights" else value)
            if self.procs is None:
                self.procs = int(data["machine_procs"])
            self.label = data["label"]
        else:
            self.label = "feitelson96 structure with user-given constants"

    # -- the model's distributions ---------------------------------------------------------
    def size_probabilities(self) -> np.ndarray:
        """P(size = n) for n = 1..procs; 0 above ``max_size``."""
        n = np.arange(1, self.procs + 1)
        pow2 = (n & (n - 1)) == 0
        w = np.full(self.procs, float(self.other_weight))
        for k, weight in self.pow2_weights.items():
            if k <= self.procs:
                w[k - 1] = weight
        w[0] = self.serial_weight
        w = np.where(pow2 | (n == 1), w, self.other_weight) * n ** -float(self.harmonic_order)
        if self.max_size is not None:
            w = np.where(n <= self.max_size, w, 0.0)
        total = w.sum()
        if not total > 0:
            raise ParameterError("serial_weight", "all size weights are zero")
        return w / total

    def short_probability(self, size: np.ndarray) -> np.ndarray:
        """p(n) = clip(intercept + slope x n, 0, 1): probability of the short runtime branch."""
        return np.clip(self.short_prob_intercept + self.short_prob_slope * np.asarray(size, dtype=float), 0.0, 1.0)

    def repeat_probabilities(self) -> np.ndarray:
        """P(K = k) ~ k^-repeat_exponent, k = 1..max_repeats."""
        k = np.arange(1, self.max_repeats + 1, dtype=float)
        p = k ** -float(self.repeat_exponent)
        return p / p.sum()

    def generate(self, jobs: int, rng: np.random.Generator) -> WorkloadTable:
        """``jobs`` jobs (groups of repeated runs cut at ``jobs``), sorted by submit time."""
        check_integer("jobs", jobs, 1)
        rep_p = self.repeat_probabilities()
        mean_k = float(np.dot(np.arange(1, len(rep_p) + 1), rep_p))
        lengths = np.empty(0, dtype=np.int64)
        while lengths.sum() < jobs:
            more = int(math.ceil((jobs - lengths.sum()) / mean_k * 1.05)) + 16
            lengths = np.concatenate((lengths, rng.choice(len(rep_p), size=more, p=rep_p) + 1))
        ends = np.cumsum(lengths)
        groups = int(np.searchsorted(ends, jobs)) + 1
        lengths = lengths[:groups].copy()
        lengths[-1] -= int(ends[groups - 1] - jobs)
        size = rng.choice(self.procs, size=groups, p=self.size_probabilities()) + 1
        short = rng.random(groups) < self.short_probability(size)
        means = np.where(short, self.short_mean, self.long_mean) * float(self.runtime_scale)
        run = np.maximum(1.0, np.ceil(rng.exponential(means)))
        arrival = np.cumsum(rng.exponential(self.mean_interarrival, groups))

        g = np.repeat(np.arange(groups), lengths)
        starts = np.cumsum(lengths) - lengths
        pos = np.arange(jobs) - starts[g]
        offset = pos * run[g]                   # each repetition starts when the previous one ends
        job_size, job_run = size[g], run[g]
        work = processor_seconds(job_size, job_run)

        def submits(c: float) -> np.ndarray:
            return np.rint(arrival * c)[g] + offset

        def load_at(c: float) -> float:
            s = submits(c)
            span = float(s.max() - s.min())
            return work / (self.procs * span) if span > 0 else math.inf

        c = 1.0
        if self.load is not None and jobs > 1:
            c, reached = solve_scale(load_at, self.load)
            chain = float(np.max((lengths - 1) * run))
            if chain > 0 and work / (self.procs * chain) < self.load * (1 - 1e-3):
                log.warning("feitelson96: one run of %d repetitions alone spans %.0f s, so %d jobs cannot "
                            "reach load %.3g (reached %.3g); generate more jobs or lower max_repeats "
                            "(now %d)", int(lengths[np.argmax((lengths - 1) * run)]), chain, jobs,
                            self.load, reached, self.max_repeats)
        submit = submits(c)
        order = np.argsort(submit, kind="stable")
        number = np.empty(jobs, dtype=np.int64)
        number[order] = np.arange(1, jobs + 1)
        preceding = np.where(pos > 0, number[np.maximum(np.arange(jobs) - 1, 0)], -1)
        think = np.where(pos > 0, 0, -1)
        submit, job_size, job_run = submit[order], job_size[order], job_run[order]
        preceding, think = preceding[order], think[order]
        achieved = offered_load(submit, job_size, job_run, self.procs)
        self.achieved_load = achieved
        params: dict[str, Any] = {"fit": self.fit, "label": self.label, "procs": self.procs,
                                  "load": self.load, "interarrival_scale": c}
        params.update({name: getattr(self, name) for name in ("harmonic_order", *_FITTED)})
        params.update(runtime_scale=self.runtime_scale, max_size=self.max_size)
        header = model_header("feitelson96 fitted to " + self.fit if "fitted" in self.label else "feitelson96",
                              TITLE, self.procs, jobs, params, achieved, self.load,
                              notes=[self.label, "repeated runs: field 17 = preceding run, field 18 = "
                                     "think time 0; no requested times (use the tsafrir05 estimate mode)"])
        cols = {"submit": submit, "run": job_run, "alloc_procs": job_size, "req_procs": job_size,
                "status": np.ones(jobs), "preceding": preceding, "think": think}
        return WorkloadTable.from_columns(cols, source=f"feitelson96({jobs} jobs)", header=header)
