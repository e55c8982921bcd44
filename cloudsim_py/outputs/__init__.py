"""Results on disk: the output folder's rules (checked before a run), files written under a
temporary name and renamed, and ``jobs.csv`` streamed while the run goes (``schedule.csv`` and
``timeline.csv``, streamed by datacenter listeners, are in :mod:`.schedule` and
:mod:`.timeline`). Imports the metrics and the job states; nothing of the engine, the brokers
or the scenarios.

``jobs.csv``: the columns of :attr:`~cloudsim_py.metrics.JobRecords.FIELDS`, the system's text
columns (a cloud system's ``cloud,mode,requested_start,dag,task``; none for a datacenter), then
``state`` and ``reason``. Finished jobs come first, in the order they finish (a chunk at a time),
then the rejected jobs (in the order they were rejected), the unfinished ones and the rows the
system adds (the jobs the loader skipped, work refused before it reached a datacenter); the
columns a job does not have (a rejected job's start) are empty.
"""

from __future__ import annotations

import csv
import errno
import json
import math
import os
import re
from typing import IO, Any, Callable, Iterable, Sequence

import numpy as np

from ..errors import OutputError
from ..metrics import STATE_FIELDS, JobLog, JobRecords, csv_header, derived, finished_lines
from ..workload.job import Job

#: the files a run writes (and ``--force`` replaces); a sub-folder per label with several brokers
RUN_FILES = ("summary.json", "jobs.csv", "schedule.swf", "schedule.csv", "timeline.csv")
TMP_PREFIX = ".tmp-"
#: a temporary file of :func:`_tmp_name`: ``.tmp-<pid>-<name>``
_TMP_NAME = re.compile(r"^\.tmp-(\d+)-.+$")


def _tmp_name(path: str) -> str:
    folder, name = os.path.split(path)
    return os.path.join(folder, f"{TMP_PREFIX}{os.getpid()}-{name}")


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename, so
    that ``path`` is either absent, the old file, or complete."""
    tmp = _tmp_name(path)
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def write_json(path: str, doc: Any) -> None:
    """Strict JSON (RFC 8259): a number that is not finite (NaN, an infinity) is written as
    ``null``, wherever it is in ``doc``; numpy scalars as Python numbers."""
    write_atomic(path, json.dumps(strict_json(doc), indent=2, allow_nan=False) + "\n")


def strict_json(value: Any) -> Any:
    """``value`` as plain JSON data: mappings with string keys, lists, strings, finite numbers,
    booleans and ``None`` (non-finite floats become ``None``; sets and tuples lists; numpy
    scalars Python numbers; anything else its ``str``)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [strict_json(v) for v in value]
    item = getattr(value, "item", None)
    if callable(item):
        return strict_json(item())
    return str(value)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def check_output_folder(folder: str, force: bool = False) -> None:
    """Before a run: ``folder`` must be creatable and writable, and empty unless ``force``
    (then the files of a previous run, listed in its ``summary.json`` or named as in
    :data:`RUN_FILES`, are removed; anything else in it stays). Raises
    :class:`~cloudsim_py.errors.OutputError` naming the folder."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise OutputError(f"output folder {folder}: exists and is not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"output folder {folder}: cannot create it ({exc.strerror or exc})") from None
    remove_stale_temporaries(folder)
    entries = [e for e in os.listdir(folder) if not e.startswith(TMP_PREFIX)]
    if entries and not force:
        shown = ", ".join(sorted(entries)[:5]) + (", ..." if len(entries) > 5 else "")
        raise OutputError(f"output folder {folder}: not empty ({shown}); use --force to replace "
                          "a previous run's results, or choose another folder")
    if force:
        _clear_previous(folder)
    probe = os.path.join(folder, f"{TMP_PREFIX}{os.getpid()}-probe")
    try:
        with open(probe, "w", encoding="utf-8") as fh:
            fh.write("")
    except OSError as exc:
        raise OutputError(f"output folder {folder}: not writable ({exc.strerror or exc})") from None
    finally:
        _remove(probe)


def remove_stale_temporaries(folder: str) -> list[str]:
    """Remove the temporary files a killed run left in ``folder`` and in its label
    sub-folders: regular files named ``.tmp-<pid>-<name>`` whose process is gone (a live one may
    be another run still writing), and a sub-folder left empty by that (a label's folder the
    killed run had just made). Symbolic links are neither followed nor removed, and nothing
    outside ``folder`` is looked at. Returns the paths removed."""
    removed: list[str] = []
    folders = [folder]
    try:
        with os.scandir(folder) as it:
            folders += [e.path for e in it if e.is_dir(follow_symlinks=False)]
    except OSError:
        return removed
    for where in folders:
        try:
            with os.scandir(where) as it:
                stale = [e.path for e in it if _is_stale(e)]
        except OSError:
            continue
        for path in stale:
            try:
                os.remove(path)
                removed.append(path)
            except OSError:
                pass
        if stale and where != folder:
            try:
                os.rmdir(where)           # only if nothing else is in it
                removed.append(where)
            except OSError:
                pass
    return removed


def _is_stale(entry: os.DirEntry) -> bool:
    match = _TMP_NAME.match(entry.name)
    if match is None or not entry.is_file(follow_symlinks=False):
        return False
    return not _alive(int(match.group(1)))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running on this machine (ours counts: its own files
    are its business; on Windows, where ``os.kill`` would end the process, every one does)."""
    if pid == os.getpid() or os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):    # no such process (or no such pid at all)
        return False
    except OSError:                                 # it exists, and belongs to someone else
        return True
    return True


