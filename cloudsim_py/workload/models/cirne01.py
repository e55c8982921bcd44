"""Cirne & Berman 2001 moldability model: turns the rigid jobs of a workload into moldable ones.

W. Cirne and F. Berman, "A model for moldable supercomputer jobs", IPDPS 2001 (and the WWC-4 2001
"comprehensive model"). Constants as coded in the public source described in WORKLOAD_MODELS.md
section 7 (single source, section 7.4): each job gets a Downey speedup profile (average
parallelism ``A``, variance ``sigma``), a smallest and a largest useful partition, a size
constraint, and a list of alternative sizes it can run on, with the runtime and requested time
on each (section 7.2). Distributions are the "uniform-log" UL(a, b) of section 7.1.

Vectorised over jobs except the offered-size lists, which are ragged (a short Python step per
job).
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from .downey97 import downey_cmax, downey_speedup
from .params import ParameterError, real

#: Size-constraint kinds, and their mix in the "job nature" mode (section 7.2).
CONSTRAINTS = ("rigid", "pow2", "square", "even", "mult4", "none")
NATURE_MIX = (0.02, 0.10, 0.02, 0.08, 0.08, 0.70)

CMIN_UL = (0.0692, 0.6279)           #: cmin = max(1, ceil(UL(0.0692, 0.6279)))
SIGMA_NORMAL = (1.209, 1.132)        #: sigma = max(0, Normal(1.209, 1.132)) x k_sigma
A_JOINT = (0.009548, -0.01877, 0.07468, -0.009198)  #: xy, x, y and constant terms of a', b'
CU_UL = (0.1918, 0.1876)             #: requests offered = max(2, ceil(UL(0.1918, 0.1876)))


def uniform_log(a: float | np.ndarray, b: float | np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """UL(a, b) draws (section 7.1): cdf ``a log2(x) + b`` clipped to [0, 1]; ``x = 2^((U - b)/a)``."""
    return np.exp2((rng.random(size) - b) / a)


def joint_a_params(cmin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The UL(a', b') of the average parallelism given ``cmin`` (section 7.1)."""
    xy, x, y, c = A_JOINT
    lc = np.log2(np.asarray(cmin, dtype=np.float64))
    return xy * lc + y, x * lc + c


def _series(kind: str, lo: int, hi: int) -> np.ndarray:
    """Sizes obeying ``kind`` in ``[lo, hi]`` (series from 1, 2 for even, 4 for multiples of 4)."""
    if kind == "pow2":
        p = 1 << np.arange(0, max(hi, 1).bit_length())
        return p[(p >= lo) & (p <= hi)]
    if kind == "square":
        q = np.arange(1, math.isqrt(max(hi, 0)) + 1) ** 2
        return q[q >= lo]
    if kind == "even":
        return np.arange(max(2, lo + (lo % 2)), hi + 1, 2)
    if kind == "mult4":
        return np.arange(max(4, lo + (-lo) % 4), hi + 1, 4)
    return np.arange(max(1, lo), hi + 1)


