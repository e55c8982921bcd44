"""Haizea lease workloads: the LWF XML format and the older whitespace format, read into
:class:`~cloudsim_py.workload.lease.LeaseRequest` objects. Imports nothing from the engine.

Both formats are Haizea's (borjasotomayor/haizea; ``../shared/leases/PROVENANCE.md``).

**LWF XML** (``<lease-workload>``): an optional ``<site>`` (node sets), then ``<lease-requests>``
with one ``<lease-request arrival=T>`` per lease, holding an optional ``<realduration time=T/>``
and one ``<lease id=.. preemptible=true|false>`` with ``<nodes>`` (``<node-set numnodes=N>`` with
``<res type="CPU" amount=percent-of-one-CPU/>`` and ``<res type="Memory" amount=MB/>``),
``<start/>`` (empty: best-effort), ``<start><exact time=T/></start>`` (advance reservation) or
``<start><now/></start>`` (immediate), ``<duration time=T/>`` and ``<software>`` with
``<disk-image id=.. size=MB/>`` or ``<none/>``. Times are ``[DD:]HH:MM:SS[.ss]``.

Readings (documented in docs/dag-and-leases.md):

- a lease without ``id`` gets its 1-based position among the lease requests; duplicate ids are an
  error;
- ``preemptible`` is optional (default: best-effort yes, AR and immediate no);
- several node sets are summed when their resources agree (otherwise an error: a lease here has
  one VM shape);
- resource types ``CPU`` (percent), ``Memory`` (MB) and ``Disk`` (MB); any other type is an error;
- one pair of single quotes around an image id (``'foobar.img'``, written by Haizea's converters)
  is removed;
- elements that carry no lease data (``<description>``, ``<resource-types>``, ``<extra>``) are
  ignored.

**Old whitespace format** (Haizea's ``LWFEntry``), one lease a line, ``#`` comments:
``submit start duration real_duration nodes cpu memory_MB disk_MB image_id image_size_MB``
(seconds from the start of the workload; ``start = -1``: best-effort and preemptible, otherwise
an advance reservation, not preemptible; ``cpu`` in CPUs, 1 = one CPU). Leases are numbered from
``first_id`` in file order (as Haizea's ``lwf2xml`` does, from 1). Only the two times may be
negative; there is no -1 convention for ``real_duration`` (Haizea writes the duration there).

In both formats every number is finite (``inf``, ``nan``, ``1e400`` are errors, not infinity) and
an integer has at most :data:`MAX_DIGITS` digits.

A malformed element or line is a :class:`~cloudsim_py.errors.TraceError` naming file, line,
element path and attribute; so is a file that is not UTF-8 text (empty, gzip-compressed, binary,
another encoding: :func:`read_text_file`, which the WfFormat reader uses too). A well-formed lease
that is invalid (e.g. an AR that starts before it is submitted: four in ``blue-30days/injected/``)
is skipped and counted by reason, or raised as a ``TraceError`` with ``strict=True``.
"""

from __future__ import annotations

import math
import os
import re
from typing import Iterable

import attrs

from ..errors import LeaseError, TraceError
from .lease import LeaseMode, LeaseRequest
from .xml_tree import MAX_XML_DEPTH, Element as _Element, Located, parse_xml as _parse_xml, shown as _shown

_TIME_RE = re.compile(r"^\d+(\.\d*)?$")
_XML_START = re.compile(r"\s*<")
_NEWLINE = re.compile(r"\r\n?|\n")          # as a file opened in text mode reads lines
_INTEGER_RE = re.compile(r"\s*[-+]?(\d+)\s*")
#: most digits of an integer (a lease id, a node count): more counts nothing real, and Python
#: refuses to convert more than 4,300 with a message about its own settings
MAX_DIGITS = 18


