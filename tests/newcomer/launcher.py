"""`make run` as a newcomer runs it: scripts/run.sh in a subprocess with no service configured (no DATABASE_URL,
no broker or cache URL), on a fresh var/ folder, and the processes it leaves behind, if any."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"ROCport is running at (http://127\.0\.0\.1:\d+/)")
# Slow enough for a loaded machine (the demo's three scans take about half a minute on a quiet one).
START_TIMEOUT = 900
STOP_TIMEOUT = 180


class MakeRun:
    def __init__(self, var_dir: Path, port: int):
        self.var_dir, self.port = var_dir, port
        self.lines: list[str] = []
        self.url = ""
        self.process: subprocess.Popen | None = None
        self.seen: set[int] = set()  # every process of the stack seen while it ran

    def environment(self) -> dict[str, str]:
        # What a newcomer's shell has, and nothing of the test suite's own services.
        keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER")
        env = {name: os.environ[name] for name in keep if name in os.environ}
        env.update(ROCPORT_VAR_DIR=str(self.var_dir), PORT=str(self.port), ROCPORT_PYTHON=sys.executable)
        return env

    def start(self) -> str:
        self.process = subprocess.Popen(
            ["bash", "scripts/run.sh"],
            cwd=ROOT,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        ready = threading.Event()

        def read() -> None:
            for line in self.process.stdout:
                self.lines.append(line.rstrip("\n"))
                match = READY.search(line)
                if match:
                    self.url = match.group(1)
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or not self.url:
            self.kill()
            raise AssertionError("make run did not print its URL:\n" + self.output())
        self.remember_processes()
        return self.url

    def remember_processes(self) -> None:
        launcher = psutil.Process(self.process.pid)
        self.seen |= {launcher.pid, *(child.pid for child in launcher.children(recursive=True))}
        self.seen |= set(self.database_pids())

    def database_pids(self) -> list[int]:
        """The private PostgreSQL's postmaster and its workers (pg_ctl detaches them from the launcher)."""
        data = str(self.var_dir / "postgres" / "data")
        return [p.pid for p in psutil.process_iter(["cmdline"]) if data in " ".join(p.info["cmdline"] or [])] + [
            p.pid
            for p in psutil.process_iter(["ppid", "name"])
            if p.info["name"] == "postgres" and p.info["ppid"] in self._postmasters()
        ]

    def _postmasters(self) -> set[int]:
        try:
            return {int((self.var_dir / "postgres" / "data" / "postmaster.pid").read_text().split()[0])}
        except (OSError, ValueError, IndexError):
            return set()

    def stop(self, signum: int = signal.SIGINT) -> int:
        """The signal a newcomer's Ctrl-C (or closed terminal) sends to the launcher; its exit code."""
        self.remember_processes()
        os.kill(self.process.pid, signum)
        try:
            return self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("make run did not stop:\n" + self.output()) from None

    def left_running(self) -> list[str]:
        alive = []
        for pid in sorted(self.seen):
            try:
                process = psutil.Process(pid)
                if process.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{pid} {' '.join(process.cmdline())[:120]}")
            except psutil.NoSuchProcess:
                pass
        return alive

    def kill(self) -> None:
        """Last resort for a failed test: nothing of this stack outlives it."""
        for pid in self.seen | ({self.process.pid} if self.process else set()) | set(self.database_pids()):
            try:
                psutil.Process(pid).kill()
            except psutil.NoSuchProcess:
                pass
        if self.process:
            self.process.wait(30)

    def output(self) -> str:
        return "\n".join(self.lines[-80:])


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(predicate, timeout: float, what: str, interval: float = 1.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


def tree_state() -> set[str]:
    """Files outside .venv/ and var/ that git does not track: what a run must not leave in the checkout."""
    out = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    paths = {line[3:] for line in out.splitlines()}
    return {
        path
        for path in paths
        if not path.startswith((".venv/", "var/", ".pytest_cache/"))
        and "__pycache__/" not in path
        and not path.endswith(".pyc")
        and ".egg-info/" not in path
    }
