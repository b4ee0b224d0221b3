"""The merge request pages (portal/ports/views.py): the repository's list with the "new merge request" form and
its empty states, asking for a request (two clicks make one), one request's page with its polled state, advice
and retry, for each role and across teams; and the badges of the file and finding pages. The Celery task is not
run: with the test's transaction never committed, `on_commit` never sends it, so a new request stays queued."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.files.models import TranslationReview
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository
from portal.statuses.models import CommitStatusConfig
from tests.portal.files.test_file_views import PATH, SOURCE, add_finding, add_scan, review_form
from tests.portal.htmx import HTMX, fragment, varies_on_htmx
from tests.portal.people import client_for

OTHER = "src/other.cu"


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


@pytest.fixture
def scanned(repository):
    scan = add_scan(repository, {PATH: SOURCE, OTHER: SOURCE.replace("cudaFree", "cudaFree(d); cudaFree")})
    add_finding(repository, scan)
    return scan


def connect(repository, provider: str = "github") -> CommitStatusConfig:
    config = CommitStatusConfig(
        repository=repository, provider=provider, api_url="https://api.github.com", project="o/k"
    )
    config.set_token("secret-token")
    config.save()
    return config


def review(repository, people, path: str = PATH, state: str = "ok") -> TranslationReview:
    form = review_form(state, path)
    return TranslationReview.objects.create(
        repository=repository,
        path=path,
        blob_sha=form["blob"],
        translation_sha=form["translation"],
        state=state,
        reviewer=people.bob,
    )


@pytest.fixture
def ready(people, repository, scanned):
    """A connected repository with both files' translations reviewed."""
    connect(repository)
    review(repository, people, PATH)
    review(repository, people, OTHER, "done")
    return repository


def list_url(repository):
    return reverse("ports:list", args=[repository.pk])


def new_url(repository):
    return reverse("ports:new", args=[repository.pk])


def detail_url(request):
    return reverse("ports:detail", args=[request.repository_id, request.pk])


def retry_url(request):
    return reverse("ports:retry", args=[request.repository_id, request.pk])


def make_request(repository, files=(PATH,), **fields) -> MergeRequest:
    defaults = {"base_commit": "c" * 40, "target_branch": "main", "key": f"k{MergeRequest.objects.count()}"}
    request = MergeRequest.objects.create(repository=repository, files=list(files), **{**defaults, **fields})
    if not request.branch:
        request.branch = f"rocport/port-{request.pk}"
        request.save(update_fields=["branch"])
    return request


# -- the list and the form --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_list_offers_every_reviewed_translation_checked_with_one_button(people, ready):
    html = client_for(people.bob).get(list_url(ready)).content.decode()
    assert html.count('name="paths"') == 2 and html.count(" checked>") >= 2
    assert f'value="{PATH}" checked' in html and f'value="{OTHER}" checked' in html
    assert (
        html.count('type="submit" class="primary"') == 1
        and 'data-empty="no-host"' not in html
        and 'data-empty="no-reviews"' not in html
    )


@pytest.mark.django_db
def test_outdated_reviews_are_listed_as_left_out_with_why(people, ready):
    add_scan(ready, {PATH: SOURCE + "// changed\n"}, "finished", "2")  # OTHER is gone from the newest scan
    html = client_for(people.bob).get(list_url(ready)).content.decode()
    assert 'name="paths"' not in html and 'data-empty="no-reviews"' in html
    assert "2 reviewed files left out" in html and "reviewed on an older version of the file" in html


@pytest.mark.django_db
def test_without_a_review_the_page_says_how_to_get_one(people, repository, scanned):
    connect(repository)
    html = client_for(people.bob).get(list_url(repository)).content.decode()
    assert 'data-empty="no-reviews"' in html and 'name="paths"' not in html
    assert reverse("dashboards:repository", args=[repository.pk]) in html
    assert 'data-empty="no-requests"' in html


@pytest.mark.django_db
def test_without_a_host_connection_the_page_links_to_the_settings_and_the_patch(people, repository, scanned):
    review(repository, people)
    html = client_for(people.bob).get(list_url(repository)).content.decode()
    assert 'data-empty="no-host"' in html
    assert reverse("repositories:settings", args=[repository.pk]) + "#commit-statuses" in html
    assert reverse("files:patch", args=[repository.pk]) in html
    assert "disabled" in html  # the button waits for the connection