def parse_time(text: str) -> float:
    """Seconds of a Haizea time ``[DD:]HH:MM:SS[.ss]`` (``ValueError`` if malformed).

    >>> parse_time("01:00:00.00"), parse_time("1:02:03:04.5")
    (3600.0, 93784.5)
    """
    parts = text.strip().split(":")
    if len(parts) not in (3, 4) or not all(_TIME_RE.match(p) for p in parts):
        raise ValueError(f"{_shown(text)} is not a time [DD:]HH:MM:SS[.ss]")
    if not all(p.isdigit() for p in parts[:-1]):
        raise ValueError(f"{_shown(text)}: only the seconds may have a fraction")
    values = [float(p) for p in parts]
    if len(values) == 3:
        values.insert(0, 0.0)
    days, hours, minutes, seconds = values
    total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    if not math.isfinite(total):
        raise ValueError(f"{_shown(text)} is too large (not a finite number of seconds)")
    return total


# -- results ----------------------------------------------------------------------------------

@attrs.frozen(slots=True)
class NodeSet:
    """``count`` identical nodes (a site's ``<node-set>``)."""

    count: int
    cpus: float
    memory_mb: float
    disk_mb: float = 0.0


@attrs.frozen(slots=True)
class Site:
    """The machine an LWF file describes (``<site>``), as node sets."""

    node_sets: tuple[NodeSet, ...]

    @property
    def nodes(self) -> int:
        return sum(ns.count for ns in self.node_sets)


@attrs.frozen(slots=True)
class SkippedLease:
    """A lease request a loader skipped: what is known of it (its id in its file, submit time,
    nodes, requested duration; ``None`` where the record does not say), where it was
    (``file:line``) and why."""

    id: int | None
    submit: float | None
    nodes: int | None
    duration: float | None
    where: str
    reason: str
    mode: LeaseMode | None = None
    start: float | None = None             #: an AR's requested start


@attrs.define(slots=True, eq=False)
class LeaseLoadReport:
    """What a lease loader read, kept, skipped (by reason; ``dropped``: each skipped request) and
    adjusted (by kind)."""

    source: str
    records: int = 0
    kept: int = 0
    skipped: dict[str, int] = attrs.field(factory=dict)
    adjusted: dict[str, int] = attrs.field(factory=dict)
    dropped: list[SkippedLease] = attrs.field(factory=list)

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def skip(self, reason: str, n: int = 1, leases: Iterable[SkippedLease] = ()) -> None:
        """Count ``n`` requests skipped for ``reason`` (and keep each of ``leases``)."""
        self.skipped[reason] = self.skipped.get(reason, 0) + n
        self.dropped.extend(leases)

    def adjust(self, kind: str, n: int = 1) -> None:
        if n:
            self.adjusted[kind] = self.adjusted.get(kind, 0) + n

    def merge(self, other: "LeaseLoadReport") -> None:
        self.records += other.records
        self.kept += other.kept
        for reason, n in other.skipped.items():
            self.skip(reason, n)
        self.dropped.extend(other.dropped)
        for kind, n in other.adjusted.items():
            self.adjust(kind, n)

    def lines(self) -> list[str]:
        out = [f"{self.source}: {self.records} records, {self.kept} leases kept, "
               f"{self.skipped_total} skipped"]
        out += [f"  skipped {n}: {reason}" for reason, n in self.skipped.items() if n]
        out += [f"  adjusted {n}: {kind}" for kind, n in self.adjusted.items() if n]
        return out


@attrs.frozen(slots=True)
class LeaseWorkload:
    """Lease requests in file order, the line each came from, the site (if any) and the report."""

    name: str
    leases: tuple[LeaseRequest, ...]
    lines: tuple[int, ...]
    report: LeaseLoadReport
    site: Site | None = None

    def __len__(self) -> int:
        return len(self.leases)

    def count(self, mode: LeaseMode) -> int:
        return sum(1 for lease in self.leases if lease.mode is mode)


