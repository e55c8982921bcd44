"""CLI subcommands ``traces list`` and ``traces fetch NAME`` (the Parallel Workloads Archive
catalogue and its verified download, in ``workload.archive``)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ..workload.archive import (CATALOGUE, DEFAULT_BASE_URL, ArchiveError, cache_dir, fetch,
                                find_trace)


def _cmd_list(args: argparse.Namespace) -> int:
    folder = cache_dir(getattr(args, "cache", None))
    print(f"Parallel Workloads Archive traces (cache: {folder})")
    print(f"{'name':<14} {'procs':>6} {'jobs':>7}  {'sha256':<18} {'cached':<6} file")
    for t in CATALOGUE:
        digest = t.sha256[:16] + ".." if t.sha256 else "unknown"
        cached = "yes" if (folder / t.file).is_file() else "no"
        procs = str(t.procs) if t.procs else "?"
        jobs = str(t.jobs) if t.jobs else "?"
        print(f"{t.name:<14} {procs:>6} {jobs:>7}  {digest:<18} {cached:<6} {t.path}")
    print("checksum 'unknown': not verifiable here; a download is checked for gzip integrity and "
          "SWF shape only.")
    return 0


def _cmd_fetch(args: argparse.Namespace) -> int:
    if not 0.0 < args.timeout < math.inf:     # socket refuses a negative or NaN timeout, with a traceback
        print(f"cloudsim-py: error: --timeout must be a finite number of seconds > 0, got {args.timeout:g}",
              file=sys.stderr)
        return 2
    try:
        trace = find_trace(args.name)
        path, how = fetch(trace, args.base_url, args.cache, timeout=args.timeout)
    except ArchiveError as exc:
        print(f"cloudsim-py: error: {exc}", file=sys.stderr)
        return 1
    print(f"{trace.name}: {path} ({how})")
    return 0


def add_traces_commands(subparsers: Any) -> None:
    """Add ``traces list`` and ``traces fetch NAME`` to an argparse sub-parsers object."""
    traces = subparsers.add_parser("traces", help="Parallel Workloads Archive traces: list, fetch",
                                   description="The Parallel Workloads Archive traces the papers use.")
    sub = traces.add_subparsers(dest="traces_command", metavar="{list,fetch}")
    sub.required = True
    p_list = sub.add_parser("list", help="the catalogue, with checksums and what is cached")
    p_list.add_argument("--cache", help="cache folder (default: $CLOUDSIM_PY_CACHE, "
                                        "$XDG_CACHE_HOME/cloudsim_py/traces or ~/.cache/cloudsim_py/traces)")
    p_list.set_defaults(func=_cmd_list)
    p_fetch = sub.add_parser("fetch", help="download a trace into the cache and verify it")
    p_fetch.add_argument("name", help="trace name (see 'traces list') or file name")
    p_fetch.add_argument("--base-url", help=f"archive base URL (default: $CLOUDSIM_PY_ARCHIVE_URL or {DEFAULT_BASE_URL})")
    p_fetch.add_argument("--cache", help="cache folder (default as for 'traces list')")
    p_fetch.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds (default 60)")
    p_fetch.set_defaults(func=_cmd_fetch)
