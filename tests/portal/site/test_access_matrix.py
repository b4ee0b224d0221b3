"""Access control, generated from the URL configuration: every route is requested anonymously and as a manager
of another team, with GET and POST. A team's object answers 404 to an outsider whatever the method (the same
answer as "does not exist"); an anonymous request is sent to the login page (pages) or refused with 401 (API).

A route that this file does not classify fails the test: a new view cannot be added without being covered."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from portal.accounts import tokens
from portal.ports.models import MergeRequest
from tests.portal.findings_data import make_findings

# Routes open to anyone, each with its own protection (a signature, a bearer token, or nothing to protect).
PUBLIC = {
    "accounts/login/",
    "accounts/logout/",
    "i18n/setlang/",
    "healthz",
    "api/v1/openapi.json",
    "api/v1/docs",
    "api/v1/",
    "hooks/<int:repository_id>/<str:provider>/",
    "api/v1/uploads/",
    # Any other path under /api/: a JSON 404 for everyone (tests/portal/api/test_api_unmatched.py)
    "api/v1/^",
    "^api(?:/|$)",
}
# Pages of the signed-in user's own scope (their teams, their tokens, the rule catalogue): an outsider gets a
# page, but never another team's data (tests of each view check that).
OWN_SCOPE = {
    "",
    "accounts/team/",
    "accounts/tokens/",
    "findings/",
    "findings/bulk/",
    "rules/",
    "rules/<str:code>/",
    "repositories/",
    "api/v1/repositories/",
    "api/v1/findings/",
    "api/v1/findings/triage/",
    "accounts/profile/",  # the user's own address, language, digests, and the preview of their current team's
    "digests/",  # the old opt-in address: a redirect to the profile page
    "digests/send/",  # "send me now": a team of the user's own, else 404 (tests/portal/accounts/test_profile_page.py)
}


def routes():
    def walk(resolver, prefix=""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                if str(pattern.pattern) != "admin/":  # Django's admin: staff only, its own tests
                    yield from walk(pattern, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    return sorted(set(walk(get_resolver())))


def concrete(route: str, objects: dict) -> str:
    """The route with this test's objects of the victim team in place of its parameters."""

    def value(match):
        name = match.group("name")
        if name == "pk":
            for prefix, key in (
                ("repositories/", "repository"),
                ("progress/repositories/", "repository"),
                ("findings/", "finding"),
                ("scans/", "scan"),
                ("accounts/tokens/", "token"),
            ):
                if route.startswith(prefix):
                    return str(objects[key])
        if name not in objects:
            raise AssertionError(f"{route}: add a value for <{name}> to the access matrix")
        return str(objects[name])

    return "/" + re.sub(r"<(?:\w+:)?(?P<name>\w+)>", value, route)


def team_objects(people):
    """The team's repository, scan and finding, and the values that fill every route parameter with them."""
    repository, scan = make_findings(people.team, 3)
    finding = repository.findings.first()
    token, _ = tokens.issue(people.bob, "ci")
    merge_request = MergeRequest.objects.create(
        repository=repository, base_commit="c" * 40, target_branch="main", key="k", state="failed"
    )
    objects = {
        "repository": repository.pk,
        "scan": scan.pk,
        "finding": finding.pk,
        "token": token.pk,
        "team_id": people.team.pk,
        "repository_id": repository.pk,
        "scan_id": scan.pk,
        "finding_id": finding.pk,
        "kind": "csv",
        "path": finding.path,
        "code": "ROC101",
        "provider": "github",
        "mr": merge_request.pk,
        "merge_request_id": merge_request.pk,
    }
    return repository, scan, finding, objects


@pytest.mark.django_db
def test_every_route_is_classified_and_another_team_gets_404_anonymous_gets_login(people):
    repository, scan, finding, objects = team_objects(people)
    outsider = Client()
    outsider.force_login(people.charlie)
    _, charlie_token = tokens.issue(people.charlie, "theirs")
    anonymous = Client()
    checked = 0
    for route in routes():
        if route in PUBLIC:
            continue
        url = concrete(route, objects)
        api = route.startswith("api/")
        for method in ("get", "post"):
            response = getattr(anonymous, method)(url)
            if api:
                assert response.status_code in (401, 405), (method, url, response.status_code)
            else:
                assert response.status_code in (302, 405), (method, url, response.status_code)
                if response.status_code == 302:
                    assert response.url.startswith("/accounts/login/"), (method, url, response.url)
            if route in OWN_SCOPE:
                continue
            if api:  # a body valid for every write, so that validation cannot answer before the lookup
                body = {"text": "x", "decision": "false_positive", "reason": "outsider", "ids": [finding.pk]}
                kwargs = {"headers": {"Authorization": f"Bearer {charlie_token}"}}
                if method == "post":
                    kwargs.update(data=body, content_type="application/json")
                as_outsider = getattr(Client(), method)(url, **kwargs)
            else:
                as_outsider = getattr(outsider, method)(url)
            assert as_outsider.status_code in (404, 405), (method, url, as_outsider.status_code)
            checked += 1
    assert checked >= 40  # the team-bound routes, both methods
    finding.refresh_from_db()
    assert finding.triage == "untriaged" and finding.events.count() == 0


@pytest.mark.django_db
def test_a_viewer_of_the_team_reads_every_team_route_and_writes_through_none(people):
    """The same routes as the team's viewer (the role that reads only): every GET of a team-bound page or API answers
    as to a member (never 404 nor 401; 403 only for the managers' pages), every POST is refused and nothing is
    written."""
    repository, scan, finding, objects = team_objects(people)
    viewer = Client()
    viewer.force_login(people.vera)
    _, viewer_token = tokens.issue(people.vera, "reader")
    before = (repository.__class__.objects.filter(pk=repository.pk).values().get(), scan.__class__.objects.count())
    refused = 0
    for route in routes():
        if route in PUBLIC or route in OWN_SCOPE or route.startswith("accounts/tokens/"):
            continue  # tokens are the user's own (a viewer may hold read-only tokens)
        url = concrete(route, objects)
        api = route.startswith("api/")
        kwargs = {"headers": {"Authorization": f"Bearer {viewer_token}"}} if api else {}
        client = Client() if api else viewer
        read = client.get(url, **kwargs)
        assert read.status_code not in (401, 404, 500), ("get", url, read.status_code)
        body = {"text": "x", "decision": "false_positive", "reason": "viewer", "ids": [finding.pk]}
        post_kwargs = dict(kwargs, data=body, content_type="application/json") if api else {"data": body}
        write = client.post(url, **post_kwargs)
        assert write.status_code in (403, 404, 405), ("post", url, write.status_code)
        refused += write.status_code != 405
    assert refused >= 10
    finding.refresh_from_db()
    assert finding.triage == "untriaged" and finding.events.count() == 0  # comments are events too
    assert before == (
        repository.__class__.objects.filter(pk=repository.pk).values().get(),
        scan.__class__.objects.count(),
    )