def read_text_file(path: str) -> str:
    """The text of a UTF-8 file (a byte-order mark is dropped). A cloud input that is not UTF-8
    text is a :class:`TraceError` naming the file, and the line where there is one: missing, a
    directory, empty (or only blank space), gzip-compressed, binary (a NUL byte) or another
    encoding. Checked on the bytes, before any parser sees them, so that no ``UnicodeDecodeError``
    or parser message about "invalid tokens" reaches the user."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TraceError(f"{path}: is a directory, not a file") from None
    except OSError as err:
        raise TraceError(f"{path}: cannot be read ({err.strerror or err})") from None
    return decode_text(path, data)


def decode_text(path: str, data: bytes) -> str:
    """``data`` (the bytes of ``path``) as text; see :func:`read_text_file`."""
    if not data or data.isspace():
        raise TraceError(f"{path}: empty file")
    if data.startswith(b"\x1f\x8b"):
        raise TraceError(f"{path}: gzip-compressed data, not text; decompress it first (gunzip)")
    nul = data.find(b"\0")
    if nul >= 0:
        line, column = _line_column(data, nul)
        raise TraceError(f"{path}:{line}: binary data (a NUL byte at column {column}), not a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _line_column(data, err.start)
        raise TraceError(f"{path}:{line}: not UTF-8 text (byte 0x{data[err.start]:02x} at column {column})") from None
    return text[1:] if text.startswith("\ufeff") else text


def _line_column(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - start + 1


class _Where(Located):
    """:class:`~cloudsim_py.workload.xml_tree.Located` with the LWF's two kinds of values."""

    def time(self, el: _Element, key: str = "time") -> float:
        return self.attr(el, key, parse_time)

    def number(self, el: _Element, key: str) -> float:
        return self.attr(el, key, _non_negative)


def _non_negative(text: str) -> float:
    """A finite number >= 0 (``inf``, ``nan`` and ``1e400`` are refused, not read as infinity)."""
    value = float(text)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError("must be a finite number >= 0")
    return value


def _integer(text: str) -> int:
    """An integer of at most :data:`MAX_DIGITS` digits."""
    m = _INTEGER_RE.fullmatch(text)
    if not m:
        raise ValueError("must be an integer")
    if len(m.group(1)) > MAX_DIGITS:
        raise ValueError(f"must be an integer of at most {MAX_DIGITS} digits")
    return int(text)


