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


def cli_subprocess(*args: str, timeout: float = 60.0, env: dict | None = None, cwd: str | None = None):
    """``cloudsim-py ARGS`` in a fresh interpreter (this checkout's package first on the path),
    killed after ``timeout`` seconds: a test of something that once hung or filled the memory
    stays bounded even if it comes back. Returns the ``CompletedProcess`` (text output)."""
    import os
    import subprocess
    import sys

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    full = dict(os.environ, **(env or {}))
    full["PYTHONPATH"] = repo + os.pathsep + full.get("PYTHONPATH", "")
    code = "import sys; from cloudsim_py.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], env=full, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def random_booked_profile(rng):
    """A random availability profile of 1-12 processors holding a job of ``procs`` booked over
    ``[o0, o0 + est)`` among up to 14 other bookings, and a time ``lo`` to search from (at or
    before ``o0``): ``(profile, procs, o0, est, lo)``, for compression's property tests."""
    from cloudsim_py.brokers.profile import AvailabilityProfile

    cap = rng.randint(1, 12)
    prof = AvailabilityProfile(cap, 0.0)
    procs = rng.randint(1, cap)
    o0 = float(rng.randint(1, 60)) if rng.random() < 0.5 else rng.uniform(1, 60)
    est = float(rng.randint(1, 30)) if rng.random() < 0.5 else rng.uniform(0.5, 30)
    prof.book_span(o0, o0 + est, procs)
    for _ in range(rng.randint(0, 14)):
        s = float(rng.randint(0, 90))
        e = s + rng.randint(1, 40)
        q = rng.randint(1, cap)
        if prof.min_free(s, e) >= q:
            prof.book_span(s, e, q)
    lo = rng.choice([0.0, float(rng.randint(0, int(o0))), rng.uniform(0, o0)])
    return prof, procs, o0, est, lo
