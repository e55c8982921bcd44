#!/usr/bin/env python3
"""Hashes of what two-tier (and a three-tier) runs output on wide generated Lublin jobs, to
compare two trees by hand (issue 19, two tiers at cloud scale).

    PYTHONPATH=/path/to/other/tree python benchmarks/identity_two_tier.py > other.txt
    python benchmarks/identity_two_tier.py > this.txt && diff other.txt this.txt

``identity_lublin.py`` runs two tiers on 512 processors only; this runs ACFCFS, AMCBF, CCFCFS,
KTCBF (2 tiers) and KTCBF (3 tiers) on 1,500 ``lublin03`` jobs on 4,096 processors and 600 on
16,384 (jobs of thousands of processes: the wide paths of ``SlowestSpeed`` and
``CapacityIndex.tier_changed``), and on 800 jobs on 2,048 processors ACFCFS with ``fidelity:
slice``, AMCBF under the checker, ACFCFS with ``job_progress: per_process``, AMCBF with
``eff_draw: slice`` and CMCBF; per run the sha256 (16 hex digits) of ``records.to_csv()``, of
the summary without ``wall_seconds`` and of the recorder's log. A few minutes. Uses only
public functions, so it runs on older trees too."""

from __future__ import annotations

from identity_lublin import hashes, lublin    # beside this file


def run(table, procs: int, policy: str, tiers: int, **extra) -> None:
    records, summary, log = hashes(table, procs, policy, tiers, **extra)
    print(f"{policy:7} {tiers} {procs:6d} {str(extra):55} {records} {summary} {log}", flush=True)


def main() -> None:
    for procs, jobs in [(4096, 1500), (16384, 600)]:
        table = lublin(jobs, procs)
        for policy, tiers in [("acfcfs", 2), ("amcbf", 2), ("ccfcfs", 2), ("ktcbf", 2), ("ktcbf", 3)]:
            run(table, procs, policy, tiers)
    table = lublin(800, 2048)
    for policy, extra in [("acfcfs", dict(fidelity="slice", slice_s=600.0)), ("amcbf", dict(check=True)),
                          ("acfcfs", dict(interference={"job_progress": "per_process"})),
                          ("amcbf", dict(interference={"eff_draw": "slice"}, slice_s=600.0)),
                          ("cmcbf", {})]:
        run(table, 2048, policy, 2, **extra)


if __name__ == "__main__":
    main()
