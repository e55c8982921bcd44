"""Read a scenario from YAML: keep the line of every key, apply ``--set`` overrides, expand
``${ENV}``, and build the attrs schema. Errors name file, line and key path."""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping

import yaml

from ..errors import ScenarioError
from .schema import Scenario, build_scenario


def _to_python(node: yaml.Node, path: str, lines: dict[str, int], source: str) -> Any:
    """Convert a composed YAML node to plain Python, recording ``lines[path]`` (1-based)."""
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
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
        return [_to_python(item, f"{path}.{i}", lines, source) for i, item in enumerate(node.value)]
    return yaml.safe_load(yaml.serialize(node))


def parse_yaml(text: str, source: str = "<string>") -> tuple[Any, dict[str, int]]:
    """Parse YAML text; returns the data and a map from key path to line number."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        raise ScenarioError(f"{where}: invalid YAML: {getattr(exc, 'problem', exc)}") from None
    if node is None:
        raise ScenarioError(f"{source}: the scenario file is empty")
    lines: dict[str, int] = {}
    return _to_python(node, "", lines, source), lines


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
    if isinstance(source, Mapping):
        lines: dict[str, int] = {}
        data, name, base = dict(source), "<mapping>", os.getcwd()
    else:
        name = os.fspath(source)
        try:
            with open(name, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise ScenarioError(f"{name}: no such scenario file") from None
        except IsADirectoryError:
            raise ScenarioError(f"{name}: is a directory, not a scenario file") from None
        data, lines = parse_yaml(text, name)
        base = os.path.dirname(os.path.abspath(name))
    if not isinstance(data, dict):
        raise ScenarioError(f"{name}:1: the scenario must be a mapping of keys "
                            "(name, seed, plugins, datacenter, workload, broker, metrics, output)")
    overrides = tuple(overrides)
    data = apply_overrides(data, overrides, lines)
    return build_scenario(data, source=name, lines=lines, base_dir=base, env=env, overrides=overrides)
