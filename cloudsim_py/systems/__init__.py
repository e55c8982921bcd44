"""The kinds of system a scenario describes, each knowing how to become a world and what it adds
to the outputs: a datacenter (:class:`DatacenterSystem`), a cloud running leases
(:class:`LeaseCloudSystem`) and a cloud system running DAG jobs (:class:`DagCloudSystem`).
Every kind is prepared once per scenario (its workload read) and run by the one run loop,
:func:`cloudsim_py.runner.run_system`, with the same guarantees. Above ``runner.py``; below
``scenario/``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from .datacenter import DatacenterSystem

if TYPE_CHECKING:  # pragma: no cover
    from .clouds import DagCloudSystem, LeaseCloudSystem

#: what a scenario's ``system`` can be (a tagged union: each has a ``kind`` and a ``prepare``)
System = Union[DatacenterSystem, "LeaseCloudSystem", "DagCloudSystem"]


def __getattr__(name: str) -> Any:
    # the cloud systems (and the cloud brokers they use) are imported when first asked for:
    # a datacenter scenario does not need them
    if name in ("DagCloudSystem", "LeaseCloudSystem"):
        from . import clouds
        return getattr(clouds, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["DagCloudSystem", "DatacenterSystem", "LeaseCloudSystem", "System"]
