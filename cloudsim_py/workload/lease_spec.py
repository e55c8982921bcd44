"""The lease workload's options as one attrs class (``leases:`` in a scenario): a Haizea lease file
(either LWF format), an SWF trace of best-effort leases with an optional file of injected
advance reservations, or leases written inline. Checked here once (errors are
:class:`~cloudsim_py.errors.SpecError` naming the key path and the lease); reads no YAML,
imports nothing from the engine; files are read when the workload is made.

```yaml
leases:
  swf: ../shared/leases/blue-30days/30days.swf
  injected: ../shared/leases/blue-30days/injected/work_10-dur_2h-size_1small.lwf
  # or: lwf: ../shared/leases/haizea-tests/preemption.lwf
  # or: requests:
  #   - {id: 1, submit: 0, mode: best-effort, duration: 3600, nodes: 1, memory_mb: 1024, image_mb: 1024}
  #   - {id: 2, submit: 900, mode: ar, start: 1800, duration: 1800, nodes: 4}
  strict: false      # invalid leases in files: counted and skipped (true: an error naming file and line)
```
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from ..errors import LeaseError, SpecError
from ..validate import boolean, check_mapping, check_number, integer, kind, number
from .lease import (AR_BEFORE_SUBMIT, BAD_DURATION, BAD_NODES, BAD_REAL_DURATION, BAD_RESOURCES, BAD_START,
                    BAD_TIME, PREEMPTIBLE_AR, LeaseMode, LeaseRequest)
from .lwf import LeaseLoadReport, LeaseWorkload

REQUEST_KEYS = ("id", "submit", "mode", "start", "duration", "real_duration", "nodes", "cpus_per_node",
                "memory_mb", "image_mb", "disk_mb", "preemptible")
MODES = {m.value: m for m in LeaseMode}
#: which key a lease's invalidity is about
_REASON_KEY = {AR_BEFORE_SUBMIT: "start", BAD_DURATION: "duration", BAD_REAL_DURATION: "real_duration",
               BAD_NODES: "nodes", BAD_TIME: "submit", BAD_START: "start", PREEMPTIBLE_AR: "preemptible"}


def _requests(value: Any) -> tuple[LeaseRequest, ...] | None:
    if value is None:
        return None
    if isinstance(value, tuple) and all(isinstance(v, LeaseRequest) for v in value):
        return value
    if not isinstance(value, (list, tuple)) or not value:
        raise SpecError("requests", "expected a non-empty list of leases")
    out = []
    seen: set[int] = set()
    for i, item in enumerate(value):
        p = f"requests.{i}"
        item = check_mapping(p, item, REQUEST_KEYS)
        for key in ("duration", "nodes"):
            if key not in item:
                raise SpecError(f"{p}.{key}", "missing")
        lease_id = item.get("id", i + 1)
        if isinstance(lease_id, bool) or not isinstance(lease_id, int):
            raise SpecError(f"{p}.id", f"expected an integer, got {kind(lease_id)}")
        if lease_id in seen:
            raise SpecError(f"{p}.id", f"lease id {lease_id} is used twice")
        seen.add(lease_id)
        mode = item.get("mode", "best-effort")
        if mode not in MODES:
            raise SpecError(f"{p}.mode", f"lease {lease_id}: unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        fields: dict[str, Any] = {"id": lease_id, "mode": MODES[mode],
                                  "submit_time": check_number(f"{p}.submit", item.get("submit", 0.0))}
        for key in ("start", "duration", "real_duration", "cpus_per_node", "memory_mb", "image_mb", "disk_mb"):
            if key in item:
                fields[key] = check_number(f"{p}.{key}", item[key])
        nodes = item["nodes"]
        if isinstance(nodes, bool) or not isinstance(nodes, int):
            raise SpecError(f"{p}.nodes", f"lease {lease_id}: expected an integer, got {kind(nodes)}")
        fields["nodes"] = nodes
        if "preemptible" in item:
            if not isinstance(item["preemptible"], bool):
                raise SpecError(f"{p}.preemptible", f"expected true or false, got {kind(item['preemptible'])}")
            fields["preemptible"] = item["preemptible"]
        try:
            out.append(LeaseRequest(**fields))
        except LeaseError as exc:
            bad = _REASON_KEY.get(exc.reason)
            if exc.reason == BAD_RESOURCES:
                bad = next((k for k in ("cpus_per_node", "memory_mb", "image_mb", "disk_mb") if k in str(exc)), None)
            raise SpecError(f"{p}.{bad}" if bad else p, str(exc)) from None
    return tuple(sorted(out, key=lambda lease: lease.submit_time))


def _file(key: str) -> Any:
    def check(inst: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, str) or not value:
            raise SpecError(key, f"expected a file path, got {kind(value)}")
        if not os.path.isfile(value):
            raise SpecError(key, f"no such file: {value}")
    return check


@attrs.define(slots=True, frozen=True)
class LeaseWorkloadSpec:
    """Exactly one source: ``lwf`` (a Haizea lease file, XML or the old format), ``swf`` (an SWF
    trace read as best-effort leases, Haizea's way; ``injected``: a lease file added to it) or
    ``requests`` (inline). SWF rows become leases of ``cpus_per_node`` CPUs, ``memory_mb`` and a
    ``image_mb`` image per node (Haizea's 1 CPU, 1024 MB, 600 MB); ``injected_image_mb``: the
    image of every injected lease instead of its file's (``null``: the file's; no effect
    without ``injected``). ``strict``: an invalid lease
    in a file is an error naming file and line (else counted and skipped); ``limit``: keep the
    first N leases."""

    lwf: str | None = attrs.field(default=None, validator=_file("lwf"))
    swf: str | None = attrs.field(default=None, validator=_file("swf"))
    injected: str | None = attrs.field(default=None, validator=_file("injected"))
    requests: tuple[LeaseRequest, ...] | None = attrs.field(default=None, converter=_requests)
    strict: bool = attrs.field(default=False, validator=boolean)
    cpus_per_node: float = attrs.field(default=1.0, validator=number(0.0, low_open=True))
    memory_mb: float = attrs.field(default=1024.0, validator=number(0.0))
    image_mb: float = attrs.field(default=600.0, validator=number(0.0))
    injected_image_mb: float | None = attrs.field(default=None, validator=number(0.0, optional=True))
    limit: int | None = attrs.field(default=None, validator=integer(1, optional=True))

    def __attrs_post_init__(self) -> None:
        sources = [k for k in ("lwf", "swf", "requests") if getattr(self, k) is not None]
        if len(sources) != 1:
            raise SpecError("", "give exactly one of lwf, swf or requests"
                            + (f" (found {', '.join(sources)})" if sources else ""))
        if self.injected is not None and self.swf is None:
            raise SpecError("injected", "injected leases go with an swf trace")

    def make(self) -> LeaseWorkload:
        """The leases, sorted by submit time (files read now)."""
        from .lwf import read_lwf
        from .swf_leases import swf_with_injected_ar

        if self.lwf is not None:
            w = read_lwf(self.lwf, strict=self.strict)
            order = sorted(range(len(w.leases)), key=lambda k: w.leases[k].submit_time)
            w = attrs.evolve(w, leases=tuple(w.leases[k] for k in order), lines=tuple(w.lines[k] for k in order))
        elif self.swf is not None:
            w = swf_with_injected_ar(self.swf, self.injected, strict=self.strict, cpus_per_node=self.cpus_per_node,
                                     memory_mb=self.memory_mb, image_mb=self.image_mb,
                                     injected_image_mb=self.injected_image_mb)
        else:
            assert self.requests is not None
            w = LeaseWorkload(name="inline", leases=self.requests, lines=tuple(-1 for _ in self.requests),
                              report=LeaseLoadReport(source="inline", records=len(self.requests),
                                                     kept=len(self.requests)))
        if self.limit is not None and self.limit < len(w.leases):
            w = attrs.evolve(w, leases=w.leases[: self.limit], lines=w.lines[: self.limit])
        return w

    def source(self) -> str:
        """The file the leases come from (for error messages)."""
        return self.lwf or self.injected or self.swf or "inline"
