"""A CSV file written row by row while a run goes, under a temporary name until :meth:`close`
renames it into place (so the file is either absent, the old one, or complete, like every
other output). The base of the streamed writers that are datacenter listeners
(``schedule.csv``, ``timeline.csv``)."""

from __future__ import annotations

from . import TemporaryCsv


class StreamedCsv(TemporaryCsv):
    """``path`` opened under its temporary name with ``header`` written; :meth:`write` adds
    a row, :meth:`close` puts the file in place, :meth:`abort` removes the temporary file."""

    #: the file's name in a run folder (``summary.json`` lists it)
    name = ""

    def write(self, line: str) -> None:
        """One row (``line`` ends with a newline)."""
        self._write(line)
        self.rows += 1

    def finish(self) -> None:
        """What a writer still holds, written before :meth:`close` renames the file (the
        pending row of a timeline); nothing here."""

    def close(self) -> None:
        """Write what is pending and put the file in place (once; later calls do nothing)."""
        if self._fh is None:
            return
        self.finish()
        self._put_in_place()
