"""Plain-text and Markdown tables for the command line: the one table printer that the run
summaries, ``report`` and ``predict`` share (first column left-aligned, the others
right-aligned, as numbers read best). Imports nothing."""

from __future__ import annotations

from typing import Sequence


def format_table(head: Sequence[str], body: Sequence[Sequence[str]], markdown: bool = False,
                 title: str | None = None) -> str:
    """``head`` and ``body`` (cells already formatted) as aligned text, or as a Markdown table
    (numbers right-aligned); ``title`` is a line above. No trailing newline."""
    lines = [title] if title else []
    if markdown:
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|---|" + "---:|" * (len(head) - 1))
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    for row in [head, *body]:
        lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                               for i, c in enumerate(row)).rstrip())
    return "\n".join(lines)
