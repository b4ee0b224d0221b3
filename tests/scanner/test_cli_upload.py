"""`scan --upload` without a portal: what it sends, what it refuses before scanning, and that the token goes
nowhere but the Authorization header of the address given (a real HTTP server on 127.0.0.1 stands in for the
portal; tests/portal/scans/test_uploads.py uploads to the real one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from scanner.upload import UploadError, endpoint, prepare, strip_credentials

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "rp_" + "s3cret" * 8
GIT_ENV = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}
CI_VARS = (
    "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME",
    "GITHUB_SHA",
    "CI_COMMIT_BRANCH",
    "CI_COMMIT_SHA",
    "CI_COMMIT_REF_NAME",
    "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
    "ROCPORT_TOKEN",
)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def checkout(tmp_path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "k.cu").write_text("__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n")
    (root / "link.cu").symlink_to("src/k.cu")
    git(root, "init", "--quiet", "--initial-branch=feature/x")
    git(root, "add", "-A")
    git(root, "commit", "--quiet", "-m", "k")
    git(root, "remote", "add", "origin", "https://gitlab-ci-token:job-secret@gitlab.example.com/gpu/project.git")
    return root


@pytest.fixture
def clean_env(monkeypatch):
    """The test runner's own CI variables must not leak into the defaults under test."""
    for name in CI_VARS:
        monkeypatch.delenv(name, raising=False)


class Portal:
    """A stand-in portal: answers every POST with `status` and `answer`, and records what it received."""

    def __init__(self, status: int = 201, answer: dict | None = None, headers: dict | None = None):
        received = self.received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                received.append((self.path, dict(self.headers), self.rfile.read(length)))
                payload = json.dumps(
                    answer or {"scan": 7, "url": "http://portal/scans/7/", "tracking": {"new": 1}}
                ).encode()
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def scan(*args: str, env: dict | None = None):
    environment = {k: v for k, v in os.environ.items() if k not in CI_VARS}
    return subprocess.run(
        [sys.executable, "-m", "scanner", "scan", *args, "--fail-on", "never"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**environment, **(env or {})},
    )


def test_the_upload_sends_the_report_with_its_commit_branch_file_list_and_token(checkout):
    portal = Portal()
    try:
        proc = scan(
            str(checkout), "--format", "json", "--upload", portal.url, "--repository", "3", env={"ROCPORT_TOKEN": TOKEN}
        )
    finally:
        portal.stop()
    assert proc.returncode == 0, proc.stderr
    assert "uploaded as scan 7: http://portal/scans/7/ (1 new" in proc.stderr
    assert proc.stdout == ""  # the report went to the portal, not into the CI log
    assert TOKEN not in proc.stdout + proc.stderr
    [(path, headers, body)] = portal.received
    commit = git(checkout, "rev-parse", "HEAD")
    assert path == f"/api/v1/uploads/?commit={commit}&branch=feature%2Fx&repository=3"
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    report = json.loads(body)
    assert report["schema"] == "rocport-scan/1" and report["tree"] == ["src/k.cu"]  # the symlink is no blob
    assert "ROC101" in report["rules"]
    [k] = [f for f in report["files"] if f["path"] == "src/k.cu"]
    assert set(k["translation"]) == {"backend", "backend_version", "stats", "fallback_reason", "error"}
    assert k["translation"]["backend"] == "builtin" and k["findings"][0]["rule"] == "ROC101"


def test_without_a_repository_id_the_remote_is_sent_without_its_credentials(checkout, tmp_path):
    portal = Portal()
    try:
        proc = scan(
            str(checkout),
            "--format",
            "json",
            "--upload",
            portal.url + "/",
            "--token",
            TOKEN,
            "--output",
            str(tmp_path / "copy.json"),
        )
    finally:
        portal.stop()
    assert proc.returncode == 0, proc.stderr
    [(path, _, body)] = portal.received
    assert "remote=https%3A%2F%2Fgitlab.example.com%2Fgpu%2Fproject.git" in path and "job-secret" not in path
    assert json.loads((tmp_path / "copy.json").read_text()) == json.loads(body)  # --output keeps a copy


