"""Portal tests run against the real services: PostgreSQL and Redis on localhost, real git repositories, and (in
test_worker_*.py) a real Celery worker process. The environment is set before Django reads its settings."""

from __future__ import annotations

import os
import tempfile
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/9")
# A queue of this run's own: a developer's portal or a second test run on the same Redis database cannot take
# this run's tasks, nor this run theirs (tests/portal/worker.py empties only this queue).
os.environ.setdefault("ROCPORT_CELERY_QUEUE", f"rocport-test-{os.getpid()}-{uuid.uuid4().hex[:6]}")
os.environ.setdefault("ROCPORT_ALLOW_LOCAL_REPOS", "1")
os.environ.setdefault("ROCPORT_ALLOW_PRIVATE_HOSTS", "1")
os.environ.setdefault("ROCPORT_VAR_DIR", tempfile.mkdtemp(prefix="rocport-test-var-"))
os.environ.setdefault("ROCPORT_SCAN_HEARTBEAT_STALE", "5")
# The compile check costs about a second per CUDA file: the tests that are about it turn it on
# (tests/portal/test_compile_check_portal.py); the others scan as before.
os.environ.setdefault("ROCPORT_COMPILE_CHECK", "off")
# Every test's requests come from 127.0.0.1 and the counters outlive a test: the suite runs with the limits on but
# out of reach; tests/portal/test_rate_limits.py sets the rates it tests.
for _rate in ("SIGNIN_IP", "SIGNIN_USERNAME", "TOKEN_CREATE", "TOKEN_FAILURES_IP", "WEBHOOK_REPOSITORY", "WEBHOOK_IP"):
    os.environ.setdefault(f"ROCPORT_RATE_{_rate}", "100000/m")

import django  # noqa: E402
import pytest  # noqa: E402

django.setup()  # the models below are imported at collection time

from django.utils import translation  # noqa: E402

from tests.portal.gitrepos import GitRepo  # noqa: E402
from tests.portal.people import People  # noqa: E402


@pytest.fixture(autouse=True)
def _no_language_carried_over():
    """A request through LocaleMiddleware leaves its language active in the thread: a test that asked for a page in
    Chinese must not make the next test's texts Chinese."""
    yield
    translation.deactivate()


@pytest.fixture
def repo_factory(tmp_path):
    """Real git repositories built in the test (file:// clone URLs)."""

    def make(name: str = "project") -> GitRepo:
        return GitRepo.create(tmp_path / name)

    return make


@pytest.fixture
def people(db) -> People:
    return People.create()