@pytest.mark.django_db
def test_the_list_shows_newest_first_25_a_page_with_retry_for_failed_ones(people, ready):
    for _n in range(27):
        make_request(ready, state="closed")
    failed = make_request(ready, state="failed", error_code="host_refused", error_message="HTTP 422 from the host")
    client = client_for(people.bob)
    first = client.get(list_url(ready))
    rows = list(first.context["page"].object_list)
    assert len(rows) == 25 and rows[0] == failed
    html = first.content.decode()
    assert retry_url(failed) in html and "HTTP 422 from the host" in html and 'rel="next"' in html
    assert len(client.get(list_url(ready) + "?page=2").context["page"].object_list) == 3
    assert retry_url(failed) not in client_for(people.vera).get(list_url(ready)).content.decode()


@pytest.mark.django_db
def test_a_viewer_reads_the_list_without_the_form(people, ready):
    response = client_for(people.vera).get(list_url(ready))
    assert response.status_code == 200
    html = response.content.decode()
    assert PATH in html and 'name="paths"' not in html and new_url(ready) not in html


# -- asking for one ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_engineer_opens_a_merge_request_and_lands_on_its_page(people, ready):
    client = client_for(people.bob)
    response = client.post(new_url(ready), {"paths": [PATH, OTHER]})
    request = MergeRequest.objects.get()
    assert response.status_code == 302 and response["Location"] == detail_url(request)
    assert (request.state, request.files, request.created_by) == ("queued", [PATH, OTHER], people.bob)
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Merge request asked for" in html and 'data-state="queued"' in html
    assert 'hx-trigger="every 2s"' in html and request.branch in html and PATH in html


@pytest.mark.django_db
def test_two_clicks_make_one_merge_request(people, ready):
    client = client_for(people.bob)
    first = client.post(new_url(ready), {"paths": [PATH]}, follow=True)
    second = client.post(new_url(ready), {"paths": [PATH]}, follow=True)
    request = MergeRequest.objects.get()
    assert first.redirect_chain[-1][0] == second.redirect_chain[-1][0] == detail_url(request)
    assert "already requested" in second.content.decode() and "already requested" not in first.content.decode()


@pytest.mark.django_db
def test_only_the_checked_files_go_in(people, ready):
    client_for(people.alice).post(new_url(ready), {"paths": [OTHER], "mode": "side_by_side"})
    request = MergeRequest.objects.get()
    assert (request.files, request.mode) == ([OTHER], "side_by_side")


@pytest.mark.django_db
def test_a_refusal_is_shown_on_the_page_with_the_choice_kept(people, repository, scanned):
    review(repository, people, PATH)
    review(repository, people, OTHER)
    response = client_for(people.bob).post(new_url(repository), {"paths": [OTHER]})
    html = response.content.decode()
    assert response.status_code == 200 and 'data-form-error="1"' in html and "Connect the git host first" in html
    assert f'value="{OTHER}" checked' in html and f'value="{PATH}">' in html  # the person's choice, not the default
    assert not MergeRequest.objects.exists()


@pytest.mark.django_db
def test_nothing_checked_asks_for_a_file(people, ready):
    response = client_for(people.bob).post(new_url(ready), {})
    assert response.status_code == 200 and "Choose at least one file" in response.content.decode()
    assert not MergeRequest.objects.exists()


@pytest.mark.django_db
def test_a_file_without_an_applying_review_is_refused(people, repository, scanned):
    connect(repository)
    response = client_for(people.bob).post(new_url(repository), {"paths": [PATH]})
    assert "No reviewed translation applies" in response.content.decode()
    assert not MergeRequest.objects.exists()


# -- one request ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_state_is_polled_while_in_flight_and_polling_stops_at_a_final_state(people, ready):
    request = make_request(ready)
    client = client_for(people.vera)
    live = client.get(detail_url(request), headers=HTMX)
    assert 'hx-trigger="every 2s"' in fragment(live) and varies_on_htmx(live)
    MergeRequest.objects.filter(pk=request.pk).update(state="open", number=12, url="https://github.com/o/k/pull/12")
    final = client.get(detail_url(request), headers=HTMX)
    html = final.content.decode()
    assert final.status_code == 286 and "hx-trigger" not in html
    assert "Merge request #12" in html and 'href="https://github.com/o/k/pull/12"' in html


@pytest.mark.django_db
def test_a_gitlab_request_is_labelled_with_a_bang(people, repository, scanned):
    connect(repository, "gitlab")
    request = make_request(repository, state="open", number=7, url="https://gitlab.example/o/k/-/merge_requests/7")
    assert "Merge request !7" in client_for(people.vera).get(detail_url(request)).content.decode()


