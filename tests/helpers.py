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
