"""The private PostgreSQL of the embedded default (portal/local/postgres.py): a server a crashed launcher left
running is taken over, never doubled; the starts that cannot work say so in one line with what to do."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

import psycopg
import pytest

from portal.local import postgres
from tests.newcomer.launcher import ROOT, MakeRun, free_port


@pytest.fixture
def var_dir(tmp_path):
    var = tmp_path / "var"
    yield var
    postgres.stop(postgres.data_dir(var))


def test_a_server_left_running_is_taken_over_and_its_data_kept(var_dir):
    first = postgres.start(var_dir)
    assert not first.reused
    with psycopg.connect(
        host=str(first.socket), user=postgres.USER, dbname=postgres.DATABASE, autocommit=True
    ) as connection:
        connection.execute("CREATE TABLE kept (value text)")
        connection.execute("INSERT INTO kept VALUES ('before the crash')")
    # The launcher "crashes": nobody stops the server. The next start finds it instead of starting a second one.
    second = postgres.start(var_dir)
    assert second.reused and second.pid == first.pid
    second.stop()
    assert postgres.running_pid(second.data) is None
    # A cold start on the same data keeps it.
    third = postgres.start(var_dir)
    assert not third.reused and third.pid != first.pid
    with psycopg.connect(host=str(third.socket), user=postgres.USER, dbname=postgres.DATABASE) as connection:
        assert connection.execute("SELECT value FROM kept").fetchall() == [("before the crash",)]


def test_a_var_folder_that_cannot_be_written_is_named(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(postgres.EmbeddedPostgresError) as error:
        postgres.start(blocker / "var")
    message = str(error.value)
    assert "is not writable" in message and "ROCPORT_VAR_DIR" in message and "\n" not in message


def test_a_socket_taken_by_another_server_is_refused(var_dir):
    sockets = postgres.socket_dir(var_dir)
    sockets.mkdir(parents=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as squatter:
        squatter.bind(str(sockets / ".s.PGSQL.5432"))
        squatter.listen(1)
        with pytest.raises(postgres.EmbeddedPostgresError) as error:
            postgres.start(var_dir)
    assert "is taken by another server" in str(error.value)
    assert postgres.running_pid(postgres.data_dir(var_dir)) is None


def test_a_failed_start_is_explained_by_its_own_log_lines_not_an_earlier_runs(var_dir):
    if os.geteuid() != 0:
        pytest.skip("the server runs as the caller: no user of its own to hold the lock")
    first = postgres.start(var_dir)
    first.stop()
    log = postgres.data_dir(var_dir).parent / "server.log"
    with log.open("a") as handle:  # an earlier run that crashed on a permission problem, long fixed
        handle.write('PANIC:  could not open file "global/pg_control": Permission denied\n')
    # This start fails for another reason: a live process of the server's user holds the socket's lock file
    # (PostgreSQL takes a lock of a process it may not signal for a stale one).
    holder = subprocess.Popen(["sleep", "120"], user=postgres.SYSTEM_USER)
    (postgres.socket_dir(var_dir) / ".s.PGSQL.5432.lock").write_text(f"{holder.pid}\n")
    try:
        with pytest.raises(postgres.EmbeddedPostgresError) as error:
            postgres.start(var_dir)
    finally:
        holder.kill()
        holder.wait()
        (postgres.socket_dir(var_dir) / ".s.PGSQL.5432.lock").unlink()
    assert "is taken by another server" in str(error.value)
    assert "permission denied" not in str(error.value).lower()


def test_a_deep_var_folder_gets_a_short_socket_folder(tmp_path):
    deep = tmp_path.joinpath(*["nested-folder-name"] * 6) / "var"
    assert len(str(deep / "run" / ".s.PGSQL.5432")) > 107
    short = postgres.socket_dir(deep)
    assert len(str(short / ".s.PGSQL.5432")) <= 107
    assert short == postgres.socket_dir(deep)  # the same folder for the settings and the launcher


def test_make_run_on_a_taken_port_says_so_and_starts_nothing(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = MakeRun(tmp_path / "var", port)
        result = subprocess.run(
            ["bash", "scripts/run.sh"], cwd=ROOT, env=run.environment(), capture_output=True, text=True, timeout=300
        )
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("make run:")]
    # It waited for the port first (a run stopped a moment ago gives it back within seconds), saying so.
    assert f"port {port} on 127.0.0.1 is in use; waiting up to 30 s" in result.stdout
    assert lines == [
        f"make run: port {port} on 127.0.0.1 is taken (waited 30 s): stop what uses it, "
        f"or run `PORT={port + 1} make run`"
    ], result.stderr
    assert not (tmp_path / "var" / "postgres").exists()


def test_sigterm_stops_the_stack_and_its_database(tmp_path):
    run = MakeRun(tmp_path / "var", free_port())
    try:
        run.start()
    except BaseException:
        run.kill()
        raise
    assert postgres.running_pid(postgres.data_dir(tmp_path / "var")) is not None
    assert run.stop(signal.SIGTERM) == 0, run.output()
    assert run.left_running() == []
    assert postgres.running_pid(postgres.data_dir(tmp_path / "var")) is None


def test_the_settings_point_at_the_private_server_when_no_database_is_configured(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "ROCPORT_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_SETTINGS_MODULE": "portal.settings",
    }
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings; d = settings.DATABASES['default'];"
            " print(d['ENGINE'], d['HOST'], d['NAME']); print(settings.CELERY_BROKER_TRANSPORT_OPTIONS"
            "['control_folder'])",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    engine, host, name = out.stdout.splitlines()[0].split()
    assert engine == "django.db.backends.postgresql" and name == postgres.DATABASE
    assert host == str(tmp_path / "var" / "run")
    assert out.stdout.splitlines()[1] == str(tmp_path / "var" / "celery" / "control")


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MiB file system of its own (tmpfs): needs root, as CI and `make test` on this machine kind run."""
    import os

    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount_point = tmp_path / "tiny"
    mount_point.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount_point)], check=True)
    yield mount_point
    subprocess.run(["umount", str(mount_point)], check=False)


def test_a_full_disk_is_named_in_one_line_before_anything_starts(tiny_disk):
    with pytest.raises(postgres.EmbeddedPostgresError) as error:
        postgres.start(tiny_disk / "var")
    message = str(error.value)
    assert "is full" in message and "ROCPORT_VAR_DIR" in message and "\n" not in message
    assert not (tiny_disk / "var" / "postgres" / "data").exists()
