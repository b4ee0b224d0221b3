"""API: merge requests (list and detail) for each role, with the state filter, keyset pages with `limit`, the host's
label, what was left for people and the advice the request's page gives (in the reader's language); another
team's repository or request is a 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from portal.ports.models import MergeRequest
from portal.ports.texts import OUTDATED
from portal.repositories.models import Repository
from tests.portal.api_clients import clients
from tests.portal.people import client_for
from tests.portal.ports.test_merge_request_views import connect, make_request


@pytest.fixture
def api(people):
    return clients(people)


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


@pytest.mark.django_db
def test_the_list_is_newest_first_in_pages_and_filters_by_state(api, repository):
    made = [make_request(repository, files=[f"src/f{i}.cu"], state="merged" if i % 3 else "open") for i in range(7)]
    url = f"/repositories/{repository.pk}/merge-requests/"
    body = api["vera"].get(url).json()  # a viewer reads them
    assert [r["id"] for r in body["items"]] == [r.pk for r in reversed(made)] and body["next"] is None
    seen, cursor = [], ""
    while True:
        page = api["vera"].get(url, limit=3, **({"before": cursor} if cursor else {})).json()
        assert len(page["items"]) <= 3
        seen += [r["id"] for r in page["items"]]
        if page["next"] is None:
            break
        cursor = page["next"]
    assert seen == [r.pk for r in reversed(made)]
    opened = api["vera"].get(url, state="open").json()["items"]
    assert [r["id"] for r in opened] == [made[6].pk, made[3].pk, made[0].pk]
    assert opened[0]["files"] == ["src/f6.cu"] and opened[0]["branch"] == f"rocport/port-{made[6].pk}"
    assert api["vera"].get(url, limit=0).status_code == 400
    assert api["vera"].get(url, state="lost").status_code == 422


@pytest.mark.django_db
def test_a_request_says_its_state_label_and_link_as_its_page_does(people, api, repository):
    connect(repository, provider="gitlab")
    opened = make_request(
        repository,
        state="open",
        number=12,
        url="https://gitlab.example.com/o/k/-/merge_requests/12",
        head_commit="d" * 40,
    )
    opened.created_by = people.bob
    opened.save(update_fields=["created_by"])
    body = api["vera"].get(f"/merge-requests/{opened.pk}/").json()
    assert (body["state"], body["in_flight"], body["label"], body["number"]) == ("open", False, "!12", 12)
    assert body["url"].endswith("/merge_requests/12") and body["created_by"] == "bob"
    assert body["advice"] == "" and body["left_for_people"] == []
    queued = api["vera"].get(f"/merge-requests/{make_request(repository, files=['b.cu']).pk}/").json()
    assert (queued["state"], queued["in_flight"], queued["label"]) == ("queued", True, "")


@pytest.mark.django_db
def test_a_failed_request_gives_the_pages_advice_in_the_readers_language(people, api, repository):
    failed = make_request(
        repository,
        state="failed",
        error_code="no_write_access",
        error_message="remote: Permission denied",
        left_for_people=[["src/old.cu", OUTDATED], ["src/raw.cu", "a reason no catalogue knows"]],
    )
    body = api["bob"].get(f"/merge-requests/{failed.pk}/").json()
    page = client_for(people.bob).get(reverse("ports:detail", args=[repository.pk, failed.pk]))
    assert body["advice"] == str(page.context["advice"]) and "write access" in body["advice"]
    assert body["left_for_people"] == [
        {"path": "src/old.cu", "why": "reviewed on an older version of the file: review it again"},
        {"path": "src/raw.cu", "why": "a reason no catalogue knows"},
    ]
    assert (body["error_code"], body["error_message"]) == ("no_write_access", "remote: Permission denied")
    chinese = api["bob"].client.get(f"/api/v1/merge-requests/{failed.pk}/", headers={"Accept-Language": "zh-Hans"})
    assert chinese.json()["advice"] != body["advice"] and "write access" not in chinese.json()["advice"]


@pytest.mark.django_db
def test_another_team_gets_404_for_the_list_and_each_request(people, api, repository):
    mine = make_request(repository)
    theirs = Repository.objects.create(team=people.other_team, name="theirs", clone_url="https://example.com/t.git")
    other = make_request(theirs)
    for url in (f"/repositories/{repository.pk}/merge-requests/", f"/merge-requests/{mine.pk}/"):
        response = api["charlie"].get(url)
        assert (response.status_code, response.json()) == (404, {"detail": "Not found."}), url
    assert api["vera"].get(f"/merge-requests/{other.pk}/").status_code == 404
    assert api["vera"].get("/merge-requests/999999/").status_code == 404
    assert [r["id"] for r in api["charlie"].get(f"/repositories/{theirs.pk}/merge-requests/").json()["items"]] == [
        other.pk
    ]
    assert MergeRequest.objects.count() == 2
