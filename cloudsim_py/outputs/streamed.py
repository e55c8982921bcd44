"""A CSV file written row by row while a run goes, under a temporary name until :meth:`close`
renames it into place (so the file is either absent, the old one, or complete, like every
other output). The base of the streamed writers that are datacenter listeners
(``schedule.csv``, ``timeline.csv``)."""

from __future__ import annotations

import os
from typing import IO

from ..errors import OutputError
from . import _remove, _tmp_name


class StreamedCsv:
    """``path`` opened under its temporary name with ``header`` written; :meth:`write` adds
    text, :meth:`close` puts the file in place, :meth:`abort` removes the temporary file.
    Errors of the disk are :class:`~cloudsim_py.errors.OutputError` naming ``path``."""

    #: the file's name in a run folder (``summary.json`` lists it)
    name = ""

    def __init__(self, path: str, header: str) -> None:
        self.path = path
        self.tmp = _tmp_name(path)
        self.rows = 0
        try:
            self._fh: IO[str] | None = open(self.tmp, "w", encoding="utf-8", newline="")
            self._fh.write(header)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None

    def write(self, line: str) -> None:
        """One row (``line`` ends with a newline)."""
        fh = self._fh
        if fh is None:
            raise OutputError(f"{self.path}: already closed; a closed output takes no rows")
        try:
            fh.write(line)
        except OSError as exc:
            self.abort()
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None
        self.rows += 1

    def finish(self) -> None:
        """What a writer still holds, written before :meth:`close` renames the file (the
        pending row of a timeline); nothing here."""

    def close(self) -> None:
        """Write what is pending and put the file in place (once; later calls do nothing)."""
        if self._fh is None:
            return
        self.finish()
        fh = self._fh
        assert fh is not None
        try:
            fh.close()
            self._fh = None
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def abort(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        _remove(self.tmp)
