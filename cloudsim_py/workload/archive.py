"""The Parallel Workloads Archive's traces: a catalogue, a verified download into a user cache,
and the ``traces list`` / ``traces fetch NAME`` CLI subcommands.

Paths on the archive follow its logs page (``l_<site>/<file>``). sha256 checksums are given only
where they could be verified locally (the copies described in the shared ``PROVENANCE.md``); for
the other traces the catalogue says the checksum is unknown and a download is checked for gzip
integrity and SWF shape instead - a checksum is never made up.

Cache folder: ``$CLOUDSIM_PY_CACHE``, else ``$XDG_CACHE_HOME/cloudsim_py/traces``, else
``~/.cache/cloudsim_py/traces``. Base URL: ``$CLOUDSIM_PY_ARCHIVE_URL`` or ``--base-url``.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zlib
from pathlib import Path
from typing import Any

import attrs

from ..errors import CloudSimError
from ..logs import logger

log = logger(__name__)

DEFAULT_BASE_URL = "https://www.cs.huji.ac.il/labs/parallel/workload"


class ArchiveError(CloudSimError):
    """A trace is unknown, cannot be downloaded, or fails verification."""


@attrs.define(slots=True, frozen=True)
class ArchiveTrace:
    """One archive file. ``sha256``/``size`` are ``None`` when they could not be verified here."""

    name: str
    path: str
    machine: str
    procs: int | None = None
    jobs: int | None = None
    sha256: str | None = None
    size: int | None = None
    note: str = ""

    @property
    def file(self) -> str:
        return self.path.rsplit("/", 1)[-1]


#: The cleaned traces the papers use, and other archive logs. Checksums, sizes and job counts
#: (records) from the shared PROVENANCE.md, for the files verified there; None = unknown.
CATALOGUE: tuple[ArchiveTrace, ...] = (
    ArchiveTrace("LANL-CM5", "l_lanl_cm5/LANL-CM5-1994-4.1-cln.swf.gz", "Thinking Machines CM-5, LANL, 1994-96",
                 procs=1024, note="Liu 2015 Table 1"),
    ArchiveTrace("CTC-SP2", "l_ctc_sp2/CTC-SP2-1996-3.1-cln.swf.gz", "IBM SP2, Cornell Theory Center, 1996-97",
                 procs=338, jobs=77222, size=1487336,
                 sha256="9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
                 note="Liu 2015 Table 1; the jann97 fit"),
    ArchiveTrace("KTH-SP2", "l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz", "IBM SP2, KTH Stockholm, 1996-97",
                 procs=100, jobs=28476, size=411455,
                 sha256="3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
                 note="Liu 2015 Table 1"),
    ArchiveTrace("SDSC-SP2", "l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz", "IBM SP2, SDSC, 1998-2000",
                 procs=128, note="Liu 2015 Table 1"),
    ArchiveTrace("SDSC-BLUE", "l_sdsc_blue/SDSC-BLUE-2000-4.2-cln.swf.gz", "IBM SP Blue Horizon, SDSC, 2000-03",
                 procs=1152, jobs=243306, size=4070091,
                 sha256="9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658"),
    ArchiveTrace("HPC2N", "l_hpc2n/HPC2N-2002-2.2-cln.swf.gz", "Linux cluster Seth, HPC2N, 2002-06",
                 procs=240, jobs=202871, size=2997773,
                 sha256="3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64"),
    ArchiveTrace("SDSC-Par-1996", "l_sdsc_par/SDSC-Par-1996-3.1-cln.swf.gz", "Intel Paragon, SDSC, 1996",
                 procs=400, jobs=32135, size=497990,
                 sha256="cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
                 note="the feitelson96 default fit"),
    ArchiveTrace("SDSC-Par-1995", "l_sdsc_par/SDSC-Par-1995-3.1-cln.swf.gz", "Intel Paragon, SDSC, 1995",
                 procs=400),
    ArchiveTrace("NASA-iPSC", "l_nasa_ipsc/NASA-iPSC-1993-3.1-cln.swf.gz", "Intel iPSC/860, NASA Ames, 1993",
                 procs=128, jobs=18239, size=207976,
                 sha256="5589ae9b2fb78e3bf92de097497cf33a91607de1ad54563e43533f7827597f29",
                 note="the feitelson96 NASA-iPSC-1993 fit"),
    ArchiveTrace("LLNL-Atlas", "l_llnl_atlas/LLNL-Atlas-2006-2.1-cln.swf.gz", "Linux cluster Atlas, LLNL, 2006-07",
                 procs=9216, note="the shared copy was re-compressed, so its checksum is not the archive's"),
    ArchiveTrace("LLNL-Thunder", "l_llnl_thunder/LLNL-Thunder-2007-1.1-cln.swf.gz", "Linux cluster Thunder, LLNL, 2007"),
    ArchiveTrace("ANL-Intrepid", "l_anl_int/ANL-Intrepid-2009-1.swf.gz", "IBM Blue Gene/P Intrepid, ANL, 2009"),
    ArchiveTrace("CEA-Curie", "l_cea_curie/CEA-Curie-2011-2.1-cln.swf.gz", "Bull cluster Curie, CEA, 2011-12"),
    ArchiveTrace("RICC", "l_ricc/RICC-2010-2.swf.gz", "RIKEN Integrated Cluster of Clusters, 2010"),
    ArchiveTrace("PIK-IPLEX", "l_pik_iplex/PIK-IPLEX-2009-1.swf.gz", "IBM iDataPlex, PIK, 2009-12"),
    ArchiveTrace("LPC-EGEE", "l_lpc/LPC-EGEE-2004-1.2-cln.swf.gz", "LPC cluster (EGEE grid), 2004-05"),
    ArchiveTrace("OSC-Clust", "l_osc/OSC-Clust-2000-3.1-cln.swf.gz", "Linux cluster, Ohio Supercomputer Center, 2000-01"),
    ArchiveTrace("SDSC-DS", "l_sdsc_ds/SDSC-DS-2004-2.1-cln.swf.gz", "IBM DataStar, SDSC, 2004-05"),
    ArchiveTrace("Sandia-Ross", "l_sandia_ross/Sandia-Ross-2001-1.1-cln.swf.gz", "Ross cluster, Sandia, 2001-05"),
    ArchiveTrace("LCG", "l_lcg/LCG-2005-1.swf.gz", "LHC Computing Grid, 2005",
                 note="the shared LCG.swf.gz is a third-party copy, not checked against the archive"),
)


def find_trace(name: str) -> ArchiveTrace:
    """A catalogue entry by name or file name (case-insensitive; ``.swf.gz`` optional)."""
    key = name.strip().lower()
    for t in CATALOGUE:
        if key in (t.name.lower(), t.file.lower(), t.file.lower().removesuffix(".swf.gz"),
                   t.file.lower().removesuffix(".gz")):
            return t
    known = ", ".join(t.name for t in CATALOGUE)
    raise ArchiveError(f"unknown trace {name!r}; known: {known}")


def cache_dir(override: str | os.PathLike | None = None) -> Path:
    """The trace cache folder (see the module docstring for the order)."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get("CLOUDSIM_PY_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "cloudsim_py" / "traces"


