"""The fault-injection suite runs in a pytest process of its own, on services of its own.

Why a second process: the suite stops and restarts PostgreSQL, so the Django test database must live on a
cluster the suite owns, and Django reads DATABASE_URL once, when it starts. In the top-level `pytest` session
Django is already set up (tests/portal/conftest.py) on the shared server; so there, this package collects only
test_suite.py, which runs `pytest tests/faults` again with ROCPORT_FAULTS_INNER=1. In that inner process this
conftest, loaded before Django, starts PostgreSQL (initdb) and Redis on free ports, points the settings at them,
and the fault tests run; the counts go to var/test-artifacts/faults.json.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

INNER = os.environ.get("ROCPORT_FAULTS_INNER") == "1"
ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "var" / "test-artifacts" / "faults.json"

if not INNER:
    collect_ignore = ["test_worker_kills.py", "test_service_restarts.py"]

    def pytest_terminal_summary(terminalreporter):
        from tests.faults.test_suite import SUMMARY

        if SUMMARY:
            terminalreporter.write_line(SUMMARY[-1])
else:
    collect_ignore = ["test_suite.py"]
    from tests.faults.services import Postgres
    from tests.portal.webhook_stack import Redis

    _TMP = Path(tempfile.mkdtemp(prefix="rocport-faults-"))
    atexit.register(shutil.rmtree, _TMP, True)  # registered first: runs last, after the servers stopped
    _POSTGRES = Postgres()
    atexit.register(_POSTGRES.destroy)
    (_TMP / "redis").mkdir()
    _REDIS = Redis(_TMP / "redis")
    atexit.register(_REDIS.stop)
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "portal.settings",
            "DATABASE_URL": _POSTGRES.url("rocport_faults"),
            "CELERY_BROKER_URL": _REDIS.url,
            "ROCPORT_ALLOW_LOCAL_REPOS": "1",
            "ROCPORT_ALLOW_PRIVATE_HOSTS": "1",
            "ROCPORT_VAR_DIR": str(_TMP / "var"),
            # The sweeper's threshold, at its minimum: a killed worker's scan is noticed 5 s after its last heartbeat.
            "ROCPORT_SCAN_HEARTBEAT_STALE": "5",
            "ROCPORT_SCAN_QUEUED_STALE": "5",
            "ROCPORT_COMPILE_CHECK": "off",
            "ROCPORT_WEBHOOK_PENDING_SECONDS": "1",
        }
    )

    import django  # noqa: E402

    django.setup()

    @pytest.fixture
    def people(transactional_db):
        from tests.portal.people import People

        return People.create()

    @pytest.fixture(scope="session")
    def postgres() -> Postgres:
        return _POSTGRES

    @pytest.fixture(scope="session")
    def broker() -> Redis:
        return _REDIS

    _COUNTS: dict = {}

    @pytest.fixture(scope="session")
    def fault_counts():
        """The suite's counts, filled by each test, written once at the end for the closing note."""
        yield _COUNTS
        if _COUNTS:
            REPORT.parent.mkdir(parents=True, exist_ok=True)
            REPORT.write_text(json.dumps(_COUNTS, indent=2, sort_keys=True) + "\n")

    def pytest_terminal_summary(terminalreporter):
        if _COUNTS:
            terminalreporter.write_line(summary_line(_COUNTS))


def summary_line(counts: dict) -> str:
    kills = counts.get("kills", {})
    restarts = counts.get("restarts", {})
    parts = [
        f"faults: seed {kills.get('seed', '-')}",
        f"kill scans {kills.get('scans', 0)}",
        "kills " + ",".join(f"{phase}={n}" for phase, n in sorted(kills.get("kills_by_phase", {}).items())),
        f"retried {kills.get('retried', 0)}",
        f"finished {kills.get('finished', 0)}",
        f"failed {kills.get('failed', 0)}",
        f"restart scans {restarts.get('scans', 0)} (finished {restarts.get('finished', 0)}, "
        f"failed {restarts.get('failed', 0)}, superseded {restarts.get('superseded', 0)})",
        f"deliveries sent {restarts.get('deliveries_sent', 0)}",
        f"processed {restarts.get('deliveries_processed', 0)}",
        f"duplicates {restarts.get('duplicate_scans', 0)}",
    ]
    return "; ".join(parts)
