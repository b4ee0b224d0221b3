"""A real Celery worker process for tests: same code, the test database, Redis as broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
from django.db import connection

from tests.faults.points import FaultPlan

ROOT = Path(__file__).resolve().parents[2]


def clear_queue(broker: str) -> None:
    """Drop the messages waiting in this test run's queue (ROCPORT_CELERY_QUEUE, set by tests/portal/conftest.py),
    and only those: another run or a developer's portal on the same Redis database keeps its own."""
    queue = os.environ.get("ROCPORT_CELERY_QUEUE", "celery")
    client = redis.Redis.from_url(broker)
    keys = client.keys(queue) + client.keys(f"{queue}\x06\x16*")  # kombu's list, and its priority lists
    if keys:
        client.delete(*keys)


class Worker:
    def __init__(
        self,
        log: Path,
        name: str = "test",
        flush: bool = True,
        faults: FaultPlan | None = None,
        beat_schedule: Path | None = None,
        **env: str,
    ):
        """`name`: the worker's node name (-n NAME@host; two workers need two); `flush`: empty the broker's
        Redis db first (the first worker of a test; a second one must not drop messages already sent); `faults`:
        a plan of faults at named points (tests/faults/points.py) that the worker, its pool processes and their
        scanner processes carry out; `beat_schedule`: also run beat in the worker (--beat), keeping its state in
        this file, which a restart reuses as a restarted beat would."""
        # Read when a worker starts, not at import: the fault suite sets the broker after importing this module.
        broker = env.get("CELERY_BROKER_URL") or os.environ["CELERY_BROKER_URL"]
        if flush:
            clear_queue(broker)  # no message of an earlier test is redelivered here
        self.name = name
        self.env = {**os.environ, "DATABASE_URL": test_database_url(), **(faults.env() if faults else {}), **env}
        self.log = log
        self.beat = ["--beat", "--schedule", str(beat_schedule)] if beat_schedule else []
        self.process = None
        self._start()

    def _start(self) -> None:
        self._ready_from = self.log.stat().st_size if self.log.exists() else 0
        # A new session: stop() kills the whole process group (the main process and its pool children).
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "portal",
                "worker",
                "--loglevel=INFO",
                "--concurrency=1",
                "--pool=prefork",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{self.name}@%h",
                *self.beat,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=open(self.log, "a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_for("ready.")

    def restart(self) -> None:
        """A new worker process on the same broker, as a supervisor would start after a crash. The broker is not
        flushed: the messages queued (and those the dead worker held unacknowledged) stay where they are."""
        self.stop()
        self._start()

    def _wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log.read_bytes()[self._ready_from :].decode(errors="replace"):
                return
            if self.process.poll() is not None:
                raise RuntimeError("worker exited:\n" + self.log.read_text()[-3000:])
            time.sleep(0.1)
        raise TimeoutError(f"worker never logged {text!r}:\n" + self.log.read_text()[-3000:])

    def died(self) -> bool:
        """The worker's main process is gone (a fault killed its process group)."""
        return self.process.poll() is not None

    def pool_children(self) -> list[int]:
        """Pids of the prefork pool processes (children of the worker's main process)."""
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()]

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


def test_database_url() -> str:
    settings = connection.settings_dict
    return f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


def wait_final(scan_id: int, timeout: float = 120):
    from portal.scans.models import Scan

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        scan = Scan.objects.get(pk=scan_id)
        if scan.is_final:
            return scan
        time.sleep(0.2)
    raise TimeoutError(f"scan {scan_id} is still {Scan.objects.get(pk=scan_id).status}")


def wait_until(predicate, timeout: float = 60, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise TimeoutError(f"timed out waiting for {what}")
