"""Plain-text views of cloud-system scenarios and runs for the command line (no simulation)."""

from __future__ import annotations

import math
from typing import Any, Sequence

#: the summary keys shown for DAG and lease runs, with their labels
DAG_ROWS = (("DAG jobs finished", "dag_jobs_finished"), ("DAG jobs refused", "dag_jobs_rejected"),
            ("avg job execution time (s)", "avg_job_time"), ("  AR jobs (s)", "avg_job_time_ar"),
            ("  best-effort jobs (s)", "avg_job_time_be"), ("max job execution time (s)", "max_job_time"),
            ("tasks finished", "jobs_finished"), ("best-effort tasks preempted", "be_preempted"),
            ("messages", "messages"), ("transfers rejected", "transfers_rejected"),
            ("wall seconds", "wall_seconds"))
LEASE_ROWS = (("leases finished", "jobs_finished"), ("leases rejected", "jobs_rejected"),
              ("all best-effort work done at (s)", "be_done"), ("best-effort avg slowdown", "be_avg_slowdown"),
              ("best-effort avg wait (s)", "be_avg_wait"), ("ARs finished", "ar_finished"),
              ("ARs refused", "ar_rejected"), ("ARs late", "ar_late"), ("AR avg delay (s)", "ar_avg_delay"),
              ("best-effort leases preempted", "be_preempted"), ("suspensions", "preemptions"),
              ("migrations", "migrations"), ("wall seconds", "wall_seconds"))


def describe_cloud_scenario(scenario: Any) -> str:
    fed = scenario.federation
    clouds = ", ".join(f"{c.name} ({c.vms} x {c.vm_type.name})" for c in fed.clouds)
    if scenario.dags is not None:
        d = scenario.dags
        what = (f"{d.model['jobs']} generated DAG jobs" if d.model is not None else
                f"{len(d.workflows)} workflow(s)" if d.workflows is not None else f"{len(d.jobs)} DAG job(s)")
    else:
        what = f"leases from {scenario.leases.source()}"
    return f"{what} on {len(fed.clouds)} cloud(s): {clouds}, latency {fed.latency:g} s"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:,.2f}" if abs(v) < 100 else f"{v:,.1f}"
    return f"{v:,}"


def format_cloud_runs(scenario: Any, runs: Sequence[tuple[str, Any]]) -> str:
    """The runs side by side."""
    rows = DAG_ROWS if scenario.dags is not None else LEASE_ROWS
    head = ["metric"] + [p for p, _ in runs]
    body = [[label] + [_fmt(r.summary.get(key, math.nan)) for _, r in runs] for label, key in rows]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = [f"{scenario.name}: {describe_cloud_scenario(scenario)}"]
    for r in [head] + body:
        lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
    return "\n".join(lines)
