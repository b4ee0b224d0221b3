"""The findings list and the finding page, for each role."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.findings.models import Finding, FindingEvent
from tests.portal.findings_data import make_findings
from tests.portal.htmx import HTMX
from tests.portal.people import client_for


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
    partial = client.get(reverse("findings:list"), {"severity": "critical"}, headers=HTMX)
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
    response = client_for(people.bob).post(url, {"decision": "confirmed", "context": "row"}, headers=HTMX)
    assert response.status_code == 200 and f'id="finding-{finding.pk}"'.encode() in response.content
    finding.refresh_from_db()
    assert finding.triage == "confirmed"
    event = FindingEvent.objects.get(finding=finding)
    assert (event.kind, event.actor, event.data["to"]) == ("triaged", people.bob, "confirmed")


@pytest.mark.django_db
def test_hiding_a_finding_needs_a_reason(people):
    make_findings(people.team, 1)
    finding = Finding.objects.get()
    response = client_for(people.bob).post(
        reverse("findings:triage", args=[finding.pk]), {"decision": "false_positive"}, headers=HTMX
    )
    assert b"Say why" in response.content
    finding.refresh_from_db()
    assert finding.triage == "untriaged"


@pytest.mark.django_db
def test_a_bulk_triage_asks_first_how_many_it_takes_and_has_no_default_decision(people):
    make_findings(people.team, 80)
    client = client_for(people.bob)
    listing = client.get(reverse("findings:list")).content.decode()
    assert "80 findings match." in listing
    decision = listing[listing.index('<select name="decision" required>') :].split("</select>", 1)[0]
    assert '<option value="">' in decision.split("</option>", 1)[0] + "</option>"  # "Choose…" first, not Untriaged
    asked = client.post(reverse("findings:bulk"), {"decision": "false_positive", "reason": "noise", "scope": "all"})
    html = asked.content.decode()
    assert asked.status_code == 200 and 'data-count="80"' in html and "False positive" in html
    assert not Finding.objects.exclude(triage="untriaged").exists()  # nothing applied before the confirmation
    assert 'name="confirm" value="1"' in html and 'name="scope" value="all"' in html
    no_decision = client.post(reverse("findings:bulk"), {"decision": "", "scope": "all", "confirm": "1"})
    assert no_decision.status_code == 302 and not Finding.objects.exclude(triage="untriaged").exists()
    client.post(
        reverse("findings:bulk"), {"decision": "false_positive", "reason": "noise", "scope": "all", "confirm": "1"}
    )
    assert Finding.objects.filter(triage="false_positive").count() == 80


@pytest.mark.django_db
def test_the_list_counts_its_matches_up_to_a_cap(people, monkeypatch):
    from portal.findings import queries

    make_findings(people.team, 12)
    client = client_for(people.bob)
    assert "12 findings match." in client.get(reverse("findings:list")).content.decode()
    monkeypatch.setattr(queries, "COUNT_CAP", 10)
    assert "More than 10 findings match." in client.get(reverse("findings:list")).content.decode()


@pytest.mark.django_db
def test_quick_filter_changes_replace_the_request_in_flight(people):
    html = client_for(people.bob).get(reverse("findings:list")).content.decode()
    form = html[html.index('<form class="filters"') :].split(">", 1)[0]
    assert 'hx-sync="this:replace"' in form  # the newest filter wins: an older answer cannot land after it


@pytest.mark.django_db
def test_bulk_triage_of_a_selection_and_of_everything_matching_the_filter(people):
    make_findings(people.team, 20)
    ids = list(Finding.objects.order_by("id").values_list("pk", flat=True)[:3])
    client = client_for(people.bob)
    client.post(reverse("findings:bulk"), {"ids": ids, "decision": "confirmed", "scope": "selected", "confirm": "1"})
    assert set(Finding.objects.filter(triage="confirmed").values_list("pk", flat=True)) == set(ids)
    client.post(
        reverse("findings:bulk"),
        {"severity": "low", "decision": "accepted_risk", "reason": "legacy", "scope": "all", "confirm": "1"},
    )
    assert Finding.objects.filter(triage="accepted_risk").count() == Finding.objects.filter(severity="low").count()
    assert (
        client_for(people.vera)
        .post(reverse("findings:bulk"), {"decision": "confirmed", "scope": "all", "confirm": "1"})
        .status_code
        == 403
    )


@pytest.mark.django_db
def test_the_finding_page_shows_history_and_takes_comments_and_assignment(people):
    make_findings(people.team, 1)
    finding = Finding.objects.get()
    client = client_for(people.bob)
    client.post(reverse("findings:comment", args=[finding.pk]), {"text": "looks real"})
    client.post(reverse("findings:assign", args=[finding.pk]), {"assignee": people.alice.pk})
    page = client.get(reverse("findings:detail", args=[finding.pk]))
    assert page.status_code == 200 and b"looks real" in page.content and b"alice" in page.content
    assert (
        client.post(reverse("findings:assign", args=[finding.pk]), {"assignee": people.charlie.pk}).status_code == 403
    )
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


@pytest.mark.django_db
def test_owner_filter_follows_codeowners_in_sql_last_match_wins(people):
    """The owner filter runs CODEOWNERS patterns as PostgreSQL regexes: globs, `**`, and a later rule that takes a
    path back from an earlier owner."""
    repository, _ = make_findings(people.team, 21, path_prefix="src/")
    make_findings(people.team, 7, name="tools", path_prefix="tools/deep/er/")
    repository.codeowners = "*.cu @gpu-team\nsrc/**/f3.cu @alice\n# comment\n/tools/ @ops\n"
    repository.save()
    client = client_for(people.vera)
    gpu = {f.path for f in client.get(reverse("findings:list"), {"owner": "@gpu-team"}).context["rows"]}
    assert gpu == {f"src/f{i}.cu" for i in range(7) if i != 3}
    alice = {f.path for f in client.get(reverse("findings:list"), {"owner": "@alice"}).context["rows"]}
    assert alice == {"src/f3.cu"}
    # The tools repository has no CODEOWNERS: nobody owns its files.
    assert client.get(reverse("findings:list"), {"owner": "@ops"}).context["rows"] == []


@pytest.mark.django_db
def test_pages_across_repositories_merge_in_order_on_each_default_branch(people):
    """Several repositories: each page merges the repositories' own first rows; the order and coverage must be
    those of one global sort, and other branches than the default stay out."""
    make_findings(people.team, 70, name="a")
    second, _ = make_findings(people.team, 45, name="b")
    second.default_branch = "develop"
    second.save()
    Finding.objects.filter(repository=second).update(branch="develop")
    make_findings(people.team, 12, name="c")
    other, _ = make_findings(people.team, 9, name="d")
    Finding.objects.filter(repository=other).update(branch="feature")  # d's default branch is main: none listed
    expected = {
        "severity": [f.pk for f in Finding.objects.exclude(repository=other).order_by("-severity_rank", "-id")],
        "path": [f.pk for f in Finding.objects.exclude(repository=other).order_by("path", "line", "id")],
        "newest": [f.pk for f in Finding.objects.exclude(repository=other).order_by("-id")],
    }
    client = client_for(people.vera)
    for sort, want in expected.items():
        seen, url = [], f"{reverse('findings:list')}?sort={sort}"
        while url:
            response = client.get(url)
            seen += [f.pk for f in response.context["rows"]]
            url = reverse("findings:list") + response.context["next_url"] if response.context["next_url"] else ""
        assert seen == want, sort


@pytest.mark.django_db
def test_rule_filter_takes_a_code_a_rule_name_or_a_former_name(people):
    from scanner.rules import catalogue

    make_findings(people.team, 30)
    name = catalogue()["ROC102"].name
    client = client_for(people.vera)
    by_code = {f.pk for f in client.get(reverse("findings:list"), {"rule": "roc102"}).context["rows"]}
    by_name = {f.pk for f in client.get(reverse("findings:list"), {"rule": name}).context["rows"]}
    [former] = catalogue()["ROC102"].formerly  # the name it had before the family prefix
    by_former = {f.pk for f in client.get(reverse("findings:list"), {"rule": former}).context["rows"]}
    assert by_code == by_name == by_former == set(Finding.objects.filter(rule="ROC102").values_list("pk", flat=True))
