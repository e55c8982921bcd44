"""The documentation site (mkdocs.yml: the pages of docs/ and the API reference generated from
the docstrings) builds with warnings as errors: a docstring griffe cannot parse, a broken
cross-reference or an anchor that does not exist fails this test. Skipped with the reason when
the `[docs]` extra (mkdocs, mkdocstrings) is not installed; the `[test]` extra installs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


def test_the_site_builds_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="the [docs] extra (mkdocs) is not installed")
    pytest.importorskip("mkdocstrings", reason="the [docs] extra (mkdocstrings) is not installed")
    pytest.importorskip("mkdocstrings_handlers.python",
                        reason="the [docs] extra (mkdocstrings[python]) is not installed")
    # no --quiet: it hides the warnings from the count --strict aborts on
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--config-file", str(REPO / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="cloudsim_py.runner.simulate"' in api
    assert (tmp_path / "site" / "api" / "brokers" / "index.html").is_file()
