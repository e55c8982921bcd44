"""Sweep files: a base scenario crossed with a grid of axes (and zipped axes, blocks), expanded
to runs with stable ids and validated with ``load_scenario`` before anything runs (running
them is ``runs.py``). Uses only the public scenario API; must not import the engine, the
datacenter or the brokers."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import os
import re
from typing import Any, Iterable, Mapping

import attrs

from ..errors import ScenarioError
from ..logs import logger
from ..scenario import load_scenario
from ..scenario.loader import parse_yaml

log = logger(__name__)

#: keys of a sweep file
SWEEP_KEYS = ("name", "description", "base", "grid", "zip", "blocks", "results", "runs_dir")
#: keys of one entry of ``blocks``
BLOCK_KEYS = ("grid", "zip")
#: axes whose key starts with this label runs in the results table and are not applied
TAG = "tag."
#: most runs a sweep may expand to (and values an axis may list): expanding and validating
#: 100,000 runs takes about 30 s and 350 MB, running them (the quickstart) about a day; a grid
#: of ``seed: 1..100000000`` is a typing error, refused before anything is expanded
MAX_RUNS = 100_000

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_MAPPING_ERROR = re.compile(r"^<mapping>: ([^:\s]+): (.*)$", re.S)


# ------------------------------------------------------------------------------ run ids


def canonical(value: Any) -> str:
    """Compact JSON with sorted keys: equal mappings give equal text whatever their key order."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def run_id(scenario: Mapping[str, Any], tags: Mapping[str, Any] | None = None) -> str:
    """The id of a run: the first 12 hex digits of the SHA-256 of its scenario mapping (without
    ``output``, which does not change results) and its tags, in canonical JSON. Same
    parameters, same id, whatever the order of keys.

    >>> run_id({"seed": 1, "broker": "easy"}) == run_id({"broker": "easy", "seed": 1})
    True
    """
    body = {k: v for k, v in scenario.items() if k != "output"}
    text = canonical({"scenario": body, "tags": dict(tags or {})})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


# ------------------------------------------------------------------------------ data


@attrs.define(slots=True, frozen=True)
class RunSpec:
    """One run of a sweep, ready to send to a worker (plain data, picklable)."""

    run_id: str
    index: int                      #: position in the sweep's expansion order
    params: dict                    #: axis key -> value as written in the sweep (tags included)
    scenario: dict                  #: the mapping to run: axes applied, paths resolved, no output.dir
    policies: tuple[str, ...] = ()  #: the scenario's brokers' labels, in order (one results row each)
    out_dir: str | None = None      #: run folder for summary.json / jobs.csv, if any


@attrs.define(slots=True, frozen=True)
class BaseScenario:
    """A base scenario as written, with where it came from (for relative paths and errors)."""

    data: dict                      #: the mapping as written
    source: str                     #: its file (the sweep file when inline)
    folder: str                     #: folder its relative paths resolve against
    lines: dict                     #: key path -> line in ``source``
    prefix: str = ""                #: "base." when inline in the sweep file

    def where(self, path: str) -> str:
        """``file:line`` of a key path (or of its nearest parent that has a line)."""
        probe = self.prefix + path
        while probe:
            if probe in self.lines:
                return f"{self.source}:{self.lines[probe]}"
            probe = probe.rpartition(".")[0]
        return self.source


