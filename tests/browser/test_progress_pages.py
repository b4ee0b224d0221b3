"""Issue 22's pages as a manager sees them, in English and in Simplified Chinese: the portfolio's migration figures
and team burn-down, the repository dashboard (ring, formula, forecast, state badges, "Where is it stuck?") and the
printable reports on screen and in print media. The history is made by the real scan pipeline on a real git
repository over five weeks (a baseline, a fix, triage, a review), so the forecast has a date; screenshots go to
var/test-artifacts/screenshots/."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.template.defaultfilters import floatformat
from django.utils import formats, timezone, translation
from playwright.sync_api import expect

from portal.files import actions as file_actions
from portal.files.queries import file_version
from portal.findings import actions
from portal.findings.models import Finding
from portal.progress.models import ProgressSnapshot
from portal.reporting import effort, figures, history, metrics, overview, stuck
from tests.browser.data import Project
from tests.portal.languages import data_strings, english_in, visible_text
from tests.portal.scans.test_scan_tracking import BAD, GOOD, LANE, register, scan

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "void run(float *h) { float *d; cudaMalloc(&d, 4); cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); cudaFree(d); }\n"
LANGUAGES = ["en", "zh-hans"]
WORDS = {  # the labels each language shows (zh-Hans: the portal's catalogue, locale/zh_Hans)
    "en": {
        "migration": "Migration progress",
        "coverage": "Automatic translation coverage",
        "outlook": "When will it be finished?",
        "stuck": "Where is it stuck?",
        "report": "Printable report",
        "not_started": "not started",
        "older": "High-severity findings open for more than {n} days",
    },
    "zh-hans": {
        "migration": "迁移进度",
        "coverage": "自动转换覆盖率",
        "outlook": "什么时候能完成？",
        "stuck": "卡在哪里？",
        "report": "可打印报告",
        "not_started": "未开始",
        "older": "未解决超过 {n} 天的高严重性问题",
    },
}


def weeks_ago(n: int):
    return time_machine.travel(timezone.now() - timedelta(weeks=n), tick=True)


@pytest.fixture
def history_project(people, repo_factory) -> Project:
    """Week -5 the baseline (four kernels, two with host CUDA calls), week -4 a fix in a.cu, week -3 b.cu's finding
    an accepted risk and c.cu's a false positive, week -2 b.cu's translation reviewed; d.cu nobody touched."""
    git = repo_factory("kernels")
    row = register(people, git)
    with weeks_ago(5):
        first = scan(
            row,
            git.commit(
                "baseline",
                **{
                    "src__a.cu": LANE.format(body=BAD * 2),
                    "src__b.cu": LANE.format(body=BAD) + HOST,
                    "src__c.cu": LANE.format(body=BAD),
                    "src__d.cu": LANE.format(body=BAD * 3) + HOST,
                },
            ),
        )
    with weeks_ago(4):
        scan(row, git.commit("fix one", **{"src__a.cu": LANE.format(body=BAD + GOOD)}))
    with weeks_ago(3):
        b, c = (Finding.objects.filter(repository=row, path=p) for p in ("src/b.cu", "src/c.cu"))
        actions.do_triage_findings(b, "accepted_risk", "bounded input", acting_user=people.bob)
        actions.do_triage_findings(c, "false_positive", "guarded", acting_user=people.bob)
    with weeks_ago(2):
        version = file_version(row, "src/b.cu")
        file_actions.check_review_translation(
            row, "src/b.cu", version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
        )
    assert ProgressSnapshot.objects.filter(repository=row).count() == 4  # one per week something moved
    return Project(people, git, row, first)


def language_tab(request, language: str):
    return request.getfixturevalue("tab" if language == "en" else "zh_tab")


def portfolio_row(project):
    [row] = [r for r in metrics.portfolio(project.people.team.pk) if r.repository.pk == project.repository.pk]
    return row


def expected_forecast(project) -> history.Forecast:
    today = timezone.localdate()
    return history.forecast(history.series([project.repository.pk], history.window_start(today), today), today)


def file_progress(repository) -> tuple[list[str], dict]:
    """The files of the dashboard's work-left table and each file's figures, as the dashboard computes them."""
    found = metrics.breakdown(repository, metrics.trend(repository)[-1]["pk"])
    work = sorted(found.files.values(), key=lambda w: (-w.hours, w.path))[: effort.TOP_FILES]
    return [w.path for w in work], overview.of_repository(repository, found.rollup).files


def shown_date(day, language: str) -> str:
    """A date as the pages format it (DATE_FORMAT) in the language."""
    with translation.override(language):
        return formats.date_format(day, "DATE_FORMAT")


def number(text: str) -> float:
    return float(text.replace(",", ""))


def assert_no_english(page, project, extra=()) -> None:
    """The English-phrase detector of tests/portal/site/test_zh_hans_pages.py on the page as the browser shows it, and
    on the burn-down's axis labels (the detector skips SVG)."""
    data = data_strings(project, list(extra))
    chunks = visible_text(page.content())
    chunks += page.locator("figure.chart.burndown text").all_text_contents()
    found = [chunk for chunk in chunks if english_in(chunk, data)]
    assert not found, f"English under zh-Hans on {page.url}: {found}"