def _offered(kind: str, lo: int, hi: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` distinct sizes obeying ``kind`` in ``[lo, hi]``, in random order - the first ``k``
    of the shuffled series (section 7.2); unconstrained ranges are sampled without listing them."""
    if kind == "none":
        count = max(0, hi - max(1, lo) + 1)
        return max(1, lo) + rng.choice(count, size=min(k, count), replace=False) if count else np.empty(0, np.int64)
    options = _series(kind, lo, hi)
    return options[rng.permutation(len(options))[:k]]


@attrs.define(slots=True, frozen=True)
class MoldableJobs:
    """Moldability of each job: Downey profile, usable partitions and what it offers.

    ``sizes[i]`` are the alternative sizes offered by job i (``sizes[i][0]`` is its original
    size), ``runtimes[i]`` and ``requested[i]`` its runtime and requested time on each.
    """

    A: np.ndarray
    sigma: np.ndarray
    cmin: np.ndarray
    cmax: np.ndarray
    work: np.ndarray
    constraint: np.ndarray
    sizes: list[np.ndarray]
    runtimes: list[np.ndarray]
    requested: list[np.ndarray]


def _accuracy(value: str | float) -> None:
    if isinstance(value, str):
        if value not in ("as-original", "random"):
            raise ParameterError("accuracy", f"must be as-original, random or a number in (0, 1]; got {value!r}")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ParameterError("accuracy", f"must be as-original, random or a number in (0, 1]; got {value!r}")


@attrs.define(slots=True)
class MoldabilityModel:
    """Section 7.2. ``constraint``: ``p2bias`` (the default, "current model": power-of-two if the
    original size is one, else unconstrained), ``cont`` (always unconstrained) or ``nature`` (the
    job-nature mix). ``accuracy``: requested time = runtime / accuracy with accuracy the job's
    own runtime/request ratio (``as-original``), U(0, 1) (``random``) or a fixed number."""

    k_sigma: float = attrs.field(default=1.0, validator=real(0.0))
    constraint: str = attrs.field(default="p2bias")
    accuracy: str | float = attrs.field(default="as-original")

    def __attrs_post_init__(self) -> None:
        if self.constraint not in ("p2bias", "cont", "nature"):
            raise ParameterError("constraint", f"must be p2bias, cont or nature; got {self.constraint!r}")
        _accuracy(self.accuracy)

    def apply(self, procs: np.ndarray, runtime: np.ndarray, machine_procs: int, rng: np.random.Generator,
              requested: np.ndarray | None = None) -> MoldableJobs:
        """Moldability for rigid jobs of ``procs`` processors and ``runtime`` seconds.

        Work ``L = max(1, ceil(S(n) x runtime))`` for jobs with a runtime, ``U(1, requested)``
        for jobs without one (cancelled; needs ``requested``).
        """
        procs = np.asarray(procs, dtype=np.int64)
        runtime = np.asarray(runtime, dtype=np.float64)
        n: int = procs.shape[0]
        req = np.asarray(requested, dtype=np.float64) if requested is not None else np.full(n, -1.0)
        cmin = np.maximum(1, np.ceil(uniform_log(*CMIN_UL, n, rng))).astype(np.int64)
        sigma = np.maximum(0.0, rng.normal(*SIGMA_NORMAL, n)) * self.k_sigma
        a2, b2 = joint_a_params(cmin)
        A = np.maximum(1.0, np.exp2((rng.random(n) - b2) / a2))
        cmax = np.minimum(downey_cmax(A, sigma), machine_procs)
        cmin = np.minimum(cmin, cmax)
        if self.constraint == "nature":
            kind = rng.choice(np.array(CONSTRAINTS), size=n, p=np.array(NATURE_MIX))
        else:
            pow2 = (procs > 0) & ((procs & (procs - 1)) == 0)
            kind = np.where(pow2 & (self.constraint == "p2bias"), "pow2", "none")
        cu = np.maximum(2, np.ceil(uniform_log(*CU_UL, n, rng))).astype(np.int64)
        cu = np.where(kind == "rigid", 1, cu)
        ran = runtime > 0
        if np.any(~ran & ~(req > 0)):
            raise ParameterError("runtime", "jobs without a runtime need a requested time (work ~ U(1, request))")
        speed_orig = downey_speedup(np.maximum(procs, 1), A, sigma)
        work = np.where(ran, np.maximum(1.0, np.ceil(speed_orig * np.maximum(runtime, 0))),
                        rng.uniform(1.0, np.maximum(req, 1.0 + 1e-9)))
        if self.accuracy == "as-original":
            acc = np.where(ran & (req > 0), np.clip(runtime / np.where(req > 0, req, 1.0), 1e-9, 1.0), 1.0)
        elif self.accuracy == "random":
            acc = 1.0 - rng.random(n)          # U(0, 1], never 0
        else:
            acc = np.full(n, float(self.accuracy))
        sizes = []
        for i in range(n):
            kind_i = str(kind[i])
            s = _offered(kind_i, int(cmin[i]), int(cmax[i]), int(cu[i]), rng) if kind_i != "rigid" else np.empty(0)
            s = s.astype(np.int64) if s.size else np.empty(1, dtype=np.int64)
            s[0] = procs[i]                    # slot 0 is the job's original size
            sizes.append(s)
        counts = np.fromiter((len(s) for s in sizes), dtype=np.int64, count=n)
        owner = np.repeat(np.arange(n), counts)
        flat = np.concatenate(sizes) if n else np.empty(0, dtype=np.int64)
        rt = np.maximum(1.0, np.ceil(work[owner] / downey_speedup(flat, A[owner], sigma[owner])))
        cuts = np.cumsum(counts)[:-1]
        runtimes = np.split(rt, cuts)
        requested_out = np.split(np.ceil(rt / acc[owner]), cuts)
        return MoldableJobs(A=A, sigma=sigma, cmin=cmin, cmax=np.asarray(cmax, dtype=np.int64), work=work,
                            constraint=np.asarray(kind), sizes=sizes, runtimes=runtimes,
                            requested=requested_out)