def _clear_previous(folder: str) -> None:
    """Remove what an earlier run wrote here: the files its summary lists, the standard names,
    and sub-folders left empty by that. Only regular files inside ``folder`` are removed: a
    name that leads out of it (``..``, an absolute path) or through a symbolic link (a linked
    sub-folder, a linked file) is left alone, so that a summary cannot make ``--force`` delete
    anything outside the folder it was given."""
    listed: list[str] = []
    summary = os.path.join(folder, "summary.json")
    try:
        if not os.path.islink(summary):
            with open(summary, encoding="utf-8") as fh:
                doc = json.load(fh)
            files = doc.get("files") if isinstance(doc, dict) else None
            if isinstance(files, list):
                listed = [f for f in files if isinstance(f, str)]
    except (OSError, ValueError):
        pass
    root = os.path.realpath(folder)
    for rel in listed + list(RUN_FILES):
        path = _inside(root, rel)
        if path is not None and os.path.isfile(path):
            _remove(path)
            parent = os.path.dirname(path)
            if parent != root:
                try:
                    os.rmdir(parent)
                except OSError:
                    pass


def _inside(root: str, rel: str) -> str | None:
    """``rel`` under the resolved folder ``root`` if it names a file there reached without a
    symbolic link (neither the file nor a sub-folder on the way is one), else ``None``."""
    if not rel or "\0" in rel or os.path.isabs(rel):
        return None
    path = os.path.normpath(os.path.join(root, rel))
    if path == root or os.path.commonpath([path, root]) != root:
        return None
    cur = root
    for part in os.path.relpath(path, root).split(os.sep):
        cur = os.path.join(cur, part)
        if os.path.islink(cur):
            return None
    return path


class TemporaryCsv:
    """A CSV file opened under its temporary name with ``header`` written; ``_write`` adds
    text, ``_put_in_place`` closes and renames it to ``path``, :meth:`abort` removes it. The
    base of every output written while a run goes (``jobs.csv``, the streamed writers), so
    the file is either absent, the old one, or complete. Errors of the disk are
    :class:`~cloudsim_py.errors.OutputError` naming ``path``."""

    def __init__(self, path: str, header: str) -> None:
        self.path = path
        self.tmp = _tmp_name(path)
        self.rows = 0
        try:
            self._fh: IO[str] | None = open(self.tmp, "w", encoding="utf-8", newline="")
            self._fh.write(header)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None

    def _write(self, text: str) -> None:
        fh = self._fh
        if fh is None:
            raise OutputError(f"{self.path}: already closed; a closed output takes no rows")
        try:
            fh.write(text)
        except OSError as exc:
            self.abort()
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def _put_in_place(self) -> None:
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
        """Remove the temporary file (nothing is put in place)."""
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        _remove(self.tmp)