@attrs.define(slots=True)
class Sweep:
    """A parsed sweep file. ``blocks`` is a union of blocks; a block is a list of factors; a
    factor is a list of alternatives, each a mapping axis key -> value (one key for a grid
    axis, several for zipped axes). The runs of a block are the product of its factors."""

    name: str
    source: str                     #: sweep file (or "<mapping>")
    sweep_dir: str                  #: folder the sweep's relative paths resolve against
    bases: dict                     #: value of the ``base`` axis (None: the top-level base) -> BaseScenario
    axes: dict                      #: axis key -> line in the sweep file
    blocks: list
    results: str | None = None
    runs_dir: str | None = None
    description: str | None = None

    # -------------------------------------------------------------------- expansion
    def points(self) -> list[dict]:
        """Every run's axis values (dicts in expansion order; duplicates kept)."""
        return list(_all_points(self.blocks))

    def expand(self, runs_dir: str | None = None) -> list[RunSpec]:
        """The runs, validated with ``load_scenario`` before anything runs; duplicates (runs
        whose scenario and tags are equal) are merged, the first one kept."""
        runs_dir = runs_dir if runs_dir is not None else self.runs_dir
        prepared: dict = {}
        specs: list[RunSpec] = []
        seen: set[str] = set()
        cache: dict[str, tuple[str, ...]] = {}
        for point in self.points():
            which = point.get("base")
            if which not in prepared:
                prepared[which] = self._prepare(self.bases[which])
            base_raw, base_run = prepared[which]
            raw = copy.deepcopy(base_raw)
            run = copy.deepcopy(base_run)
            tags = {k: v for k, v in point.items() if k.startswith(TAG)}
            for key, value in point.items():
                if key.startswith(TAG) or key == "base":
                    continue
                where = f"{self.source}:{self.axes[key]}: {key}"
                _set_path(raw, key, value, where)
                _set_path(run, key, copy.deepcopy(value), where)
            _resolve_trace(run, self.sweep_dir, f"{self.source}: workload.trace")
            _drop_output_dir(run)
            rid = run_id(raw, tags)
            if rid in seen:
                continue
            seen.add(rid)
            key = canonical(run)
            if key not in cache:
                cache[key] = self._validate(run, point)
            out_dir = os.path.join(runs_dir, rid) if runs_dir else None
            specs.append(RunSpec(rid, len(specs), point, run, cache[key], out_dir))
        duplicates = len(self.points()) - len(specs)
        if duplicates:
            log.info("%s: %d runs with equal parameters merged", self.source, duplicates)
        return specs

    def _prepare(self, base: BaseScenario) -> tuple[dict, dict]:
        """The base as written (for the run id) and as run (trace path resolved, no output.dir)."""
        raw = copy.deepcopy(base.data)
        raw.setdefault("name", self.name if base.prefix else
                       os.path.splitext(os.path.basename(base.source))[0])
        run = copy.deepcopy(raw)
        _resolve_trace(run, base.folder, base.where("workload.trace"))
        _resolve_code_files(run, base.folder)
        _drop_output_dir(run)
        return raw, run

    def _validate(self, mapping: dict, point: Mapping[str, Any]) -> tuple[str, ...]:
        try:
            scenario = load_scenario(copy.deepcopy(mapping))
        except ScenarioError as exc:
            raise ScenarioError(self._locate(str(exc), point)) from None
        return scenario.labels

    def _locate(self, message: str, point: Mapping[str, Any]) -> str:
        """Turn a ``<mapping>: key.path: message`` error into one naming the sweep file and
        the axis's line, or the base file and the key's line."""
        m = _MAPPING_ERROR.match(message)
        if m is None:
            return f"{self.source}: run {describe(point)}: {message}"
        path, text = m.group(1), m.group(2)
        for key in point:
            if key != "base" and (key == path or path.startswith(key + ".") or key.startswith(path + ".")):
                return f"{self.source}:{self.axes[key]}: {key}: {text} (run {describe(point)})"
        base = self.bases[point.get("base")]
        return f"{base.where(path)}: {path}: {text}" + (f" (run {describe(point)})" if point else "")


