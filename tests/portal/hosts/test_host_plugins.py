"""Adding a git host is one module plus its fixtures: TinyForge (tests/portal/hosts/fifth_host/), registered only here
through portal.hosts.registry's public call, works through the portal's real callers with no edit anywhere else:
its choice on the settings page and in the model fields, its webhook endpoint (a signed push starts a scan, an
unsigned or mis-signed one is refused), its commit-status endpoint (a real scan posts pending and the verdict to a
stand-in on 127.0.0.1), its change requests and their numbering; unregistered, it is gone again."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from portal.celery import app as celery_app
from portal.hosts import pulls, registry
from portal.hosts import statuses as host_statuses
from portal.hosts.base import GitHost
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from portal.statuses.actions import do_save_commit_status_settings
from portal.statuses.models import CommitStatusConfig
from portal.webhooks.models import WebhookDelivery, WebhookRejection
from tests.portal.hosts.fifth_host.host import TinyForge
from tests.portal.people import client_for

FIXTURES = Path(__file__).parent / "fifth_host" / "fixtures"
TOKEN = "tf_s3cret-key-0123456789"
KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"  # ROC101, high


@pytest.fixture
def tinyforge():
    with registry.registered(TinyForge()) as host:
        yield host
    assert registry.find("tinyforge") is None


class StandIn:
    """TinyForge's API on 127.0.0.1: records every request, answers a status 201 and a change request 201 with
    its id and web URL."""

    def __init__(self):
        self.received: list[tuple[str, str, dict, dict | None]] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                stand_in.received.append(("POST", self.path, dict(self.headers), body))
                if self.headers.get("X-Tinyforge-Key") != TOKEN:
                    return self._answer(401, {"message": "no key"})
                if self.path.endswith("/changes"):
                    return self._answer(201, {"id": 12, "web": "https://tinyforge.example/acme/kernels/changes/12"})
                return self._answer(201, body)

            def do_GET(self):
                stand_in.received.append(("GET", self.path, dict(self.headers), None))
                self._answer(200, {"id": 12, "status": "landed"})

            def _answer(self, status: int, body: object) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
        self.api_url = f"http://127.0.0.1:{self.server.server_address[1]}/api/tiny"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stand_in():
    server = StandIn()
    yield server
    server.stop()


@pytest.fixture
def eager():
    """The status task runs in the test's process."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def signed_push(host: GitHost, secret: str, commit: str, delivery: str = "d-1") -> tuple[bytes, dict]:
    payload = json.loads((FIXTURES / "push.json").read_bytes())
    payload["after"] = payload["commits"][0]["id"] = commit
    body = json.dumps(payload).encode()
    headers = {
        "X-Tinyforge-Event": "push",
        "X-Tinyforge-Delivery": delivery,
        "X-Tinyforge-Signature": host.expected_signature(secret, body),
    }
    return body, headers


def deliver(repository: Repository, body: bytes, headers: dict):
    return Client().post(
        reverse("webhooks:receive", args=[repository.pk, "tinyforge"]),
        data=body,
        content_type="application/json",
        headers=headers,
    )


@pytest.mark.django_db
def test_the_settings_page_offers_the_host_its_endpoint_and_its_setup_steps(people, tinyforge):
    repository = Repository.objects.create(
        team=people.team, name="kernels", clone_url="https://tinyforge.example/acme/kernels.git"
    )
    alice = client_for(people.alice)
    url = reverse("repositories:settings", args=[repository.pk])
    page = alice.get(url).content.decode()
    assert '<option value="tinyforge" selected>TinyForge</option>' in page  # guessed from the clone URL
    assert reverse("webhooks:receive", args=[repository.pk, "tinyforge"]) in page
    assert "Project → Hooks → New hook" in page
    assert ("tinyforge", "TinyForge") in CommitStatusConfig._meta.get_field("provider").choices

    form = {"action": "commit_status", "enabled": "on", "provider": "tinyforge", "api_url": "", "project": ""}
    assert alice.post(url, {**form, "threshold": "high", "token": TOKEN}).status_code == 302
    config = CommitStatusConfig.objects.get(repository=repository)
    # The defaults come from the host module: its API path, owner/repo from the clone URL.
    assert (config.provider, config.api_url, config.project) == (
        "tinyforge",
        "https://tinyforge.example/api/tiny",
        "acme/kernels",
    )
    refused = alice.post(url, {**form, "project": "acme", "threshold": "high", "token": TOKEN})
    assert refused.status_code == 200 and "Enter owner/repository" in refused.content.decode()


