"""Build tiny worlds by hand for schedule tests."""

from __future__ import annotations

from cloudsim_py import Job, simulate


def jobs(*specs, cpu=None):
    """``specs``: (submit, procs, runtime[, estimate]) tuples; ids are 1, 2, ..."""
    out = []
    for i, spec in enumerate(specs, 1):
        submit, procs, runtime, *rest = spec
        est = rest[0] if rest else None
        out.append(Job(i, float(submit), procs, runtime=float(runtime),
                       runtime_estimate=None if est is None else float(est),
                       cpu_usage=None if cpu is None else cpu.get(i),
                       cpu_estimate=None if cpu is None else cpu.get(i)))
    return out


def starts(result) -> dict[int, float]:
    """Job id -> first start time."""
    return {int(i): float(s) for i, s in zip(result.records["id"], result.records["start"])}


def finishes(result) -> dict[int, float]:
    return {int(i): float(s) for i, s in zip(result.records["id"], result.records["finish"])}


def run(specs, hosts, policy, **kw):
    return simulate(jobs(*specs), hosts=hosts, policy=policy, check=True, **kw)