class JobsCsv(TemporaryCsv):
    """``jobs.csv`` written while a run goes: a sink of the :class:`~cloudsim_py.metrics.JobLog`
    (``log.sinks.append(writer)``) that writes each chunk of finished jobs, then
    :meth:`close` adds the rejected, unfinished and skipped jobs and renames the temporary
    file to ``path``. Until then ``path`` does not exist (or is the old file); :meth:`abort`
    removes the temporary file."""

    def __init__(self, path: str, tau: float = 10.0, text: Sequence[str] = ()) -> None:
        self.tau = tau
        #: the system's text columns (names; the log's columns fill them)
        self.text = tuple(text)
        super().__init__(path, csv_header(self.text))

    def __call__(self, columns: dict[str, np.ndarray]) -> None:
        """A chunk of finished jobs (raw columns)."""
        cols = derived(dict(columns), self.tau)
        lines = finished_lines(cols, self.text)
        self._write("".join(lines))
        self.rows += len(lines)

    def close(self, log: JobLog, rows: Iterable[Sequence[str]] = ()) -> None:
        """Flush the log, add the other jobs' rows (the rejected and unfinished jobs of the log,
        then ``rows``: whole rows the system adds, such as :func:`skipped_rows`), and put the
        file in place."""
        log.flush()
        fh = self._fh
        assert fh is not None
        writer = csv.writer(fh, lineterminator="\n")
        text = [column for name, column in log.text if name in self.text]
        try:
            for job in log.rejected:
                writer.writerow(_job_row(job, text, "rejected", log.reasons.get(job.id, "")))
            for job in log.unfinished():
                writer.writerow(_job_row(job, text, "unfinished", job.state.label))
            for row in rows:
                writer.writerow(row)
        except OSError as exc:
            self.abort()
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None
        self._put_in_place()


def _job_row(job: Job, text: Sequence[Callable[[Sequence[Job]], Sequence[str]]], state: str, reason: str) -> list:
    """A non-finished job's row: what it has of the columns (``text``: the system's text
    columns, each given the job alone)."""
    start = job.first_start
    values: dict[str, Any] = {
        "id": job.id, "submit": float(job.submit_time), "start": "" if start is None else float(start),
        "finish": "", "procs": job.procs, "runtime": float(job.desc.runtime),
        "estimate": float(job.runtime_estimate), "wait": "", "response": "", "bsld": "",
        "kills": job.kills, "suspensions": job.suspensions, "migrations": job.migrations,
        "swaps": job.swaps, "tier": job.tier, "lost_work": float(job.lost_work)}
    return [_cell(values[n]) for n in JobRecords.FIELDS] + [column((job,))[0] for column in text] + [state, reason]


def _cell(v: Any) -> str:
    return v if isinstance(v, str) else repr(v)


def partial_row(values: dict[str, Any], text: Sequence[str] = (), words: dict[str, str] | None = None,
                state: str = "skipped", reason: str = "") -> list[str]:
    """A ``jobs.csv`` row of a job that never ran here: the record columns it has (``values``,
    numbers or text), the text columns (``words``), the others empty."""
    words = words or {}
    return ([_cell(values[n]) if n in values else "" for n in JobRecords.FIELDS]
            + [words.get(n, "") for n in text] + [state, reason])


def skipped_rows(skipped: Iterable[tuple[str, np.ndarray]], text: Sequence[str] = ()) -> Iterable[list[str]]:
    """Rows of SWF records the loader skipped, by reason: id, submit, processors, runtime,
    requested time."""
    from ..workload.table import COL

    for reason, rows in skipped:
        for r in rows.tolist():
            alloc = r[COL["alloc_procs"]]
            procs = r[COL["req_procs"]] if alloc == -1 else alloc
            values = {"id": int(r[COL["job"]]), "submit": r[COL["submit"]], "procs": int(procs),
                      "runtime": r[COL["run"]], "estimate": r[COL["req_time"]]}
            yield partial_row(values, text, reason=reason)


def csv_columns(text: Sequence[str] = ()) -> Sequence[str]:
    """The columns of ``jobs.csv`` (``text``: the system's text columns)."""
    return JobRecords.FIELDS + tuple(text) + STATE_FIELDS


def is_disk_error(exc: OSError) -> bool:
    """Errors of the file system (full, read-only, permissions), as opposed to a closed pipe."""
    return exc.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT)
