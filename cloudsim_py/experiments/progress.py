"""A one-line progress display for sweeps: runs done / total, failures, rate and ETA, on
stderr. Imports nothing from the simulator."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def duration(seconds: float) -> str:
    """``1h02m``, ``4m05s`` or ``12s``."""
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class SweepProgress:
    """Call with ``(done, failed, todo)`` after each batch. On a terminal the line is redrawn
    in place; elsewhere (a log file) a line is written at most every ``every`` seconds and at
    the end. The ETA assumes the remaining runs take as long as the ones done so far."""

    def __init__(self, total: int, skipped: int = 0, stream: TextIO | None = None,
                 every: float = 10.0, clock=time.perf_counter) -> None:
        self.total = total
        self.skipped = skipped
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every
        self.clock = clock
        self.t0 = clock()
        self.last = -float("inf")
        self.shown = False

    def line(self, done: int, failed: int, todo: int) -> str:
        elapsed = self.clock() - self.t0
        text = f"sweep: {self.skipped + done}/{self.total} runs"
        if self.skipped:
            text += f" ({self.skipped} from before)"
        if failed:
            text += f", {failed} failed"
        if done:
            rate = done / elapsed * 60 if elapsed > 0 else float("inf")
            text += f", {rate:,.1f} runs/min, elapsed {duration(elapsed)}"
            if done < todo:
                text += f", ETA {duration(elapsed / done * (todo - done))}"
        return text

    def __call__(self, done: int, failed: int, todo: int) -> None:
        now = self.clock()
        final = done >= todo
        if not self.tty and not final and now - self.last < self.every:
            return
        self.last = now
        text = self.line(done, failed, todo)
        if self.tty:
            self.stream.write("\r" + text.ljust(79) + ("\n" if final else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True
