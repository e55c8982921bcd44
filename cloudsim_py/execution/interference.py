"""Interference between tiers: the random factors of the two-tier papers and their presets.

Liu 2015 section 3.1 / 4.1 and Liu 2013 section 3 / 5.1: a foreground process loses ``loss``
when a lower tier is busy; a process under a busy higher tier advances at
``eff * min(1, cpu_idle / cpu_req)``. Imports nothing from the engine.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from ..errors import ScenarioError
from ..registry import Registry


def _unit(name: str):
    def check(inst, attr, value):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"interference {name}.{attr.name} = {value} outside [0, 1]")
    return check


#: when the background efficiency ``eff`` is drawn (key ``eff_draw``), the readings of Liu 2015
#: sections 3.1 / 4.1 (docs/progress.md, "When eff is drawn"; the ``liu2015`` preset: ``mean``):
#: ``placement``: once per job placement, shared by the job's processes;
#: ``slice``: as ``placement``, then redrawn for every running job every ``datacenter.slice_s``;
#: ``process``: once per process at each placement (the job runs at its slowest process);
#: ``mean``: no draw, the expected value of the job's distribution.
EFF_DRAWS = ("placement", "slice", "process", "mean")


#: how a job advances from its processes' speeds (key ``job_progress``, Liu 2013 section 5.1:
#: "the progress of a job depends on the progress of the slowest process in the job"):
#: ``lockstep``: at its slowest process's current speed, all the time;
#: ``per_process``: each process at its own speed, the job as far as its least advanced one;
#: ``per_process_all_idle``: as ``per_process``, with the full-speed cases of Liu 2015 eqs. 1-2
#: read for the whole job ("if its fg VMs are all idle", "if its bg VMs are all idle"): a
#: background process runs at 1 only while every foreground VM of its job is idle, else at
#: ``eff * min(1, cpu_idle / cpu_req)`` (``eff`` under an idle one); a foreground process
#: loses ``loss`` while any background VM of its job is busy. Under ``lockstep`` the two
#: conditions give the same job speed (its slowest process), so only per process they differ;
#: ``barriers``: as ``per_process``, but the processes wait for each other every
#: ``barrier_work`` seconds of work (bulk-synchronous steps): between the other two.
JOB_PROGRESS = ("lockstep", "per_process", "per_process_all_idle", "barriers")


def _job_progress(inst, attr, value):
    if value not in JOB_PROGRESS:
        raise ValueError(f"interference job_progress = {value!r}: expected one of {', '.join(JOB_PROGRESS)}")


def _eff_draw(inst, attr, value):
    if value not in EFF_DRAWS:
        raise ValueError(f"interference eff_draw = {value!r}: expected one of {', '.join(EFF_DRAWS)}")


def clipped_normal_mean(mean: float, sd: float, low: float, high: float) -> float:
    """E[min(high, max(low, X))] for X ~ N(mean, sd): the mass below ``low`` counts as ``low``,
    above ``high`` as ``high`` (the draw is clipped, not truncated). ``sd`` 0: the clipped mean."""
    if sd == 0:
        return min(high, max(low, mean))
    a, b = (low - mean) / sd, (high - mean) / sd

    def cdf(z: float) -> float:
        return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))

    def pdf(z: float) -> float:
        return math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)

    return (low * cdf(a) + high * (1.0 - cdf(b))
            + mean * (cdf(b) - cdf(a)) + sd * (pdf(a) - pdf(b)))


@attrs.define(slots=True)
class InterferenceModel:
    """Distributions of the interference factors, drawn at each job placement.

    loss ~ U(loss_low, loss_high); eff ~ U(single_low, single_high) for single-process jobs,
    N(multi_mean, multi_sd) clipped to [multi_low, multi_high] otherwise. ``threshold``: no
    lower-tier placement on a host whose higher tiers use this much or more (estimated);
    ``idle_floor``: the least CPU share a lower tier is assumed to get (4 %).
    Equal low and high bounds (and sd 0) give fixed factors, as the worked-example tests use.
    ``eff_draw`` (one of :data:`EFF_DRAWS`) says when ``eff`` is drawn: the readings Liu 2015
    sections 3.1 and 4.1 allow (docs/progress.md); ``loss`` is drawn per placement in all of them.
    ``job_progress`` (one of :data:`JOB_PROGRESS`) says how a job advances from its processes'
    speeds (docs/progress.md); ``barrier_work`` is the work (seconds at full speed) of one
    process between two barriers under ``barriers``, and must be given then and only then.
    """

    name: str = "custom"
    loss_low: float = attrs.field(default=0.0, validator=_unit("loss"))
    loss_high: float = attrs.field(default=0.0, validator=_unit("loss"))
    single_low: float = attrs.field(default=1.0, validator=_unit("eff"))
    single_high: float = attrs.field(default=1.0, validator=_unit("eff"))
    multi_mean: float = attrs.field(default=1.0, validator=_unit("eff"))
    multi_sd: float = 0.0
    multi_low: float = attrs.field(default=1.0, validator=_unit("eff"))
    multi_high: float = attrs.field(default=1.0, validator=_unit("eff"))
    threshold: float = 0.96
    idle_floor: float = attrs.field(default=0.04, validator=_unit("idle_floor"))
    eff_draw: str = attrs.field(default="placement", validator=_eff_draw)
    job_progress: str = attrs.field(default="lockstep", validator=_job_progress)
    barrier_work: float = 0.0

    def __attrs_post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"interference threshold {self.threshold} outside (0, 1]")
        if self.loss_low > self.loss_high or self.single_low > self.single_high \
                or self.multi_low > self.multi_high:
            raise ValueError("interference: a low bound exceeds its high bound")
        if self.multi_sd < 0:
            raise ValueError(f"interference multi_sd {self.multi_sd} is negative")
        if self.job_progress == "barriers":
            if not 0.0 < self.barrier_work < math.inf:
                raise ValueError(f"interference barrier_work {self.barrier_work}: job_progress barriers "
                                 f"needs the work of one step between barriers, a positive number of seconds")
        elif self.barrier_work != 0.0:
            raise ValueError(f"interference barrier_work {self.barrier_work} is only read under job_progress "
                             f"barriers, not {self.job_progress}")

    def mean_eff(self, procs: int) -> float:
        """The expected ``eff`` of a job of ``procs`` processes: (low + high) / 2 for one
        process, the mean of the clipped normal otherwise (the ``mean`` reading)."""
        if procs == 1:
            return 0.5 * (self.single_low + self.single_high)
        return clipped_normal_mean(self.multi_mean, self.multi_sd, self.multi_low, self.multi_high)

    def sampler(self, rng: np.random.Generator) -> "FactorSampler":
        return FactorSampler(self, rng)


class FactorSampler:
    """Draws ``(eff, loss)`` per job placement from the model's distributions; buffered, so a
    placement costs list slices, not numpy calls.

    Anything with the same ``draw_many(job, n)`` method can replace it
    (``Datacenter(factors=...)``), e.g. :class:`FixedFactors` in worked-example tests."""

    __slots__ = ("m", "rng", "_u", "_n", "_iu", "_in", "_mean")

    def __init__(self, model: InterferenceModel, rng: np.random.Generator) -> None:
        self.m = model
        self.rng = rng
        self._mean = (model.mean_eff(1), model.mean_eff(2))
        self._u: list[float] = []
        self._n: list[float] = []
        self._iu = self._in = 0

    def _uniforms(self, n: int) -> list[float]:
        if self._iu + n > len(self._u):
            self._u = self.rng.random(max(4096, n)).tolist()
            self._iu = 0
        i = self._iu
        self._iu = i + n
        return self._u[i:i + n]

    def _normals(self, n: int) -> list[float]:
        if self._in + n > len(self._n):
            self._n = self.rng.standard_normal(max(4096, n)).tolist()
            self._in = 0
        i = self._in
        self._in = i + n
        return self._n[i:i + n]

    def draw_many(self, job, n: int) -> list[tuple[float, float]]:
        """``(eff, loss)`` for the ``n`` processes of one placement of ``job`` (or, with
        ``eff_draw: slice``, of one time slice). ``loss`` is drawn once and shared by the
        processes; ``eff`` by the model's ``eff_draw`` (Liu 2015 sections 3.1, 4.1):
        ``placement`` and ``slice``: one draw shared by the processes (the papers measure and
        model it per job, "for a single-process background job ... for a multi-processes
        background job"); ``process``: one draw per process, the job running at its slowest;
        ``mean``: the distribution's expected value; it takes (and drops) the numbers
        ``placement`` would use for eff, so the two readings draw the same losses all along and
        differ in eff only (common random numbers)."""
        m = self.m
        u_loss, u_eff = self._uniforms(2)
        loss = m.loss_low + (m.loss_high - m.loss_low) * u_loss
        how = m.eff_draw
        if how == "mean":
            if job.procs == 1:
                return [(self._mean[0], loss)] * n
            self._normals(1)
            return [(self._mean[1], loss)] * n
        if job.procs == 1:
            eff = m.single_low + (m.single_high - m.single_low) * u_eff
        elif how == "process":
            return [(min(m.multi_high, max(m.multi_low, m.multi_mean + m.multi_sd * z)), loss)
                    for z in self._normals(n)]
        else:
            eff = min(m.multi_high, max(m.multi_low, m.multi_mean + m.multi_sd * self._normals(1)[0]))
        return [(eff, loss)] * n


presets: Registry[InterferenceModel] = Registry("interference preset", entry_point_group=None,
                                                 error=ScenarioError)

# Liu 2015 section 3.1 / 4.1: loss U(0.5 %, 4 %); eff U(0.8, 1) single-process,
# N(0.43, 0.14) within [0.2, 0.8] multi-process. eff is "how much time in a time slice
# effectively contributes" (section 4.1), a draw per time slice whose sum over a job's many
# slices is its expected value: eff_draw "mean" (docs/reproduction-notes.md, "When the
# background efficiency is drawn"). A job's processes wait for each other every 1,800 s of work
# (job_progress "barriers"): of the readings the papers allow, the one that puts every CCFCFS and
# ACFCFS cell of Table 2 on KTH and CTC within 15 % of the paper's (16 of 16 over five seeds;
# lockstep 13, per process 10; docs/reproduction-notes.md, "Processes that wait for each other
# at intervals"). The step length is not in the papers: it was chosen from that table.
presets.register("liu2015")(InterferenceModel(
    "liu2015", loss_low=0.005, loss_high=0.04, single_low=0.8, single_high=1.0,
    multi_mean=0.43, multi_sd=0.14, multi_low=0.2, multi_high=0.8, eff_draw="mean",
    job_progress="barriers", barrier_work=1800.0))
# Liu 2013 sections 3 and 5.1: loss U(0, 3.7 %); eff N(0.428, 0.144) within [0.198, 0.766].
presets.register("liu2013")(InterferenceModel(
    "liu2013", loss_low=0.0, loss_high=0.037, single_low=0.8, single_high=1.0,
    multi_mean=0.428, multi_sd=0.144, multi_low=0.198, multi_high=0.766))
# No interference at all: every process at full speed whatever shares its host.
presets.register("none")(InterferenceModel("none"))


class FixedFactors:
    """``(eff, loss)`` chosen per job id (default for the others): for replaying the papers'
    worked examples, where the narration fixes how fast each background job advances."""

    __slots__ = ("eff", "loss", "default")

    def __init__(self, eff: dict[int, float] | None = None, loss: dict[int, float] | None = None,
                 default: tuple[float, float] = (1.0, 0.0)) -> None:
        self.eff = eff or {}
        self.loss = loss or {}
        self.default = default

    def draw_many(self, job, n: int) -> list[tuple[float, float]]:
        return [(self.eff.get(job.id, self.default[0]), self.loss.get(job.id, self.default[1]))] * n
