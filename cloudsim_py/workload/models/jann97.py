"""Jann et al. 1997 model form, with constants refitted to the CTC SP2 log (not Jann's table).

J. Jann, P. Pattnaik, H. Franke, F. Wang, J. Skovira and J. Riordan, "Modeling of workload in
MPPs", JSSPP 1997, LNCS 1291. Structure (WORKLOAD_MODELS.md section 5): the size axis is cut into
ranges; each range is an independent arrival stream whose inter-arrival times, and whose jobs'
runtimes, follow two-branch hyper-Erlang distributions of common order fitted by matching three
moments.

**The constants are ours, not Jann et al.'s.** Their per-range tables could not be obtained
(WORKLOAD_MODELS.md 5.1-5.2), so ``scripts/fit_jann97.py`` applies their method to their data -
the cleaned CTC SP2 log, Jann's period 26 Jun - 12 Sep 1996, 322 processors - following the
recipe of section 5.3 (power-of-two ranges; a job's size inside its range drawn from the
range's empirical size distribution, a documented choice, not Jann's). The shipped fit is named
"CTC-SP2-1996" and every generated header says "jann97 refitted to CTC-SP2".
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import attrs
import numpy as np

from ..table import WorkloadTable
from .fitdata import load_fit
from .header import model_header
from .hypererlang import HyperErlang
from .load import offered_load
from .params import ParameterError, check_integer, machine_procs, target_load

TITLE = ("Jann et al. 1997 model form (JSSPP 1997, LNCS 1291) REFITTED by cloudsim_py to the "
         "CTC SP2 log - not Jann et al.'s published parameter table")


@attrs.define(slots=True, frozen=True)
class JannRange:
    """One size range ``lo..hi``: its arrival stream, its runtimes and its sizes."""

    lo: int
    hi: int
    interarrival: HyperErlang
    runtime: HyperErlang
    sizes: tuple[int, ...]
    size_probs: tuple[float, ...]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], name: str) -> "JannRange":
        """From the JSON / YAML form ``{lo, hi, interarrival: {...}, runtime: {...}, sizes, size_probs}``."""
        if not isinstance(data, Mapping):
            raise ParameterError(name, f"must be a mapping, got {data!r}")
        needed = ("lo", "hi", "interarrival", "runtime", "sizes", "size_probs")
        for key in needed:
            if key not in data:
                raise ParameterError(f"{name}.{key}", "missing")
        lo, hi = data["lo"], data["hi"]
        check_integer(f"{name}.lo", lo, 1)
        check_integer(f"{name}.hi", hi, lo)
        sizes, probs = data["sizes"], data["size_probs"]
        if not isinstance(sizes, Sequence) or not sizes:
            raise ParameterError(f"{name}.sizes", f"must be a non-empty list of sizes, got {sizes!r}")
        for s in sizes:
            check_integer(f"{name}.sizes", s, lo, hi)
        if not isinstance(probs, Sequence) or len(probs) != len(sizes):
            raise ParameterError(f"{name}.size_probs", f"must be a list of {len(sizes)} probabilities")
        if any(isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0 for p in probs) or sum(probs) <= 0:
            raise ParameterError(f"{name}.size_probs", f"must be non-negative numbers with a positive sum, got {probs!r}")
        total = float(sum(probs))
        return cls(lo, hi, HyperErlang.from_mapping(data["interarrival"], f"{name}.interarrival"),
                   HyperErlang.from_mapping(data["runtime"], f"{name}.runtime"),
                   tuple(int(s) for s in sizes), tuple(float(p) / total for p in probs))

    def describe(self) -> str:
        ia, rt = self.interarrival, self.runtime
        sizes = ", ".join(f"{s}:{p:.4g}" for s, p in zip(self.sizes, self.size_probs))
        return (f"sizes {self.lo}-{self.hi}; interarrival order={ia.order} p={ia.p!r} rate1={ia.rate1!r} "
                f"rate2={ia.rate2!r}; runtime order={rt.order} p={rt.p!r} rate1={rt.rate1!r} "
                f"rate2={rt.rate2!r}; size distribution {{{sizes}}}")


def _ranges(value: Any) -> tuple[JannRange, ...] | None:
    """attrs converter: ``None`` (the fit's ranges, set by ``__attrs_post_init__``) or the ranges."""
    return None if value is None else _parse_ranges(value)


def _parse_ranges(value: Any) -> tuple[JannRange, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
        raise ParameterError("ranges", f"must be a non-empty list of size ranges, got {value!r}")
    return tuple(r if isinstance(r, JannRange) else JannRange.from_mapping(r, f"ranges[{i}]")
                 for i, r in enumerate(value))


@attrs.define(slots=True)
class Jann97:
    """Jann 1997 generator with constants refitted to CTC SP2 (see the module docstring).

    ``fit`` names the shipped constants (``models/data/jann97_<fit>.json``); ``ranges``
    replaces them (list of ``{lo, hi, interarrival, runtime, sizes, size_probs}``, hyper-Erlangs
    as ``{order, p, rate1, rate2}``). ``procs`` defaults to the fitted machine (322); sizes above
    ``procs`` are clipped to ``procs``. ``load``: target offered load, reached by scaling every
    inter-arrival time by one factor (the streams are renewal processes, so the load is exactly
    inversely proportional to it); ``None`` keeps the fitted arrival rates.

    ``procs`` and ``ranges`` accept ``None`` (their default): ``__attrs_post_init__`` replaces it
    by the fit's value, so after construction both hold a value (hence the non-optional
    annotations).
    """

    fit: str = attrs.field(default="CTC-SP2-1996")
    procs: int = attrs.field(default=None, validator=machine_procs(optional=True))
    load: float | None = attrs.field(default=None, validator=target_load())
    ranges: tuple[JannRange, ...] = attrs.field(default=None, converter=_ranges)
    label: str = attrs.field(default="", init=False)
    achieved_load: float | None = attrs.field(default=None, init=False)

    def __attrs_post_init__(self) -> None:
        if self.ranges is None:
            data = load_fit("jann97", self.fit)
            self.ranges = _parse_ranges(data["ranges"])
            self.label = data["label"]
            if self.procs is None:
                self.procs = int(data["machine_procs"])
        else:
            self.label = "jann97 model form with user-given ranges (not Jann et al.'s table)"
            if self.procs is None:
                self.procs = max(max(r.sizes) for r in self.ranges)

    def _streams(self) -> list[tuple[JannRange, np.ndarray, np.ndarray]]:
        """Each range with its sizes clipped to ``procs`` (probabilities of merged sizes added)."""
        out = []
        for r in self.ranges:
            sizes = np.minimum(np.asarray(r.sizes), self.procs)
            uniq, inv = np.unique(sizes, return_inverse=True)
            probs = np.bincount(inv, weights=np.asarray(r.size_probs), minlength=len(uniq))
            out.append((r, uniq, probs / probs.sum()))
        return out

    def generate(self, jobs: int, rng: np.random.Generator) -> WorkloadTable:
        """The first ``jobs`` arrivals of the superposed range streams, sorted by submit time."""
        check_integer("jobs", jobs, 1)
        streams = self._streams()
        rates = np.array([1.0 / r.interarrival.mean for r, _, _ in streams])
        share = rates / rates.sum()
        want = np.ceil(jobs * share * 1.1 + 5.0 * np.sqrt(jobs * share) + 10).astype(int)
        times = [np.cumsum(r.interarrival.sample(int(k), rng)) for (r, _, _), k in zip(streams, want)]
        while True:
            all_t = np.concatenate(times)
            t_n = np.partition(all_t, jobs - 1)[jobs - 1] if all_t.size >= jobs else math.inf
            short = [k for k, t in enumerate(times) if t[-1] <= t_n]
            if not short:
                break
            for k in short:    # this stream may have more arrivals before t_n: extend it
                r = streams[k][0]
                more = r.interarrival.sample(len(times[k]), rng)
                times[k] = np.concatenate((times[k], times[k][-1] + np.cumsum(more)))
        ids = np.concatenate([np.full(len(t), k) for k, t in enumerate(times)])
        first = np.argsort(all_t, kind="stable")[:jobs]
        counts = np.bincount(ids[first], minlength=len(times))
        t_sel, size, run = [], [], []
        for (r, sizes, probs), t, n in zip(streams, times, counts):
            t_sel.append(t[:n])
            size.append(rng.choice(sizes, size=n, p=probs))
            run.append(np.maximum(1.0, np.ceil(r.runtime.sample(n, rng))))
        t_all, size_all, run_all = np.concatenate(t_sel), np.concatenate(size), np.concatenate(run)
        order = np.argsort(t_all, kind="stable")
        t_all, size_all, run_all = t_all[order], size_all[order].astype(np.int64), run_all[order]

        c = 1.0
        if self.load is not None and jobs > 1:
            raw = offered_load(t_all, size_all, run_all, self.procs)
            c = raw / self.load
        submit = np.rint(t_all * c)
        achieved = offered_load(submit, size_all, run_all, self.procs)
        self.achieved_load = achieved
        params: dict[str, Any] = {"fit": self.fit, "label": self.label, "procs": self.procs,
                                  "load": self.load, "interarrival_scale": c}
        for i, r in enumerate(self.ranges):
            params[f"range_{i + 1}"] = r.describe()
        header = model_header("jann97 refitted to CTC-SP2" if "CTC" in self.label else "jann97 (user ranges)",
                              TITLE, self.procs, jobs, params, achieved, self.load,
                              notes=[self.label, "no requested times (use the tsafrir05 estimate mode)"])
        cols = {"submit": submit, "run": run_all, "alloc_procs": size_all, "req_procs": size_all,
                "status": np.ones(jobs)}
        return WorkloadTable.from_columns(cols, source=f"jann97({jobs} jobs)", header=header)
