"""`.venv/bin/python manage.py …` in a newcomer's shell (no DATABASE_URL): while no `make run` runs the private
PostgreSQL, one line says to start it (or to set DATABASE_URL); every other database error is shown as it is."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from portal.local import postgres
from tests.newcomer.launcher import ROOT


def manage(var_dir, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {"PATH": "/usr/bin:/bin", "ROCPORT_VAR_DIR": str(var_dir), **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def var_dir(tmp_path):
    var = tmp_path / "var"
    yield var
    postgres.stop(postgres.data_dir(var))


def test_without_make_run_one_line_says_to_start_it(var_dir):
    result = manage(var_dir, "migrate", "--check")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"manage.py: the private PostgreSQL of `make run` is not running (its data: {postgres.data_dir(var_dir)}): "
        "start `make run` in another terminal and keep it running, or set DATABASE_URL to a PostgreSQL of your own "
        "(see .env.example)"
    ], result.stderr


def test_a_database_url_that_does_not_answer_is_shown_as_it_is(var_dir):
    result = manage(var_dir, "migrate", "--check", DATABASE_URL="postgres://postgres@127.0.0.1:9/rocport")
    assert result.returncode == 1
    assert "make run" not in result.stderr and 'connection to server at "127.0.0.1", port 9 failed' in result.stderr


def test_an_error_of_the_running_private_server_is_shown_as_it_is(var_dir):
    server = postgres.start(var_dir)
    with psycopg.connect(host=str(server.socket), user=postgres.USER, dbname="postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {postgres.DATABASE}")
    result = manage(var_dir, "migrate", "--check")
    assert result.returncode == 1
    assert "make run" not in result.stderr and f'database "{postgres.DATABASE}" does not exist' in result.stderr
