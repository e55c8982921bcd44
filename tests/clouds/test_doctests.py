"""The runnable examples in the federation and lease modules' docstrings stay true."""

from __future__ import annotations

import doctest

import pytest

from cloudsim_py.clouds import cloud, matrix, slottable, vmtypes
from cloudsim_py.workload import dag_task, lease_job

MODULES = [cloud, matrix, slottable, vmtypes, dag_task, lease_job]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