@pytest.mark.django_db
def test_no_write_access_advises_write_access_or_the_patch_and_retry_requeues(people, ready):
    request = make_request(
        ready,
        files=[PATH],
        state="failed",
        error_code="no_write_access",
        error_message="the repository's credentials can read but not push",
        attempts=1,
        left_for_people=[[OTHER, "reviewed on an older version of the file: review it again"]],
    )
    client = client_for(people.bob)
    html = client.get(detail_url(request)).content.decode()
    assert 'data-error-code="no_write_access"' in html and "Give them write access" in html
    assert f'href="{reverse("files:patch", args=[ready.pk])}"' in html and retry_url(request) in html
    assert "Left for people" in html and OTHER in html
    response = client.post(retry_url(request), follow=True)
    request.refresh_from_db()
    html = response.content.decode()
    assert request.state == "queued" and "Trying again" in html and 'hx-trigger="every 2s"' in html
    assert "data-transient" not in html  # the old failure is not shown as the state of the new attempt
    again = client.post(retry_url(request), follow=True)  # not failed any more: refused, said so
    assert "Only a failed merge request" in again.content.decode()


@pytest.mark.parametrize(
    "code, words",
    [
        ("target_moved", "Scan the branch again"),
        ("branch_exists", "Delete that branch on the host"),
        ("host_refused", "the right to open merge requests"),
        ("host_unavailable", "Try again later"),
        ("reviews_changed", "Open a new merge request"),
        ("no_host", "commit statuses section in Settings"),
    ],
)
@pytest.mark.django_db
def test_each_failure_says_what_to_do(people, ready, code, words):
    request = make_request(ready, state="failed", error_code=code, error_message="detail")
    html = client_for(people.vera).get(detail_url(request)).content.decode()
    assert words in html and f'data-error-code="{code}"' in html
    assert retry_url(request) not in html  # a viewer sees no retry button


# -- roles, teams, CSRF -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_viewer_cannot_post(people, ready):
    request = make_request(ready, state="failed", error_code="host_refused")
    vera = client_for(people.vera)
    assert vera.post(new_url(ready), {"paths": [PATH]}).status_code == 403
    assert vera.post(retry_url(request)).status_code == 403
    request.refresh_from_db()
    assert request.state == "failed" and MergeRequest.objects.count() == 1


@pytest.mark.django_db
def test_another_team_gets_404_everywhere(people, ready):
    request = make_request(ready, state="failed", error_code="host_refused")
    charlie = client_for(people.charlie)
    for url in (list_url(ready), detail_url(request)):
        assert charlie.get(url).status_code == 404
    assert charlie.post(new_url(ready), {"paths": [PATH]}).status_code == 404
    assert charlie.post(retry_url(request)).status_code == 404
    assert client_for(people.bob).get(list_url(ready)).status_code == 200


@pytest.mark.django_db
def test_a_request_is_only_found_under_its_own_repository(people, ready):
    theirs = Repository.objects.create(team=people.other_team, name="x", clone_url="https://example.com/x.git")
    ours_too = Repository.objects.create(team=people.team, name="y", clone_url="https://example.com/y.git")
    foreign = make_request(theirs, state="failed", error_code="host_refused")
    bob = client_for(people.bob)
    # our repository's pk with another repository's request: 404, whoever owns that request
    for other in (foreign, make_request(ours_too, state="failed", error_code="host_refused")):
        assert bob.get(reverse("ports:detail", args=[ready.pk, other.pk])).status_code == 404
        assert bob.post(reverse("ports:retry", args=[ready.pk, other.pk])).status_code == 404
    foreign.refresh_from_db()
    assert foreign.state == "failed"


@pytest.mark.django_db
def test_the_forms_need_a_csrf_token(people, ready):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.bob)
    assert client.post(new_url(ready), {"paths": [PATH]}).status_code == 403
    failed = make_request(ready, files=[OTHER], state="failed", error_code="host_refused")
    assert client.post(retry_url(failed)).status_code == 403
    token = client.get(list_url(ready)).cookies["csrftoken"].value
    assert client.post(new_url(ready), {"paths": [PATH]}, HTTP_X_CSRFTOKEN=token).status_code == 302
    assert MergeRequest.objects.count() == 2


@pytest.mark.django_db
def test_anonymous_is_sent_to_sign_in(ready):
    response = Client().get(list_url(ready))
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


# -- entry points and badges ------------------------------------------------------------------------------


def file_url(repository, path=PATH):
    return reverse("files:file", args=[repository.pk, path])


@pytest.mark.django_db
def test_the_file_page_offers_a_merge_request_of_a_reviewed_file(people, ready, scanned):
    html = client_for(people.bob).get(file_url(ready)).content.decode()
    assert "Open a merge request with this file" in html and new_url(ready) in html
    assert f'name="paths" value="{PATH}"' in html and "data-merge-request" not in html
    assert "Open a merge request with this file" not in client_for(people.vera).get(file_url(ready)).content.decode()


@pytest.mark.django_db
def test_the_file_page_has_no_button_before_the_review_says_ok(people, repository, scanned):
    connect(repository)
    review(repository, people, PATH, "needs_work")
    assert (
        "Open a merge request with this file" not in client_for(people.bob).get(file_url(repository)).content.decode()
    )


