"""The access matrix's base, shared by every test that walks the URL configuration (access, error shapes, rendering
in both languages): the routes, which are public or of the user's own scope, and a team's objects to fill every
route parameter with."""

from __future__ import annotations

import re

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
