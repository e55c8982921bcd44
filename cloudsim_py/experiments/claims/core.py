"""The ledger's mechanism: a claim, the recorded evidence it is checked on, its verdict, and the
Markdown table of all of them. The claims themselves live in one module per paper.

A :class:`Claim` holds its text and a check, a function of the :class:`Evidence` (the recorded
runs) returning ``(ours, verdict)``; a claim without a check, or whose runs are not recorded,
is ``not attempted`` with the reason. Verdicts: ``holds``; ``off by +X %`` (a table cell
outside its tolerance); ``fails`` (a trend or a sentence that does not hold); ``not
attempted (...)``. :func:`ledger` evaluates a list of claims, :func:`markdown` writes the table
(``scripts/reproduce.py claims`` puts it into docs/reproduction.md).

Evidence: ``docs/data/runs.jsonl`` (Liu 2015 Table 2 and section 4.3 on the shared traces,
several seeds for the consolidation policies: ``scripts/reproduce.py run``),
``docs/data/li-feedback.csv`` (Li et al. Figs. 1-2, mean execution time per situation, policy
and alpha: ``scripts/li_feedback_figures.py``) and every other ``docs/data/*.csv``, a named
table (its file name without ``.csv``) that the claims of one paper read with
:meth:`Evidence.table`."""

from __future__ import annotations

import csv
import json
import math
import os
import statistics
from typing import Callable, Iterable, Mapping, Sequence

import attrs

@attrs.define(slots=True, frozen=True)
class Verdict:
    ours: str
    verdict: str


@attrs.define(slots=True, frozen=True)
class Evidence:
    """The recorded runs a ledger reads: ``runs`` (rows of ``runs.jsonl``: trace, label, seed and
    the summary's metrics) and ``li`` (rows of ``li-feedback.csv``: situation, policy, alpha,
    mean_s)."""

    runs: tuple[Mapping, ...] = ()
    li: tuple[Mapping, ...] = ()
    tables: Mapping[str, tuple[Mapping, ...]] = attrs.field(factory=dict)

    def table(self, name: str) -> tuple[Mapping, ...]:
        """The rows of ``docs/data/<name>.csv`` (empty if it is not recorded)."""
        return self.tables.get(name, ())

    def mean(self, trace: str, label: str, metric: str) -> float | None:
        """The mean of ``metric`` over the recorded seeds of (trace, label); None if none."""
        values = [float(r[metric]) for r in self.runs
                  if r["trace"] == trace and r["label"] == label and r.get(metric) is not None]
        return statistics.fmean(values) if values else None

    def seeds(self, trace: str, label: str, metric: str) -> int:
        return sum(1 for r in self.runs
                   if r["trace"] == trace and r["label"] == label and r.get(metric) is not None)

    def li_mean(self, situation: str, policy: str, alpha: float) -> float | None:
        for r in self.li:
            if r["situation"] == situation and r["policy"] == policy and math.isclose(float(r["alpha"]), alpha):
                return float(r["mean_s"])
        return None

    def li_alphas(self, situation: str, policy: str) -> list[float]:
        return sorted(float(r["alpha"]) for r in self.li if r["situation"] == situation and r["policy"] == policy)


Check = Callable[[Evidence], "Verdict | None"]


@attrs.define(slots=True, frozen=True)
class Claim:
    """One claim: ``paper`` (seed file's short name), ``where`` (table, figure or section),
    ``text`` (the claim as the paper makes it), ``check`` (None: not attempted, ``why`` says
    so); a check returns None when its runs are not recorded."""

    paper: str
    where: str
    text: str
    check: Check | None = None
    why: str = "no check written"


@attrs.define(slots=True, frozen=True)
class Row:
    paper: str
    where: str
    text: str
    ours: str
    verdict: str


def ledger(claims: Iterable[Claim], evidence: Evidence) -> list[Row]:
    """Each claim evaluated on ``evidence``, in order."""
    rows = []
    for c in claims:
        v = c.check(evidence) if c.check is not None else None
        if v is None:
            why = c.why if c.check is None else "its runs are not recorded"
            v = Verdict("-", f"not attempted ({why})")
        rows.append(Row(c.paper, c.where, c.text, v.ours, v.verdict))
    return rows


def deviation_verdict(ours: float, paper: float, tolerance: float) -> str:
    """``holds`` within ``tolerance`` (relative), else ``off by +X %``."""
    dev = (ours - paper) / paper
    return "holds" if abs(dev) <= tolerance else f"off by {100 * dev:+.1f} %"


# -- reading the evidence, writing the table --------------------------------------------------

def read_csv(path: str) -> tuple[Mapping, ...]:
    with open(path, encoding="utf-8", newline="") as fh:
        return tuple(csv.DictReader(fh))


def read_evidence(runs_jsonl: str | None, li_csv: str | None, tables_dir: str | None = None) -> Evidence:
    """The recorded runs (each file may be missing: its claims are then not attempted); with
    ``tables_dir``, every ``*.csv`` there but ``li_csv`` as a named table."""
    runs: list[Mapping] = []
    if runs_jsonl and os.path.exists(runs_jsonl):
        with open(runs_jsonl, encoding="utf-8") as fh:
            runs = [json.loads(line) for line in fh if line.strip()]
    li: tuple[Mapping, ...] = ()
    if li_csv and os.path.exists(li_csv):
        li = read_csv(li_csv)
    tables: dict[str, tuple[Mapping, ...]] = {}
    if tables_dir and os.path.isdir(tables_dir):
        for name in sorted(os.listdir(tables_dir)):
            path = os.path.join(tables_dir, name)
            if name.endswith(".csv") and not (li_csv and os.path.abspath(path) == os.path.abspath(li_csv)):
                tables[name[:-4]] = read_csv(path)
    return Evidence(tuple(runs), li, tables)


def counts(rows: Sequence[Row]) -> dict[str, int]:
    """How many rows hold, are off, fail, or were not attempted."""
    out = {"holds": 0, "off": 0, "fails": 0, "not attempted": 0}
    for r in rows:
        key = ("holds" if r.verdict == "holds" else "off" if r.verdict.startswith("off by")
               else "fails" if r.verdict == "fails" else "not attempted")
        out[key] += 1
    return out


def markdown(rows: Sequence[Row]) -> str:
    """The ledger as a Markdown section: a count line, then one table row per claim."""
    c = counts(rows)
    lines = ["## Claims ledger", "",
             "Generated by `python scripts/reproduce.py claims` from the recorded runs (docs/data); do not edit "
             "by hand. Tolerances: FCFS and EASY cells 3 %, consolidation cells 15 %; a trend or a sentence "
             "holds or fails.", "",
             f"{len(rows)} claims: {c['holds']} hold, {c['off']} off, {c['fails']} fail, "
             f"{c['not attempted']} not attempted.", "",
             "| paper | where | claim | ours | verdict |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.paper} | {r.where} | {r.text} | {r.ours} | {r.verdict} |")
    return "\n".join(lines) + "\n"