def test_the_token_is_never_sent_to_a_redirect(checkout):
    elsewhere = Portal()
    portal = Portal(status=307, headers={"Location": elsewhere.url + "/api/v1/uploads/"})
    try:
        proc = scan(
            str(checkout), "--format", "json", "--upload", portal.url, "--repository", "3", env={"ROCPORT_TOKEN": TOKEN}
        )
    finally:
        portal.stop()
        elsewhere.stop()
    assert proc.returncode == 3
    assert "redirected to" in proc.stderr and elsewhere.received == []
    assert TOKEN not in proc.stdout + proc.stderr


@pytest.mark.parametrize("key", ["detail", "error"])  # the API's error shape, and an older portal's
def test_the_portals_refusal_is_shown_and_the_exit_code_is_3(checkout, key):
    portal = Portal(status=403, answer={key: "This token is read-only."})
    try:
        proc = scan(
            str(checkout), "--format", "json", "--upload", portal.url, "--repository", "3", env={"ROCPORT_TOKEN": TOKEN}
        )
    finally:
        portal.stop()
    assert proc.returncode == 3
    assert "the portal answered 403: This token is read-only." in proc.stderr
    assert TOKEN not in proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--format", "text"], "add --format json"),
        (["--format", "json"], "no token"),
        (["--format", "json", "--token", TOKEN, "--commit", "abc"], "not a 40-character"),
        (["--format", "json", "--token", TOKEN, "--upload", "ftp://portal"], "http(s) address"),
        (["--format", "json", "--token", TOKEN, "--upload", "https://user:pw@portal"], "no credentials"),
    ],
)
def test_an_upload_that_cannot_start_stops_before_the_scan(checkout, args, message):
    upload = [] if "--upload" in args else ["--upload", "http://127.0.0.1:9"]
    proc = scan(str(checkout), *upload, *args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert TOKEN not in proc.stderr


def test_a_subdirectory_of_a_checkout_is_refused(checkout):
    proc = scan(str(checkout / "src"), "--format", "json", "--upload", "http://127.0.0.1:9", "--token", TOKEN)
    assert proc.returncode == 2 and "scan the checkout's root" in proc.stderr


def test_a_detached_head_takes_the_branch_from_the_ci_or_asks_for_it(checkout, clean_env, monkeypatch):
    git(checkout, "checkout", "--quiet", "--detach")
    with pytest.raises(UploadError, match="pass --branch"):
        prepare("https://portal", TOKEN, checkout, repository=1)
    monkeypatch.setenv("CI_COMMIT_REF_NAME", "release/1.0")
    target = prepare("https://portal", TOKEN, checkout, repository=1)
    assert (target.branch, target.commit) == ("release/1.0", git(checkout, "rev-parse", "HEAD"))
    assert TOKEN not in repr(target)


def test_outside_a_git_checkout_the_commit_comes_from_the_options_or_the_ci(tmp_path, clean_env, monkeypatch):
    with pytest.raises(UploadError, match="no commit"):
        prepare("https://portal", TOKEN, tmp_path, repository=1)
    monkeypatch.setenv("GITHUB_SHA", "A" * 40)
    monkeypatch.setenv("GITHUB_REF_NAME", "main")
    target = prepare("https://portal", TOKEN, tmp_path, repository=1)
    assert (target.commit, target.branch, target.tree) == ("a" * 40, "main", None)
    with pytest.raises(UploadError, match="no repository"):
        prepare("https://portal", TOKEN, tmp_path)


def test_addresses_and_remotes():
    assert endpoint("https://rocport.example.com") == "https://rocport.example.com/api/v1/uploads/"
    assert endpoint("https://example.com/rocport/") == "https://example.com/rocport/api/v1/uploads/"
    assert endpoint("http://127.0.0.1:8000/api/v1/uploads/") == "http://127.0.0.1:8000/api/v1/uploads/"
    assert strip_credentials("https://oauth2:glpat-xyz@gitlab.com/a/b.git") == "https://gitlab.com/a/b.git"
    assert strip_credentials("https://u:p@host:8443/a/b") == "https://host:8443/a/b"
    assert strip_credentials("git@github.com:a/b.git") == "github.com:a/b.git"
    assert strip_credentials("/srv/git/b.git") == "/srv/git/b.git"