@pytest.mark.django_db
def test_the_file_page_shows_the_active_request_that_carries_the_file(people, ready):
    request = make_request(ready, files=[OTHER, PATH], state="open", number=12, url="https://github.com/o/k/pull/12")
    html = client_for(people.vera).get(file_url(ready)).content.decode()
    assert "in merge request #12" in html and f'href="{detail_url(request)}"' in html
    assert "Open a merge request with this file" not in client_for(people.bob).get(file_url(ready)).content.decode()
    MergeRequest.objects.filter(pk=request.pk).update(state="merged")
    assert "in merge request #12" not in client_for(people.vera).get(file_url(ready)).content.decode()


@pytest.mark.django_db
def test_the_file_badge_ignores_a_request_of_another_file(people, ready):
    make_request(ready, files=["src/k.cuh"], state="open", number=3)
    assert "data-merge-request" not in client_for(people.vera).get(file_url(ready)).content.decode()


@pytest.mark.django_db
def test_the_finding_page_shows_the_active_request_of_its_file(people, ready, scanned):
    finding = ready.findings.get()
    make_request(ready, files=[PATH], state="queued")
    html = client_for(people.vera).get(reverse("findings:detail", args=[finding.pk])).content.decode()
    assert "in a merge request being opened" in html


@pytest.mark.django_db
def test_the_repository_dashboard_links_to_the_merge_requests(people, ready):
    html = client_for(people.vera).get(reverse("dashboards:repository", args=[ready.pk])).content.decode()
    assert f'href="{list_url(ready)}"' in html


@pytest.mark.django_db
def test_a_host_failing_for_now_is_shown_while_the_worker_tries_again(people, ready):
    request = make_request(
        ready, state="pushed", error_message="gitlab.example answered HTTP 502; trying again shortly"
    )
    html = client_for(people.vera).get(detail_url(request), headers=HTMX).content.decode()
    assert 'data-transient="1"' in html and "HTTP 502" in html and 'hx-trigger="every 2s"' in html


@pytest.mark.django_db
def test_the_repositorys_port_mode_is_the_forms_default(people, ready, settings):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    checked = 'name="mode" value="{}" checked'
    assert checked.format("in_place") in client_for(people.bob).get(list_url(ready)).content.decode()
    page = reverse("repositories:settings", args=[ready.pk])
    data = {"action": "repository", "clone_url": ready.clone_url, "default_branch": ready.default_branch}
    assert client_for(people.alice).post(page, {**data, "port_mode": "side_by_side"}).status_code == 302
    ready.refresh_from_db()
    assert ready.port_mode == "side_by_side"
    assert checked.format("side_by_side") in client_for(people.bob).get(list_url(ready)).content.decode()
    client_for(people.bob).post(new_url(ready), {"paths": [PATH]})  # no mode posted: the repository's
    assert MergeRequest.objects.get().mode == "side_by_side"
    client_for(people.alice).post(page, data)  # a form without the field keeps the stored mode
    ready.refresh_from_db()
    assert ready.port_mode == "side_by_side"


STORY = {
    "resolved": [{"rule": "ROC151", "name": "api.cuda_api_deprecated", "n": 2}],
    "left": [{"rule": "ROC101", "name": "warp.warp_size_lane_arithmetic", "n": 1}],
    "before": {"done": 1.0, "left": 9.0, "descoped": 0.0, "baseline": 10.0, "files": [2, 1, 1]},
    "after": {"done": 5.0, "left": 5.0, "descoped": 0.0, "baseline": 10.0, "files": [1, 1, 2]},
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Resolves 2 open findings", "(estimated): 10% → 50%", "files done: 1 → 2", "1 open finding in"]),
        ("zh-hans", ["解决 2 个未解决问题", "（估算）：10% → 50%", "已完成文件：1 → 2", "有 1 个未解决问题"]),
    ],
)
def test_the_request_page_says_what_the_port_resolves_leaves_and_brings(people, ready, language, words):
    request = make_request(ready, state="open", number=3, story=STORY)
    client = client_for(people.vera, headers={"Accept-Language": language})
    html = client.get(detail_url(request)).content.decode()
    story = html.split('id="mr-story"')[1]
    assert all(word in story for word in words), story
    resolves, left = story.split('data-resolves="1"')[1].split('data-left="1"')
    assert f"?repository={ready.pk}&amp;rule=ROC151" in resolves and "ROC101" not in resolves
    assert "rule=ROC101" in left


@pytest.mark.django_db
def test_before_the_push_the_page_says_the_story_comes_with_the_branch(people, ready):
    html = client_for(people.vera).get(detail_url(make_request(ready))).content.decode()
    assert 'data-story="0"' in html and "Known once the branch is pushed." in html
