"""What a team trips over in its first week (issue 21), as a person sees it in English and Simplified Chinese:

- defect 1: a CI upload of a commit a worker scanned keeps the file page's source and translation, and a review made
  before the upload stays current; an upload alone says plainly what it does not carry and offers a worker's scan;
- defect 9: the dashboard's "Parse" column names a stubbed file's mode, and the portfolio and the dashboard give the
  same age for a scan created long before it finished;
- defect 7c: on the findings list the newest filters win over a slow earlier request (URL, form and results), and
  a slow page link does not overwrite the results of a newer filter.

Screenshots go to var/test-artifacts/screenshots/ (test_first_week_pages's names)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from portal.findings.models import Finding
from portal.reporting import rollups
from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.dashboards import (
    test_dashboards_views as dashboards,  # by module: its tests are not collected again here
)
from tests.portal.files.test_file_views import KERNEL, review_form, review_url
from tests.portal.people import client_for
from tests.portal.scans.test_scan_tracking import register, scan
from tests.portal.scans.test_upload_keeps_reviews import upload_checkout
from tests.portal.uploads_data import bearer, file, finding, post, report, token

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "zh"]
PATH = "src/a.cu"
# What the file page said after an upload before the fix: the three wrong explanations, in both languages
WRONG = {
    "en": ("could not be read as UTF-8", "the compile check is off"),
    "zh": ("无法按 UTF-8 文本读取", "ROCPORT_COMPILE_CHECK"),
}


def _tab(request, language: str):
    return request.getfixturevalue("tab" if language == "en" else "zh_tab")


def _text(locator) -> str:
    """The element's text with runs of white space (Django's no-break spaces too) as one space."""
    return re.sub(r"\s+", " ", locator.inner_text().replace("\xa0", " "))


# -- defect 1: uploads ------------------------------------------------------------------------------------------


@pytest.fixture
def reviewed_then_uploaded(people, repo_factory, tmp_path, monkeypatch):
    """A worker's scan of a real git repository, the translation of src/a.cu reviewed "translation OK", then the
    README's CI recipe (`python -m scanner scan . --format json --upload`) on the same commit."""
    repo = repo_factory()
    repo.write(PATH, KERNEL.format(n=1))
    repo.write("src/b.cu", KERNEL.format(n=2))
    row = register(people, repo)
    worker = scan(row, repo.commit("kernels"))
    assert client_for(people.bob).post(review_url(row, PATH), review_form("ok", PATH)).status_code == 302
    uploaded = upload_checkout(people, row, repo, tmp_path, monkeypatch)
    assert uploaded.commit_sha == worker.commit_sha
    return row, worker, uploaded


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_upload_of_a_commit_a_worker_scanned_keeps_the_text_and_the_review(
    request, people, reviewed_then_uploaded, language
):
    row, worker, uploaded = reviewed_then_uploaded
    tab = _tab(request, language)
    tab.sign_in(people.bob)
    tab.go(f"/repositories/{row.pk}/files/{PATH}")
    page, main = tab.page, tab.page.locator("main")
    note = page.locator("[data-uploaded]")
    expect(note).to_contain_text(str(uploaded.pk))
    expect(note).to_contain_text(
        {"en": f"come from scan {worker.pk}, a worker's scan", "zh": "即工作进程对同一提交的扫描"}[language]
    )
    if language == "zh":
        assert f"来自扫描 {worker.pk}" in _text(note)
    # the source, as for a worker's scan …
    expect(page.locator("#source table.src")).to_be_visible()
    expect(page.locator("#source table.src")).to_contain_text("cudaMalloc(&d, 4);")
    # … and its HIP translation
    expect(page.locator("#translation")).to_contain_text("hipMalloc")
    assert int(page.locator(".card .value").nth(1).inner_text()) > 0  # references converted, not 0
    text = _text(main)
    # not "not UTF-8"; the compile box speaks for the worker's scan (run here with the check off, and saying so)
    assert WRONG[language][0] not in text
    # the review made before the upload is still the file's, not "outdated"
    expect(page.locator("[data-review]")).to_have_attribute("data-review", "ok")
    expect(page.locator("[data-outdated]")).to_have_count(0)
    assert ("Outdated" if language == "en" else "过时") not in text
    tab.shoot(f"upload-with-worker-scan-{language}")
    page.locator("#review").scroll_into_view_if_needed()
    tab.shoot(f"upload-with-worker-scan-review-{language}", full_page=False)


