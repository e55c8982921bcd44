"""Per-process CPU usage (what the process really uses on a dedicated processor) and the
estimate a broker gets of it (Liu 2015 sections 4.1 and 4.3; Liu 2013 sections 5.2 and 5.4)."""

from __future__ import annotations

import sys
from typing import Any, Iterator, Sequence, overload

import attrs
import numpy as np

from ..errors import SpecError
from ..validate import check_number, choice, number


#: ``sum`` of floats adds them one after the other, as ``np.add.accumulate`` does (3.12 and
#: later compensate the rounding)
_SUM_IN_ORDER = sys.version_info < (3, 12)


#: jobs of more processes than this keep their drawn usage in numpy (:class:`ProcessUsage`);
#: narrower ones get a tuple at once (cheaper below this width than numpy's calls per job)
WIDE_USAGE = 64


class ProcessUsage(Sequence[float]):
    """One job's per-process CPU usage as drawn: a slice of the values drawn for its chunk of
    jobs (a numpy array), made Python floats (a tuple, kept) at the first read of a value. Its
    length and :meth:`total` need no tuple, so a job nobody asks about costs O(1) however wide
    it is (a one-tier policy never reads usage; the metrics only sum it). Equal to, and hashed
    as, the tuple of its values; :meth:`values` is that tuple."""

    __slots__ = ("_flat", "_lo", "_n", "_values")

    def __init__(self, flat: np.ndarray, lo: int, n: int) -> None:
        self._flat: np.ndarray | None = flat
        self._lo = lo
        self._n = n
        self._values: tuple[float, ...] | None = None

    def values(self) -> tuple[float, ...]:
        """The values as a tuple of floats (made once: O(processes) the first time)."""
        v = self._values
        if v is None:
            assert self._flat is not None
            v = self._values = tuple(self._flat[self._lo:self._lo + self._n].tolist())
            self._flat = None
        return v

    def total(self) -> float:
        """``sum`` of the values, as ``sum(values())`` gives it, without making a tuple: before
        Python 3.12, whose ``sum`` adds floats one after the other, numpy's running sum (also
        in order, in C); from 3.12 (compensated sums) through the floats."""
        v = self._values
        if v is None:
            assert self._flat is not None
            seg = self._flat[self._lo:self._lo + self._n]
            if _SUM_IN_ORDER:
                return float(np.add.accumulate(seg)[-1])
            return sum(seg.tolist())
        return sum(v)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> float: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[float, ...]: ...
    def __getitem__(self, i: int | slice) -> Any:
        return self.values()[i]

    def __iter__(self) -> Iterator[float]:
        return iter(self.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ProcessUsage):
            other = other.values()
        if isinstance(other, tuple):
            return self.values() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return repr(self.values())


def usage_values(usage: Any) -> Any:
    """``usage`` as a tuple if it is a :class:`ProcessUsage`, else as it is."""
    return usage.values() if type(usage) is ProcessUsage else usage


def usage_total(usage: Any) -> float:
    """``sum(usage)``; without a tuple for a :class:`ProcessUsage` not yet read."""
    return usage.total() if type(usage) is ProcessUsage else sum(usage)


