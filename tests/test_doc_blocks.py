"""Every fenced code block of README.md and docs/ (the pages of the documentation site) is
executed or checked, so an example a newcomer copies works as written:

- ``python``: the page's Python blocks run top to bottom in one interpreter and one namespace,
  as a reader pastes them into a notebook (a fresh interpreter per page: pages register
  policies); a failure names the page and the line of the block.
- ``bash`` / ``sh`` / ``console``: every command must be ``cloudsim-py ...``; it is parsed by the
  command line's own parser (an unknown command or option fails), and the scenario or sweep file
  it names is loaded and validated with its ``--set`` overrides. Nothing is run (the runs are
  the other tests' business), so a command that reads what an earlier one writes is fine.
- ``yaml``: a whole scenario (loaded and validated as a scenario file would be), unless the
  comment before it says what else it is:
  ``<!-- yaml: sweep in DIR -->`` a sweep file, its relative paths resolving in DIR;
  ``<!-- yaml: onto FILE [at KEY.PATH] -->`` a fragment, merged onto the scenario FILE (at
  KEY.PATH) and validated; ``--set KEY.PATH=VALUE`` after either form overrides a value.

A block that cannot run (an install, a long benchmark, an output sample, a diagram) says so in
the markdown, in an HTML comment on the line before it: ``<!-- no-test: the reason -->``; the
test lists those (``-rs`` shows them as skips). Any other block, including one without a
language, fails. docs/tutorial-broker.md is left to the examples' own test, which runs it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO, traces_dir

#: pages another test owns: the broker tutorial runs with the examples
OWNED_ELSEWHERE = {"docs/tutorial-broker.md"}

PAGES = ["README.md"] + sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.md")
                               if str(p.relative_to(REPO)) not in OWNED_ELSEWHERE)

FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARK = re.compile(r"<!--\s*(no-test|yaml):\s*(.*?)\s*-->\s*$")
SHELL = {"bash", "sh", "shell", "console"}


@dataclass
class Block:
    page: str
    line: int           # of the opening fence
    lang: str
    text: str
    mark: str | None    # "no-test" or "yaml"
    note: str           # the mark's text

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks_of(page: str) -> list[Block]:
    text = (REPO / page).read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        before = [ln for ln in text[:m.start()].splitlines() if ln.strip()]
        mark = MARK.search(before[-1]) if before else None
        found.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group(1).lower(), m.group(2),
                           mark.group(1) if mark else None, mark.group(2) if mark else ""))
    return found


BLOCKS = {page: blocks_of(page) for page in PAGES}
CHECKED = [b for page in PAGES for b in BLOCKS[page] if b.mark != "no-test" and b.lang != "python"]
MARKED = [b for page in PAGES for b in BLOCKS[page] if b.mark == "no-test"]
PYTHON_PAGES = [page for page in PAGES
                if any(b.lang == "python" and b.mark != "no-test" for b in BLOCKS[page])]


def test_every_page_is_found():
    assert "README.md" in PAGES and "docs/getting-started.md" in PAGES
    assert sum(len(b) for b in BLOCKS.values()) > 40


@pytest.mark.parametrize("block", MARKED, ids=lambda b: b.where)
def test_a_marked_block_says_why(block):
    assert block.note, f"{block.where}: <!-- no-test: ... --> needs a reason"
    pytest.skip(f"{block.where} ({block.lang or 'no language'}): {block.note}")


# ---- Python: each page's blocks in order, in one namespace ----------------------------------

DRIVER = r"""
import sys, traceback
namespace = {"__name__": "__main__"}
for where, source in BLOCKS:
    try:
        exec(compile(source, where, "exec"), namespace)
    except BaseException:
        print(f"the block at {where} failed:", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_a_pages_python_blocks_run_in_order(page, tmp_path):
    blocks = [b for b in BLOCKS[page] if b.lang == "python" and b.mark != "no-test"]
    source = "\n".join(b.text for b in blocks)
    for trace in sorted(set(re.findall(r"[\w.-]+\.swf(?:\.gz)?", source))):
        if trace.startswith(("w.", "out.")) or not re.match(r"[A-Z]", trace):
            continue
        if not (traces_dir() / trace).is_file():
            pytest.skip(f"{page} reads the trace {trace}, not found in {traces_dir()} (set CLOUDSIM_PY_TRACES)")
    if re.search(r"to_pandas|summary_frame|as_frame|import pandas", source):
        pytest.importorskip("pandas", reason=f"{page} makes DataFrames ([pandas] extra)")
    if re.search(r"matplotlib|\.plot\(|gantt", source):
        pytest.importorskip("matplotlib", reason=f"{page} draws a figure ([plot] extra)")
    program = f"BLOCKS = {[(b.where, b.text) for b in blocks]!r}\n{DRIVER}"
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MPLBACKEND="Agg")
    # a working folder of its own, seeing the repository's files and ../shared beside it: what
    # the blocks write (results tables, figures) stays out of the repository
    work = tmp_path / "repo"
    work.mkdir()
    for entry in REPO.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("results", "build", "site"):
            (work / entry.name).symlink_to(entry)
    if (REPO.parent / "shared").exists():
        (tmp_path / "shared").symlink_to(REPO.parent / "shared")
    done = subprocess.run([sys.executable, "-c", program], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]


