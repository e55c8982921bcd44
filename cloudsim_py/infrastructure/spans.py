"""Hosts held as runs of consecutive ids: a one-tier datacenter's idle hosts as a queue of
spans, and a job's hosts as the spans it took, listed only when someone asks.

On one tier with the default placement, the idle hosts are a queue: a start takes the first
``n`` (in the order they became idle), a finish puts the job's hosts back at the end in process
order. Kept host by host that costs O(width) per start and per finish; kept as spans ``[a, b)``
of consecutive ids it costs O(spans touched), whatever the width (issue 19, docs/performance.md
"Cloud scale"). The order of the ids is exactly the order of the per-host queue it stands for
(tests/infrastructure/test_spans.py checks both against a plain per-host model)."""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Any, Iterator, Sequence, overload

Span = tuple[int, int]


class SpanQueue:
    """Host ids in a queue, as spans ``(a, b)`` for ids ``a, a + 1, ..., b - 1``. ``len`` is the
    number of ids (O(1)); iteration yields them in queue order (O(ids)).

    :meth:`take` ``(n)`` removes the first ``n`` ids: O(spans removed), at most O(n) and O(1)
    when the front span holds them. :meth:`put` appends spans at the end: O(spans put); a span
    that continues the last one (``last.b == a``) is merged into it, which keeps the order."""

    __slots__ = ("spans", "count")

    def __init__(self, n: int = 0) -> None:
        self.spans: deque[Span] = deque([(0, n)]) if n > 0 else deque()
        self.count = n

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        for a, b in self.spans:
            yield from range(a, b)

    def take(self, n: int) -> list[Span]:
        """The first ``n`` ids, removed, as spans in queue order (``n`` <= ``len``)."""
        spans = self.spans
        self.count -= n
        a, b = spans[0]
        if b - a > n:                      # the usual case: one span holds them
            spans[0] = (a + n, b)
            return [(a, a + n)]
        out = []
        popleft = spans.popleft
        while n:
            a, b = spans[0]
            if b - a <= n:
                popleft()
                out.append((a, b))
                n -= b - a
            else:
                spans[0] = (a + n, b)
                out.append((a, a + n))
                n = 0
        return out

    def put(self, spans: Sequence[Span], count: int) -> None:
        """Append ``spans`` (``count`` ids, none in the queue) at the end, in order; O(1) in
        Python plus a copy of the spans in C. ``spans`` must be as :meth:`take` gave them: no
        span continues the one before it (neighbours in the queue never do, and a take is a
        run of neighbours), so only the first can merge with the queue's last span."""
        q = self.spans
        self.count += count
        if q:
            a, b = spans[0]
            la, lb = q[-1]
            if lb == a:
                q[-1] = (la, b)
                if len(spans) > 1:
                    q.extend(islice(spans, 1, None))
                return
        q.extend(spans)

    def __repr__(self) -> str:
        return f"SpanQueue({list(self.spans)!r})"


class SpanHosts(Sequence[Any]):
    """A job's hosts as the spans of ids it took: ``len`` O(1); the list of hosts (``hosts[id]``
    for every id, in span order: process i on the i-th) is made at the first read of an element
    and kept. Compares equal to a list or tuple of the same hosts."""

    __slots__ = ("hosts", "spans", "size", "_list")

    def __init__(self, hosts: list[Any], spans: list[Span], count: int) -> None:
        self.hosts = hosts
        self.spans = spans
        self.size = count
        self._list: list[Any] | None = None

    def listed(self) -> list[Any]:
        """The hosts as a list (made once: O(width) the first time)."""
        hl = self._list
        if hl is None:
            hosts = self.hosts
            spans = self.spans
            if len(spans) == 1:
                a, b = spans[0]
                hl = hosts[a:b]
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
