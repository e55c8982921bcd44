"""examples/quickstart.ipynb works: it runs top to bottom twice in one kernel (every block can be
rerun), shows a run's summary as a table and draws its figures; it is kept without outputs.
Executed with nbclient, skipped (with the reason) where nbclient, ipykernel, pandas, matplotlib
or the shared traces are missing."""

from __future__ import annotations

import copy
import json
import os

import pytest

from tests.conftest import REPO

NOTEBOOK = REPO / "examples" / "quickstart.ipynb"
TRACE = REPO.parent / "shared" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


def test_the_notebook_is_kept_without_outputs():
    doc = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in doc["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)


def test_the_notebook_runs_top_to_bottom_twice_in_one_kernel():
    for module in ("nbclient", "nbformat", "ipykernel", "pandas", "matplotlib"):
        pytest.importorskip(module, reason=f"executing the notebook needs {module}")
    if not TRACE.is_file():
        pytest.skip(f"the notebook reads {TRACE}, which is missing")
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    again = copy.deepcopy(nb.cells)
    for cell in again:
        cell["id"] = f"{cell['id']}-again"
    twice = nbformat.v4.new_notebook(cells=nb.cells + again, metadata=nb.metadata)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    client = NotebookClient(twice, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(REPO / "examples")}})
    client.execute(env=env)          # a cell that raises fails the test (CellExecutionError)

    half = len(nb.cells)
    for run in (twice.cells[:half], twice.cells[half:]):
        shown = [kind for cell in run if cell.cell_type == "code"
                 for out in cell.outputs for kind in out.get("data", {})]
        assert shown.count("image/png") == 2          # the sweep's figure and the Gantt chart
        assert any("<caption>easy</caption>" in out.get("data", {}).get("text/html", "")
                   for cell in run if cell.cell_type == "code" for out in cell.outputs)
