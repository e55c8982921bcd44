"""How much memory a run may plan to use, and the words of a refusal beyond it (imports nothing
from the package but errors).

A size that comes from a file or an option (a trace header's ``MaxProcs``, ``datacenter.hosts``,
a model's ``jobs``) is turned into an estimate of the bytes it needs *before* anything is
allocated; beyond the limit it is refused with the estimate and the key, instead of a
``MemoryError`` (or the machine swapping) minutes later. The limit is
``$CLOUDSIM_PY_MEMORY_LIMIT`` when set (bytes, or a number with a ``K``, ``M``, ``G`` or ``T``
suffix: ``512M``), else half the physical memory, else (physical memory unknown) 8 GiB.
"""

from __future__ import annotations

import os
import re

from .errors import CloudSimError

#: environment variable that sets the limit (tests set a small one)
ENV = "CLOUDSIM_PY_MEMORY_LIMIT"
#: share of the physical memory a run may plan to use (the rest: the interpreter, the outputs,
#: what the estimates leave out, the other programs)
FRACTION = 0.5
#: the limit where the physical memory cannot be read
FALLBACK = 8 << 30

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def physical_memory() -> int | None:
    """Bytes of physical memory, ``None`` where the system does not say."""
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def memory_limit() -> tuple[int, str]:
    """``(bytes, where the number comes from)``; see the module docstring."""
    text = os.environ.get(ENV)
    if text:
        m = _SIZE.fullmatch(text)
        if m is None:
            raise CloudSimError(f"${ENV}: {text!r} is not a size (bytes, or a number with K, M, G or T)")
        return int(float(m.group(1)) * _UNITS[m.group(2).upper()]), f"${ENV}"
    phys = physical_memory()
    if phys is None:
        return FALLBACK, f"the physical memory being unknown; ${ENV} sets it"
    return int(phys * FRACTION), f"half the physical memory; ${ENV} sets it"


def format_bytes(n: float) -> str:
    """``7.5 GiB``, ``120 MiB``, ``512 TiB``: binary units, three digits."""
    for unit, size in (("PiB", 1 << 50), ("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} bytes"


def over_limit(needed: float) -> str | None:
    """``None`` if ``needed`` bytes fit in :func:`memory_limit`, else the end of a refusal:
    ``about 7.5 GiB of memory, more than the limit of 4 GiB (half the physical memory; ...)``
    (the caller says what needs it)."""
    limit, why = memory_limit()
    if needed <= limit:
        return None
    return f"about {format_bytes(needed)} of memory, more than the limit of {format_bytes(limit)} ({why})"