def _count(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise ValueError("must be an integer >= 0")
    return value


def _boolean(text: str) -> bool:
    low = text.strip().lower()
    if low not in ("true", "false"):
        raise ValueError("must be true or false")
    return low == "true"


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == "'" else text


_RES_KEYS = {"CPU": "cpus", "Memory": "memory_mb", "Disk": "disk_mb"}


def _node_sets(w: _Where, nodes_el: _Element) -> list[NodeSet]:
    sets = []
    node_set_els = nodes_el.findall("node-set")
    if not node_set_els:
        raise w.error(nodes_el, "no <node-set> element")
    for ns in node_set_els:
        count = w.attr(ns, "numnodes", _count)
        values: dict[str, float] = {}
        for res in ns.findall("res"):
            rtype = w.attr(res, "type", str)
            if rtype not in _RES_KEYS:
                raise w.error(res, f"unknown resource type {rtype!r} (known: {', '.join(_RES_KEYS)})")
            values[_RES_KEYS[rtype]] = w.number(res, "amount")
        for rtype in ("CPU", "Memory"):
            if _RES_KEYS[rtype] not in values:
                raise w.error(ns, f"no <res type=\"{rtype}\"> element")
        sets.append(NodeSet(count=count, cpus=values["cpus"] / 100.0, memory_mb=values["memory_mb"],
                            disk_mb=values.get("disk_mb", 0.0)))
    return sets


def _xml_id(request: _Element, position: int) -> int:
    """A skipped request's id: its lease's ``id`` if it is a plain integer, else its position."""
    lease_el = request.find("lease")
    text = lease_el.attrib.get("id", "") if lease_el is not None else ""
    return int(text) if text.isdigit() and len(text) <= 18 else position


def _lease_from_xml(w: _Where, request: _Element, position: int) -> LeaseRequest:
    """One ``<lease-request>``: TraceError if malformed, LeaseError if well formed but invalid."""
    arrival = w.time(request, "arrival")
    lease_el = w.child(request, "lease")
    real_el = request.find("realduration")
    real = w.time(real_el) if real_el is not None else None
    given_id = w.optional(lease_el, "id", _integer)
    lease_id = position if given_id is None else given_id
    preemptible = w.optional(lease_el, "preemptible", _boolean)

    sets = _node_sets(w, w.child(lease_el, "nodes"))
    shapes = {(ns.cpus, ns.memory_mb, ns.disk_mb) for ns in sets}
    if len(shapes) > 1:
        raise w.error(lease_el, f"lease {lease_id}: node sets with different resources {sorted(shapes)} "
                                "(a lease here has one VM shape)")
    shape = sets[0]
    nodes = sum(ns.count for ns in sets)

    start_el = w.child(lease_el, "start")
    start: float | None = None
    if not start_el.children:
        mode = LeaseMode.BEST_EFFORT
    elif len(start_el.children) == 1 and start_el.children[0].tag == "exact":
        mode, start = LeaseMode.AR, w.time(start_el.children[0])
    elif len(start_el.children) == 1 and start_el.children[0].tag == "now":
        mode = LeaseMode.IMMEDIATE
    else:
        raise w.error(start_el, "expected an empty <start/>, <exact time=..> or <now/>, found "
                                + ", ".join(f"<{c.tag}>" for c in start_el.children))
    duration = w.time(w.child(lease_el, "duration"))

    software = w.child(lease_el, "software")
    image_id: str | None = None
    image_mb = 0.0
    if len(software.children) == 1 and software.children[0].tag == "disk-image":
        image = software.children[0]
        image_id = _unquote(w.attr(image, "id", str))
        image_mb = w.number(image, "size")
    elif not (len(software.children) == 1 and software.children[0].tag == "none"):
        raise w.error(software, "expected one <disk-image id=.. size=../> or <none/>")

    kwargs = {} if preemptible is None else {"preemptible": preemptible}
    return LeaseRequest(id=lease_id, submit_time=arrival, mode=mode, duration=duration, nodes=nodes,
                        cpus_per_node=shape.cpus, memory_mb=shape.memory_mb, disk_mb=shape.disk_mb,
                        image_mb=image_mb, image_id=image_id, start=start, real_duration=real, **kwargs)


def read_lwf_xml(path: str | os.PathLike, strict: bool = False) -> LeaseWorkload:
    """Read a Haizea LWF XML file (see the module docstring for the readings)."""
    path = os.fspath(path)
    return _lwf_xml(path, read_text_file(path), strict)


def _lwf_xml(path: str, text: str, strict: bool) -> LeaseWorkload:
    root = _parse_xml(path, text)
    w = _Where(path)
    if root.tag != "lease-workload":
        raise w.error(root, "the root element must be <lease-workload>")
    site = None
    site_el = root.find("site")
    if site_el is not None:
        site = Site(tuple(_node_sets(w, w.child(site_el, "nodes"))))
    requests_el = w.child(root, "lease-requests")
    report = LeaseLoadReport(source=path)
    leases: list[LeaseRequest] = []
    lines: list[int] = []
    seen: dict[int, int] = {}
    for position, request in enumerate(requests_el.findall("lease-request"), 1):
        report.records += 1
        try:
            lease = _lease_from_xml(w, request, position)
        except LeaseError as err:
            if strict:
                raise w.error(request, f"{err} (strict mode)") from err
            report.skip(err.reason, 1, [SkippedLease(_xml_id(request, position), None, None, None,
                                                     f"{path}:{request.line}", err.reason)])
            continue
        if lease.id in seen:
            raise w.error(request, f"lease id {lease.id} already used on line {seen[lease.id]}")
        seen[lease.id] = request.line
        leases.append(lease)
        lines.append(request.line)
    report.kept = len(leases)
    name = root.attrib.get("name", os.path.basename(path))
    return LeaseWorkload(name=name, leases=tuple(leases), lines=tuple(lines), report=report, site=site)


# -- the old whitespace format ----------------------------------------------------------------

OLD_FIELDS = ("submit", "start", "duration", "real_duration", "nodes", "cpu", "memory_mb", "disk_mb",
              "image_id", "image_mb")
"""The ten fields of a line of Haizea's old LWF format, in order."""

_OLD_INTS = frozenset({"nodes"})
#: the fields that may be negative: times (``start = -1``: best-effort; an AR starting before its
#: submission is a lease skipped and counted); durations, counts and sizes may not (the format
#: has no -1 convention for them: Haizea's generators write ``real_duration = duration``)
_OLD_SIGNED = frozenset({"submit", "start"})


def _old_number(path: str, lineno: int, parts: list[str], i: int) -> float:
    """Field ``i`` of a line as a finite number; a TraceError naming file, line and field if
    it is not one, is negative where it may not be, or is an integer of too many digits."""
    name, text = OLD_FIELDS[i], parts[i]
    where = f"{path}:{lineno}: field {i + 1} ({name})"
    try:
        value = float(_integer(text)) if name in _OLD_INTS else float(text)
    except ValueError as err:
        if _INTEGER_RE.fullmatch(text):          # an integer, of too many digits
            raise TraceError(f"{where} {err}: {_shown(text)}") from None
        kind = "an integer" if name in _OLD_INTS else "a number"
        raise TraceError(f"{where} is not {kind}: {_shown(text)}") from None
    if not math.isfinite(value):
        raise TraceError(f"{where} is not a finite number: {_shown(text)}")
    if value < 0 and name not in _OLD_SIGNED:
        raise TraceError(f"{where} must be >= 0: {_shown(text)}")
    return value


def iter_old_lines(path: str, text: str | None = None) -> Iterable[tuple[int, list[str]]]:
    """``(line number, 10 fields)`` of every lease line of ``path`` (of ``text`` when given, the
    file already read); a wrong field count is a TraceError."""
    if text is None:
        text = read_text_file(path)
    for lineno, line in enumerate(_NEWLINE.split(text), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.split()
        if len(parts) != len(OLD_FIELDS):
            raise TraceError(f"{path}:{lineno}: expected {len(OLD_FIELDS)} fields "
                             f"({' '.join(OLD_FIELDS)}), found {len(parts)}")
        yield lineno, parts


def read_lwf_old(path: str | os.PathLike, strict: bool = False, first_id: int = 1) -> LeaseWorkload:
    """Read Haizea's old whitespace lease format (``blue-30days/injected/*.lwf``)."""
    path = os.fspath(path)
    return _lwf_old(path, read_text_file(path), strict, first_id)


def _lwf_old(path: str, text: str, strict: bool, first_id: int) -> LeaseWorkload:
    report = LeaseLoadReport(source=path)
    leases: list[LeaseRequest] = []
    lines: list[int] = []
    for k, (lineno, parts) in enumerate(iter_old_lines(path, text)):
        report.records += 1
        submit, start, duration, real, nodes, cpu, memory, disk = (
            _old_number(path, lineno, parts, i) for i in range(8))
        image_mb = _old_number(path, lineno, parts, 9)
        ar = start != -1
        try:
            lease = LeaseRequest(id=first_id + k, submit_time=submit,
                                 mode=LeaseMode.AR if ar else LeaseMode.BEST_EFFORT,
                                 start=start if ar else None, duration=duration, real_duration=real,
                                 nodes=int(nodes), cpus_per_node=cpu, memory_mb=memory, disk_mb=disk,
                                 image_id=_unquote(parts[8]), image_mb=image_mb)
        except LeaseError as err:
            if strict:
                raise TraceError(f"{path}:{lineno}: {err} (strict mode)") from err
            report.skip(err.reason, 1, [SkippedLease(first_id + k, submit, int(nodes), duration, f"{path}:{lineno}",
                                                     err.reason, LeaseMode.AR if ar else LeaseMode.BEST_EFFORT,
                                                     start if ar else None)])
            continue
        leases.append(lease)
        lines.append(lineno)
    report.kept = len(leases)
    return LeaseWorkload(name=os.path.basename(path), leases=tuple(leases), lines=tuple(lines), report=report)


def read_lwf(path: str | os.PathLike, strict: bool = False) -> LeaseWorkload:
    """Either format, told apart by the first non-blank character (``<``: XML)."""
    path = os.fspath(path)
    text = read_text_file(path)
    return _lwf_xml(path, text, strict) if _XML_START.match(text) else _lwf_old(path, text, strict, 1)
