"""Where the runs of a sweep execute: local processes (``concurrent.futures``) or a Dask
cluster (a thin adapter over ``Client.submit`` and ``as_completed``).

A backend is a context manager whose ``run(fn, items)`` yields lists of ``(item, result)``
as they finish, the result being ``fn(item)`` or the exception it raised. Imports nothing
from the simulator."""

from __future__ import annotations

import os
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ..errors import ExperimentError

T = TypeVar("T")
Batch = list[tuple[Any, Any]]


def cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class LocalBackend:
    """``jobs`` worker processes (default: every core). With one job the runs execute in this
    process, one after the other (no pickling, and a debugger works). While runs are going on,
    an empty batch comes every ``tick`` seconds without a finished run."""

    def __init__(self, jobs: int | None = None, tick: float = 2.0) -> None:
        if jobs is not None and jobs < 1:
            raise ExperimentError(f"--jobs must be >= 1, got {jobs}")
        self.jobs = jobs or cores()
        self.tick = tick
        self._pool: ProcessPoolExecutor | None = None

    @property
    def description(self) -> str:
        return "this process" if self.jobs == 1 else f"{self.jobs} local processes"

    def __enter__(self) -> "LocalBackend":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def run(self, fn: Callable[[T], Any], items: Sequence[T]) -> Iterator[Batch]:
        if self.jobs == 1 or len(items) <= 1:
            for item in items:
                yield [(item, fn(item))]
            return
        self._pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(items)))
        futures: dict[Future, T] = {self._pool.submit(fn, item): item for item in items}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=self.tick, return_when=FIRST_COMPLETED)
            batch: Batch = []   # empty after a tick without a finished run: the caller may write
            for fut in done:
                exc = fut.exception()
                batch.append((futures[fut], exc if exc is not None else fut.result()))
            yield batch


class DaskBackend:
    """Runs on a ``dask.distributed`` cluster: ``address`` of a running scheduler
    (``tcp://host:8786``), or ``"local"`` for a ``LocalCluster`` of ``jobs`` single-threaded
    worker processes on 127.0.0.1. The workers must be able to import cloudsim_py."""

    def __init__(self, address: str, jobs: int | None = None) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ExperimentError("--dask needs dask.distributed: pip install 'dask[distributed]'") from None
        self.address = address
        self.jobs = jobs
        self.client: Any = None
        self.cluster: Any = None

    @property
    def description(self) -> str:
        if self.address == "local":
            return f"a local Dask cluster of {self.jobs or cores()} workers"
        return f"the Dask scheduler at {self.address}"

    def __enter__(self) -> "DaskBackend":
        from distributed import Client, LocalCluster

        if self.address == "local":
            self.cluster = LocalCluster(n_workers=self.jobs or cores(), threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(self.address, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise ExperimentError(f"--dask {self.address}: cannot reach the scheduler ({exc})") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def run(self, fn: Callable[[T], Any], items: Sequence[T]) -> Iterator[Batch]:
        from distributed import as_completed

        if self.client is None:
            raise ExperimentError("DaskBackend.run outside its with-block")
        tag = uuid.uuid4().hex[:8]
        futures = {self.client.submit(fn, item, key=f"cloudsim-run-{getattr(item, 'run_id', i)}-{tag}",
                                      pure=False): item for i, item in enumerate(items)}
        try:
            for done in as_completed(futures, with_results=False).batches():
                batch: Batch = []
                for fut in done:
                    if fut.status == "error":
                        batch.append((futures[fut], fut.exception()))
                    else:
                        batch.append((futures[fut], fut.result()))
                yield batch
        finally:
            left = [f for f in futures if not f.done()]
            if left:
                self.client.cancel(left)


def make_backend(jobs: int | None = None, dask: str | None = None) -> LocalBackend | DaskBackend:
    """The backend the command line asks for."""
    return DaskBackend(dask, jobs) if dask else LocalBackend(jobs)
