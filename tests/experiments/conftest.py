"""Small sweeps that run in milliseconds: inline jobs or a 60-job generated workload."""

from __future__ import annotations

import textwrap

import pytest

#: five jobs on four processors; FCFS and EASY differ on job 3 (worked out in test_report)
JOBS = [
    {"submit": 0, "procs": 4, "runtime": 100, "estimate": 100},
    {"submit": 10, "procs": 2, "runtime": 50, "estimate": 60},
    {"submit": 20, "procs": 4, "runtime": 100, "estimate": 100},
    {"submit": 30, "procs": 1, "runtime": 30, "estimate": 40},
    {"submit": 40, "procs": 2, "runtime": 20, "estimate": 30},
]

#: 3 policies x 3 seeds on a generated workload with two tiers (ACFCFS draws CPU usage,
#: efficiency and loss from the seed, so the seeds really differ)
SMALL = textwrap.dedent("""\
    name: small
    base:
      datacenter: {hosts: 16, tiers: 2}
      workload:
        model: {name: lublin03, jobs: 60, procs: 16, load: 0.8}
    grid:
      broker.policy: [fcfs, easy, acfcfs]
      seed: 1..3
    """)


@pytest.fixture
def small_sweep(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    return path


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path
