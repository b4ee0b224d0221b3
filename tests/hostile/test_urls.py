"""Clone URLs that point inside the network (SSRF) and option injection through URLs, branch names and commits,
from the form, the API, webhooks and the rows themselves. The test environment allows private hosts (the git
servers are on 127.0.0.1): the SSRF tests turn that off, the injection tests keep it on (an injection must be
refused even there)."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.urls import reverse

from portal.repositories.git import CloneError, GitSession
from portal.repositories.models import Repository
from portal.repositories.urlcheck import validate_clone_url
from portal.scans.models import Scan
from tests.hostile.harness import FILE, fast_import, register, run_scan
from tests.portal.api_clients import ApiClient
from tests.portal.people import client_for
from tests.portal.webhook_stack import push_body, signed

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"
ZERO = "0" * 40

INTERNAL = [
    "https://127.0.0.1/r.git",
    "https://localhost/r.git",
    "https://LOCALHOST/r.git",
    "https://localhost./r.git",
    "https://127.1/r.git",
    "https://2130706433/r.git",  # 127.0.0.1 in decimal
    "https://0x7f000001/r.git",  # in hex
    "https://0177.0.0.1/r.git",  # in octal
    "https://169.254.169.254/latest/meta-data/",
    "https://[::1]/r.git",
    "https://[::ffff:127.0.0.1]/r.git",
    "https://[fe80::1]/r.git",
    "https://10.1.2.3/r.git",
    "https://172.16.0.1/r.git",
    "https://192.168.1.1/r.git",
    "https://100.64.0.1/r.git",
    "https://0.0.0.0/r.git",
    "https://[::]/r.git",
    "git://127.0.0.1/r.git",
    "ssh://git@10.0.0.5/r.git",
    "git@192.168.0.2:team/r.git",
]
UNRESOLVABLE_HERE = {"https://localhost./r.git"}  # the absolute name needs DNS, which this machine may lack


@pytest.mark.parametrize("url", INTERNAL)
def test_internal_addresses_in_every_spelling_are_refused(url):
    with override_settings(ROCPORT_ALLOW_PRIVATE_HOSTS=False), pytest.raises(ValidationError) as error:
        validate_clone_url(url)
    message = " ".join(error.value.messages)
    # A name this machine cannot resolve ("localhost." without DNS) is refused too, for that reason.
    assert "private or local address" in message or (url in UNRESOLVABLE_HERE and "cannot be resolved" in message)


class _Listener:
    """A TCP port on 127.0.0.1 that counts connections (and answers nothing)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self):
        self.sock.close()


@pytest.mark.django_db
def test_a_registered_internal_url_is_refused_at_scan_time_without_a_connection(people):
    listener = _Listener()
    try:
        repository = register(people, f"git://127.0.0.1:{listener.port}/r.git")  # registered while allowed
        with override_settings(ROCPORT_ALLOW_PRIVATE_HOSTS=False):
            result = run_scan(repository)
        assert (result.status, result.error_code) == ("failed", "scan:user:clone-failed")
        assert "private or local address" in result.error_message
        assert listener.accepted == 0
    finally:
        listener.close()


class _Redirect(BaseHTTPRequestHandler):
    location = ""
    seen: list[str] = []

    def do_GET(self):
        self.seen.append(self.path)
        self.send_response(301)
        self.send_header("Location", self.location + self.path)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["http://169.254.169.254", "http://127.0.0.1:{port}"])