# ---- shell and YAML blocks -------------------------------------------------------------------

def _commands(text: str) -> list[str]:
    joined = re.sub(r"\\\n", " ", text)
    return [ln.strip() for ln in joined.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def check_command(where: str, line: str) -> None:
    from cloudsim_py.cli import build_parser

    argv = shlex.split(line, comments=True)
    assert argv and argv[0] == "cloudsim-py", (
        f"{where}: {line!r} is not a cloudsim-py command: mark the block <!-- no-test: why -->")
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            args = build_parser().parse_args(argv[1:])
    except SystemExit as exc:
        pytest.fail(f"{where}: {line!r} does not parse ({exc.code}): {err.getvalue()}")
    sets = getattr(args, "set", None) or ()
    with _skip_if_shared_file_missing(where):
        _load_named_files(args, sets)


def _load_named_files(args: Any, sets: Any) -> None:
    from cloudsim_py.experiments.sweep import load_sweep
    from cloudsim_py.scenario import load_scenario

    if args.command in ("run", "validate"):
        load_scenario(REPO / args.scenario, sets)
    elif args.command == "sweep":
        load_sweep(REPO / args.sweep)
    elif args.command == "predict":
        for base in args.base:
            if base.endswith((".yaml", ".yml")):
                load_scenario(REPO / base, sets)


def _merge(base: Any, top: Any) -> Any:
    if isinstance(base, dict) and isinstance(top, dict):
        merged = dict(base)
        for key, value in top.items():
            merged[key] = _merge(base[key], value) if key in base else value
        return merged
    return top


def check_yaml(block: Block) -> None:
    from cloudsim_py.experiments.sweep import load_sweep
    from cloudsim_py.scenario import load_scenario

    data = yaml.safe_load(block.text)
    words = shlex.split(block.note) if block.mark == "yaml" else ["scenario"]
    sets = [words[i + 1] for i, w in enumerate(words) if w == "--set"]
    option = {w: words[i + 1] for i, w in enumerate(words) if w in ("in", "onto", "at")}
    folder = str(REPO / option.get("in", "."))
    if words[0] == "sweep":
        assert not sets, f"{block.where}: --set applies to scenarios"
        load_sweep(data, base_dir=folder)
        return
    if words[0] == "onto":
        target = REPO / option["onto"]
        if "at" in option:
            for key in reversed(option["at"].split(".")):
                data = {key: data}
        data = _merge(yaml.safe_load(target.read_text(encoding="utf-8")), data)
        folder = str(target.parent)
    else:
        assert words[0] == "scenario", f"{block.where}: unknown <!-- yaml: {block.note} -->"
    cwd = os.getcwd()
    os.chdir(folder)               # a mapping's relative paths resolve against the working folder
    try:
        with _skip_if_shared_file_missing(block.where):
            load_scenario(data, sets)
    finally:
        os.chdir(cwd)


@contextlib.contextmanager
def _skip_if_shared_file_missing(where: str):
    """A block that names a trace or a lease file of ../shared is skipped (not failed) on a
    machine without them, as the tests that replay traces are."""
    from cloudsim_py.errors import ScenarioError

    try:
        yield
    except ScenarioError as exc:
        missing = re.search(r"no such file: (\S+)", str(exc))
        shared = ("/shared/", str(traces_dir()), os.environ.get("CLOUDSIM_PY_LEASES") or "/shared/")
        if (missing and any(root in missing.group(1) for root in shared)
                and not os.path.exists(missing.group(1))):
            pytest.skip(f"{where} reads {missing.group(1)}, not on this machine (set CLOUDSIM_PY_TRACES)")
        raise


@pytest.mark.parametrize("block", CHECKED, ids=lambda b: b.where)
def test_a_block_is_checked(block):
    if block.lang in SHELL:
        for line in _commands(block.text):
            check_command(block.where, line)
    elif block.lang in ("yaml", "yml"):
        check_yaml(block)
    else:
        pytest.fail(f"{block.where}: a {block.lang or 'no-language'} block this test cannot run: "
                    "give it a language it checks (python, bash, yaml) or mark it "
                    "<!-- no-test: the reason -->")


def test_the_examples_readme_promises_are_covered():
    """The README says every example and block is tested: the pages above are all of docs/."""
    on_disk = {str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.md")}
    assert on_disk - OWNED_ELSEWHERE == set(PAGES) - {"README.md"}
    assert Path(REPO / "README.md").is_file()
