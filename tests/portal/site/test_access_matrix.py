"""Access control, generated from the URL configuration: every route is requested anonymously and as a manager
of another team, with GET and POST. A team's object answers 404 to an outsider whatever the method (the same
answer as "does not exist"); an anonymous request is sent to the login page (pages) or refused with 401 (API).

A route that this file does not classify fails the test: a new view cannot be added without being covered."""

from __future__ import annotations

import pytest
from django.test import Client

from portal.accounts import tokens
from tests.portal.routes import OWN_SCOPE, PUBLIC, concrete, routes, team_objects


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