def assert_fits(page) -> None:
    """What the browser review found cut off or run together: the charts' axis text and value labels lie inside
    their SVG, "100%" inside its ring (a hole 26.8 units across, 25 at the text's top and bottom), and the files'
    states are a list without bullets."""
    outside = page.evaluate(
        """() => [...document.querySelectorAll('figure.chart svg text')].filter(t => {
            const box = t.getBBox(), view = t.ownerSVGElement.viewBox.baseVal;
            return box.x < -0.5 || box.y < -0.5 || box.x + box.width > view.width + 0.5;
        }).map(t => t.textContent)"""
    )
    assert not outside, f"chart text cut off at the SVG's edge: {outside}"
    rings = page.evaluate(
        """() => [...document.querySelectorAll('svg.ring .ring-text')].filter(t => t.getBBox().width > 25)
            .map(t => t.textContent)"""
    )
    assert not rings, f"ring text wider than the ring's hole: {rings}"
    for states in page.locator("ul.file-states").all():
        assert states.evaluate("ul => getComputedStyle(ul).listStyleType") == "none"


def assert_ring(card, percent: str | None) -> None:
    """The card's ring and its data-percent show the percentage as the pages show it (MigrationProgress.shown)."""
    expect(card).to_have_attribute("data-percent", str(percent))
    expect(card.locator("svg.ring .ring-text")).to_have_text(f"{percent}%")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_portfolio_shows_both_figures_the_team_burndown_and_opens_the_team_report(
    request, history_project, language
):
    project, words = history_project, WORDS[language]
    tab = language_tab(request, language)
    row = portfolio_row(project)
    migration, coverage = row.migration, row.progress
    assert 0 < migration.percent < 100 and coverage.total > 0  # the data: work done and work left
    forecast = expected_forecast(project)
    tab.sign_in(project.people.alice)
    page = tab.page
    tab.go("/")
    expect(page.locator("html")).to_have_attribute("lang", language)

    card = page.locator("#migration-progress")
    assert_ring(card, migration.shown)
    percent = 100 * migration.done / (migration.done + migration.left)
    assert float(migration.shown) <= percent < float(migration.shown) + (1 if percent >= 10 else 0.1)  # floored
    assert number(card.get_attribute("data-done")) == pytest.approx(migration.done, abs=0.05)
    assert number(card.get_attribute("data-left")) == pytest.approx(migration.left, abs=0.05)
    expect(card.locator(".label")).to_have_text(words["migration"])
    cover = page.locator("#translation-coverage")
    expect(cover.locator(".label")).to_have_text(words["coverage"])
    expect(cover.locator("svg.ring .ring-text")).to_have_text(f"{coverage.floor}%")
    expect(cover).to_contain_text(str(coverage.converted))
    expect(cover).to_contain_text(str(coverage.total))

    states = page.locator("ul.file-states").first
    for state, count in (
        ("not_started", migration.not_started),
        ("in_progress", migration.in_progress),
        ("done", migration.files_done),
    ):
        expect(states.locator(f"li.state-{state} strong")).to_have_text(str(count))
    assert migration.not_started and migration.in_progress and migration.files_done  # each state has a file

    expect(page.locator("#team-outlook")).to_have_text(words["outlook"])
    chart = page.locator("figure.chart.burndown svg")
    expect(chart).to_be_visible()
    expect(chart.locator("circle.marker")).to_have_count(
        len(history.series([project.repository.pk], history.window_start(timezone.localdate())))
    )
    sentence = page.locator("p#forecast")
    expect(sentence).to_have_attribute("data-status", forecast.status)
    assert forecast.status == "ok"
    expect(sentence.locator("strong")).to_have_text(shown_date(forecast.likely, language))
    expect(sentence).to_contain_text(shown_date(forecast.earliest, language))
    expect(page.locator("path.forecast-line")).to_have_count(1)
    assert_fits(page)
    tab.shoot(f"progress-portfolio-{language}")
    if language != "en":
        assert_no_english(page, project)

    with page.expect_navigation():
        page.get_by_role("link", name=words["report"]).click()
    assert page.url.endswith(f"/progress/teams/{project.people.team.pk}/report/")
    expect(page.locator("article.report h1")).to_contain_text(project.people.team.name)
    assert_ring(page.locator("#migration-progress"), migration.shown)
    repositories = page.locator("section[aria-labelledby=report-repositories] tbody tr")
    expect(repositories).to_have_count(1)
    expect(repositories).to_contain_text(f"{migration.not_started} / {migration.in_progress} / {migration.files_done}")
    expect(repositories.locator("td").last).to_contain_text(shown_date(forecast.likely, language))
    check_print(tab, f"progress-team-report-print-{language}", project.people.team.name)
    if language != "en":
        assert_no_english(page, project)


