"""From a reviewed file to a merge request, in Chromium (portal/ports/views.py): review a file's translation, open
a merge request with it from the file page, follow the request's page (queued: no worker listens in these tests),
then a failure recorded as the worker would (no write access) shows its advice and the patch download, and Retry
queues the request again. Screenshots: var/test-artifacts/screenshots/*merge-request-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.ports.models import MergeRequest
from portal.statuses.models import CommitStatusConfig

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "src/gemm.cu"


def connect(repository) -> None:
    config = CommitStatusConfig(repository=repository, provider="gitlab", api_url="https://gitlab.example/api/v4")
    config.project = "gpu/cuda-demo"
    config.set_token("glpat-secret")
    config.save()


def review_and_open(tab, repository) -> MergeRequest:
    """On the file page: mark the translation OK (htmx), then open a merge request with this one file."""
    page = tab.page
    tab.go(f"/repositories/{repository.pk}/files/{PATH}")
    page.locator('#review button[name="state"][value="ok"]').click()
    expect(page.locator('#review [data-review="ok"]')).to_be_visible()
    button = page.locator("#review form.mr-here button[type=submit]")
    expect(button).to_be_visible()
    button.scroll_into_view_if_needed()
    return button


def fail_as_the_worker_would(request: MergeRequest) -> None:
    MergeRequest.objects.filter(pk=request.pk).update(
        state=MergeRequest.State.FAILED,
        attempts=1,
        error_code="no_write_access",
        error_message="the repository's credentials can read but not push: give them write access (or download the patch)",
    )


def test_a_reviewed_file_becomes_a_merge_request_and_a_failure_can_be_retried(tab, project):
    repository = project.repository
    connect(repository)
    page = tab.page
    tab.sign_in(project.people.bob)

    button = review_and_open(tab, repository)
    expect(button).to_have_text("Open a merge request with this file")
    tab.shoot("merge-request-reviewed-file", full_page=False)

    with page.expect_navigation():
        button.click()
    request = MergeRequest.objects.get(repository=repository)
    assert request.files == [PATH] and request.state == "queued" and request.created_by == project.people.bob
    assert page.url.endswith(f"/repositories/{repository.pk}/merge-requests/{request.pk}/")
    expect(page.locator(".messages")).to_contain_text("Merge request asked for")
    state = page.locator("#mr-state")
    expect(state).to_have_attribute("data-state", "queued")
    expect(state).to_have_attribute("hx-trigger", "every 2s")
    expect(page.locator("#mr-files")).to_contain_text(PATH)
    expect(state).to_contain_text(request.branch)
    tab.shoot("merge-request-queued")

    # the dashboard and the list lead here; a second click on the file page finds the same request
    tab.go(f"/repositories/{repository.pk}/dashboard/")
    page.locator(".page-head .actions").get_by_role("link", name="Merge requests").click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_contain_text("Merge requests of cuda-demo")
    expect(page.locator(f'tr[data-mr="{request.pk}"] [data-state="queued"]')).to_be_visible()
    tab.shoot("merge-request-list")
    tab.go(f"/repositories/{repository.pk}/files/{PATH}")
    badge = page.locator("main p.muted [data-merge-request]")
    expect(badge).to_have_text("in a merge request being opened")
    expect(page.locator("#review form.mr-here")).to_have_count(0)  # no second request for a file already in one
    tab.shoot("merge-request-file-badge", full_page=False)

    # the worker records a failure: the polled page shows it without a reload, with what to do
    tab.go(f"/repositories/{repository.pk}/merge-requests/{request.pk}/")
    tab.mark()
    fail_as_the_worker_would(request)
    alert = page.locator('[data-error-code="no_write_access"]')
    expect(alert).to_be_visible(timeout=15_000)
    assert tab.not_reloaded()
    expect(page.locator("#mr-state")).not_to_have_attribute("hx-trigger", "every 2s")  # polling stopped (HTTP 286)
    expect(alert).to_contain_text("Give them write access")
    patch_link = alert.locator("[data-patch-link]")
    expect(patch_link).to_have_attribute("href", f"/repositories/{repository.pk}/patch/")
    tab.shoot("merge-request-failed")

    # Retry: queued again, polled again
    with page.expect_navigation():
        alert.get_by_role("button", name="Retry").click()
    expect(page.locator(".messages")).to_contain_text("Trying again")
    expect(page.locator("#mr-state")).to_have_attribute("data-state", "queued")
    request.refresh_from_db()
    assert request.state == "queued" and request.attempts == 1
    tab.shoot("merge-request-retried")


def test_the_merge_request_pages_under_zh_hans(zh_tab, project):
    """The same pages in a zh-CN browser (screenshots only: the new strings are translated afterwards)."""
    repository = project.repository
    connect(repository)
    tab, page = zh_tab, zh_tab.page
    tab.sign_in(project.people.bob)
    button = review_and_open(tab, repository)
    tab.shoot("merge-request-reviewed-file-zh-hans", full_page=False)
    with page.expect_navigation():
        button.click()
    request = MergeRequest.objects.get(repository=repository)
    expect(page.locator("#mr-state")).to_have_attribute("data-state", "queued")
    tab.shoot("merge-request-queued-zh-hans")
    fail_as_the_worker_would(request)
    expect(page.locator('[data-error-code="no_write_access"]')).to_be_visible(timeout=15_000)
    tab.shoot("merge-request-failed-zh-hans")
    tab.go(f"/repositories/{repository.pk}/merge-requests/")
    expect(page.locator(f'tr[data-mr="{request.pk}"] [data-state="failed"]')).to_be_visible()
    tab.shoot("merge-request-list-zh-hans")
