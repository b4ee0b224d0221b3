"""`make venv`, `make serve` and the Procfile: the portal outside Docker (gunicorn, a worker, one beat)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _procfile() -> dict[str, str]:
    entries = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        match = re.match(r"^([a-z]+):\s*(.+)$", line)
        if match:
            entries[match.group(1)] = match.group(2)
    return entries


def test_the_procfile_runs_gunicorn_one_worker_and_beat_from_the_virtualenv():
    entries = _procfile()
    assert set(entries) == {"web", "worker", "beat"}
    assert entries["web"].startswith(".venv/bin/gunicorn portal.wsgi:application")
    assert entries["worker"].startswith(".venv/bin/celery -A portal worker")
    assert entries["beat"].startswith(".venv/bin/celery -A portal beat")
    pinned = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'"gunicorn==[0-9.]+"', pinned) and re.search(r'"celery==[0-9.]+"', pinned)
    for entry in entries.values():
        assert (ROOT / entry.split()[0]).exists(), entry


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_venv_and_make_serve_exist_and_serve_names_what_it_needs():
    dry = subprocess.run(["make", "-n", "venv"], cwd=ROOT, capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    refused = subprocess.run(
        ["make", "-o", ".venv/.installed", "serve"], cwd=ROOT, capture_output=True, text=True, env=env
    )
    assert refused.returncode != 0 and "set DATABASE_URL" in refused.stderr
    plan = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, env={**env, "DATABASE_URL": "postgres://x/y"}
    )
    assert plan.returncode == 0 and "manage.py migrate --noinput" in plan.stdout and "Procfile" in plan.stdout
