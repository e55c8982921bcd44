"""The gamma cdf without scipy (the library depends on numpy only).

Lublin & Feitelson's daily cycle (WORKLOAD_MODELS.md section 2.4) weights each half-hour bucket
by the mass a gamma distribution puts on it. The authors' generator computes the regularized
lower incomplete gamma function P(a, x) with the Numerical Recipes series / continued fraction
(section 2.5); this is the same pair of expansions, good to ~1e-14.
"""

from __future__ import annotations

import math


def gammainc_lower(a: float, x: float) -> float:
    """Regularized lower incomplete gamma ``P(a, x) = gamma(a, x) / Gamma(a)`` for ``a > 0``."""
    if a <= 0:
        raise ValueError(f"gammainc_lower: shape must be > 0, got {a}")
    if x <= 0:
        return 0.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:
        # series: P = e^-x x^a / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n))
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return min(1.0, total * math.exp(log_prefix))
    # continued fraction for Q = 1 - P (modified Lentz)
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return max(0.0, 1.0 - math.exp(log_prefix) * h)


def gamma_cdf(x: float, shape: float, scale: float) -> float:
    """cdf at ``x`` of the gamma distribution with ``shape`` and ``scale`` (mean = shape x scale)."""
    return gammainc_lower(shape, x / scale)
