"""API: the findings list (the UI's filters, keyset pages with a `next` cursor), one finding, triage one or many,
comments — per role, and for another team (404; its ids in a bulk triage are not found and not touched)."""

from __future__ import annotations

import base64

import pytest

from portal.findings import queries
from portal.findings.models import Finding, FindingEvent
from portal.scans.models import Scan
from tests.portal.api_clients import ApiClient, clients
from tests.portal.findings_data import make_findings


@pytest.fixture
def api(people):
    return clients(people)


@pytest.fixture
def data(people):
    kernels, scan = make_findings(people.team, 130, name="kernels")
    solver, _ = make_findings(people.team, 40, name="solver", path_prefix="lib/")
    theirs, _ = make_findings(people.other_team, 20, name="theirs")
    return {"kernels": kernels, "solver": solver, "theirs": theirs, "scan": scan}


def _all_pages(client, **query) -> tuple[list[int], int]:
    seen, pages, cursor = [], 0, ""
    while True:
        response = client.get("/findings/", **query, **({"after": cursor} if cursor else {}))
        assert response.status_code == 200, response.content
        body = response.json()
        seen += [row["id"] for row in body["items"]]
        pages += 1
        if not body["next"]:
            return seen, pages
        assert len(body["items"]) == queries.PAGE_SIZE
        cursor = body["next"]


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ["severity", "path", "newest"])
def test_keyset_pages_cover_every_finding_of_the_callers_teams_exactly_once(api, data, sort):
    seen, pages = _all_pages(api["vera"], sort=sort)
    mine = set(Finding.objects.filter(repository__in=[data["kernels"], data["solver"]]).values_list("pk", flat=True))
    assert len(seen) == len(set(seen)) == 170 and set(seen) == mine and pages == 4
    expected = list(queries.ordered(Finding.objects.filter(pk__in=mine), sort).values_list("pk", flat=True))
    assert seen == expected  # the UI's order, across both repositories


@pytest.mark.django_db
def test_the_filters_are_the_findings_lists(people, api, data):
    finding = Finding.objects.filter(repository=data["kernels"]).order_by("pk").first()
    finding.triage, finding.triage_reason, finding.assignee = "false_positive", "generated code", people.bob
    finding.state = "fixed"
    finding.save()
    cases = [
        {"repository": data["solver"].pk},
        {"risk": "build-break"},
        {"severity": "critical"},
        {"rule": "ROC102"},
        {"state": "fixed"},
        {"state": "all", "triage": "false_positive"},
        {"path": "lib/f3"},
        {"state": "all", "assignee": "me"},
        {"assignee": "none", "severity": "low"},
        {"sort": "path", "risk": "performance"},
    ]
    for query in cases:
        seen, _pages = _all_pages(api["bob"], **query)
        filters = queries.Filters.from_query(query)
        team_ids = [people.team.pk]
        expected = set(queries.filtered(team_ids, filters, people.bob).values_list("pk", flat=True))
        assert set(seen) == expected and expected, query
    assert _all_pages(api["vera"], state="all", assignee="me")[0] == []  # "me" is the token's user
    assert _all_pages(api["bob"], state="all", assignee=str(people.bob.pk))[0] == [finding.pk]


