"""Read a scenario from YAML: keep the line of every key, apply ``--set`` overrides, expand
``${ENV}``, and build the attrs schema. Errors name file, line and key path."""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping

import yaml

from ..errors import ScenarioError
from .schema import Scenario, build_scenario

#: the largest scenario file read (bytes); a bigger workload belongs in a trace file
MAX_BYTES = 4 * 1024 * 1024
#: deepest nesting of lists and mappings (a scenario needs about 6)
MAX_DEPTH = 32
#: most values (scalars, lists, mappings) once every alias is expanded
MAX_VALUES = 2_000_000

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"}
_constructor = yaml.constructor.SafeConstructor()


def _tag(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


def _line(mark: Any) -> int:
    return mark.line + 1 if mark is not None else 0


def _check_shape(text: str, source: str, loader: Any = _Loader) -> None:
    """Bound nesting depth and alias expansion on the event stream, before anything is built:
    composing is recursive (deep nesting overflows the stack) and converting expands every
    alias (a few hundred bytes of nested aliases stand for billions of values).

    libyaml (PyYAML >= 6.0.4) has a nesting limit of its own (1,000 levels), met while it scans
    ahead through a run of opening brackets, before their events reach the check here; then the
    stream is read again with the pure-Python parser (no such limit, events one by one, no
    recursion: time linear in the text, at most :data:`MAX_BYTES`), so that the error names the
    key path as for any other depth."""
    # one frame per open list or mapping: [size, anchor, path, is mapping, next key, index]
    stack: list[list[Any]] = []
    sizes: dict[str, int] = {}
    total = 0

    def child_path() -> str:
        if not stack:
            return ""
        top = stack[-1]
        key = str(top[4]) if top[3] else str(top[5])
        return f"{top[2]}.{key}" if top[2] else key

    def add(size: int, ev: Any) -> None:
        nonlocal total
        total += size
        if total > MAX_VALUES:
            raise ScenarioError(f"{source}:{_line(ev.start_mark)}: {child_path() or '(top)'}: more than "
                                f"{MAX_VALUES:,} values once aliases are expanded (an alias bomb?)")
        if stack:
            top = stack[-1]
            top[0] += size
            if top[3]:
                top[4] = None
            else:
                top[5] += 1

    try:
        for ev in yaml.parse(text, Loader=loader):
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise ScenarioError(f"{source}:{_line(ev.start_mark)}: {child_path() or '(top)'}: "
                                        f"nested more than {MAX_DEPTH} levels deep")
                stack.append([1, ev.anchor, child_path(), isinstance(ev, yaml.MappingStartEvent), None, 0])
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                size, anchor = stack.pop()[:2]
                if anchor is not None:
                    sizes[anchor] = size
                add(size, ev)
            elif isinstance(ev, yaml.ScalarEvent):
                if ev.anchor is not None:
                    sizes[ev.anchor] = 1
                if stack and stack[-1][3] and stack[-1][4] is None:
                    stack[-1][4] = ev.value        # a key: count it, the value comes next
                    total += 1
                    stack[-1][0] += 1
                    continue
                add(1, ev)
            elif isinstance(ev, yaml.AliasEvent):
                if stack and stack[-1][3] and stack[-1][4] is None:
                    stack[-1][4] = f"*{ev.anchor}"
                    total += 1
                    stack[-1][0] += 1
                    continue
                add(sizes.get(ev.anchor or "", 1), ev)
    except yaml.YAMLError as exc:
        if loader is not yaml.SafeLoader and "nesting depth" in str(getattr(exc, "problem", "")):
            _check_shape(text, source, yaml.SafeLoader)
        raise _yaml_error(exc, source) from None


def _yaml_error(exc: yaml.YAMLError, source: str) -> ScenarioError:
    mark = getattr(exc, "problem_mark", None)
    where = f"{source}:{mark.line + 1}" if mark is not None else source
    return ScenarioError(f"{where}: invalid YAML: {getattr(exc, 'problem', exc)}")


def _where(source: str, node: yaml.Node, path: str) -> str:
    return f"{source}:{node.start_mark.line + 1}: {path or '(top)'}"


def _to_python(node: yaml.Node, path: str, lines: dict[str, int], source: str) -> Any:
    """Convert a composed YAML node to plain Python, recording ``lines[path]`` (1-based).
    Only plain scalars (strings, numbers, true/false, null), lists and mappings are accepted."""
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        if node.tag != _T + "map":
            raise ScenarioError(f"{_where(source, node, path)}: YAML tag {_tag(node.tag)} is not allowed; "
                                "only strings, numbers, true/false, null, lists and mappings")
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _T + "merge":
                raise ScenarioError(f"{_where(source, key_node, f'{path}.<<' if path else '<<')}: YAML merge keys (<<) are not "
                                    "supported; write the keys out")
            key = _to_python(key_node, path, {}, source)
            if not isinstance(key, str):
                raise ScenarioError(f"{source}:{key_node.start_mark.line + 1}: {path or '(top)'}: "
                                    f"keys must be strings, got {key!r}")
            sub = f"{path}.{key}" if path else key
            if key in out:
                raise ScenarioError(f"{source}:{key_node.start_mark.line + 1}: {sub}: duplicate key")
            lines[sub] = key_node.start_mark.line + 1
            out[key] = _to_python(value_node, sub, lines, source)
        return out
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _T + "seq":
            raise ScenarioError(f"{_where(source, node, path)}: YAML tag {_tag(node.tag)} is not allowed; "
                                "only strings, numbers, true/false, null, lists and mappings")
        return [_to_python(item, f"{path}.{i}", lines, source) for i, item in enumerate(node.value)]
    if node.tag not in _SCALAR_TAGS:
        hint = "; quote it to make it a string" if node.tag == _T + "timestamp" else ""
        raise ScenarioError(f"{_where(source, node, path)}: YAML tag {_tag(node.tag)} ({node.value!r}) is not "
                            f"allowed; only strings, numbers, true/false, null, lists and mappings{hint}")
    try:
        return _constructor.construct_object(node)
    except (yaml.YAMLError, ValueError) as exc:
        raise ScenarioError(f"{_where(source, node, path)}: {node.value!r}: {exc}") from None


def parse_yaml(text: str, source: str = "<string>") -> tuple[Any, dict[str, int]]:
    """Parse YAML text; returns the data and a map from key path to line number.

    Bounded before anything is built: at most :data:`MAX_BYTES` of text, :data:`MAX_DEPTH`
    levels of nesting and :data:`MAX_VALUES` values with aliases expanded."""
    if len(text) > MAX_BYTES:
        raise ScenarioError(f"{source}: {len(text):,} characters, more than the {MAX_BYTES:,} a scenario "
                            "may have; put a large workload in a trace file")
    _check_shape(text, source)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source) from None
    if node is None:
        raise ScenarioError(f"{source}: the scenario file is empty")
    lines: dict[str, int] = {}
    return _to_python(node, "", lines, source), lines


