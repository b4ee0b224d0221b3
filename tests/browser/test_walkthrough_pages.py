"""The pages the team walk-through found wanting, as a person sees them in each language: a finished scan's page
(times, size, how the files were read), a big file's page and the findings list's count and confirmed bulk triage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.files.test_big_file_page import DEEP, PATH, big_source
from tests.portal.files.test_file_views import add_finding, add_scan

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def walked(people):
    repository = Repository.objects.create(team=people.team, name="trainer", clone_url="https://example.com/t.git")
    scan = add_scan(repository, {PATH: big_source()})
    started = timezone.now() - timedelta(minutes=4)
    Scan.objects.filter(pk=scan.pk).update(
        started=started,
        finished=started + timedelta(minutes=3, seconds=12),
        files_total=1,
        files_done=1,
        summary={
            "tracking": {"new": 3, "fixed": 0, "reopened": 0},
            "files": 1,
            "lines": 4000,
            "parse_modes": {"ast-stubbed": 1},
        },
    )
    for n, line in enumerate((150, DEEP, DEEP + 400), start=1):
        add_finding(repository, scan, line=line, path=PATH, n=n)
    return repository, scan


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_scan_page_says_when_how_long_and_how_its_files_were_read(request, people, walked, language):
    tab = request.getfixturevalue("tab" if language == "en" else "zh_tab")
    _repository, scan = walked
    tab.sign_in(people.bob)
    tab.go(f"/scans/{scan.pk}/")
    page = tab.page
    words = {"en": ("took", "3 min 12 s", "How the files were read"), "zh": ("耗时", "3 分 12 秒", "文件的读取方式")}
    took, duration, caption = words[language]
    expect(page.locator("#scan-times")).to_contain_text(took)
    expect(page.locator("#scan-times")).to_contain_text(duration)
    expect(page.locator("#scan-parse-modes")).to_contain_text(caption)
    expect(page.locator("#scan-progress h1")).to_contain_text(scan.commit_sha[:10])
    tab.shoot(f"scan-{language}", full_page=False)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_big_files_gaps_say_what_they_hold_and_open_in_place(request, people, walked, language):
    tab = request.getfixturevalue("tab" if language == "en" else "zh_tab")
    repository, _scan = walked
    tab.sign_in(people.bob)
    tab.go(f"/repositories/{repository.pk}/files/{PATH}")
    page = tab.page
    expect(page.locator(f"#L{DEEP}")).to_be_visible()
    gap = page.locator("tr.gap[data-start]").first
    expect(gap).to_contain_text({"en": "Show lines", "zh": "显示第"}[language])
    tab.mark()
    gap.locator("a").click()
    expect(page.locator("#L150")).to_be_visible()
    assert tab.not_reloaded()
    page.locator("#L150").scroll_into_view_if_needed()
    tab.shoot(f"big-file-gap-opened-{language}", full_page=False)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_findings_list_counts_and_a_bulk_triage_asks_first(request, people, walked, language):
    tab = request.getfixturevalue("tab" if language == "en" else "zh_tab")
    tab.sign_in(people.bob)
    tab.go("/findings/")
    page = tab.page
    expect(page.locator("#match-count")).to_have_attribute("data-total", "3")
    expect(page.locator("#match-count")).to_contain_text({"en": "3 findings match.", "zh": "3"}[language])
    page.locator("select[name=decision]").last.select_option("wont_fix")
    page.locator("select[name=scope]").select_option("all")
    with page.expect_navigation():
        page.locator("#bulk-form button[type=submit]").click()
    expect(page.locator("#bulk-summary")).to_have_attribute("data-count", "3")
    tab.shoot(f"bulk-confirm-{language}", full_page=False)
    assert not Finding.objects.exclude(triage="untriaged").exists()