@pytest.mark.django_db
def test_another_teams_repository_filter_is_404_and_their_findings_never_appear(api, data):
    assert api["vera"].get("/findings/", repository=data["theirs"].pk).status_code == 404
    assert api["vera"].get("/findings/", repository=999999).status_code == 404
    charlie, _pages = _all_pages(api["charlie"])
    assert set(charlie) == set(Finding.objects.filter(repository=data["theirs"]).values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_cursor_this_api_did_not_return_is_a_400(api, data):
    body = api["vera"].get("/findings/").json()
    well_formed = base64.urlsafe_b64encode(b"3\x1f1").decode().rstrip("=")  # a valid key, but not one returned
    for bad in ("zzz", "AAAA", body["next"] + "x", body["next"][:-1], well_formed):
        response = api["vera"].get("/findings/", after=bad)
        assert response.status_code == 400 and "cursor" in response.json()["detail"], bad
    wrong_sort = api["vera"].get("/findings/", sort="path", after=body["next"])
    assert wrong_sort.status_code == 400
    bad_enum = api["vera"].get("/findings/", severity="catastrophic")
    assert bad_enum.status_code == 422 and "severity" in bad_enum.json()["detail"]


@pytest.mark.django_db
def test_a_finding_is_readable_by_its_team_only(api, data):
    finding = Finding.objects.filter(repository=data["kernels"]).first()
    body = api["vera"].get(f"/findings/{finding.pk}/").json()
    assert (body["id"], body["path"], body["rule"], body["first_seen_scan_id"]) == (
        finding.pk,
        finding.path,
        finding.rule,
        data["scan"].pk,
    )
    assert api["charlie"].get(f"/findings/{finding.pk}/").status_code == 404
    assert api["vera"].get("/findings/99999999/").status_code == 404


@pytest.mark.django_db
def test_engineers_triage_a_finding_and_a_hiding_decision_needs_a_reason(people, api, data):
    finding = Finding.objects.filter(repository=data["kernels"]).first()
    url = f"/findings/{finding.pk}/triage/"
    response = api["bob"].post(url, {"decision": "confirmed"})
    assert response.status_code == 200 and response.json()["triage"] == "confirmed"
    event = FindingEvent.objects.get(finding=finding, kind="triaged")
    assert (event.actor, event.data["to"]) == (people.bob, "confirmed")

    hidden = api["bob"].post(url, {"decision": "wont_fix", "reason": "  "})
    assert hidden.status_code == 400 and "why" in hidden.json()["detail"]
    assert api["vera"].post(url, {"decision": "wont_fix", "reason": "x"}).status_code == 403
    assert api["charlie"].post(url, {"decision": "wont_fix", "reason": "x"}).status_code == 404
    assert api["bob"].post(url, {"decision": "ignore"}).status_code == 422
    finding.refresh_from_db()
    assert finding.triage == "confirmed" and FindingEvent.objects.filter(finding=finding).count() == 1

    ok = api["alice"].post(url, {"decision": "accepted_risk", "reason": "host-only path"})
    assert ok.json()["triage_reason"] == "host-only path"


@pytest.mark.django_db
def test_bulk_triage_touches_the_callers_findings_and_not_another_teams(api, data):
    mine = list(Finding.objects.filter(repository=data["kernels"]).values_list("pk", flat=True)[:5])
    theirs = list(Finding.objects.filter(repository=data["theirs"]).values_list("pk", flat=True)[:3])
    response = api["bob"].post(
        "/findings/triage/", {"ids": mine + theirs + [999999999], "decision": "false_positive", "reason": "vendored"}
    )
    assert response.status_code == 200, response.content
    assert response.json() == {"triaged": 5, "not_found": sorted(theirs + [999999999])}
    assert set(Finding.objects.filter(pk__in=mine).values_list("triage", flat=True)) == {"false_positive"}
    assert set(Finding.objects.filter(pk__in=theirs).values_list("triage", flat=True)) == {"untriaged"}
    assert not FindingEvent.objects.filter(finding_id__in=theirs).exists()
    # charlie learns nothing more about the team's ids than about ids that do not exist
    assert api["charlie"].post("/findings/triage/", {"ids": mine, "decision": "confirmed"}).json() == {
        "triaged": 0,
        "not_found": sorted(mine),
    }
    again = api["bob"].post("/findings/triage/", {"ids": mine, "decision": "false_positive", "reason": "vendored"})
    assert again.json()["triaged"] == 0  # nothing changed: no new events


@pytest.mark.django_db
def test_bulk_triage_is_all_or_nothing_for_viewers_and_missing_reasons(people, api, data):
    ids = list(Finding.objects.filter(repository=data["kernels"]).values_list("pk", flat=True)[:4])
    assert api["vera"].post("/findings/triage/", {"ids": ids, "decision": "confirmed"}).status_code == 403
    missing = api["bob"].post("/findings/triage/", {"ids": ids, "decision": "accepted_risk"})
    assert missing.status_code == 400
    assert api["bob"].post("/findings/triage/", {"ids": [], "decision": "confirmed"}).status_code == 422
    assert set(Finding.objects.filter(pk__in=ids).values_list("triage", flat=True)) == {"untriaged"}
    assert not FindingEvent.objects.exists()


@pytest.mark.django_db
def test_comments_are_read_by_the_team_and_written_by_engineers(people, api, data):
    finding = Finding.objects.filter(repository=data["kernels"]).first()
    url = f"/findings/{finding.pk}/comments/"
    created = api["bob"].post(url, {"text": "  <b>wave64</b> breaks this  "})
    assert created.status_code == 201
    assert (created.json()["author"], created.json()["text"]) == ("bob", "<b>wave64</b> breaks this")
    assert api["bob"].post(url, {"text": "   "}).status_code == 400
    assert api["vera"].post(url, {"text": "me too"}).status_code == 403
    assert api["charlie"].post(url, {"text": "hi"}).status_code == 404
    assert api["charlie"].get(url).status_code == 404
    listed = api["vera"].get(url).json()
    assert [(c["id"], c["author"]) for c in listed] == [(created.json()["id"], "bob")]
    assert FindingEvent.objects.filter(finding=finding, kind="commented").count() == 1


@pytest.mark.django_db
def test_new_since_takes_a_scan_id(people, data):
    newer = Scan.objects.create(repository=data["kernels"], branch="main", status="finished")
    Finding.objects.filter(
        pk__in=list(Finding.objects.filter(repository=data["kernels"]).values_list("pk", flat=True)[:3])
    ).update(first_seen=newer)
    seen, _pages = _all_pages(ApiClient(people.vera), new_since=newer.pk)
    assert len(seen) == 3
