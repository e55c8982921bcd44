"""The package's loggers, and the command line's logging set-up, applied when it is first needed.

A module that logs makes its logger with :func:`logger` (``log = logger(__name__)``). The command
line states its wish with :func:`configure` (INFO with ``--verbose``, else WARNING, as
``LEVEL name: message`` on standard error) without importing :mod:`logging`: the wish is carried
out at once when :mod:`logging` is already imported, else when the first logger is made. A run
whose modules never log (a datacenter run) so does not import :mod:`logging` at all: about 2 ms
of a process start (docs/performance.md, *Process start*)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import logging

FORMAT = "%(levelname)s %(name)s: %(message)s"
INFO, WARNING = 20, 30                 # logging.INFO and logging.WARNING, without the import

_wanted: list[int] = []                # the level the command line asked for, not carried out yet


def configure(verbose: bool) -> None:
    """Log at INFO (``verbose``) or WARNING, in :data:`FORMAT`, as ``logging.basicConfig`` does
    (so nothing changes for a program that has configured logging itself): now if
    :mod:`logging` is imported, else when :func:`logger` is first called."""
    _wanted[:] = [INFO if verbose else WARNING]
    if "logging" in sys.modules:
        _carry_out()


def logger(name: str) -> "logging.Logger":
    """``logging.getLogger(name)``, after the command line's set-up if one is waiting."""
    import logging

    _carry_out()
    return logging.getLogger(name)


def _carry_out() -> None:
    if _wanted:
        import logging

        logging.basicConfig(level=_wanted.pop(), format=FORMAT)
