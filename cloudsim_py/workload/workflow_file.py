"""A workflow file of either kind a scenario's ``dags.workflows`` may name: WfFormat (JSON,
schema 1.0-1.6: :mod:`~cloudsim_py.workload.wfformat`) or Pegasus DAX (XML:
:mod:`~cloudsim_py.workload.dax`), told apart by the file's first character."""

from __future__ import annotations

import os
from typing import Hashable

from .lwf import read_text_file
from .wfformat import Workflow, read_wfformat


def read_workflow(path: str | os.PathLike, job_id: Hashable | None = None, submit_time: float = 0.0,
                  cloud: int | None = None) -> Workflow:
    """Read a WfFormat or DAX file (XML when its first character other than blank space is
    ``<``); the job's id is ``job_id`` (default: the file name without its extension). The file
    is read once, and checked to be UTF-8 text first (:func:`~cloudsim_py.workload.lwf.read_text_file`)."""
    text = read_text_file(os.fspath(path))
    if text.lstrip().startswith("<"):
        from .dax import read_dax

        return read_dax(path, job_id, submit_time, cloud, text=text)
    return read_wfformat(path, job_id, submit_time, cloud, text=text)