def read_text(name: str) -> str:
    """A scenario file's text: UTF-8, at most :data:`MAX_BYTES`; errors name file and line."""
    try:
        with open(name, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError(f"{name}: no such scenario file") from None
    except IsADirectoryError:
        raise ScenarioError(f"{name}: is a directory, not a scenario file") from None
    except OSError as exc:
        raise ScenarioError(f"{name}: cannot read the scenario file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"{name}: more than {MAX_BYTES:,} bytes, more than a scenario may have; "
                            "put a large workload in a trace file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        before = raw[raw.rfind(b"\n", 0, exc.start) + 1:exc.start].decode("utf-8", "replace")
        raise ScenarioError(f"{name}:{line}: not valid UTF-8: byte 0x{raw[exc.start]:02x} at column {col}, "
                            f"after {before!r}") from None


def apply_overrides(data: dict, overrides: Iterable[str], lines: dict[str, int]) -> dict:
    """Apply ``key.path=value`` overrides (the value parsed as YAML, so ``3``, ``0.5``,
    ``true`` and ``[fcfs, easy]`` have their types). Lines of overridden keys become 0."""
    for item in overrides:
        if "=" not in item:
            raise ScenarioError(f"--set {item!r}: expected key.path=value")
        path, _, text = item.partition("=")
        path = path.strip()
        if not path:
            raise ScenarioError(f"--set {item!r}: empty key path")
        try:
            value = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError as exc:
            raise ScenarioError(f"--set {path}: value {text!r} is not valid YAML ({exc})") from None
        node: Any = data
        parts = path.split(".")
        for i, part in enumerate(parts[:-1]):
            where = ".".join(parts[: i + 1])
            if isinstance(node, list):
                try:
                    node = node[int(part)]
                except (ValueError, IndexError):
                    raise ScenarioError(f"--set {path}: {where} is not an index of the list") from None
                continue
            if not isinstance(node, dict):
                raise ScenarioError(f"--set {path}: {where} is not a mapping")
            nxt = node.get(part)
            if nxt is None or isinstance(nxt, str):
                nxt = node[part] = {} if nxt is None else {"policy": nxt} if part == "broker" else nxt
            node = nxt
        if isinstance(node, list):
            try:
                node[int(parts[-1])] = value
            except (ValueError, IndexError):
                raise ScenarioError(f"--set {path}: {parts[-1]} is not an index of the list") from None
        elif isinstance(node, dict):
            node[parts[-1]] = value
        else:
            raise ScenarioError(f"--set {path}: {'.'.join(parts[:-1])} is not a mapping")
        lines[path] = 0
    return data


def load_scenario(source: str | os.PathLike | Mapping, overrides: Iterable[str] = (),
                  env: Mapping[str, str] | None = None) -> Scenario:
    """Load a scenario from a YAML file (or an already parsed mapping) and validate it.

    Relative input paths resolve against the scenario file's folder; ``${VAR}`` and
    ``${VAR:-default}`` expand from the environment.
    """
    lines: dict[str, int] = {}
    if isinstance(source, Mapping):
        data, name, base = dict(source), "<mapping>", os.getcwd()
    else:
        name = os.fspath(source)
        text = read_text(name)
        data, lines = parse_yaml(text, name)
        base = os.path.dirname(os.path.abspath(name))
    if not isinstance(data, dict):
        raise ScenarioError(f"{name}:1: the scenario must be a mapping of keys "
                            "(name, seed, plugins, datacenter, workload, broker, metrics, output)")
    overrides = tuple(overrides)
    data = apply_overrides(data, overrides, lines)
    return build_scenario(data, source=name, lines=lines, base_dir=base, env=env, overrides=overrides)
