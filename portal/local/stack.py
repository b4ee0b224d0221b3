"""`make run`'s launcher (scripts/run.sh runs `python -m portal.local run`): the whole portal on one machine.

In order: the private PostgreSQL when DATABASE_URL is unset (portal.local.postgres), migrations, the demo
repository and its scans, a Celery worker with beat, and the web server. It prints the URL once the web server
answers, then waits; Ctrl-C, SIGTERM or a closed terminal (SIGHUP) stops the web server, the worker and the
database, in that order, and leaves no process behind. The children run in sessions of their own, so a stop is
always this launcher's doing and never half a process group's; each also gets SIGTERM if the launcher itself is
killed (PR_SET_PDEATHSIG), and a database left running that way is taken over by the next start.

The test that walks the README's first command (tests/newcomer/) runs this same code through scripts/run.sh.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from portal.local import postgres

BASE_DIR = Path(__file__).resolve().parent.parent.parent
_PR_SET_PDEATHSIG = 1
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Seconds a start waits for its port: a run stopped a moment ago gives its port back within a few seconds.
PORT_WAIT = 30


class LaunchError(Exception):
    """A start that cannot work; the message is one line with what to do."""


def main() -> int:
    env = _environment()
    var_dir = Path(env["ROCPORT_VAR_DIR"])
    port = _port(env)
    stopping: list[int] = []
    for signum in _STOP_SIGNALS:
        signal.signal(signum, lambda signum, frame: stopping.append(signum))
    children: list[subprocess.Popen] = []
    database = None
    try:
        if not _wait_for_port(port, stopping):
            return 0  # stopped while waiting: nothing was started
        if not env.get("DATABASE_URL"):
            database = postgres.start(var_dir)
            how = "taken over from an earlier run" if database.reused else "started"
            _say(f"database: private PostgreSQL {how} on {database.data} (socket {database.socket})")
        _manage(env, "migrate", "--noinput", quiet=True)
        _manage(env, "demo")
        children.append(
            _spawn(
                env,
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "portal",
                    "worker",
                    "--beat",
                    "--loglevel=WARNING",
                    "--concurrency=1",
                    "--schedule",
                    str(var_dir / "celerybeat-schedule"),
                ],
                log=var_dir / "worker.log",
            )
        )
        children.append(_spawn(env, [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]))
        _wait_until_serving(port, children, stopping)
        if not stopping:
            _say("")
            _say(f"ROCport is running at http://127.0.0.1:{port}/  (sign in as demo / rocport-demo)")
            _say(f"Data and logs under {var_dir} (worker log: {var_dir / 'worker.log'}). Stop with Ctrl-C.")
        while not stopping:
            exited = [child for child in children if child.poll() is not None]
            if exited:
                raise LaunchError(
                    f"{_name(exited[0])} exited with code {exited[0].returncode}; see the output above"
                    f" and {var_dir / 'worker.log'}"
                )
            time.sleep(0.3)
        return 0
    except (LaunchError, postgres.EmbeddedPostgresError) as error:
        _say(f"make run: {error}", err=True)
        return 1
    finally:
        for signum in _STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)  # a second Ctrl-C must not cut the stop short
        if children or database:
            _say("stopping ROCport ...")
        for child in reversed(children):
            _stop(child)
        if database is not None:
            try:
                database.stop()
            except postgres.EmbeddedPostgresError as error:
                _say(f"make run: {error}", err=True)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    # DEBUG stays off (settings' default), as in production: DEBUG's 404 lists every URL pattern and its 500 shows
    # code and settings to whoever asks. Static files come from WhiteNoise (settings.MIDDLEWARE) as under gunicorn.
    env.setdefault("ROCPORT_ALLOW_LOCAL_REPOS", "1")  # the demo repository is a local one
    env["ROCPORT_VAR_DIR"] = str(Path(env.get("ROCPORT_VAR_DIR") or BASE_DIR / "var").resolve())
    env["PYTHONUNBUFFERED"] = "1"
    # Links the worker writes into emails and pull requests (portal/links.py) name the port this run serves on.
    env.setdefault("SITE_URL", f"http://127.0.0.1:{_port(env)}")
    return env


def _port(env: dict[str, str]) -> int:
    raw = env.get("PORT", "8000")
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise SystemExit(f"make run: PORT must be a port number, not {raw!r}")
    return int(raw)


def _wait_for_port(port: int, stopping: list[int], wait: float = PORT_WAIT) -> bool:
    """True once the web server can listen on the port; False when a stop signal came first. A port still held
    (the server of a run stopped a moment ago, or of one whose terminal was closed, still exiting) is waited for,
    up to `wait` seconds, saying so; after that it is a LaunchError naming another port."""
    deadline = time.monotonic() + wait
    said = False
    while not _port_free(port):
        if stopping:
            return False
        if time.monotonic() > deadline:
            raise LaunchError(
                f"port {port} on 127.0.0.1 is taken (waited {wait:.0f} s): stop what uses it, "
                f"or run `PORT={port + 1} make run`"
            )
        if not said:
            _say(f"port {port} on 127.0.0.1 is in use; waiting up to {wait:.0f} s for it to be free ...")
            said = True
        time.sleep(0.3)
    return not stopping


def _port_free(port: int) -> bool:
    """The port can be listened on as the web server listens (SO_REUSEADDR, as runserver and gunicorn set it). A
    plain bind() also fails while the last run's closed connections sit in TIME_WAIT, for a minute after each
    stop, although the server would start: that was the "port is taken" of a quick restart."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            probe.listen()
        except OSError:
            return False
    return True


def _manage(env: dict[str, str], *args: str, quiet: bool = False) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE if quiet else None,
        stderr=subprocess.STDOUT if quiet else None,
        text=True,
        start_new_session=True,
    )
    if result.returncode != 0:
        if quiet and result.stdout:
            sys.stderr.write(result.stdout)
        raise LaunchError(f"`manage.py {' '.join(args)}` failed (exit code {result.returncode}); see above")


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _spawn(env: dict[str, str], args: list[str], log: Path | None = None) -> subprocess.Popen:
    output = open(log, "ab") if log else None  # noqa: SIM115 - the child keeps it open for its lifetime
    try:
        return subprocess.Popen(
            args,
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT if output else None,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    finally:
        if output:
            output.close()


def _wait_until_serving(port: int, children: list[subprocess.Popen], stopping: list[int]) -> None:
    deadline = time.monotonic() + 120
    while not stopping:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5):
                return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:
            pass
        for child in children:
            if child.poll() is not None:
                raise LaunchError(f"{_name(child)} exited with code {child.returncode} while starting; see above")
        if time.monotonic() > deadline:
            raise LaunchError(f"the web server did not answer on port {port} within two minutes")
        time.sleep(0.3)


def _stop(child: subprocess.Popen, grace: float = 20) -> None:
    """SIGTERM to the child's whole session (a Celery worker's pool processes too), SIGKILL after the grace time."""
    for signum, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5)):
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and _group_alive(child.pid):
            child.poll()
            time.sleep(0.1)
        if not _group_alive(child.pid):
            break
    child.poll()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    # The leader may be a zombie we have not reaped while its group is otherwise gone.
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def _name(child: subprocess.Popen) -> str:
    return "the Celery worker" if "celery" in child.args else "the web server"


def _say(line: str, err: bool = False) -> None:
    print(line, file=sys.stderr if err else sys.stdout, flush=True)
