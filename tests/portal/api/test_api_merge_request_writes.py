"""API: asking for a merge request and retrying a failed one, through the pages' own actions (portal.ports.actions):
engineers and up write, viewers read, read-only tokens never write, another team gets 404; the same content asked
twice is the same request (201, then 200), as two clicks on the page; errors in the one `{"detail": …}` shape. The
Celery task is not run: the test's transaction never commits, so `on_commit` never sends it."""

from __future__ import annotations

import pytest

from portal.ports.models import MergeRequest
from tests.portal.api_clients import ApiClient, clients
from tests.portal.files.test_file_views import PATH
from tests.portal.ports import test_merge_request_views as pages
from tests.portal.ports.test_merge_request_views import OTHER, make_request, review

# the pages' fixtures: a repository, its scan of two files, and both translations reviewed on a connected host
repository, scanned, ready = pages.repository, pages.scanned, pages.ready


@pytest.fixture
def api(people):
    return clients(people)


def url(repository) -> str:
    return f"/repositories/{repository.pk}/merge-requests/"


@pytest.mark.django_db
def test_an_engineer_asks_for_every_reviewed_file_and_asking_again_is_the_same_request(api, ready):
    first = api["bob"].post(url(ready), {})
    assert first.status_code == 201, first.content
    body = first.json()
    assert (body["state"], body["in_flight"], body["files"]) == ("queued", True, sorted([PATH, OTHER]))
    assert body["branch"] == f"rocport/port-{body['id']}" and body["created_by"] == "bob"
    assert body["mode"] == ready.port_mode and body["left_for_people"] == [] and body["advice"] == ""
    again = api["alice"].post(url(ready), {"files": None})  # a manager too; the same content
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert MergeRequest.objects.count() == 1


@pytest.mark.django_db
def test_the_files_and_the_mode_are_the_forms(api, ready):
    response = api["bob"].post(url(ready), {"files": [OTHER], "mode": "side_by_side"})
    assert response.status_code == 201
    made = MergeRequest.objects.get(pk=response.json()["id"])
    assert (made.files, made.mode) == ([OTHER], "side_by_side")
    other = api["bob"].post(url(ready), {"files": [OTHER], "mode": "in_place"})  # another mode, another request
    assert other.status_code == 201 and other.json()["id"] != made.pk


@pytest.mark.django_db
def test_refusals_say_why_in_one_shape(api, ready, repository, scanned):
    for body, status, words in (
        ({"files": []}, 400, "Choose at least one file"),
        ({"files": ["src/never-reviewed.cu"]}, 400, "No reviewed translation applies"),
        ({"mode": "sideways"}, 422, "mode"),
        ({"files": "src/a.cu"}, 422, "files"),
    ):
        response = api["bob"].post(url(ready), body)
        assert response.status_code == status and words in response.json()["detail"], (body, response.json())
    assert MergeRequest.objects.count() == 0


@pytest.mark.django_db
def test_without_a_host_connection_the_pages_refusal(people, api, repository, scanned):
    review(repository, people)
    response = api["bob"].post(url(repository), {})
    assert response.status_code == 400 and "Connect the git host first" in response.json()["detail"]


@pytest.mark.django_db
def test_viewers_and_read_only_tokens_never_write_and_another_team_gets_404(people, api, ready):
    viewer = api["vera"].post(url(ready), {})
    assert viewer.status_code == 403 and "engineer role" in viewer.json()["detail"]
    read_only = ApiClient(people.alice, read_only=True).post(url(ready), {})
    assert read_only.status_code == 403 and "read-only" in read_only.json()["detail"]
    outsider = api["charlie"].post(url(ready), {})
    assert (outsider.status_code, outsider.json()) == (404, {"detail": "Not found."})
    failed = make_request(ready, state="failed", error_code="host_refused")
    for client, status in ((api["vera"], 403), (ApiClient(people.bob, read_only=True), 403), (api["charlie"], 404)):
        assert client.post(f"/merge-requests/{failed.pk}/retry/").status_code == status
    failed.refresh_from_db()
    assert failed.state == "failed" and MergeRequest.objects.count() == 1


@pytest.mark.django_db
def test_retry_requeues_a_failed_request_and_refuses_any_other(api, ready):
    failed = make_request(ready, state="failed", error_code="push_failed", error_message="remote hung up")
    response = api["bob"].post(f"/merge-requests/{failed.pk}/retry/")
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["state"], response.json()["in_flight"]) == (
        failed.pk,
        "queued",
        True,
    )
    again = api["bob"].post(f"/merge-requests/{failed.pk}/retry/")
    assert again.status_code == 400 and "Only a failed merge request" in again.json()["detail"]
    assert api["bob"].post("/merge-requests/999999/retry/").status_code == 404


@pytest.mark.django_db
def test_a_retry_that_would_duplicate_an_active_request_is_refused(api, ready):
    active = make_request(ready, state="open", key="same")
    failed = make_request(ready, state="failed", error_code="host_refused", key="same-old")
    # the same content, asked again after this one failed
    MergeRequest.objects.filter(pk=failed.pk).update(key=active.key)
    response = api["bob"].post(f"/merge-requests/{failed.pk}/retry/")
    assert response.status_code == 400 and "already open" in response.json()["detail"]
    failed.refresh_from_db()
    assert failed.state == "failed"


@pytest.mark.django_db
def test_the_writes_are_in_the_openapi_document(api):
    paths = api["vera"].client.get("/api/v1/openapi.json").json()["paths"]
    create = paths["/api/v1/repositories/{repository_id}/merge-requests/"]["post"]
    assert {"200", "201", "400", "403", "404", "422"} <= set(create["responses"])
    assert "requestBody" in create
    retry = paths["/api/v1/merge-requests/{merge_request_id}/retry/"]["post"]
    assert {"200", "400", "403", "404"} <= set(retry["responses"])
