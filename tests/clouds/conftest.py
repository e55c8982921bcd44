"""Fixtures of the federation tests: the shared lease and workflow files (skip when missing)."""

from tests.workload.conftest import lease_file, workflow_file  # noqa: F401 - fixtures
