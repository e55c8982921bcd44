"""Best-effort leases from an SWF trace, and an SWF trace combined with injected AR leases
(Haizea's experiment setting, ``../shared/leases/blue-30days/``). Imports nothing from the engine.

The SWF rows are read with the package's own SWF reader (:func:`~cloudsim_py.workload.table.read_table`)
and mapped the way Haizea's SWF trace reader does (``haizea/traces/readers.py``, ``SWF``; the
reader of Sotomayor et al. HPDC 2008):

- one lease per row, best-effort and preemptible, submitted at field 2 (submit time), with id =
  field 1 (job number);
- ``nodes`` = field 8 (requested processors). In ``30days.swf`` that field was already divided by
  8 (counted in 8-CPU nodes of the 144-node machine), so one lease node per "processor" of the file;
  each node gets ``cpus_per_node`` = 1 CPU, ``memory_mb`` = 1024 and a ``600`` MB disk image
  (Haizea's ``NOIMAGE``, 600 MB, "arbitrary"; the same as the injected ARs' ``'NONE.img' 600``);
- requested duration = field 9 (requested time); rows without one (``<= 0``) are skipped, as
  Haizea does;
- real duration = field 4 (run time), a run time of 0 raised to 1 s (SWF: "less than 0.5 s"), and
  one above the requested time cut to it (Haizea: ``if realdur > maxdur: realdur = maxdur``); both
  counted in the report's ``adjusted``;
- rows with an unknown run time (``-1``; in the file all have status 5, cancelled while queued)
  are skipped and counted. Haizea's 2008 reader kept them as leases that leave the queue at
  ``submit + wait`` if not started (its later ``haizea-swf2lwf`` drops them); a lease here has no
  queue deadline, so they are left out.

In ``30days.swf``: 5,545 rows, 437 cancelled while queued, 5,108 best-effort leases, 512 of them
with the run time cut to the requested time.

Combining: the best-effort leases of the trace plus the leases of an injected file (old LWF format,
all advance reservations in ``blue-30days/injected/``). An injected lease gets the id
``max(SWF job number) + its position in the file`` so that ids stay unique; the result is sorted by
submit time (stable: SWF rows first at equal times).
"""

from __future__ import annotations

import os

import attrs
import numpy as np

from ..errors import LeaseError, TraceError
from .lease import LeaseMode, LeaseRequest
from .lwf import LeaseLoadReport, LeaseWorkload, SkippedLease, read_lwf
from .table import COL, WorkloadTable, read_table

SKIP_NO_REQUEST = "no requested time (SWF field 9 <= 0)"
SKIP_CANCELLED = "run time unknown (SWF field 4 < 0: cancelled while queued)"
SKIP_NODES = "no requested processors (SWF field 8 <= 0)"
ADJUST_ZERO_RUN = "run time 0 raised to 1 s"
ADJUST_CUT = "run time above the requested time cut to it"


def leases_from_swf(source: str | os.PathLike | WorkloadTable, *, cpus_per_node: float = 1.0,
                    memory_mb: float = 1024.0, image_mb: float = 600.0, image_id: str = "NONE.img",
                    preemptible: bool = True, strict: bool = False) -> LeaseWorkload:
    """Best-effort leases of an SWF trace (a path or a table from ``read_table``), mapped as the
    module docstring says. ``strict=True`` makes the first skipped row a TraceError naming the
    file and line."""
    table = source if isinstance(source, WorkloadTable) else read_table(source)
    data = table.data
    report = LeaseLoadReport(source=table.source, records=len(table))
    req = data[:, COL["req_time"]]
    run = data[:, COL["run"]]
    nodes = data[:, COL["req_procs"]]
    no_request = ~(req > 0)
    cancelled = ~no_request & (run < 0)
    no_nodes = ~no_request & ~cancelled & ~(nodes > 0)
    for reason, mask in ((SKIP_NO_REQUEST, no_request), (SKIP_CANCELLED, cancelled), (SKIP_NODES, no_nodes)):
        n = int(mask.sum())
        if n and strict:
            i = int(np.flatnonzero(mask)[0])
            where = f"{table.source}:{int(table.line[i])}" if table.line is not None else table.source
            raise TraceError(f"{where}: job {int(data[i, COL['job']])}: {reason} (strict mode)")
        if n:
            report.skip(reason, n, _skipped(table, np.flatnonzero(mask), reason))
    keep = ~(no_request | cancelled | no_nodes)
    rows = np.flatnonzero(keep)
    real = run[rows].copy()
    zero = real == 0
    real[zero] = 1.0
    cut = real > req[rows]
    real = np.minimum(real, req[rows])
    report.adjust(ADJUST_ZERO_RUN, int(zero.sum()))
    report.adjust(ADJUST_CUT, int(cut.sum()))
    leases: list[LeaseRequest] = []
    lines: list[int] = []
    ids = data[rows, COL["job"]].astype(np.int64).tolist()
    submits = data[rows, COL["submit"]].tolist()
    durations = req[rows].tolist()
    counts = nodes[rows].astype(np.int64).tolist()
    line_numbers = table.line[rows].tolist() if table.line is not None else [-1] * len(rows)
    for job, submit, duration, real_s, n, line in zip(ids, submits, durations, real.tolist(), counts, line_numbers):
        try:
            lease = LeaseRequest(id=job, submit_time=submit, mode=LeaseMode.BEST_EFFORT, duration=duration,
                                 real_duration=real_s, nodes=n, cpus_per_node=cpus_per_node,
                                 memory_mb=memory_mb, image_mb=image_mb, image_id=image_id,
                                 preemptible=preemptible)
        except LeaseError as err:
            if strict:
                raise TraceError(f"{table.source}:{line}: {err} (strict mode)") from err
            report.skip(err.reason, 1, [SkippedLease(job, submit, n, duration, f"{table.source}:{line}", err.reason,
                                                     LeaseMode.BEST_EFFORT)])
            continue
        leases.append(lease)
        lines.append(int(line))
    report.kept = len(leases)
    return LeaseWorkload(name=os.path.basename(table.source), leases=tuple(leases), lines=tuple(lines),
                         report=report)