def test_an_http_redirect_is_never_followed(people, target):
    """git is told never to follow a redirect, which is what this proves with an http server (an https one would
    need a certificate git trusts). Plain http is allowed here only because these tests allow private hosts
    (ROCPORT_ALLOW_PRIVATE_HOSTS=1, one rule for the URL check and git: tests/portal/repositories/test_http_clone_urls.py); the
    scan then reaches the server, gets the redirect, and fails without following it."""
    listener = _Listener()
    handler = type("Redirect", (_Redirect,), {"location": target.format(port=listener.port), "seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/r.git"
    try:
        result = run_scan(register(people, url))
        assert (result.status, result.error_code) == ("failed", "scan:user:clone-failed")
        assert handler.seen and listener.accepted == 0
        with GitSession(url) as git, pytest.raises(CloneError) as error:
            git.resolve("main")
        assert error.value.code == "clone_failed"
        assert handler.seen  # git asked the first server...
        assert listener.accepted == 0  # ...and never went where it pointed
    finally:
        server.shutdown()
        server.server_close()
        listener.close()


INJECTED_URLS = [
    "--upload-pack=touch {marker}",
    "-c core.sshCommand=touch {marker}",
    "-ccore.sshCommand=touch",
    "ssh://-oProxyCommand=touch{marker}/r.git",
    "ssh://-oProxyCommand=x@example.com/r.git",
    "ext::sh -c touch% {marker}",
    "ext::sh",
    "fd::17",
    "git@-oProxyCommand=x:r.git",
]


@pytest.mark.parametrize("url", INJECTED_URLS)
def test_option_and_helper_urls_are_refused_even_where_private_hosts_are_allowed(url, canary):
    with pytest.raises(ValidationError):
        validate_clone_url(url.format(marker=canary.marker))
    assert not canary.marker.exists()


@pytest.mark.django_db
def test_the_form_and_the_api_refuse_injected_urls_and_branch_names(people, repo_factory, canary):
    repo = repo_factory()
    fast_import(repo, [("k.cu", FILE, KERNEL)])
    bad = [
        {"clone_url": f"--upload-pack=touch {canary.marker}", "default_branch": "main"},
        {"clone_url": "ssh://-oProxyCommand=x/r.git", "default_branch": "main"},
        {"clone_url": repo.url, "default_branch": f"--upload-pack=touch {canary.marker}"},
        {"clone_url": repo.url, "default_branch": "-c"},
        {"clone_url": repo.url, "default_branch": "a..b"},
        {"clone_url": repo.url, "default_branch": "x\ny"},
    ]
    client = client_for(people.alice)
    api = ApiClient(people.alice)
    for fields in bad:
        page = client.post(reverse("repositories:add", args=[people.team.pk]), {"name": "evil", **fields})
        assert page.status_code == 200 and b"errorlist" in page.content, fields
        answer = api.post("/repositories/", {"team": people.team.pk, "name": "evil", **fields})
        assert answer.status_code in (400, 422), (fields, answer.content)
    assert not Repository.objects.exists()
    row = register(people, repo.url)
    settings_page = client.post(
        reverse("repositories:settings", args=[row.pk]),
        {
            "action": "repository",
            "clone_url": repo.url,
            "default_branch": "main",
            "tracked": f"dev, --upload-pack=touch {canary.marker}",
        },
    )
    assert settings_page.status_code == 200
    row.refresh_from_db()
    assert row.tracked_branches == []
    assert api.patch(f"/repositories/{row.pk}/", {"tracked_branches": ["-c"]}).status_code in (400, 422)
    assert not canary.marker.exists()


@pytest.mark.django_db
def test_an_injected_branch_or_commit_already_in_a_row_never_reaches_git_as_an_option(people, repo_factory, canary):
    repo = repo_factory()
    fast_import(repo, [("k.cu", FILE, KERNEL)])
    # A row written before branch names were checked (or by hand): resolve puts it after "--".
    legacy = register(people, repo.url, default_branch=f"--upload-pack=touch {canary.marker}")
    result = run_scan(legacy)
    assert (result.status, result.error_code) == ("failed", "scan:user:ref-not-found")
    # A commit is placed after "origin" in git fetch, where git would still parse an option.
    with GitSession(repo.url) as git, pytest.raises(CloneError) as error:
        git.fetch(f"--upload-pack=touch {canary.marker}", ref="main")
    assert error.value.code == "commit_not_found"
    assert not canary.marker.exists()


@pytest.mark.django_db
def test_webhooks_with_injected_refs_and_commits_start_nothing(people, repo_factory, canary):
    repo = repo_factory()
    commit = fast_import(repo, [("k.cu", FILE, KERNEL)])
    row = register(people, repo.url)
    client = client_for(people.alice)
    cases = [
        ("main", f"--upload-pack=touch {canary.marker}", 400),  # the commit is not a sha
        (f"--upload-pack=touch {canary.marker}", commit, 202),  # an untracked branch: nothing to scan
        ("-c", commit, 202),
    ]
    for branch, after, expected in cases:
        body = push_body("github", branch, ZERO, after)
        headers = {
            f"HTTP_{k.upper().replace('-', '_')}": v for k, v in signed("github", row.webhook_secret, body).items()
        }
        answer = client.post(f"/hooks/{row.pk}/github/", body, content_type="application/json", **headers)
        assert answer.status_code == expected, (branch, answer.content)
    assert not Scan.objects.exists()
    assert not canary.marker.exists()