def base_url(override: str | None = None) -> str:
    """``override``, else ``$CLOUDSIM_PY_ARCHIVE_URL``, else the archive's own address."""
    return (override or os.environ.get("CLOUDSIM_PY_ARCHIVE_URL") or DEFAULT_BASE_URL).rstrip("/")


def check_url(url: str) -> str:
    """``url`` if it is an ``http`` or ``https`` address with a host; anything else (``file:``,
    ``ftp:``, ``data:``, a bare path) is an :class:`ArchiveError`: a trace is only fetched from
    a web server, never read from wherever a URL can point."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ArchiveError(f"{url}: only http:// and https:// URLs can be fetched"
                           + (f", not {parts.scheme}:" if parts.scheme else ""))
    return url


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects only to http(s) addresses (urllib would follow one to ftp:)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        check_url(urllib.parse.urljoin(req.full_url, newurl))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_opener = urllib.request.build_opener(_HttpOnlyRedirects)


def sha256_of(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(path: str | os.PathLike, trace: ArchiveTrace) -> str:
    """Check a downloaded file; returns how it was checked, raises :class:`ArchiveError`.

    Known checksum: the sha256 must match. Unknown checksum: the size (if known) must match,
    the file must decompress completely as gzip and its first job line must have 18 fields.
    """
    path = Path(path)
    if trace.size is not None and path.stat().st_size != trace.size:
        raise ArchiveError(f"{path}: size {path.stat().st_size} bytes, the catalogue says {trace.size}")
    if trace.sha256 is not None:
        digest = sha256_of(path)
        if digest != trace.sha256:
            raise ArchiveError(f"{path}: sha256 {digest} does not match the catalogue's {trace.sha256}")
        return "sha256 verified"
    try:
        fields = None
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if fields is None and line.strip() and not line.startswith(";"):
                    fields = len(line.split())
    except (OSError, EOFError, zlib.error) as exc:
        raise ArchiveError(f"{path}: not a complete gzip file ({exc})") from None
    if fields is None:
        raise ArchiveError(f"{path}: no job lines")
    if fields < 18:
        raise ArchiveError(f"{path}: first job line has {fields} fields, SWF needs 18")
    return "checksum unknown: gzip integrity and SWF shape verified"


def fetch(trace: ArchiveTrace, url_base: str | None = None, cache: str | os.PathLike | None = None,
          timeout: float = 60.0) -> tuple[Path, str]:
    """Download ``trace`` into the cache (unless a verified copy is there); ``(path, how checked)``.

    Only ``http(s)`` URLs are fetched (:func:`check_url`), redirects included. The download
    goes to a temporary file in the cache folder and is renamed only after it
    verifies, so a failed or corrupt download never leaves a file under the trace's name.
    """
    url = check_url(f"{base_url(url_base)}/{trace.path}")
    folder = cache_dir(cache)
    dest = folder / trace.file
    if dest.is_file():
        try:
            return dest, "already in the cache, " + verify(dest, trace)
        except ArchiveError as exc:
            log.warning("cached copy fails verification, downloading again: %s", exc)
    folder.mkdir(parents=True, exist_ok=True)
    log.info("downloading %s", url)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{trace.file}.", suffix=".part", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                with _opener.open(url, timeout=timeout) as resp:
                    for block in iter(lambda: resp.read(1 << 20), b""):
                        out.write(block)
            except urllib.error.HTTPError as exc:
                raise ArchiveError(f"{url}: HTTP {exc.code} {exc.reason}") from None
            except (urllib.error.URLError, OSError) as exc:
                raise ArchiveError(f"{url}: download failed ({getattr(exc, 'reason', exc)})") from None
        how = verify(tmp, trace)
        os.replace(tmp, dest)
        return dest, how
    finally:
        if tmp.exists():
            tmp.unlink()
