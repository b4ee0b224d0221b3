"""The findings list and the finding page, for each role."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.findings.models import Finding, FindingEvent
from tests.portal.findings_data import make_findings


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_keyset_pages_cover_every_finding_once_in_each_sort(people):
    make_findings(people.team, 130)
    client = client_for(people.vera)
    for sort in ("severity", "path", "newest"):
        seen, url = [], f"{reverse('findings:list')}?sort={sort}"
        while url:
            response = client.get(url)
            rows = response.context["rows"]
            seen += [f.pk for f in rows]
            url = reverse("findings:list") + response.context["next_url"] if response.context["next_url"] else ""
        assert len(seen) == 130 and len(set(seen)) == 130, sort


@pytest.mark.django_db
def test_filters_live_in_the_query_string_and_htmx_gets_the_partial(people):
    make_findings(people.team, 40)
    client = client_for(people.bob)
    full = client.get(reverse("findings:list"), {"severity": "critical", "path": "src/f1"})
    assert full.status_code == 200 and b"<html" in full.content
    assert all(f.severity == "critical" and f.path.startswith("src/f1") for f in full.context["rows"])
    partial = client.get(reverse("findings:list"), {"severity": "critical"}, headers={"HX-Request": "true"})
    assert b"<html" not in partial.content and b'id="results"' in partial.content


@pytest.mark.django_db
def test_another_teams_findings_are_invisible(people):
    repository, _ = make_findings(people.other_team, 5, name="theirs")
    finding = Finding.objects.first()
    client = client_for(people.alice)
    assert client.get(reverse("findings:list")).context["rows"] == []
    assert client.get(reverse("findings:list"), {"repository": repository.pk}).status_code == 404
    assert client.get(reverse("findings:detail", args=[finding.pk])).status_code == 404
    assert client.post(reverse("findings:triage", args=[finding.pk]), {"decision": "confirmed"}).status_code == 404


@pytest.mark.django_db
def test_engineers_triage_one_finding_and_the_htmx_row_is_returned(people):
    make_findings(people.team, 3)
    finding = Finding.objects.first()
    url = reverse("findings:triage", args=[finding.pk])
    assert client_for(people.vera).post(url, {"decision": "confirmed"}).status_code == 403
    assert client_for(people.bob).get(url).status_code == 405
    response = client_for(people.bob).post(url, {"decision": "confirmed", "context": "row"},
                                           headers={"HX-Request": "true"})
    assert response.status_code == 200 and f'id="finding-{finding.pk}"'.encode() in response.content
    finding.refresh_from_db()
    assert finding.triage == "confirmed"
    event = FindingEvent.objects.get(finding=finding)
    assert (event.kind, event.actor, event.data["to"]) == ("triaged", people.bob, "confirmed")


@pytest.mark.django_db
def test_hiding_a_finding_needs_a_reason(people):
    make_findings(people.team, 1)
    finding = Finding.objects.get()
    response = client_for(people.bob).post(reverse("findings:triage", args=[finding.pk]),
                                           {"decision": "false_positive"}, headers={"HX-Request": "true"})
    assert b"Say why" in response.content
    finding.refresh_from_db()
    assert finding.triage == "untriaged"


@pytest.mark.django_db
def test_bulk_triage_of_a_selection_and_of_everything_matching_the_filter(people):
    make_findings(people.team, 20)
    ids = list(Finding.objects.order_by("id").values_list("pk", flat=True)[:3])
    client = client_for(people.bob)
    client.post(reverse("findings:bulk"), {"ids": ids, "decision": "confirmed", "scope": "selected"})
    assert set(Finding.objects.filter(triage="confirmed").values_list("pk", flat=True)) == set(ids)
    client.post(reverse("findings:bulk"), {"severity": "low", "decision": "accepted_risk", "reason": "legacy",
                                           "scope": "all"})
    assert Finding.objects.filter(triage="accepted_risk").count() == Finding.objects.filter(severity="low").count()
    assert client_for(people.vera).post(reverse("findings:bulk"), {"decision": "confirmed", "scope": "all"}) \
        .status_code == 403


@pytest.mark.django_db
def test_the_finding_page_shows_history_and_takes_comments_and_assignment(people):
    make_findings(people.team, 1)
    finding = Finding.objects.get()
    client = client_for(people.bob)
    client.post(reverse("findings:comment", args=[finding.pk]), {"text": "looks real"})
    client.post(reverse("findings:assign", args=[finding.pk]), {"assignee": people.alice.pk})
    page = client.get(reverse("findings:detail", args=[finding.pk]))
    assert page.status_code == 200 and b"looks real" in page.content and b"alice" in page.content
    assert client.post(reverse("findings:assign", args=[finding.pk]),
                       {"assignee": people.charlie.pk}).status_code == 403
    viewer = client_for(people.vera).get(reverse("findings:detail", args=[finding.pk]))
    assert viewer.status_code == 200 and b'name="decision"' not in viewer.content


@pytest.mark.django_db
def test_forms_need_a_csrf_token(people):
    make_findings(people.team, 1)
    finding = Finding.objects.get()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.bob)
    assert strict.post(reverse("findings:triage", args=[finding.pk]), {"decision": "confirmed"}).status_code == 403
    assert strict.post(reverse("findings:bulk"), {"decision": "confirmed"}).status_code == 403
