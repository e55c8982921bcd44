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


def test_every_relative_link_of_the_pages_resolves():
    """mkdocs.yml lets links to the repository's files outside docs/ through (the site cannot
    check them: they resolve on the repository's web view); this checks that each one, and each
    link between pages, names a file or folder that exists."""
    import re

    pages = [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))
    broken = []
    for page in pages:
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:|#", target):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)