def describe(point: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={canonical(v) if not isinstance(v, str) else v}" for k, v in point.items()) or "(base)"


def _set_path(mapping: dict, key: str, value: Any, where: str) -> None:
    """Set ``a.b.c`` in a nested mapping, creating mappings on the way (a broker given by name
    becomes ``{policy: name}``, as with ``cloudsim-py run --set``)."""
    parts = key.split(".")
    node: Any = mapping
    for i, part in enumerate(parts[:-1]):
        here = ".".join(parts[: i + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise ScenarioError(f"{where}: {here} is a list of {len(node)}; {part!r} is not an index "
                                    "of it (set the whole list instead)")
            if isinstance(node[int(part)], str) and i == 1 and parts[0] == "broker":
                node[int(part)] = {"policy": node[int(part)]}    # broker.0.params.x on [fdls, fdmms]
            node = node[int(part)]
            continue
        nxt = node.get(part)
        if nxt is None:
            nxt = node[part] = {}
        elif isinstance(nxt, str) and here == "broker":
            nxt = node[part] = {"policy": nxt}
        elif not isinstance(nxt, (dict, list)):
            raise ScenarioError(f"{where}: {here} is the value {nxt!r} in the base, not a mapping")
        node = nxt
    last = parts[-1]
    if isinstance(node, list):
        if not last.isdigit() or int(last) >= len(node):
            raise ScenarioError(f"{where}: {'.'.join(parts[:-1])} is a list; {last!r} is not an index of it")
        node[int(last)] = value
    else:
        node[last] = value


def _drop_output_dir(mapping: dict) -> None:
    """A run writes into its own run folder (or nowhere), never into the base's ``output.dir``."""
    output = mapping.get("output")
    if isinstance(output, dict):
        output.pop("dir", None)
        if not output:
            del mapping["output"]


def _code_file(entry: str) -> bool:
    return entry.endswith(".py") or "/" in entry or os.sep in entry


def _resolve_code_files(mapping: dict, folder: str) -> None:
    """``.py`` files named by ``plugins`` and ``metrics.probes`` (``./mine.py:Class``) made
    absolute against ``folder``, as the trace is: a worker may run in another folder."""
    def absolute(path: str) -> str:
        return os.path.normpath(os.path.join(folder, os.path.expanduser(path)))

    plugins = mapping.get("plugins")
    if isinstance(plugins, list):
        mapping["plugins"] = [absolute(p) if isinstance(p, str) and _code_file(p) else p for p in plugins]
    metrics = mapping.get("metrics")
    if not isinstance(metrics, dict) or not isinstance(metrics.get("probes"), list):
        return
    probes = metrics["probes"]

    def resolved(name: Any) -> Any:
        if not isinstance(name, str) or ":" not in name:
            return name
        module, _, attr = name.rpartition(":")
        return f"{absolute(module)}:{attr}" if _code_file(module) else name

    metrics["probes"] = [{**p, "name": resolved(p.get("name"))} if isinstance(p, dict) else resolved(p)
                         for p in probes]


def _resolve_trace(mapping: dict, folder: str, where: str) -> None:
    """Every input file a run reads (``workload.trace``; ``leases.lwf``, ``leases.swf``,
    ``leases.injected``; ``dags.workflows`` entries, a path or ``{path: ...}``): expand ``${VAR}``
    / ``${VAR:-default}`` and make it absolute against ``folder`` (an absolute path stays as it
    is), so the run does not depend on the folder the worker runs in. ``where`` names the key
    in errors (its last part is replaced by the key's own path)."""
    prefix = where.rsplit(":", 1)[0] if ":" in where else where

    def absolute(value: str, key: str) -> str:
        def sub(m: re.Match) -> str:
            name, default = m.group(1), m.group(2)
            if os.environ.get(name):
                return os.environ[name]
            if default is not None:
                return default
            raise ScenarioError(f"{prefix}: {key}: environment variable {name} is not set "
                                f"(write ${{{name}:-default}} to give a default)")

        text = os.path.expanduser(_ENV.sub(sub, value))
        return os.path.normpath(os.path.join(folder, text))

    workload = mapping.get("workload")
    if isinstance(workload, dict) and isinstance(workload.get("trace"), str):
        workload["trace"] = absolute(workload["trace"], "workload.trace")
    leases = mapping.get("leases")
    if isinstance(leases, dict):
        for key in ("lwf", "swf", "injected"):
            if isinstance(leases.get(key), str) and leases[key]:
                leases[key] = absolute(leases[key], f"leases.{key}")
    dags = mapping.get("dags")
    if isinstance(dags, dict) and isinstance(dags.get("workflows"), list):
        flows = dags["workflows"]
        for i, w in enumerate(flows):
            if isinstance(w, str) and w:
                flows[i] = absolute(w, f"dags.workflows.{i}")
            elif isinstance(w, dict) and isinstance(w.get("path"), str) and w["path"]:
                flows[i] = {**w, "path": absolute(w["path"], f"dags.workflows.{i}.path")}


# ------------------------------------------------------------------------------ parsing


def load_sweep(source: str | os.PathLike | Mapping[str, Any], base_dir: str | None = None) -> Sweep:
    """Read a sweep from a YAML file (or a mapping; its relative paths then resolve against
    ``base_dir``, default the working directory). Errors name file, line and key."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
        lines: dict[str, int] = {}
        name = "<mapping>"
        folder = os.path.abspath(base_dir or os.getcwd())
    else:
        name = os.fspath(source)
        try:
            with open(name, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise ScenarioError(f"{name}: no such sweep file") from None
        except IsADirectoryError:
            raise ScenarioError(f"{name}: is a directory, not a sweep file") from None
        data, lines = parse_yaml(text, name)
        folder = os.path.dirname(os.path.abspath(name))
    ctx = _Ctx(name, lines)
    if not isinstance(data, dict):
        raise ctx.error("", f"a sweep must be a mapping with keys {', '.join(SWEEP_KEYS)}")
    ctx.known(data, "", SWEEP_KEYS)
    sweep_name = data.get("name", "sweep" if name == "<mapping>" else os.path.splitext(os.path.basename(name))[0])
    if not isinstance(sweep_name, str) or not sweep_name:
        raise ctx.error("name", f"expected a non-empty string, got {sweep_name!r}")

    axes: dict[str, int] = {}
    top = _block(ctx, data, "", axes)
    blocks_raw = data.get("blocks")
    if blocks_raw is None:
        blocks = [top]
    else:
        if not isinstance(blocks_raw, list) or not blocks_raw:
            raise ctx.error("blocks", "expected a non-empty list of {grid: ..., zip: ...} mappings")
        blocks = []
        for i, item in enumerate(blocks_raw):
            if not isinstance(item, dict):
                raise ctx.error(f"blocks.{i}", "expected a mapping with keys grid and/or zip")
            ctx.known(item, f"blocks.{i}", BLOCK_KEYS)
            blocks.append(top + _block(ctx, item, f"blocks.{i}.", axes, shared=set(_keys_of(top))))
    _check_runs(ctx, blocks, ["grid" if "grid" in data else "zip"] if blocks_raw is None
                else [f"blocks.{i}" for i in range(len(blocks))])
    _check_overlap(ctx, axes)

    bases: dict[str | None, BaseScenario] = {}
    if "base" in data:
        bases[None] = _base(ctx, data["base"], "base", folder)
    if "base" in axes:
        for block in blocks:
            for factor in block:
                for alternative in factor:
                    value = alternative.get("base")
                    if value is not None and value not in bases:
                        if not isinstance(value, str):
                            raise ScenarioError(f"{name}:{axes['base']}: base: an axis of bases lists "
                                                f"scenario files, got {value!r}")
                        bases[value] = _base(ctx, value, "base", folder, axes["base"])
    if not bases:
        raise ctx.error("base", "a sweep needs a base scenario (a file path or an inline mapping), "
                                "or an axis `base` listing scenario files")
    if None not in bases and any("base" not in p for p in _all_points(blocks)):
        raise ctx.error("base", "some runs have no base scenario: give a top-level base, or the "
                                "axis `base` in every block")

    def path_key(key: str) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise ctx.error(key, f"expected a path, got {value!r}")
        return value

    description = data.get("description")
    return Sweep(name=sweep_name, source=name, sweep_dir=folder, bases=bases, axes=axes, blocks=blocks,
                 results=path_key("results"),
                 runs_dir=path_key("runs_dir"), description=description if isinstance(description, str) else None)


def _base(ctx: "_Ctx", value: Any, path: str, folder: str, line: int | None = None) -> BaseScenario:
    """A base scenario: a file (relative to the sweep file) or an inline mapping."""
    where = f"{ctx.source}:{line}" if line is not None else None
    if isinstance(value, str):
        full = os.path.normpath(os.path.join(folder, os.path.expanduser(value)))
        try:
            with open(full, encoding="utf-8") as fh:
                data, lines = parse_yaml(fh.read(), full)
        except (FileNotFoundError, IsADirectoryError):
            if where is not None:
                raise ScenarioError(f"{where}: {path}: no such scenario file: {full}") from None
            raise ctx.error(path, f"no such scenario file: {full}") from None
        if not isinstance(data, dict):
            raise ScenarioError(f"{full}:1: the scenario must be a mapping")
        return BaseScenario(copy.deepcopy(data), full, os.path.dirname(full), dict(lines))
    if isinstance(value, dict):
        return BaseScenario(copy.deepcopy(value), ctx.source, folder, dict(ctx.lines), "base.")
    raise ctx.error(path, f"expected a scenario file path or a mapping, got {value!r}")


def _all_points(blocks: list) -> Iterable[dict]:
    for block in blocks:
        for combo in itertools.product(*block):
            point: dict = {}
            for part in combo:
                point.update(part)
            yield point


class _Ctx:
    def __init__(self, source: str, lines: Mapping[str, int]):
        self.source = source
        self.lines = lines

    def line(self, path: str) -> int | None:
        probe = path
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            probe = probe.rpartition(".")[0]
        return None

    def error(self, path: str, message: str) -> ScenarioError:
        line = self.line(path)
        where = f"{self.source}:{line}" if line is not None else self.source
        return ScenarioError(f"{where}: {path or '(top)'}: {message}")

    def known(self, value: Mapping, path: str, keys: tuple[str, ...]) -> None:
        for key in value:
            if key not in keys:
                sub = f"{path}.{key}" if path else str(key)
                raise self.error(sub, f"unknown key {key!r}; known keys: {', '.join(keys)}")


def _keys_of(block: list[list[dict]]) -> Iterable[str]:
    for factor in block:
        yield from factor[0]


def _axis_values(ctx: _Ctx, key: str, value: Any, path: str) -> list:
    """A list of values; ``"A..B"`` (integers, both included) or ``{start, stop, step}``."""
    if isinstance(value, list):
        if not value:
            raise ctx.error(path, "an axis needs at least one value")
        return value
    if isinstance(value, str) and _RANGE.match(value):
        a, b = (int(x) for x in _RANGE.match(value).groups())  # type: ignore[union-attr]
        if b < a:
            raise ctx.error(path, f"empty range {value!r}")
        _check_axis_size(ctx, path, b - a + 1)
        return list(range(a, b + 1))
    if isinstance(value, dict) and set(value) <= {"start", "stop", "step"} and {"start", "stop"} <= set(value):
        start, stop, step = value["start"], value["stop"], value.get("step", 1)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (start, stop, step)) or step <= 0:
            raise ctx.error(path, "start, stop and a positive step must be numbers")
        n = int(round((stop - start) / step + 1e-9)) + 1
        if n < 1:
            raise ctx.error(path, f"empty range from {start} to {stop}")
        _check_axis_size(ctx, path, n)
        exact = all(isinstance(v, int) for v in (start, stop, step))
        return [start + i * step if exact else round(start + i * step, 10) for i in range(n)]
    raise ctx.error(path, f"expected a list of values, 'A..B' or {{start, stop, step}}, got {value!r}")


def _check_axis_size(ctx: _Ctx, path: str, n: int) -> None:
    if n > MAX_RUNS:
        raise ctx.error(path, f"{n:,} values; a sweep runs at most {MAX_RUNS:,} (MAX_RUNS)")


def _check_runs(ctx: _Ctx, blocks: list, paths: list[str]) -> None:
    """Refuse a sweep of more than :data:`MAX_RUNS` runs before expanding it: the runs of a
    block are the product of its factors' lengths, the sweep's the sum over its blocks."""
    total = 0
    for block, path in zip(blocks, paths):
        runs = math.prod(len(factor) for factor in block)
        total += runs
        if total > MAX_RUNS:
            sizes = " x ".join(f"{len(f):,}" for f in block)
            before = f", {total:,} with the blocks before it" if total > runs else ""
            raise ctx.error(path, f"{runs:,} runs ({sizes}){before}; a sweep runs at most {MAX_RUNS:,} (MAX_RUNS)")


def _axis_key(ctx: _Ctx, key: Any, path: str) -> str:
    if not isinstance(key, str) or not key or any(not p for p in key.split(".")):
        raise ctx.error(path, f"an axis is a scenario key path like broker.policy or seed, got {key!r}")
    if key == "tag" or (key.startswith(TAG) and "." in key[len(TAG):]):
        raise ctx.error(path, f"a tag axis is tag.NAME (one level), got {key!r}")
    return key


def _block(ctx: _Ctx, data: Mapping, prefix: str, axes: dict[str, int],
           shared: set[str] | None = None) -> list[list[dict]]:
    """The factors of one block: one per grid axis, one per zipped group."""
    factors: list[list[dict]] = []
    taken = set(shared or ())

    def claim(key: str, path: str) -> None:
        if key in taken:
            raise ctx.error(path, f"axis {key!r} is given twice")
        taken.add(key)
        axes[key] = ctx.line(path) or 0

    grid = data.get("grid")
    if grid is not None:
        if not isinstance(grid, dict) or not grid:
            raise ctx.error(f"{prefix}grid", "expected a mapping of axis key -> list of values")
        for key, value in grid.items():
            path = f"{prefix}grid.{key}"
            key = _axis_key(ctx, key, path)
            claim(key, path)
            factors.append([{key: v} for v in _axis_values(ctx, key, value, path)])
    zipped = data.get("zip")
    if zipped is not None:
        groups = zipped if isinstance(zipped, list) else [zipped]
        for g, group in enumerate(groups):
            gpath = f"{prefix}zip.{g}" if isinstance(zipped, list) else f"{prefix}zip"
            if not isinstance(group, dict) or not group:
                raise ctx.error(gpath, "expected a mapping of axis key -> list of values (equal lengths)")
            columns: list[tuple[str, list]] = []
            for key, value in group.items():
                path = f"{gpath}.{key}"
                key = _axis_key(ctx, key, path)
                claim(key, path)
                columns.append((key, _axis_values(ctx, key, value, path)))
            lengths = {len(v) for _, v in columns}
            if len(lengths) > 1:
                sizes = ", ".join(f"{k}: {len(v)}" for k, v in columns)
                raise ctx.error(gpath, f"zipped axes need equal lengths ({sizes})")
            factors.append([{k: v[i] for k, v in columns} for i in range(lengths.pop())])
    return factors


def _check_overlap(ctx: _Ctx, axes: Mapping[str, int]) -> None:
    keys = sorted(axes)
    for a, b in zip(keys, keys[1:]):
        if b.startswith(a + "."):
            raise ScenarioError(f"{ctx.source}:{axes[b]}: {b}: overlaps the axis {a!r} "
                                f"(line {axes[a]}); set one or the other")
