"""The runnable examples in the moldable-job modules' docstrings stay true."""

from __future__ import annotations

import doctest

import pytest

from cloudsim_py.brokers import plan, reshaping
from cloudsim_py.experiments import offline, predict
from cloudsim_py.workload import efficiency, moldable, reshape


@pytest.mark.parametrize("module", [efficiency, reshape, offline, predict, moldable, plan, reshaping],
                         ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
