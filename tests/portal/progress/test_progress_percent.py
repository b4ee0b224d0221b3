"""Migration progress as the pages print it (portal.reporting.figures.shown_percent): below 10% with one decimal, so
that the first fixes of a large migration show (0.4%, not 0%); whole numbers from 10% on; floored, so that 100% means
nothing is left and 0% that nothing is done. Checked on the rendered pages: the ring, the portfolio, the formula, the
reports."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from portal.findings.models import BranchRollup
from portal.reporting import figures
from tests.portal.people import client_for
from tests.portal.scans.test_scan_tracking import BAD, LANE, register, scan


@pytest.mark.parametrize(
    ("percent", "complete", "shown"),
    [
        (None, False, None),
        (0.0, False, "0"),
        (0.004, False, "0.1"),  # something is done: never "0"
        (0.4, False, "0.4"),
        (0.49, False, "0.4"),  # floored
        (100 * 3 / 10, False, "30"),  # 30.000000000000004
        (100 * 0.7 / 7, False, "10"),  # 9.999999999999998 is 10, and 10 is whole
        (9.96, False, "9.9"),
        (37.9, False, "37"),
        (99.97, False, "99"),  # work left: never 100
        (100.0, True, "100"),
    ],
)
def test_below_ten_percent_one_decimal_from_ten_whole_numbers(percent, complete, shown):
    assert figures.shown_percent(percent, complete) == shown


def _with_progress(row, done: float, left: float) -> None:
    """The default branch's stored figures (what every page reads) set to `done` and `left` hours."""
    rollup = BranchRollup.objects.get(repository=row, branch="main")
    totals = dict(rollup.totals)
    totals["progress"] = {**totals["progress"], "done": done, "left": left, "descoped": 0.0, "baseline": done + left}
    BranchRollup.objects.filter(pk=rollup.pk).update(totals=totals)


def _pages(people, row) -> dict[str, str]:
    vera = client_for(people.vera)
    urls = {
        "portfolio": reverse("dashboards:portfolio"),
        "dashboard": reverse("dashboards:repository", args=[row.pk]),
        "repository report": reverse("progress:repository_report", args=[row.pk]),
        "team report": reverse("progress:team_report", args=[people.team.pk]),
    }
    return {name: vera.get(url).content.decode() for name, url in urls.items()}


def _ring(html: str) -> str:
    card = html[html.index('id="migration-progress"') :]
    percent = re.search(r'data-percent="([^"]*)"', card)[1]
    text = re.search(r'class="ring-text[^"]*">([^<]*)</text>', card)[1]
    assert f"Migration progress: {text}" in card  # the ring's title and aria-label
    return f"{percent}|{text}"


@pytest.mark.django_db
@pytest.mark.parametrize(("done", "left", "expected"), [(0.4, 99.6, "0.4"), (37.5, 62.5, "37")])
def test_every_page_shows_the_same_percentage(people, repo_factory, done, left, expected):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("baseline", **{"src__a.cu": LANE.format(body=BAD * 3)}))
    _with_progress(row, done, left)
    pages = _pages(people, row)
    for name, html in pages.items():
        assert _ring(html) == f"{expected}|{expected}%", name
    portfolio = pages["portfolio"]
    assert f'value="{expected}" aria-label="Migration progress {row.name}">{expected}%</progress>' in portfolio
    assert f"<strong>{expected}%</strong>" in portfolio
    for name in ("dashboard", "repository report"):
        assert f"<summary>Migration progress: {expected}%</summary>" in pages[name], name
    assert f'<td class="num">{expected}%</td>' in pages["team report"]
