"""Hosts held as runs of consecutive ids: a one-tier datacenter's idle hosts as a queue of
spans, and a job's hosts as the spans it took, listed only when someone asks.

On one tier with the default placement, the idle hosts are a queue: a start takes the first
``n`` (in the order they became idle), a finish puts the job's hosts back at the end in process
order. Kept host by host that costs O(width) per start and per finish; kept as spans ``[a, b)``
of consecutive ids it costs O(spans touched), whatever the width (issue 19, docs/performance.md
"Cloud scale"). The order of the ids is exactly the order of the per-host queue it stands for
(tests/infrastructure/test_spans.py checks both against a plain per-host model)."""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice
from typing import Any, Iterator, Sequence, overload

Span = tuple[int, int]


class SpanQueue:
    """Host ids in a queue, as spans ``(a, b)`` for ids ``a, a + 1, ..., b - 1``. ``len`` is the
    number of ids (O(1)); iteration yields them in queue order (O(ids)).

    :meth:`take` ``(n)`` removes the first ``n`` ids: O(log S) in Python for S spans queued
    (a binary search on the spans' cumulative ends) plus a copy in C of the spans taken.
    :meth:`put` appends spans at the end: O(1) in Python plus a copy in C; a span that
    continues the last one (``last.b == a``) is merged into it, which keeps the order.

    Kept as two lists from a head index: ``_spans`` and ``_ends``, the number of ids queued
    since the start up to the end of each span (so a take is a ``bisect``); the taken head is
    dropped when it is more than half of the lists (amortized O(1))."""

    __slots__ = ("_spans", "_ends", "_head", "_base", "count")

    def __init__(self, n: int = 0) -> None:
        self._spans: list[Span] = [(0, n)] if n > 0 else []
        self._ends: list[int] = [n] if n > 0 else []
        self._head = 0
        self._base = 0            # ids taken since the start (ids queued before the head's)
        self.count = n

    @property
    def spans(self) -> list[Span]:
        """The spans queued, in order (a copy)."""
        return self._spans[self._head:]

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        for a, b in self._spans[self._head:]:
            yield from range(a, b)

    def take(self, n: int) -> tuple[list[Span], list[int]]:
        """The first ``n`` ids (``0 < n <= len``), removed: their spans in queue order and each
        span's end counted from the first id taken (the last is ``n``)."""
        spans = self._spans
        ends = self._ends
        h = self._head
        base = self._base
        target = base + n
        self._base = target
        self.count -= n
        e = ends[h]
        if e >= target:                   # the usual case: the head span holds them
            a, b = spans[h]
            if e == target:
                self._head = h + 1
                self._compact()
                return [(a, b)], [n]
            spans[h] = (a + n, b)
            return [(a, a + n)], [n]
        j = bisect_left(ends, target, h)
        out = spans[h:j]
        rel = [x - base for x in ends[h:j]]
        a, b = spans[j]
        if ends[j] == target:
            out.append((a, b))
            self._head = j + 1
        else:
            k = b - (ends[j] - target)    # span j's ids a .. k - 1 are taken
            out.append((a, k))
            spans[j] = (k, b)
            self._head = j
        rel.append(n)
        self._compact()
        return out, rel

    def _compact(self) -> None:
        h = self._head
        if h > 64 and 2 * h > len(self._spans):
            del self._spans[:h]
            del self._ends[:h]
            self._head = 0

    def put(self, spans: Sequence[Span], rel: Sequence[int]) -> None:
        """Append ``spans`` (none of their ids queued; ``rel``: each one's end counted from the
        first id, as :meth:`take` gave them) at the end, in order. ``spans`` must be as
        :meth:`take` gave them: no span continues the one before it (neighbours in the queue
        never do, and a take is a run of neighbours), so only the first can merge with the
        queue's last span."""
        q = self._spans
        ends = self._ends
        n = rel[-1]
        self.count += n
        tail = ends[-1] if ends else self._base
        if len(q) > self._head:
            a, b = spans[0]
            la, lb = q[-1]
            if lb == a:
                q[-1] = (la, b)
                ends[-1] = tail + rel[0]
                if len(spans) > 1:
                    q.extend(islice(spans, 1, None))
                    ends.extend([tail + x for x in islice(rel, 1, None)])
                return
        q.extend(spans)
        if len(rel) == 1:
            ends.append(tail + n)
        else:
            ends.extend([tail + x for x in rel])

    def __repr__(self) -> str:
        return f"SpanQueue({self.spans!r})"


class SpanHosts(Sequence[Any]):
    """A job's hosts as the spans of ids it took: ``len`` O(1); the list of hosts (``hosts[id]``
    for every id, in span order: process i on the i-th) is made at the first read of an element
    and kept. Compares equal to a list or tuple of the same hosts."""

    __slots__ = ("hosts", "spans", "ends", "size", "_list")

    def __init__(self, hosts: Sequence[Any], spans: list[Span], ends: list[int]) -> None:
        self.hosts = hosts
        self.spans = spans
        self.ends = ends          # each span's end counted from the first id (the last: size)
        self.size = ends[-1]
        self._list: list[Any] | None = None

    def listed(self) -> list[Any]:
        """The hosts as a list (made once: O(width) the first time)."""
        hl = self._list
        if hl is None:
            hosts = self.hosts
            spans = self.spans
            if len(spans) == 1:
                a, b = spans[0]
                hl = list(hosts[a:b])
            else:
                hl = []
                for a, b in spans:
                    hl += hosts[a:b]
            self._list = hl
        return hl

    def ids(self) -> Iterator[int]:
        for a, b in self.spans:
            yield from range(a, b)

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        return self.listed()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.listed())

    def __contains__(self, host: object) -> bool:
        hid = getattr(host, "id", None)
        if hid is None or not 0 <= hid < len(self.hosts) or self.hosts[hid] is not host:
            return False
        return any(a <= hid < b for a, b in self.spans)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpanHosts):
            other = other.listed()
        if isinstance(other, (list, tuple)):
            return len(other) == self.size and all(x is y for x, y in zip(self.listed(), other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.listed())
