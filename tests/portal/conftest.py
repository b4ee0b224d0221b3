"""Portal tests run against the real services: PostgreSQL and Redis on localhost, real git repositories, and (in
test_worker_*.py) a real Celery worker process. The environment is set before Django reads its settings."""

from __future__ import annotations

import os
import tempfile
import uuid

_ENV_BEFORE = set(os.environ)  # what this file adds is taken back from xdist workers (below)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/9")
# A queue of this run's own: a developer's portal or a second test run on the same Redis database cannot take
# this run's tasks, nor this run theirs (tests/portal/worker.py empties only this queue).
os.environ.setdefault("ROCPORT_CELERY_QUEUE", f"rocport-test-{os.getpid()}-{uuid.uuid4().hex[:6]}")
os.environ.setdefault("ROCPORT_ALLOW_LOCAL_REPOS", "1")
os.environ.setdefault("ROCPORT_ALLOW_PRIVATE_HOSTS", "1")
os.environ.setdefault("ROCPORT_VAR_DIR", tempfile.mkdtemp(prefix="rocport-test-var-"))
# Under pytest-xdist (-n 2, pyproject.toml) each worker process is a test run of its own: its own test database
# (pytest-django names it test_<name>_gw0, _gw1), and its own queue and var folder, so that the two never take each
# other's tasks, and two repositories with the same id in the two test databases never share a clone on disk.
# When the process that starts the workers has read this file (pytest given a path under tests/portal/), it does
# not hand what this file set to its workers (pytest_xdist_setupnodes below): each worker sets its own. A queue or
# var folder given by the caller is shared by the workers' environment, so the worker's name is added to it here,
# before Django reads it (if Django was set up already, from a DJANGO_SETTINGS_MODULE of the caller's, it is not).
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _XDIST_WORKER and not os.environ["ROCPORT_CELERY_QUEUE"].endswith(f"-{_XDIST_WORKER}"):
    from django.conf import settings as _settings

    if not _settings.configured:
        os.environ["ROCPORT_CELERY_QUEUE"] += f"-{_XDIST_WORKER}"
        _worker_var = os.path.join(os.environ["ROCPORT_VAR_DIR"], _XDIST_WORKER)
        os.makedirs(_worker_var, exist_ok=True)
        os.environ["ROCPORT_VAR_DIR"] = _worker_var
os.environ.setdefault("ROCPORT_SCAN_HEARTBEAT_STALE", "5")
# The compile check costs about a second per CUDA file: the tests that are about it turn it on
# (tests/portal/scans/test_compile_check_portal.py); the others scan as before.
os.environ.setdefault("ROCPORT_COMPILE_CHECK", "off")
# Every test's requests come from 127.0.0.1 and the counters outlive a test: the suite runs with the limits on but
# out of reach; tests/portal/site/test_rate_limits.py sets the rates it tests.
for _rate in (
    "SIGNIN_IP",
    "SIGNIN_USERNAME",
    "TOKEN_CREATE",
    "TOKEN_FAILURES_IP",
    "WEBHOOK_REPOSITORY",
    "WEBHOOK_IP",
    "DIGEST_SEND",
):
    os.environ.setdefault(f"ROCPORT_RATE_{_rate}", "100000/m")

_ENV_SET_HERE = set(os.environ) - _ENV_BEFORE

import django  # noqa: E402
import pytest  # noqa: E402

django.setup()  # the models below are imported at collection time

from django.utils import translation  # noqa: E402

from tests.portal.gitrepos import GitRepo  # noqa: E402
from tests.portal.people import People  # noqa: E402


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """In the process that starts the xdist workers, just before it starts them: the environment this file set
    (a queue and a var folder named for this process, DJANGO_SETTINGS_MODULE) is not passed on; each worker reads
    this file again and sets its own. (This process runs no test; its Django stays as it was set up.)"""
    for name in _ENV_SET_HERE:
        os.environ.pop(name, None)


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