@pytest.fixture
def upload_alone(people):
    """An upload from CI of a commit no worker scanned (the only scan of the repository)."""
    repository = Repository.objects.create(
        team=people.team, name="kernels", clone_url="https://example.com/gpu/kernels.git"
    )
    response = post(
        bearer(token(people.bob)), repository, report(file(PATH, finding(line=3), converted=5), tree=[PATH])
    )
    assert response.status_code == 201, response.content
    return repository, Scan.objects.get(pk=response.json()["scan"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_upload_alone_says_what_it_does_not_carry_and_offers_a_workers_scan(request, people, upload_alone, language):
    repository, uploaded = upload_alone
    tab = _tab(request, language)
    tab.sign_in(people.bob)
    tab.go(f"/repositories/{repository.pk}/files/{PATH}")
    page, main = tab.page, tab.page.locator("main")
    words = {
        "en": {
            "note": f"Scan {uploaded.pk} was uploaded from CI",
            "source": "An upload does not carry the file's text.",
            "compile": "An upload carries no compile check.",
            "translation": "An upload does not carry the file's HIP translation",
            "button": "Scan main on a worker",
        },
        "zh": {
            "note": f"扫描 {uploaded.pk} 由 CI 上传",
            "source": "上传不包含文件文本。",
            "compile": "上传不包含编译检查。",
            "translation": "",
            "button": "由工作进程扫描 main",
        },
    }[language]
    note = page.locator("[data-uploaded]")
    expect(note).to_contain_text(words["note"])
    expect(page.locator("#source")).to_contain_text(words["source"])
    expect(page.locator("#source")).to_contain_text("ROC101")  # its findings, listed without the text
    expect(page.locator("#compile")).to_contain_text(words["compile"])
    if words["translation"]:
        expect(page.locator("#translation")).to_contain_text(words["translation"])
    expect(page.locator(".card .value").nth(1)).to_have_text("5")  # the converted count the upload carried
    text = _text(main)
    for wrong in WRONG[language]:
        assert wrong not in text, wrong
    button = note.get_by_role("button", name=words["button"])
    expect(button).to_be_visible()
    tab.shoot(f"upload-alone-{language}")
    # the offered scan: a worker's scan of the branch, queued
    with page.expect_navigation():
        button.click()
    rescan = Scan.objects.exclude(pk=uploaded.pk).get()
    assert (rescan.branch, rescan.trigger, rescan.status) == ("main", "manual", "queued")
    assert page.url.endswith(f"/scans/{rescan.pk}/")
    tab.shoot(f"upload-alone-rescan-queued-{language}", full_page=False)


def test_with_a_workers_scan_of_the_commit_the_compile_box_speaks_for_that_scan(tab, people, reviewed_then_uploaded):
    row, _worker, _uploaded = reviewed_then_uploaded
    tab.sign_in(people.bob)
    tab.go(f"/repositories/{row.pk}/files/{PATH}")
    box = tab.page.locator("#compile")
    box.scroll_into_view_if_needed()
    tab.shoot("compile-box-with-worker-scan", full_page=False)
    assert "An upload carries no compile check." not in _text(box)
    expect(box).to_contain_text("The scan did not compile this file")


def test_an_upload_alones_review_section_does_not_say_the_file_needs_no_translation(tab, people, upload_alone):
    repository, _uploaded = upload_alone
    tab.sign_in(people.bob)
    tab.go(f"/repositories/{repository.pk}/files/{PATH}")
    review = tab.page.locator("#review")
    review.scroll_into_view_if_needed()
    tab.shoot("upload-alone-review", full_page=False)
    assert "nothing in it needed one" not in _text(review)


# -- defect 9: dashboards ---------------------------------------------------------------------------------------


@pytest.fixture
def stubbed_scan(people):
    """A finished scan with a stubbed file that has findings and nothing unconverted (the blank "Parse" cell),
    created five hours before it finished twenty minutes ago."""
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")
    newest = dashboards.add_scan(
        repository,
        {"src/stubbed.cu": (dashboards.CLEAN, "ast-stubbed", ""), "src/k.cu": (dashboards.KERNEL, "ast", "")},
        tracking={"new": 2},
    )
    dashboards.add_findings(
        repository,
        newest,
        [
            ("src/stubbed.cu", "ROC150", "build-break", "medium", "untriaged", "open"),
            ("src/k.cu", "ROC101", "silent-wrong-result", "high", "untriaged", "open"),
        ],
    )
    rollups.refresh_after_ingest(newest)
    now = timezone.now()
    Scan.objects.filter(pk=newest.pk).update(created=now - timedelta(hours=5), finished=now - timedelta(minutes=20))
    return repository, newest


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_dashboards_name_a_stubbed_files_parse_mode_and_agree_on_a_scans_age(
    request, people, stubbed_scan, language
):
    repository, newest = stubbed_scan
    tab = _tab(request, language)
    tab.sign_in(people.vera)
    page = tab.page
    age = {"en": "20 minutes ago", "zh": "20 分钟前"}[language]
    created_age = {"en": "5 hours", "zh": "5 小时"}[language]

    tab.go(f"/repositories/{repository.pk}/dashboard/")
    work = page.locator("section[aria-labelledby=work] table")
    row = work.locator("tr").filter(has=page.locator("th.path a", has_text="src/stubbed.cu"))
    expect(row).to_have_count(1)
    expect(row.locator(".badge.mode-ast-stubbed")).to_have_text("ast-stubbed")
    headline = page.locator("p.muted").filter(has=page.locator(f'a[href="/scans/{newest.pk}/"]')).first
    assert age in _text(headline), _text(headline)
    row.scroll_into_view_if_needed()
    tab.shoot(f"dashboard-parse-column-{language}", full_page=False)
    page.evaluate("window.scrollTo(0, 0)")
    tab.shoot(f"dashboard-age-{language}", full_page=False)

    tab.go("/")
    portfolio_row = page.locator("table.portfolio tbody tr").filter(
        has=page.get_by_role("link", name=repository.name, exact=True)
    )
    expect(portfolio_row).to_have_count(1)
    # the newest scan's cell: its status, linked to the scan, and its age
    cell = portfolio_row.locator("td").filter(has=page.locator(f'a[href="/scans/{newest.pk}/"]'))
    expect(cell).to_have_count(1)
    cell_text = _text(cell)
    assert age in cell_text and created_age not in cell_text, cell_text
    portfolio_row.scroll_into_view_if_needed()
    tab.shoot(f"portfolio-age-{language}", full_page=False)


# -- defect 7c: the findings list's requests --------------------------------------------------------------------

SEVERITIES = ("high", "medium", "low")
RISKS = ("silent-wrong-result", "build-break", "performance")
ROWS = "#results tbody tr[id^='finding-']"


@pytest.fixture
def many_findings(people):
    """72 open findings over three severities, three risks and two triage states: more than a page (50)."""
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")
    newest = dashboards.add_scan(repository, {"src/k.cu": (dashboards.KERNEL, "ast", "")})
    specs = [
        (
            f"src/f{i % 9}.cu",
            "ROC101",
            RISKS[(i // 3) % 3],
            SEVERITIES[i % 3],
            ("untriaged", "confirmed")[i % 2],
            "open",
        )
        for i in range(72)
    ]
    dashboards.add_findings(repository, newest, specs)
    return repository


def _count(**filters) -> int:
    return Finding.objects.filter(state="open", **filters).count()


class Hold:
    """Holds back the browser's requests whose URL matches until released: a slow server, for one request."""

    def __init__(self, page, pattern: str, times: int = 1):
        self.page, self.held, self.seen, self.times = page, [], 0, times
        self.pattern = re.compile(pattern)
        page.route(self.pattern, self._handle)

    def _handle(self, route):
        if route.request.headers.get("hx-request") and self.seen < self.times:
            self.seen += 1
            self.held.append(route)
            return
        route.continue_()

    def release(self) -> None:
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # noqa: BLE001 - the browser gave the request up (htmx aborted it): nothing to send
                pass
        self.held = []
        self.page.unroute(self.pattern, self._handle)


def _shows(page, severity: str, risk: str, triage: str, total: int) -> None:
    """URL, form and results all for these filters."""
    expect(page.locator("#match-count")).to_have_attribute("data-total", str(total))
    for name, value in (("severity", severity), ("risk", risk), ("triage", triage)):
        assert f"{name}={value}" in page.url, (name, page.url)
        expect(page.locator(f"form.filters select[name={name}]")).to_have_value(value)
    assert "after=" not in page.url, page.url
    assert page.locator(ROWS).count() == total
    assert page.locator(f"{ROWS} .sev-{severity}").count() == total


@pytest.mark.parametrize("language", LANGUAGES)
def test_quick_filter_changes_end_with_the_last_filters_though_the_first_request_is_slow(
    request, people, many_findings, language
):
    total = _count(severity="medium", risk="build-break", triage="confirmed")
    assert 0 < total < _count(severity="medium") < 50
    tab = _tab(request, language)
    tab.sign_in(people.bob)
    tab.go("/findings/")
    page = tab.page
    expect(page.locator(ROWS)).to_have_count(50)
    tab.mark()
    # htmx logs each request it gives up (hx-sync="this:replace") as console errors: expected here
    with tab.allow_console_errors(r"^htmx:(sendAbort|afterRequest), "):
        _filter_quickly(tab, total, language)
    assert tab.not_reloaded()


def _filter_quickly(tab, total: int, language: str) -> None:
    page = tab.page
    slow = Hold(page, r"/findings/\?")  # the first filter's request: held back until the end of the test
    form = page.locator("form.filters")
    form.locator("select[name=severity]").select_option("medium")
    page.wait_for_timeout(150)  # a person's pace: the first request is on its way
    assert len(slow.held) == 1
    form.locator("select[name=risk]").select_option("build-break")
    form.locator("select[name=triage]").select_option("confirmed")
    # the newest filters win while the first request is still unanswered (hx-sync="this:replace": htmx gives the
    # earlier one up instead of queueing the newest behind it)
    _shows(page, "medium", "build-break", "confirmed", total)
    assert slow.held, "the first request was answered already: the test did not hold it back"
    page.evaluate("window.scrollTo(0, 0)")
    tab.shoot(f"filters-newest-wins-{language}", full_page=False)
    # the slow first answer arrives after all: it must not overwrite the newest filters
    slow.release()
    page.wait_for_timeout(1_500)
    _shows(page, "medium", "build-break", "confirmed", total)
    page.evaluate("window.scrollTo(0, 0)")
    tab.shoot(f"filters-after-the-slow-answer-{language}", full_page=False)


def test_a_slow_page_link_does_not_overwrite_a_newer_filter(request, people, many_findings):
    high = _count(severity="high")
    assert 0 < high < 50
    tab = request.getfixturevalue("tab")
    tab.sign_in(people.bob)
    tab.go("/findings/")
    page = tab.page
    expect(page.locator(ROWS)).to_have_count(50)
    tab.mark()
    slow = Hold(page, r"/findings/\?.*after=")  # the next page's request: slow
    page.locator("#results a[rel=next]").click()
    page.wait_for_timeout(150)
    assert len(slow.held) == 1
    # the person changes their mind; htmx logs the page request it gives up as console errors: expected here
    with tab.allow_console_errors(r"^htmx:(sendAbort|afterRequest), "):
        page.locator("form.filters select[name=severity]").select_option("high")
        expect(page.locator("#match-count")).to_have_attribute("data-total", str(high))
    page.evaluate("window.scrollTo(0, 0)")
    tab.shoot("page-link-filter-first", full_page=False)
    slow.release()
    page.wait_for_timeout(1_500)
    page.evaluate("window.scrollTo(0, 0)")
    tab.shoot("page-link-after-the-slow-answer", full_page=False)
    expect(page.locator("form.filters select[name=severity]")).to_have_value("high")
    assert "severity=high" in page.url and "after=" not in page.url, page.url
    assert page.locator(ROWS).count() == page.locator(f"{ROWS} .sev-high").count() == high
