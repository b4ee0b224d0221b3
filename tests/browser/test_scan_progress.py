"""A scan started with the repository page's button, watched live on the scan page until it finishes, with a real
Celery worker cloning a real git repository."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from portal.scans.models import Scan
from tests.browser.data import build_project
from tests.portal.worker import Worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(live, tmp_path):
    worker = Worker(tmp_path / "worker.log", CELERY_BROKER_URL=live.redis.url)
    yield worker
    worker.stop()


def test_a_scan_started_from_the_repository_page_moves_to_finished(tab, people, repo_factory, worker):
    project = build_project(people, repo_factory("cuda-demo"), scanned=False)
    repository = project.repository
    tab.sign_in(people.bob)
    page = tab.page
    tab.go(f"/repositories/{repository.pk}/")
    tab.shoot("repository-before")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile(r"scan\b.*\bnow", re.I)).click()
    scan = Scan.objects.get(repository=repository)
    link = page.locator(f'main a[href="/scans/{scan.pk}/"]')
    if link.count():
        link.first.click()
        page.wait_for_url(f"**/scans/{scan.pk}/")
    else:  # the repository page does not link its scans yet (see the report)
        tab.go(f"/scans/{scan.pk}/")
    tab.mark()
    status = page.locator("#scan-progress [data-status]")
    first = status.get_attribute("data-status")
    # cloning and scanning take seconds, opening the page a fraction of one: the page opens on a live scan
    assert first in ("queued", "cloning", "scanning", "ingesting"), first
    tab.shoot("scan-started")
    expect(status).to_have_attribute("data-status", "finished", timeout=120_000)
    assert tab.not_reloaded(), "the progress must update in place"
    scan.refresh_from_db()
    new = scan.summary["tracking"]["new"]
    assert new > 50
    expect(page.locator("#scan-progress")).to_contain_text(str(new))
    # what the finished scan says about itself, updated in place: its commit, times, size and parse modes
    expect(page.locator("#scan-progress h1")).to_contain_text(scan.commit_sha[:10])
    expect(page.locator("#scan-times")).to_contain_text("took")
    expect(page.locator("#scan-size")).to_contain_text(f"{scan.summary['lines']} lines")
    expect(page.locator("#scan-parse-modes")).to_contain_text("ast")
    tab.shoot("scan-finished")
    # polling stopped at the final state (HTTP 286): no more progress requests
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/progress/" in request.url else None)
    time.sleep(4.5)  # two polling periods
    page.evaluate("1")  # let the event loop deliver pending events
    assert polls == []