@attrs.define(slots=True, frozen=True)
class CpuUsageModel:
    """True CPU usage per process.

    ``paper`` (Liu 2013/2015): 1.0 for the process of a single-process job, U(low, high) for
    each process of a multi-process job, low = 0.4 and high = 1.0 by default. Setting ``mean``
    keeps ``high`` and moves ``low`` to ``2*mean - high`` (Liu 2015 Figs. 9-10: mean 60 %
    means 20-100 %). ``full``: every process uses 100 % (ACFCFS100).
    """

    kind: str = attrs.field(default="paper", validator=choice(("paper", "full")))
    low: float = attrs.field(default=0.4, validator=number(0.0, 1.0, low_open=True))
    high: float = attrs.field(default=1.0, validator=number(0.0, 1.0, low_open=True))
    single: float = attrs.field(default=1.0, validator=number(0.0, 1.0, low_open=True))

    def __attrs_post_init__(self) -> None:
        if self.low > self.high:
            raise SpecError("low", f"cpu usage low {self.low} above high {self.high}")

    @classmethod
    def with_mean(cls, mean: float, high: float = 1.0) -> "CpuUsageModel":
        check_number("mean", mean, 0.0, 1.0, low_open=True)
        low = 2.0 * mean - high
        if not 0.0 < low <= high:
            raise SpecError("mean", f"cpu usage mean {mean} needs low = 2*mean - {high} in (0, {high}]")
        return cls("paper", low=low, high=high)

    @property
    def mean(self) -> float:
        return (self.low + self.high) / 2.0

    def draw_many(self, procs: list[int], rng: np.random.Generator) -> list[Sequence[float]]:
        """Usage for a batch of jobs, one vectorised draw for all their processes: a tuple for up
        to :data:`WIDE_USAGE` processes, a :class:`ProcessUsage` (the draws kept in numpy until
        read) for more; O(jobs + processes of the narrow jobs) in Python, the draws in C."""
        if self.kind == "full":
            return [(1.0,) * p for p in procs]
        single = (self.single,)
        multi = [p for p in procs if p > 1]
        if not multi:
            return [single] * len(procs)
        # r * (high - low) + low, in place (the same values as r * (high - low) + low)
        flat = rng.random(sum(multi))
        flat *= self.high - self.low
        flat += self.low
        out: list[Sequence[float]] = []
        if max(multi) <= WIDE_USAGE:          # every job narrow: tuples, one conversion
            values = flat.tolist()
            pos = 0
            for p in procs:
                if p == 1:
                    out.append(single)
                else:
                    out.append(tuple(values[pos:pos + p]))
                    pos += p
            return out
        sizes = np.array(multi)
        narrow = flat[np.repeat(sizes <= WIDE_USAGE, sizes)].tolist()
        pos = q = 0
        for p in procs:
            if p == 1:
                out.append(single)
            elif p <= WIDE_USAGE:
                out.append(tuple(narrow[q:q + p]))
                q += p
                pos += p
            else:
                out.append(ProcessUsage(flat, pos, p))
                pos += p
        return out


@attrs.define(slots=True, frozen=True)
class CpuEstimateModel:
    """What the broker is told about CPU usage.

    ``exact``: the true values. ``error``: each value times U(1 - r, 1 + r), clipped to
    [0.01, 1] (Liu 2015 section 4.3.1, r = 0.1 and 0.2). ``unknown``: nothing (``None``);
    placement then ignores usage. ``full``: every process is assumed to use 100 %.
    """

    kind: str = attrs.field(default="exact", validator=choice(("exact", "error", "unknown", "full")))
    error: float = attrs.field(default=0.0, validator=number(0.0, 1.0, high_open=True))

    def __attrs_post_init__(self) -> None:
        if self.kind == "error" and not self.error > 0.0:
            raise SpecError("error", f"cpu estimate error must be in (0, 1), got {self.error}")

    def estimate_many(self, usages: Sequence[Sequence[float]], rng: np.random.Generator) -> list:
        """Estimates for a batch of usage tuples (one vectorised draw for ``error``)."""
        if self.kind == "exact":
            return list(usages) if not isinstance(usages, list) else usages
        if self.kind == "unknown":
            return [None] * len(usages)
        if self.kind == "full":
            return [(1.0,) * len(u) for u in usages]
        flat = np.fromiter((v for u in usages for v in u), dtype=np.float64)
        r = self.error
        flat = np.clip(flat * (rng.random(flat.shape[0]) * (2.0 * r) + (1.0 - r)), 0.01, 1.0).tolist()
        out, pos = [], 0
        for u in usages:
            out.append(tuple(flat[pos:pos + len(u)]))
            pos += len(u)
        return out
