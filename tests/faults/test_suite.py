"""The top-level `pytest` runs the fault suite here, in a pytest process of its own (see conftest.py for why), and
fails if that process fails. Its summary line is repeated in this session's terminal summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.faults.conftest import REPORT, ROOT, summary_line

pytestmark = pytest.mark.faults
SUMMARY: list[str] = []
TIMEOUT = 15 * 60  # the suite takes a few minutes; this is a hang, not a slow run


def test_the_fault_injection_suite_passes_in_its_own_process():
    REPORT.unlink(missing_ok=True)
    # Django must start in the child on the child's own services: none of this session's Django settings.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "ROCPORT_VAR_DIR")
        and not k.startswith("PYTEST_XDIST_")  # the child is no xdist worker, whatever this process is
    }
    env["ROCPORT_FAULTS_INNER"] = "1"
    # -n 0: one process, whatever the top-level run's addopts ask (-n 2): the suite owns its services.
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/faults",
            "-m",
            "faults",
            "-p",
            "no:cacheprovider",
            "-q",
            "-s",
            "-n",
            "0",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20000:]
    counts = json.loads(REPORT.read_text())
    SUMMARY.append(summary_line(counts))
    assert counts["kills"]["scans"] == 20 and counts["restarts"]["deliveries_sent"] > 0, counts
