"""Hostile repositories: each test builds a repository that tries to escape, run code, exhaust or confuse, and runs
it through the real clone + scan path (portal.scans.pipeline.runner.run in-process, against PostgreSQL and real git).

Fixtures: `people` and `repo_factory` (the portal tests' own, with their environment: ROCPORT_ALLOW_LOCAL_REPOS and
ROCPORT_ALLOW_PRIVATE_HOSTS on; the URL tests turn the second off with override_settings), `canary` (a secret file
outside the checkout and the path a marker would be created at if hostile code ran).
"""

from __future__ import annotations

import pytest

# First: the portal tests' environment (set on import). `isort: split` keeps it first.
from tests.portal.conftest import people, repo_factory  # noqa: F401

# isort: split
from tests.hostile.harness import Canary


@pytest.fixture
def canary(tmp_path):
    return Canary.create(tmp_path / "outside")