@pytest.mark.django_db
def test_a_signed_push_to_its_endpoint_starts_a_scan_and_a_bad_signature_is_refused(people, tinyforge):
    repository = Repository.objects.create(
        team=people.team, name="kernels", clone_url="https://tinyforge.example/acme/kernels.git"
    )
    commit = "a" * 40
    body, headers = signed_push(tinyforge, repository.webhook_secret, commit)

    unsigned = deliver(repository, body, {k: v for k, v in headers.items() if k != "X-Tinyforge-Signature"})
    assert unsigned.status_code == 401
    forged = deliver(repository, body, {**headers, "X-Tinyforge-Signature": tinyforge.expected_signature("x", body)})
    assert forged.status_code == 403
    assert WebhookRejection.objects.filter(repository=repository, provider="tinyforge").count() == 2

    accepted = deliver(repository, body, headers)
    assert accepted.status_code == 202, accepted.content
    delivery = WebhookDelivery.objects.get(repository=repository, provider="tinyforge")
    assert (delivery.delivery_id, delivery.event, delivery.after, delivery.state) == ("d-1", "push", commit, "pending")
    scan = Scan.objects.get(repository=repository)
    assert (scan.branch, scan.commit_sha, scan.trigger, delivery.scan_id) == ("main", commit, "push", scan.pk)
    assert deliver(repository, body, headers).status_code == 200  # the same delivery again: a no-op
    assert Scan.objects.filter(repository=repository).count() == 1


@pytest.mark.django_db
def test_a_scan_posts_its_statuses_to_the_hosts_endpoint(
    people, tinyforge, stand_in, repo_factory, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    commit = repo.commit("kernel", **{"src__k.cu": KERNEL})
    row = Repository.objects.create(team=people.team, name="kernels", clone_url=repo.url)
    do_save_commit_status_settings(
        row,
        enabled=True,
        provider="tinyforge",
        api_url=stand_in.api_url,
        project="acme/kernels",
        threshold="high",
        token=TOKEN,
        acting_user=people.alice,
    )
    body, headers = signed_push(tinyforge, row.webhook_secret, commit)
    assert deliver(row, body, headers).status_code == 202
    scan = Scan.objects.get(repository=row)
    with django_capture_on_commit_callbacks(execute=True):  # the pipeline announces start and end on commit
        pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished"

    path = f"/api/tiny/projects/acme/kernels/commits/{commit}/checks"
    assert [(method, seen) for method, seen, _, _ in stand_in.received] == [("POST", path), ("POST", path)]
    assert [body["state"] for _, _, _, body in stand_in.received] == ["running", "failed"]
    assert all(body["check"] == "rocport" for _, _, _, body in stand_in.received)
    assert all(headers["X-Tinyforge-Key"] == TOKEN for _, _, headers, _ in stand_in.received)


@pytest.mark.django_db
def test_its_change_requests_open_read_and_number_as_the_host_does(people, tinyforge, stand_in):
    host = pulls.Host("tinyforge", stand_in.api_url, "acme/kernels", TOKEN)
    opened = pulls.open_request(host, branch="rocport/port-1", target="main", title="Port", body="text")
    assert (opened.number, opened.url) == (12, "https://tinyforge.example/acme/kernels/changes/12")
    assert stand_in.received[0][3] == {"from": "rocport/port-1", "into": "main", "title": "Port", "text": "text"}
    assert pulls.state_of(host, 12) == "merged"
    assert stand_in.received[-1][:2] == ("GET", "/api/tiny/projects/acme/kernels/changes/12")

    repository = Repository.objects.create(team=people.team, name="k", clone_url="https://tinyforge.example/a/k.git")
    CommitStatusConfig.objects.create(repository=repository, provider="tinyforge", api_url=stand_in.api_url)
    request = MergeRequest.objects.create(repository=repository, base_commit="b" * 40, target_branch="main", number=12)
    assert request.label == "~12"
    assert host_statuses.guess_provider("git@tinyforge.example:acme/kernels.git") == "tinyforge"


@pytest.mark.django_db
def test_unregistered_the_host_is_gone_and_the_four_stay(people):
    repository = Repository.objects.create(team=people.team, name="k", clone_url="https://tinyforge.example/a/k.git")
    with registry.registered(TinyForge()):
        assert [host.id for host in registry.hosts()][-1] == "tinyforge"
        with pytest.raises(ValueError):
            registry.register(TinyForge())  # one host per id
    assert [host_id for host_id, _ in registry.choices()] == ["github", "gitlab", "gitea", "forgejo"]
    body = json.dumps({"ref": "refs/heads/main"}).encode()
    assert deliver(repository, body, {"X-Tinyforge-Signature": "x"}).status_code == 404
    assert host_statuses.guess_provider("https://tinyforge.example/a/k.git") == registry.DEFAULT