def _skipped(table: WorkloadTable, rows: np.ndarray, reason: str) -> list[SkippedLease]:
    """The SWF rows ``rows`` a reader skipped for ``reason``, as skipped leases."""
    data = table.data
    out = []
    for i in rows.tolist():
        line = int(table.line[i]) if table.line is not None else -1
        where = f"{table.source}:{line}" if line >= 0 else table.source
        nodes, req = data[i, COL["req_procs"]], data[i, COL["req_time"]]
        out.append(SkippedLease(int(data[i, COL["job"]]), float(data[i, COL["submit"]]),
                                int(nodes) if nodes > 0 else None, float(req) if req > 0 else None, where, reason,
                                LeaseMode.BEST_EFFORT))
    return out


def combine(best_effort: LeaseWorkload, injected: LeaseWorkload) -> LeaseWorkload:
    """Both workloads in one, sorted by submit time (stable, ``best_effort`` first at equal
    times). The injected leases are renumbered after the largest id of ``best_effort``."""
    # after every id of the first workload, the requests it skipped too: no two rows of a run's
    # outputs share an id
    base = max([lease.id for lease in best_effort.leases]
               + [d.id for d in best_effort.report.dropped if d.id is not None], default=0)
    renumbered = [_with_id(lease, base + k) for k, lease in enumerate(injected.leases, 1)]
    merged = list(zip(best_effort.leases, best_effort.lines)) + list(zip(renumbered, injected.lines))
    merged.sort(key=lambda pair: pair[0].submit_time)
    report = LeaseLoadReport(source=f"{best_effort.report.source} + {injected.report.source}")
    report.merge(best_effort.report)
    report.merge(injected.report)
    return LeaseWorkload(name=f"{best_effort.name}+{injected.name}", leases=tuple(p[0] for p in merged),
                         lines=tuple(p[1] for p in merged), report=report, site=best_effort.site)


def swf_with_injected_ar(swf: str | os.PathLike | WorkloadTable, injected: str | os.PathLike | None,
                         strict: bool = False, injected_image_mb: float | None = None,
                         **swf_options: object) -> LeaseWorkload:
    """An SWF trace's best-effort leases plus an injected lease file (either LWF format), e.g.
    ``swf_with_injected_ar("blue-30days/30days.swf", "blue-30days/injected/work_10-dur_2h-size_1small.lwf")``.
    ``injected=None`` gives the trace alone (the "no AR" baseline). ``injected_image_mb``: the
    disk image of every injected lease instead of the file's (e.g. 0: none to send, as Haizea's
    ``lease-preparation: unmanaged``). ``swf_options`` go to :func:`leases_from_swf`."""
    best_effort = leases_from_swf(swf, strict=strict, **swf_options)  # type: ignore[arg-type]
    if injected is None:
        return best_effort
    extra = read_lwf(injected, strict=strict)
    if injected_image_mb is not None:
        extra = attrs.evolve(extra, leases=tuple(attrs.evolve(lease, image_mb=float(injected_image_mb))
                                                 for lease in extra.leases))
    return combine(best_effort, extra)


def _with_id(lease: LeaseRequest, new_id: int) -> LeaseRequest:
    return attrs.evolve(lease, id=new_id)
