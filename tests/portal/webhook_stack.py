"""A live stack for webhook tests: our own Redis on a free port, gunicorn serving the portal over real HTTP,
and a real Celery worker, all pointed at the test database."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from tests.portal.servers import free_port
from tests.portal.worker import ROOT, Worker, test_database_url

# Real published payloads, copied byte for byte (tests/fixtures/webhooks/README.md names each source).
FIXTURES = ROOT / "tests" / "fixtures" / "webhooks"


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


class Redis:
    def __init__(self, tmp: Path):
        self.port = free_port()
        self.tmp = tmp
        self.process = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class Stack:
    def __init__(self, tmp: Path, **env: str):
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": self.redis.url,
            "ROCPORT_ALLOW_LOCAL_REPOS": "1",
            "ROCPORT_ALLOW_PRIVATE_HOSTS": "1",
            "ROCPORT_WEBHOOK_MAX_BYTES": "200000",
            "ROCPORT_WEBHOOK_PENDING_SECONDS": "1",
            **env,
        }
        self.port = free_port()
        self.web = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "portal.wsgi:application",
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
            stdout=open(tmp / "web.log", "w"),
            stderr=subprocess.STDOUT,
        )
        _wait_port(self.port)
        self.worker = Worker(tmp / "worker.log", CELERY_BROKER_URL=self.redis.url, **{k: v for k, v in env.items()})

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def post(self, path: str, body: bytes, headers: dict) -> tuple[int, dict, float]:
        request = urllib.request.Request(
            self.url(path), data=body, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        elapsed = time.perf_counter() - start
        try:
            data = json.loads(payload or b"{}")
        except ValueError:
            data = {"raw": payload[:200].decode("utf-8", "replace")}
        return status, data, elapsed

    def maintenance(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", "webhook_maintenance", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout

    def stop(self) -> None:
        self.worker.stop()
        self.web.kill()
        self.web.wait()
        self.redis.stop()


def signed(provider: str, secret: str, body: bytes, event: str = "push", delivery: str | None = None) -> dict:
    """The headers `provider` sends with a delivery of `body`, signed the way it signs."""
    delivery = delivery or str(uuid.uuid4())
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if provider == "github":
        return {
            "X-GitHub-Event": event,
            "X-GitHub-Delivery": delivery,
            "X-Hub-Signature-256": f"sha256={digest}",
            "User-Agent": "GitHub-Hookshot/test",
        }
    if provider == "gitlab":
        names = {"push": "Push Hook", "tag": "Tag Push Hook"}
        return {
            "X-Gitlab-Event": names.get(event, event),
            "X-Gitlab-Token": secret,
            "Idempotency-Key": delivery,
            "X-Gitlab-Event-UUID": str(uuid.uuid4()),
        }
    headers = {
        "X-Gitea-Event": event,
        "X-Gitea-Delivery": delivery,
        "X-Gitea-Signature": digest,
        # Gitea and Forgejo also send GitHub's headers; the endpoint's provider must decide.
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery,
        "X-Hub-Signature-256": f"sha256={digest}",
    }
    if provider == "forgejo":
        headers.update({"X-Forgejo-Event": event, "X-Forgejo-Delivery": delivery, "X-Forgejo-Signature": digest})
    return headers


def fixture(path: str) -> dict:
    return json.loads((FIXTURES / path).read_text())


PUSH_FIXTURE = {
    "github": "github/push.json",
    "gitlab": "gitlab/push.json",
    "gitea": "gitea/push.json",
    "forgejo": "forgejo/push.json",
}


def push_body(provider: str, branch: str, before: str, after: str) -> bytes:
    """A provider's own push example, pointed at our branch and commit."""
    payload = fixture(PUSH_FIXTURE[provider])
    payload["ref"] = f"refs/heads/{branch}"
    payload["before"], payload["after"] = before, after
    if provider == "gitlab":
        payload["checkout_sha"] = after
    # GitHub and GitLab send compact JSON, Gitea/Forgejo indented: sign the bytes actually sent.
    return json.dumps(payload, indent=2 if provider in ("gitea", "forgejo") else None).encode()
