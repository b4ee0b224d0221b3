"""The live stack of the browser tests: our own Redis, gunicorn serving the portal over HTTP against the test
database, and Debian's Chromium driven by Playwright (never a browser downloaded by Playwright)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.portal.servers import free_port
from tests.portal.webhook_stack import Redis, _wait_port
from tests.portal.worker import ROOT, test_database_url

CHROMIUM = os.environ.get("ROCPORT_CHROMIUM", "/usr/bin/chromium")
# Headless, no sandbox (tests run as root in containers), and nothing that talks to the network on its own.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


def artifacts_dir() -> Path:
    """Where screenshots go: $ROCPORT_ARTIFACTS, else var/test-artifacts/screenshots in the repository."""
    path = Path(os.environ.get("ROCPORT_ARTIFACTS") or ROOT / "var" / "test-artifacts" / "screenshots")
    if not path.is_absolute():
        path = ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


class LiveServer:
    """gunicorn on a free port; Celery messages go to our own Redis, where a test's Worker listens."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="rocport-browser-"))
        self.redis = Redis(self.tmp)
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": self.redis.url,
            "ROCPORT_ALLOW_LOCAL_REPOS": "1",
            "ROCPORT_ALLOW_PRIVATE_HOSTS": "1",
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # only the test process runs Playwright's event loop
        self.port = free_port()
        self.log = self.tmp / "web.log"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "tests.browser.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=open(self.log, "w"),
            stderr=subprocess.STDOUT,
        )
        _wait_port(self.port)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.redis.stop()
