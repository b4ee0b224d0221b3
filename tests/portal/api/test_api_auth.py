"""API authentication and errors: bearer tokens (unknown, revoked, read-only, inactive user), the session with CSRF,
JSON errors with a `detail` for every failure, and the schema and docs page (no CDN)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from portal.accounts import tokens
from portal.accounts.models import ApiToken
from portal.findings.models import Finding, FindingEvent
from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.api_clients import ApiClient
from tests.portal.findings_data import make_findings
from tests.portal.people import PASSWORD


@pytest.fixture
def data(people):
    repository, scan = make_findings(people.team, 5)
    return repository, Finding.objects.filter(repository=repository).first()


def _writes(repository, finding, team_id) -> list[tuple[str, str, dict]]:
    """One of every write the API has."""
    return [
        ("post", f"/findings/{finding.pk}/triage/", {"decision": "confirmed"}),
        ("post", "/findings/triage/", {"ids": [finding.pk], "decision": "confirmed"}),
        ("post", f"/findings/{finding.pk}/comments/", {"text": "hello"}),
        ("post", f"/repositories/{repository.pk}/scans/", {}),
        ("post", "/repositories/", {"team": team_id, "name": "x", "clone_url": "https://example.com/x.git"}),
        ("patch", f"/repositories/{repository.pk}/", {"default_branch": "trunk"}),
    ]


def _nothing_written(repository, finding) -> None:
    finding.refresh_from_db()
    repository.refresh_from_db()
    assert finding.triage == "untriaged" and not FindingEvent.objects.exists()
    assert Scan.objects.filter(repository=repository).count() == 1 and Repository.objects.count() == 1
    assert repository.default_branch == "main"


@pytest.mark.django_db
def test_without_credentials_every_operation_is_a_401_in_json(data):
    response = Client().get("/api/v1/findings/")
    assert response.status_code == 401 and response["Content-Type"] == "application/json; charset=utf-8"
    assert "Bearer" in response.json()["detail"] and response["WWW-Authenticate"].startswith("Bearer")
    assert Client().post("/api/v1/findings/triage/", {}, content_type="application/json").status_code == 401


@pytest.mark.django_db
def test_unknown_revoked_and_inactive_users_tokens_are_401_even_beside_a_session(people, data):
    token, plain = tokens.issue(people.alice, "ci")
    client = ApiClient(people.alice, plain=plain)
    assert client.get("/repositories/").status_code == 200
    tokens.revoke(token)
    revoked = client.get("/repositories/")
    assert revoked.status_code == 401 and "revoked" in revoked.json()["detail"]
    signed_in = Client(headers={"Authorization": f"Bearer {plain}"})
    signed_in.login(username="alice", password=PASSWORD)
    assert signed_in.get("/api/v1/repositories/").status_code == 401  # the token decides, not the cookie
    assert Client(headers={"Authorization": "Bearer rp_nope"}).get("/api/v1/repositories/").status_code == 401
    _, vera_plain = tokens.issue(people.vera, "ci")
    people.vera.is_active = False
    people.vera.save()
    assert ApiClient(people.vera, plain=vera_plain).get("/repositories/").status_code == 401


@pytest.mark.django_db
def test_a_read_only_token_reads_and_can_never_write(people, data):
    repository, finding = data
    client = ApiClient(people.alice, read_only=True)  # alice manages the team: only the token stops her
    assert client.get(f"/findings/{finding.pk}/").status_code == 200
    for method, url, body in _writes(repository, finding, people.team.pk):
        response = getattr(client, method)(url, body)
        assert response.status_code == 403 and "read-only" in response.json()["detail"], url
    _nothing_written(repository, finding)
    assert ApiToken.objects.get(user=people.alice).last_used is not None


@pytest.mark.django_db
def test_the_session_works_for_the_browser_and_needs_csrf_on_writes(people, data):
    repository, finding = data
    browser = Client(enforce_csrf_checks=True)
    browser.login(username="bob", password=PASSWORD)
    assert browser.get(f"/api/v1/findings/{finding.pk}/").status_code == 200
    for method, url, body in _writes(repository, finding, people.team.pk):
        response = getattr(browser, method)(f"/api/v1{url}", json.dumps(body), content_type="application/json")
        assert response.status_code == 403 and "CSRF" in response.json()["detail"], url
    _nothing_written(repository, finding)

    page = browser.get("/accounts/tokens/")  # any page sets the CSRF cookie
    csrf = page.cookies["csrftoken"].value
    response = browser.post(
        f"/api/v1/findings/{finding.pk}/triage/",
        json.dumps({"decision": "confirmed"}),
        content_type="application/json",
        headers={"X-CSRFToken": csrf},
    )
    assert response.status_code == 200 and response.json()["triage"] == "confirmed"


@pytest.mark.django_db
def test_errors_are_json_with_a_clear_detail(people, data):
    repository, finding = data
    client = ApiClient(people.bob)
    not_found = client.get("/scans/424242/")
    assert not_found.status_code == 404 and not_found.json() == {"detail": "Not found."}
    invalid = client.get("/findings/abc/")
    assert invalid.status_code == 422 and invalid.json()["errors"][0]["loc"] == ["path", "finding_id"]
    assert "finding_id" in invalid.json()["detail"]
    too_big = client.get(f"/scans/{2**64}/")
    assert too_big.status_code == 422
    nul = client.post(f"/findings/{finding.pk}/comments/", {"text": "a\x00b"})
    assert nul.status_code == 422 and "NUL" in nul.json()["detail"]
    surrogate = client.client.post(
        f"/api/v1/findings/{finding.pk}/comments/", '{"text": "\\ud800"}', content_type="application/json"
    )
    assert surrogate.status_code == 422 and "unicode" in surrogate.json()["detail"].lower()
    broken = client.client.post("/api/v1/findings/triage/", "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["detail"]
    wrong_method = client.client.delete(f"/api/v1/findings/{finding.pk}/")
    assert wrong_method.status_code == 405 and "DELETE" in wrong_method.json()["detail"]
    assert wrong_method["Allow"] == "GET"
    assert not FindingEvent.objects.exists()


@pytest.mark.django_db
def test_the_openapi_schema_is_public_and_describes_every_operation():
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert set(schema["components"]["securitySchemes"]) == {"PersonalToken", "Session"}
    operations = {(method.upper(), path) for path, item in schema["paths"].items() for method in item}
    assert operations == {
        ("GET", "/api/v1/repositories/"),
        ("POST", "/api/v1/repositories/"),
        ("GET", "/api/v1/repositories/{repository_id}/"),
        ("PATCH", "/api/v1/repositories/{repository_id}/"),
        ("GET", "/api/v1/repositories/{repository_id}/scans/"),
        ("POST", "/api/v1/repositories/{repository_id}/scans/"),
        ("GET", "/api/v1/repositories/{repository_id}/statistics/"),
        ("GET", "/api/v1/scans/{scan_id}/"),
        ("GET", "/api/v1/findings/"),
        ("POST", "/api/v1/findings/triage/"),
        ("GET", "/api/v1/findings/{finding_id}/"),
        ("POST", "/api/v1/findings/{finding_id}/triage/"),
        ("GET", "/api/v1/findings/{finding_id}/comments/"),
        ("POST", "/api/v1/findings/{finding_id}/comments/"),
        ("GET", "/api/v1/repositories/{repository_id}/progress/"),
        ("GET", "/api/v1/repositories/{repository_id}/progress/files/"),
        ("GET", "/api/v1/repositories/{repository_id}/progress/history/"),
        ("GET", "/api/v1/teams/{team_id}/progress/"),
        ("GET", "/api/v1/teams/{team_id}/progress/history/"),
        ("GET", "/api/v1/repositories/{repository_id}/merge-requests/"),
        ("GET", "/api/v1/merge-requests/{merge_request_id}/"),
        ("POST", "/api/v1/repositories/{repository_id}/merge-requests/"),
        ("POST", "/api/v1/merge-requests/{merge_request_id}/retry/"),
    }
    parameters = {
        path: {p["name"] for p in item["get"].get("parameters", [])}
        for path, item in schema["paths"].items()
        if ("progress" in path or "merge-requests" in path) and "get" in item
    }
    assert parameters == {
        "/api/v1/repositories/{repository_id}/progress/": {"repository_id"},
        "/api/v1/repositories/{repository_id}/progress/files/": {"repository_id", "state", "after", "limit"},
        "/api/v1/repositories/{repository_id}/progress/history/": {"repository_id", "weeks"},
        "/api/v1/teams/{team_id}/progress/": {"team_id"},
        "/api/v1/teams/{team_id}/progress/history/": {"team_id", "weeks"},
        "/api/v1/repositories/{repository_id}/merge-requests/": {"repository_id", "state", "before", "limit"},
        "/api/v1/merge-requests/{merge_request_id}/": {"merge_request_id"},
    }
    assert not any(path.startswith("/api/v1/uploads") for path in schema["paths"])  # another module's path
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert {"401", "404", "422"} <= set(operation["responses"]), (method, path)


@pytest.mark.django_db
def test_the_docs_page_loads_its_assets_from_our_static_files_only():
    response = Client().get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    assert "cdn" not in html.lower() and "//" not in "".join(assets)
