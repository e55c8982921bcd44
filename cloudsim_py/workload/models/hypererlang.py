"""Hyper-Erlang distributions of common order, and their three-moment fit.

Jann et al. 1997 model inter-arrival times and runtimes with a two-branch hyper-Erlang of common
order n: with probability p an Erlang(n, rate1) value, otherwise Erlang(n, rate2)
(WORKLOAD_MODELS.md section 5). The fit matches the first three raw moments with the recipe of
section 5.3: for n = 1, 2, ... reduce the moments by r_k(n) = n(n+1)...(n+k-1), fit a two-point
distribution of the stage means, and accept the first n that gives real positive means and
0 <= p <= 1.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs
import numpy as np

from .params import ParameterError, integer, real


@attrs.define(slots=True, frozen=True)
class HyperErlang:
    """Two-branch hyper-Erlang of common ``order``: p x Erlang(order, rate1) + (1-p) x Erlang(order, rate2)."""

    order: int = attrs.field(validator=integer(1, 1000))
    p: float = attrs.field(validator=real(0.0, 1.0))
    rate1: float = attrs.field(validator=real(0.0, lo_open=True))
    rate2: float = attrs.field(validator=real(0.0, lo_open=True))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], name: str = "hyper_erlang") -> "HyperErlang":
        """From ``{order, p, rate1, rate2}`` (errors name ``name.<key>``)."""
        if not isinstance(data, Mapping):
            raise ParameterError(name, f"must be a mapping with order, p, rate1, rate2; got {data!r}")
        keys = {"order", "p", "rate1", "rate2"}
        extra = set(data) - keys
        if extra or keys - set(data):
            raise ParameterError(name, f"needs exactly the keys order, p, rate1, rate2; got {sorted(data)}")
        try:
            return cls(**data)
        except ParameterError as exc:
            raise exc.within(name) from None

    def as_dict(self) -> dict[str, float]:
        return {"order": self.order, "p": self.p, "rate1": self.rate1, "rate2": self.rate2}

    def moment(self, k: int) -> float:
        """E[X^k] = r_k(n) (p / rate1^k + (1-p) / rate2^k), r_k(n) = n(n+1)...(n+k-1)."""
        r = math.prod(range(self.order, self.order + k))
        return r * (self.p / self.rate1 ** k + (1.0 - self.p) / self.rate2 ** k)

    @property
    def mean(self) -> float:
        return self.moment(1)

    def cv(self) -> float:
        m1, m2 = self.moment(1), self.moment(2)
        return math.sqrt(max(0.0, m2 - m1 * m1)) / m1

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` independent values (an Erlang(n, rate) is a gamma with shape n, scale 1/rate)."""
        first = rng.random(n) < self.p
        scale = np.where(first, 1.0 / self.rate1, 1.0 / self.rate2)
        return rng.gamma(float(self.order), scale)


def raw_moments(x: np.ndarray) -> tuple[float, float, float]:
    """The first three raw moments of a sample."""
    x = np.asarray(x, dtype=np.float64)
    return float(np.mean(x)), float(np.mean(x * x)), float(np.mean(x * x * x))


def fit_two_point(m1: float, m2: float, m3: float) -> tuple[float, float, float] | None:
    """``(p, u1, u2)`` of a two-point distribution with raw moments m1..m3 (u1 >= u2 > 0), or None."""
    var = m2 - m1 * m1
    if not var > 0:
        return None
    a = (m1 * m2 - m3) / var
    b = -m2 - a * m1
    disc = a * a - 4.0 * b
    if disc < 0:
        return None
    root = math.sqrt(disc)
    u1, u2 = (-a + root) / 2.0, (-a - root) / 2.0
    if not (u1 > 0 and u2 > 0) or u1 == u2:
        return None
    p = (m1 - u2) / (u1 - u2)
    if not 0.0 <= p <= 1.0:
        return None
    return p, u1, u2


def fit_hyper_erlang(m1: float, m2: float, m3: float, max_order: int = 200) -> HyperErlang:
    """Three-moment fit (WORKLOAD_MODELS.md 5.3): the lowest common order n that works.

    The moments are normalised by ``m1`` first (the fit is scale-free), so samples in seconds
    with m3 ~ 1e15 lose no precision. Raises ``ValueError`` when no order up to ``max_order``
    matches (e.g. a third moment too small for any two-branch hyper-Erlang).
    """
    if not (m1 > 0 and m2 > 0 and m3 > 0):
        raise ValueError(f"moments must be positive, got {m1}, {m2}, {m3}")
    s2, s3 = m2 / m1 ** 2, m3 / m1 ** 3
    for n in range(1, max_order + 1):
        r1, r2, r3 = n, n * (n + 1), n * (n + 1) * (n + 2)
        fit = fit_two_point(1.0 / r1, s2 / r2, s3 / r3)
        if fit is None:
            continue
        p, u1, u2 = fit
        return HyperErlang(order=n, p=p, rate1=1.0 / (u1 * m1), rate2=1.0 / (u2 * m1))
    raise ValueError(f"no hyper-Erlang of order <= {max_order} matches moments "
                     f"(cv^2 = {s2 - 1:.4g}, normalised m3 = {s3:.4g})")
