"""The rule of ``job_progress: barriers`` over a list of remaining works at constant speeds,
process by process: the oracle of the barrier clock (cloudsim_py/execution/barriers.py), which
was the implementation before it. O(processes) a call."""

from __future__ import annotations

import math

_EPS = 1e-9
_INF = math.inf


def _to_barrier(rem: list[float], speeds: list[float], level: float) -> float:
    """The time until every process's remaining work is down to ``level`` (the next barrier),
    each at its speed; ``inf`` if one with work above it stands still. O(processes)."""
    t = 0.0
    for left, v in zip(rem, speeds):
        gap = left - level
        if gap > _EPS:
            if v <= 0.0:
                return _INF
            d = gap / v
            if d > t:
                t = d
    return t


def advance_steps(rem: list[float], speeds: list[float], level: float, step: float, dt: float) -> float:
    """Advance each process's remaining work ``rem`` (in place) by ``dt`` seconds at its
    constant speed, none below the barrier ``level`` until every one has reached it; at a
    barrier the next is one ``step`` of work further (never below 0). Returns the barrier in
    force after ``dt``.

    After a barrier all processes stand at one level, so each whole step takes ``step / v``
    for the slowest speed ``v``: the steps that fit in what is left of ``dt`` are passed in one
    count instead of one by one. O(processes) per barrier reached within ``dt`` (at most two
    plus rounding)."""
    n = len(rem)
    while True:
        t = _to_barrier(rem, speeds, level)
        if t > dt:
            for i, v in enumerate(speeds):
                if v and rem[i] > level:      # (one waiting at the barrier stays there)
                    left = rem[i] - v * dt
                    rem[i] = left if left > level else level
            return level
        dt -= t
        rem[:] = [level] * n
        if level <= 0.0:
            return 0.0
        least = min(speeds)
        if least <= 0.0:
            return max(0.0, level - step)
        if dt * least >= level:     # the job's work ends within dt
            rem[:] = [0.0] * n
            return 0.0
        k = math.floor(dt * least / step)
        if k:
            level -= k * step
            dt -= k * step / least
            rem[:] = [level] * n
        level = max(0.0, level - step)


def steps_end(rem: list[float], speeds: list[float], level: float) -> float:
    """How long, at constant speeds, until every process's work is done: to the barrier
    ``level`` at each one's speed, then every step at the slowest speed (after a barrier the
    processes start together and wait for the slowest at each next one), i.e.
    ``level / min(speeds)`` more. ``inf`` while a process with work left stands still.
    O(processes)."""
    t = _to_barrier(rem, speeds, level)
    if level <= _EPS or t == _INF:
        return t
    least = min(speeds)
    return t + level / least if least > 0.0 else _INF
