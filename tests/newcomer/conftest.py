"""The newcomer tests' folders live outside pytest's own temporary root.

Run as root, `make run`'s private PostgreSQL runs as an unprivileged user (portal.local.postgres) that must traverse
every parent of its data folder. pytest sets its root (`/tmp/pytest-of-<user>`) back to 0o700 whenever any pytest
session starts, and some tests start one of their own (the fault-injection suite, the new-rule script's check): a
server running under that root then loses its data folder mid-run (a shutdown checkpoint's PANIC: "could not open
file global/pg_control: Permission denied"). So `tmp_path` here is a folder of its own under the system's
temporary folder, removed after the test."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def tmp_path():
    folder = Path(tempfile.mkdtemp(prefix="rocport-newcomer-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
