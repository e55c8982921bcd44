"""The package's layers (docs/architecture.md, setup.cfg [importlinter]): each layer imports only
from the layers below it, so no import cycle between packages can come back unnoticed; and every
top-level module or package of cloudsim_py has its place in a layer."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cloudsim_py"


def layers() -> list[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    text = config["importlinter:contract:layers"]["layers"]
    return [name.strip() for line in text.splitlines() for name in line.split("|") if name.strip()]


def test_no_layer_imports_a_layer_above_it():
    # lint-imports (import-linter) reads the contract of setup.cfg and the code's imports
    done = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                           "sys.exit(lint_imports(config_filename='setup.cfg', no_cache=True, no_logo=True))"],
                          cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_top_level_module_and_package_has_a_layer():
    # a new package must be placed in the contract, else its imports would go unchecked
    names = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    placed = {name.removeprefix("cloudsim_py.") for name in layers()}
    assert names - placed == set()
    assert placed - names == set()