def check_print(tab, label: str, heading: str) -> None:
    """On screen the report's header and buttons show; in print media they do not, and the heading does."""
    page = tab.page
    expect(page.locator("header.top")).to_be_visible()
    expect(page.locator("button[data-print]")).to_be_visible()
    tab.shoot(label.replace("-print", ""))
    page.emulate_media(media="print")
    expect(page.locator("header.top")).to_be_hidden()
    buttons = page.locator("main button, main a.button")
    for index in range(buttons.count()):
        expect(buttons.nth(index)).to_be_hidden()
    assert buttons.count() >= 1
    expect(page.locator("article.report h1")).to_be_visible()
    expect(page.locator("article.report h1")).to_contain_text(heading)
    expect(page.locator("figure.chart.burndown svg")).to_be_visible()
    tab.shoot(label)
    page.emulate_media(media="screen")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_dashboard_explains_progress_forecasts_it_and_says_where_it_is_stuck(request, history_project, language):
    project, words = history_project, WORDS[language]
    tab = language_tab(request, language)
    repository, people = project.repository, project.people
    migration = portfolio_row(project).migration
    forecast = expected_forecast(project)
    page = tab.page
    tab.sign_in(people.bob)

    # bob takes a.cu's remaining finding on its page: he then holds work on the dashboard
    taken = Finding.objects.get(repository=repository, path="src/a.cu", state="open")
    tab.go(f"/findings/{taken.pk}/")
    form = page.locator(f'form[action$="/findings/{taken.pk}/assign/"]')
    form.locator("select[name=assignee]").select_option(str(people.bob.pk))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    taken.refresh_from_db()
    assert taken.assignee == people.bob
    [held] = stuck.by_assignee(repository)

    tab.go(f"/repositories/{repository.pk}/dashboard/")
    card = page.locator("#migration-progress")
    assert_ring(card, migration.shown)
    expect(card.locator(".label")).to_have_text(words["migration"])
    formula = page.locator("#progress-formula")
    expect(formula.locator("summary")).to_contain_text(f"{migration.shown}%")
    with translation.override(language):  # hours as every progress page rounds them
        done, left = floatformat(migration.done, "-1g"), floatformat(migration.left, "-1g")
    expect(formula).to_contain_text(f"= {done} / ({done} + {left})")
    expect(page.locator("#outlook")).to_have_text(words["outlook"])
    sentence = page.locator("p#forecast")
    expect(sentence).to_have_attribute("data-status", forecast.status)
    assert forecast.status == "ok"
    expect(sentence.locator("strong")).to_have_text(shown_date(forecast.likely, language))
    line = page.locator("figure.chart.burndown path.forecast-line")
    expect(line).to_have_count(1)
    assert page.evaluate("getComputedStyle(document.querySelector('path.forecast-line')).strokeDasharray") not in (
        "none",
        "",
    )

    # the files table's state badges are the figures' states of the files it lists
    listed, files = file_progress(repository)
    rows = page.locator("section:has(#work) tbody tr")
    shown = {rows.nth(i).locator("th.path").inner_text(): rows.nth(i) for i in range(rows.count())}
    assert list(shown) == listed
    for path, tr in shown.items():
        expect(tr.locator(".badge[class*=state-]")).to_have_class(re.compile(rf"\bstate-{files[path].state}\b"))
    assert {files[path].state for path in shown} == {"in_progress", "not_started"}
    expect(page.locator("section:has(#work) tbody .badge.state-not_started").first).to_have_text(words["not_started"])

    section = page.locator("section:has(#stuck)")
    expect(section.locator("#stuck")).to_have_text(words["stuck"])
    count, untouched = figures.untouched(files)
    assert count == len(untouched) >= 1
    links = section.locator("a[href*='/files/']")
    expect(links).to_have_count(count)
    for item in untouched:
        expect(section.locator(f'a[href$="/files/{item.path}"]')).to_have_text(item.path)
    expect(section.locator("table tbody tr")).to_have_count(1)
    expect(section.locator("table tbody tr th")).to_have_text(people.bob.username)
    expect(section.locator("table tbody tr td").first).to_have_text(str(held["open"]))
    old = stuck.old_high(repository)
    assert old.count > 0  # the baseline's findings are five weeks old
    heading = section.locator("h3").nth(1)
    expect(heading).to_contain_text(words["older"].format(n=old.days))
    expect(heading.locator("xpath=following-sibling::p[1]/strong")).to_have_text(str(old.count))
    expect(heading.locator("xpath=following-sibling::ul[1]/li")).to_have_count(min(old.count, stuck.OLD_SHOWN))
    assert_fits(page)
    tab.shoot(f"progress-dashboard-{language}")
    if language != "en":
        assert_no_english(page, project, [held["user"]])

    # ?older_than: a longer age than the history leaves no old finding, and the heading says so
    longer = 60
    assert stuck.old_high(repository, longer).count == 0
    tab.go(f"/repositories/{repository.pk}/dashboard/?older_than={longer}")
    expect(heading).to_contain_text(words["older"].format(n=longer))
    expect(heading).not_to_contain_text(str(old.days))
    expect(heading.locator("xpath=following-sibling::p[1]")).to_have_class("muted")
    expect(heading.locator("xpath=following-sibling::ul")).to_have_count(0)

    with page.expect_navigation():
        page.get_by_role("link", name=words["report"]).click()
    assert page.url.endswith(f"/progress/repositories/{repository.pk}/report/")
    assert_ring(page.locator("#migration-progress"), migration.shown)
    expect(page.locator("#forecast")).to_have_attribute("data-status", forecast.status)
    expect(page.locator("section[aria-labelledby=report-files] tbody tr")).to_have_count(len(shown))
    check_print(tab, f"progress-report-print-{language}", repository.name)
    if language != "en":
        assert_no_english(page, project, [held["user"]])
