"""No clone secret ever leaves its encrypted column: scans of repositories served over HTTPS with basic auth on
127.0.0.1 (git http-backend, tests/portal/servers.py, behind TLS with a certificate made here), one with a
password, one with a token, one with a wrong password, are run in-process and on a real Celery worker, with
everything captured:

- every Django/Python log record at DEBUG, SQL included (a secret must not even be a query parameter);
- the worker's log file, at DEBUG;
- git itself, through a wrapper first on PATH: its arguments (what `ps` shows), its stderr, its GIT_TRACE and
  GIT_TRACE_CURL output, and the .git/config it leaves (the stored remote URL);
- the Scan rows (error_message included, also for the failed clone), the pages and the API answers.
The secrets appear in none of them, and the scans really used them (two finish with findings, one is refused).
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from django.db import connection
from django.forms.models import model_to_dict

from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.tasks import scan_repository
from tests.portal import servers
from tests.portal import worker as real_worker
from tests.portal.people import client_for
from tests.portal.servers import GitHttpServer
from tests.portal.worker import ROOT, wait_final, wait_until

KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"
PASSWORD = "pw-" + secrets.token_hex(12)
TOKEN = "glpat-" + secrets.token_hex(12)
WRONG = "wrong-" + secrets.token_hex(12)
SECRETS = (PASSWORD, TOKEN, WRONG)

GIT_WRAPPER = """#!/bin/bash
# Records each git run for the test: arguments, stderr (unchanged for the caller), trace, the config it leaves.
echo "ARGS: $*" >> {log}
export GIT_TRACE={trace} GIT_TRACE_CURL={trace} GIT_TRACE_PACKET={trace}
export GIT_SSL_CAINFO={cert}  # the test server's certificate (the only thing the recorder adds to git's run)
{git} "$@" 2> >(tee -a {log} >&2)
status=$?
wait
if [ -f .git/config ]; then echo "CONFIG of $PWD:" >> {log}; cat .git/config >> {log}; fi
exit $status
"""


@pytest.fixture
def certificate(tmp_path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


class HttpsGitServer(GitHttpServer):
    """servers.GitHttpServer behind TLS: ROCport clones over https only."""

    def __init__(self, root: Path, username: str, password: str, certificate: tuple[Path, Path]):
        handler = type("Handler", (servers._Handler,), {"root": root, "credentials": (username, password)})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*certificate)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, name: str) -> str:
        return f"https://127.0.0.1:{self.port}/{name}"


@pytest.fixture
def git_recorder(tmp_path, certificate):
    """A `git` first on PATH that records what the real one is given and says; returns (PATH, files)."""
    bin_dir, log, trace = tmp_path / "bin", tmp_path / "git.log", tmp_path / "git.trace"
    bin_dir.mkdir()
    log.touch()
    trace.touch()
    wrapper = bin_dir / "git"
    wrapper.write_text(GIT_WRAPPER.format(log=log, trace=trace, git=shutil.which("git"), cert=certificate[0]))
    wrapper.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}", [log, trace]


@pytest.fixture
def served(tmp_path, repo_factory, certificate):
    """A private repository behind two HTTP servers: one wants a username and password, one a token."""
    repo = repo_factory("http/project.git")
    commit = repo.commit("add", **{"k.cu": KERNEL})
    by_password = HttpsGitServer(tmp_path / "http", "builder", PASSWORD, certificate)
    by_token = HttpsGitServer(tmp_path / "http", "git", TOKEN, certificate)  # no username: GitSession sends "git"
    yield commit, by_password, by_token
    by_password.stop()
    by_token.stop()


def register(people, served) -> list[Repository]:
    commit, by_password, by_token = served
    repositories = []
    for name, server, username, secret in (
        ("with-password", by_password, "builder", PASSWORD),
        ("with-token", by_token, "", TOKEN),
        ("wrong-password", by_password, "builder", WRONG),
    ):
        repository = Repository(team=people.team, name=name, clone_url=server.url("project.git"))
        repository.set_credentials(username, secret)
        repository.save()
        assert secret not in repository.credentials_encrypted
        repositories.append(repository)
    return repositories


class Everything(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))  # format() includes the traceback of an exception


@pytest.fixture
def all_logs():
    """Every log record of every logger at DEBUG, and SQL with its parameters."""
    handler = Everything()
    root = logging.getLogger()
    loggers = [root] + [
        logger for logger in logging.root.manager.loggerDict.values() if isinstance(logger, logging.Logger)
    ]
    saved = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        if logger is root or not logger.propagate:
            logger.addHandler(handler)
    connection.force_debug_cursor = True  # django.db.backends logs every query and its parameters
    yield handler.lines
    connection.force_debug_cursor = False
    for logger, level in saved:
        logger.setLevel(level)
        logger.removeHandler(handler)


def assert_no_secret(where: str, text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"a secret appears in {where}"


def check_scans_and_views(people, repositories, scans) -> None:
    good_password, good_token, wrong = scans
    assert (good_password.status, good_token.status) == ("finished", "finished"), (
        good_password.error_message,
        good_token.error_message,
    )
    assert Finding.objects.filter(repository=repositories[0]).exists()  # the credentials were used
    assert (wrong.status, wrong.error_code) == ("failed", "scan:user:auth-failed"), wrong.error_message
    for scan in scans:
        assert_no_secret(f"scan {scan.pk}", repr(model_to_dict(Scan.objects.get(pk=scan.pk))))
    client = client_for(people.alice)
    urls = ["/repositories/", "/api/v1/repositories/"]
    for repository, scan in zip(repositories, scans):
        urls += [
            f"/repositories/{repository.pk}/",
            f"/repositories/{repository.pk}/settings/",
            f"/scans/{scan.pk}/",
            f"/api/v1/repositories/{repository.pk}/",
            f"/api/v1/repositories/{repository.pk}/scans/",
            f"/api/v1/scans/{scan.pk}/",
        ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_no_secret(url, response.content.decode())


def check_git_records(files: list[Path], repositories) -> None:
    log, trace = (path.read_text(errors="replace") for path in files)
    assert "ARGS: " in log and "fetch" in log and "CONFIG of" in log  # the recorder saw the clones
    assert "Authorization: Basic <redacted>" in trace  # git's curl trace ran, and redacts on its own
    for repository in repositories:
        assert f"url = {repository.clone_url}" in log  # the stored remote is the plain URL, no userinfo
    assert_no_secret("git's arguments, stderr or config", log)
    assert_no_secret("git's trace", trace)


@pytest.mark.django_db
def test_an_in_process_scan_with_credentials_logs_no_secret(people, served, git_recorder, all_logs, monkeypatch):
    path, files = git_recorder
    monkeypatch.setenv("PATH", path)  # GitSession hands PATH to git: the recorder runs instead
    repositories = register(people, served)
    scans = []
    for repository in repositories:
        scan = do_create_scan(repository, commit_sha=served[0])  # the test's transaction: nothing is enqueued
        scan_repository.apply(args=(scan.pk,))  # the task, run here: its logging goes to all_logs
        scans.append(Scan.objects.get(pk=scan.pk))
    check_scans_and_views(people, repositories, scans)
    check_git_records(files, repositories)
    assert any(line.startswith("django.db.backends DEBUG") for line in all_logs)  # SQL was captured...
    assert_no_secret("the Django logs", "\n".join(all_logs))  # ...and no secret is in it, nor anywhere else


class DebugWorker:
    """A real Celery worker as tests/portal/worker.py starts one, but logging at DEBUG (own class: that module's
    worker logs at INFO)."""

    def __init__(self, log: Path, **env: str):
        real_worker.clear_queue(os.environ["CELERY_BROKER_URL"])  # this run's queue only
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "portal",
                "worker",
                "--loglevel=DEBUG",
                "--concurrency=1",
                "--pool=prefork",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                "secrets@%h",
            ],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": real_worker.test_database_url(), "LOG_LEVEL": "DEBUG", **env},
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_until(lambda: "ready." in log.read_text() or self.process.poll() is not None, 60, "the worker")
            assert self.process.poll() is None, log.read_text()[-3000:]
        except BaseException:
            self.stop()  # never leave a worker behind to take the next test's messages
            raise

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


@pytest.mark.django_db(transaction=True)
def test_a_scan_with_credentials_on_a_real_worker_logs_no_secret(people, served, git_recorder, tmp_path):
    path, files = git_recorder
    worker = DebugWorker(tmp_path / "worker.log", PATH=path)
    try:
        repositories = register(people, served)
        scans = [wait_final(do_create_scan(repository, commit_sha=served[0]).pk) for repository in repositories]
    finally:
        worker.stop()
    check_scans_and_views(people, repositories, scans)
    check_git_records(files, repositories)
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert "scan_repository" in log and "DEBUG" in log  # the worker ran the scans and logged at DEBUG
    assert_no_secret("the worker's log", log)
