"""The kinds of system a scenario describes, each knowing how to become a world and what it adds
to the outputs: a datacenter (:class:`DatacenterSystem`), a cloud running leases
(:class:`LeaseCloudSystem`) and a cloud system running DAG jobs (:class:`DagCloudSystem`).
Every kind is prepared once per scenario (its workload read) and run by the one run loop,
:func:`cloudsim_py.runner.run_system`, with the same guarantees. Above ``runner.py``; below
``scenario/``."""

from __future__ import annotations

from typing import Union

from .clouds import DagCloudSystem, LeaseCloudSystem
from .datacenter import DatacenterSystem

#: what a scenario's ``system`` can be (a tagged union: each has a ``kind`` and a ``prepare``)
System = Union[DatacenterSystem, LeaseCloudSystem, DagCloudSystem]

__all__ = ["DagCloudSystem", "DatacenterSystem", "LeaseCloudSystem", "System"]
