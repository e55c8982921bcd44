"""Lublin & Feitelson 2003 rigid-job model: sizes, runtimes and daily-cycle arrivals.

U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers: modeling the
characteristics of rigid jobs", JPDC 63(11):1105-1122, 2003. Every constant and step follows
WORKLOAD_MODELS.md section 2 (the defaults of the authors' generator, fitted to a 128-node
machine): two independent arrival streams (batch and interactive, "typed" mode) or one
("typeless" mode), a two-stage log-uniform size with serial and power-of-two mass, a hyper-gamma
log-runtime whose mixing probability depends on the size, and gamma log-inter-arrival times
warped by a 48-bucket daily cycle.

Vectorised: the C generator walks the daily-cycle buckets one arrival at a time; that walk is a
monotone time warp (cumulative rush-hour time -> wall-clock time, section 2.4), so all arrivals
are computed at once by inverting the cumulative bucket weights. The per-step truncation of the
arrival increment to whole seconds is kept.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Any, Mapping

import attrs
import numpy as np

from ..table import WorkloadTable
from .header import model_header
from .load import offered_load, solve_scale
from .params import ParameterError, boolean, machine_procs, real, target_load
from .special import gamma_cdf

TITLE = ("Lublin & Feitelson 2003 rigid-job model (JPDC 63(11)), constants of the authors' "
         "generator m_lublin99.c")

BUCKETS = 48                 #: half-hour buckets per day (section 2.2)
BUCKET_SECONDS = 1800.0
CYCLIC_DAY_START = 11        #: the daily gamma starts at bucket index 11 (05:00-05:30)
MAX_LOG_RUNTIME = 12.0       #: log-runtime draws above this are redrawn (runtime cap e^12)
MAX_LOG_INTERARRIVAL = 13.0  #: log-inter-arrival draws above this are redrawn
MAX_RUNTIME = 162_754        #: ``int(e^12)``, the ``MaxRuntime`` of the generator's headers

#: Published (UMed, UHi) of each stream at 128 nodes (section 2.2); see :meth:`Lublin03.streams`.
PUBLISHED_U: Mapping[str, tuple[float, float]] = MappingProxyType(
    {"batch": (5.0, 7.0), "interactive": (3.0, 5.5), "typeless": (4.5, 7.0)})

_prob = real(0.0, 1.0)
_positive = real(0.0, lo_open=True)


@attrs.define(slots=True, frozen=True)
class LublinStream:
    """The parameters of one stream: one column of the table in WORKLOAD_MODELS.md 2.2.

    ``umed`` and ``uhi`` default to ``None``: derived from the machine size by
    :meth:`Lublin03.streams` (which gives the published values on 128 processors).
    """

    serial_prob: float = attrs.field(validator=_prob)
    pow2_prob: float = attrs.field(validator=_prob)
    ulow: float = attrs.field(validator=real(0.0))
    umed: float | None = attrs.field(validator=real(0.0, optional=True))
    uhi: float | None = attrs.field(validator=real(0.0, optional=True))
    uprob: float = attrs.field(validator=_prob)
    a1: float = attrs.field(validator=_positive)
    b1: float = attrs.field(validator=_positive)
    a2: float = attrs.field(validator=_positive)
    b2: float = attrs.field(validator=_positive)
    pa: float = attrs.field(validator=real())
    pb: float = attrs.field(validator=real())
    aarr: float = attrs.field(validator=_positive)
    barr: float = attrs.field(validator=_positive)
    arar: float = attrs.field(validator=_positive)
    anum: float = attrs.field(validator=_positive)
    bnum: float = attrs.field(validator=_positive)

    def __attrs_post_init__(self) -> None:
        if self.serial_prob + self.pow2_prob > 1.0 + 1e-12:
            raise ParameterError("pow2_prob", f"serial_prob + pow2_prob must be <= 1, got "
                                 f"{self.serial_prob} + {self.pow2_prob}")
        if self.umed is not None and self.umed < self.ulow:
            raise ParameterError("umed", f"must be >= ulow ({self.ulow}), got {self.umed}")
        if self.umed is not None and self.uhi is not None and self.uhi < self.umed:
            raise ParameterError("uhi", f"must be >= umed ({self.umed}), got {self.uhi}")

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def daily_weights(self) -> np.ndarray:
        """The 48 bucket weights of the daily cycle, averaging 1 (section 2.4, preparation)."""
        w = np.empty(BUCKETS)
        for k in range(CYCLIC_DAY_START, CYCLIC_DAY_START + BUCKETS):
            w[(k - 1) % BUCKETS] = (gamma_cdf(k + 0.5, self.anum, self.bnum)
                                    - gamma_cdf(k - 0.5, self.anum, self.bnum))
        return w / w.mean()


#: Published constants (section 2.2). ``umed``/``uhi`` are derived from the machine size.
BATCH = LublinStream(serial_prob=0.2927, pow2_prob=0.6686, ulow=1.2, umed=None, uhi=None, uprob=0.875,
                     a1=6.57, b1=0.823, a2=639.1, b2=0.0156, pa=-0.003, pb=0.6986,
                     aarr=6.0415, barr=0.8531, arar=1.0519, anum=6.1271, bnum=5.2740)
INTERACTIVE = LublinStream(serial_prob=0.1541, pow2_prob=0.625, ulow=1.0, umed=None, uhi=None, uprob=0.705,
                           a1=3.8351, b1=0.6605, a2=7.073, b2=0.6856, pa=-0.0118, pb=0.9156,
                           aarr=6.5510, barr=0.6621, arar=0.9797, anum=8.9186, bnum=3.6680)
TYPELESS = LublinStream(serial_prob=0.244, pow2_prob=0.576, ulow=0.8, umed=None, uhi=None, uprob=0.86,
                        a1=4.2, b1=0.94, a2=312.0, b2=0.03, pa=-0.0054, pb=0.78,
                        aarr=10.2303, barr=0.4871, arar=1.0225, anum=8.1737, bnum=3.9631)


def _stream(value: Any, default: LublinStream, name: str) -> LublinStream:
    """attrs converter (through a lambda naming the stream): a stream, or a mapping of overrides
    on top of the published stream ``default``."""
    if isinstance(value, LublinStream):
        return value
    if not isinstance(value, Mapping):
        raise ParameterError(name, f"must be a mapping of stream parameters, got {value!r}")
    known = {f.name for f in attrs.fields(LublinStream)}
    for key in value:
        if key not in known:
            raise ParameterError(f"{name}.{key}", f"unknown parameter; known: {', '.join(sorted(known))}")
    try:
        return attrs.evolve(default, **value)
    except ParameterError as exc:
        raise exc.within(name) from None


@attrs.define(slots=True)
class Lublin03:
    """Lublin & Feitelson 2003 generator (WORKLOAD_MODELS.md section 2), 128 processors by default.

    ``typed=True``: independent batch and interactive streams, field 15 (queue) = 1 / 0;
    ``typed=False``: the "whole sample" parameters, every job labelled interactive (0).
    Other machine sizes follow section 2.5: ``uhi = log2(procs)`` and ``umed`` keeps its
    published distance below ``uhi`` for the batch and typeless streams; the interactive stream
    keeps ``uhi = 5.5``, ``umed = 3`` unless the machine is smaller. Explicit ``umed``/``uhi``
    in a stream override this. Sizes above ``procs`` are clipped to ``procs`` (as GridSim's port
    does; with power-of-two machines this never happens).

    ``load``: target offered load, reached by scaling the rush-hour inter-arrival times (so the
    daily cycle keeps its 24 h period); ``None`` keeps the published arrival rate. The model has no
    runtime estimates: pair it with the ``tsafrir05`` estimate mode.

    ``truncate=True`` adds each arrival increment truncated to whole seconds, as the C generator
    does (section 2.4 step 5); the cycle's state is not truncated, so arrivals drift ahead of it
    by 0.5 s per job on average (1.4 h after 10,000 jobs). ``False`` rounds the exact times
    instead (no drift).
    """

    procs: int = attrs.field(default=128, validator=machine_procs())
    typed: bool = attrs.field(default=True, validator=boolean())
    load: float | None = attrs.field(default=None, validator=target_load())
    batch: LublinStream = attrs.field(default=BATCH, converter=lambda v: _stream(v, BATCH, "batch"))
    interactive: LublinStream = attrs.field(default=INTERACTIVE,
                                            converter=lambda v: _stream(v, INTERACTIVE, "interactive"))
    typeless: LublinStream = attrs.field(default=TYPELESS, converter=lambda v: _stream(v, TYPELESS, "typeless"))
    truncate: bool = attrs.field(default=True, validator=boolean())
    achieved_load: float | None = attrs.field(default=None, init=False)

    def streams(self) -> dict[str, LublinStream]:
        """The active streams with ``umed``/``uhi`` resolved for ``procs`` (type 1 = batch, 0 = interactive)."""
        log2m = math.log2(self.procs)
        names = ("batch", "interactive") if self.typed else ("typeless",)
        out = {}
        for name in names:
            s: LublinStream = getattr(self, name)
            med0, hi0 = PUBLISHED_U[name]
            if name == "interactive":
                hi = min(hi0, log2m) if s.uhi is None else s.uhi
                med = min(med0, hi) if s.umed is None else s.umed
            else:
                hi = log2m if s.uhi is None else s.uhi
                med = hi - (hi0 - med0) if s.umed is None else s.umed
            hi = max(hi, s.ulow)               # machines below 2^ulow: everything is clipped
            med = min(max(med, s.ulow), hi)
            out[name] = attrs.evolve(s, umed=med, uhi=hi)
        return out

    # -- one stream's jobs -------------------------------------------------------------------
    @staticmethod
    def _gamma_capped(rng: np.random.Generator, shape: np.ndarray | float, scale: np.ndarray | float,
                      n: int, cap: float) -> np.ndarray:
        """Gamma draws, each redrawn while above ``cap`` (sections 2.2 and 2.3)."""
        shape_a = np.broadcast_to(np.asarray(shape, dtype=float), (n,))
        scale_a = np.broadcast_to(np.asarray(scale, dtype=float), (n,))
        y = rng.gamma(shape_a, scale_a)
        bad = np.flatnonzero(y > cap)
        while bad.size:
            y[bad] = rng.gamma(shape_a[bad], scale_a[bad])
            bad = bad[y[bad] > cap]
        return y

    def _sizes(self, s: LublinStream, n: int, rng: np.random.Generator) -> np.ndarray:
        """Section 2.3 step 2: serial, power-of-two or other size from the two-stage uniform."""
        umed, uhi = s.umed, s.uhi
        assert umed is not None and uhi is not None, "stream not resolved for procs (use streams())"
        u = rng.random(n)
        lower = rng.random(n) < s.uprob
        v = rng.random(n)
        x = np.where(lower, s.ulow + v * (umed - s.ulow), umed + v * (uhi - umed))
        x = np.where(u <= s.serial_prob + s.pow2_prob, np.round(x), x)
        size = np.round(np.exp2(x))
        size = np.where(u <= s.serial_prob, 1.0, size)
        return np.clip(size, 1, self.procs).astype(np.int64)

    def _runtimes(self, s: LublinStream, size: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Section 2.3 step 3: hyper-gamma log-runtime, first branch with p = clip(pa*size + pb)."""
        n = size.shape[0]
        p = np.clip(s.pa * size + s.pb, 0.0, 1.0)
        first = rng.random(n) < p
        y = self._gamma_capped(rng, np.where(first, s.a1, s.a2), np.where(first, s.b1, s.b2), n,
                               MAX_LOG_RUNTIME)
        return np.floor(np.exp(y)).astype(np.int64)

    @staticmethod
    def _arrival_warp(s: LublinStream) -> tuple[np.ndarray, np.ndarray]:
        w = s.daily_weights()
        return w, np.concatenate(([0.0], np.cumsum(w)))

    @staticmethod
    def _arrivals(points: np.ndarray, c: float, w: np.ndarray, cw: np.ndarray, truncate: bool = True) -> np.ndarray:
        """Arrival times (integer s) for cumulative rush-hour time ``points`` scaled by ``c``.

        Section 2.4: crossing bucket b costs ``w[b]`` points; the wall-clock position tau (in
        buckets) of cumulative points T solves W(tau) = T with W the cumulative weight. Each
        arrival's increment 1800 x (tau_i - tau_{i-1}) is truncated to whole seconds, as in C
        (``truncate``), or the exact times are rounded.
        """
        t = points * c
        day_points = cw[-1]
        day = np.floor(t / day_points)
        rem = t - day * day_points
        b = np.clip(np.searchsorted(cw, rem, side="right") - 1, 0, BUCKETS - 1)
        tau = day * BUCKETS + b + (rem - cw[b]) / w[b]
        if not truncate:
            return np.rint(tau * BUCKET_SECONDS).astype(np.int64)
        delta = np.diff(tau * BUCKET_SECONDS, prepend=0.0)
        return np.cumsum(np.floor(delta)).astype(np.int64)

    def generate(self, jobs: int, rng: np.random.Generator) -> WorkloadTable:
        """``jobs`` jobs as SWF columns (sorted by submit time), header with every parameter."""
        if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
            raise ParameterError("jobs", f"must be a positive integer, got {jobs!r}")
        jobs = int(jobs)
        streams = self.streams()
        kind = {"batch": 1, "interactive": 0, "typeless": 0}
        parts = {}
        for name, s in streams.items():
            gaps = np.exp(self._gamma_capped(rng, s.aarr * s.arar, s.barr, jobs, MAX_LOG_INTERARRIVAL))
            size = self._sizes(s, jobs, rng)
            run = self._runtimes(s, size, rng)
            w, cw = self._arrival_warp(s)
            parts[name] = (np.cumsum(gaps) / BUCKET_SECONDS, w, cw, size, run,
                           np.cumsum(size * run.astype(np.float64)))

        def select(c: float) -> tuple[dict[str, np.ndarray], dict[str, int]]:
            times = {name: self._arrivals(p[0], c, p[1], p[2], self.truncate) for name, p in parts.items()}
            if len(times) == 1:
                return times, {next(iter(times)): jobs}
            tb, ti = times["batch"], times["interactive"]
            # merged order: by time, interactive first on ties (C tests "batch strictly earlier")
            rank_b = np.arange(jobs) + np.searchsorted(ti, tb, side="right")
            nb = int(np.searchsorted(rank_b, jobs))
            return times, {"batch": nb, "interactive": jobs - nb}

        def load_of(c: float) -> float:
            times, counts = select(c)
            work = sum(float(parts[k][5][n - 1]) for k, n in counts.items() if n)
            first = min(int(times[k][0]) for k, n in counts.items() if n)
            last = max(int(times[k][n - 1]) for k, n in counts.items() if n)
            return work / (self.procs * (last - first)) if last > first else math.inf

        c = 1.0
        if self.load is not None:
            c, _ = solve_scale(load_of, self.load)
        times, counts = select(c)
        submit = np.concatenate([times[k][:n] for k, n in counts.items()])
        typ = np.concatenate([np.full(n, kind[k]) for k, n in counts.items()])
        size = np.concatenate([parts[k][3][:n] for k, n in counts.items()])
        run = np.concatenate([parts[k][4][:n] for k, n in counts.items()])
        order = np.lexsort((typ, submit))
        submit, typ, size, run = submit[order], typ[order], size[order], run[order]
        achieved = offered_load(submit, size, run, self.procs)
        self.achieved_load = achieved
        params: dict[str, Any] = {"procs": self.procs, "typed": self.typed, "load": self.load,
                                  "truncate": self.truncate, "interarrival_scale": c}
        for name, s in streams.items():
            for key, value in s.as_dict().items():
                params[f"{name}_{key}"] = value
        header = model_header("lublin03", TITLE, self.procs, jobs, params, achieved, self.load,
                              max_runtime=MAX_RUNTIME,
                              notes=["queue field = job type (0 interactive, 1 batch); no requested "
                                     "times (use the tsafrir05 estimate mode)"])
        cols = {"submit": submit, "run": run, "alloc_procs": size, "req_procs": size,
                "status": np.ones(jobs), "queue": typ}
        return WorkloadTable.from_columns(cols, source=f"lublin03({jobs} jobs)", header=header)
