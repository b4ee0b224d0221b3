"""A big file's page (portal/files/windows.py): the first paint carries the head and the lines that matter, gaps
load the rest through htmx, and the translation comes on demand a page of rows at a time, split or unified."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from portal.files import windows
from tests.portal.people import client_for
from tests.portal.test_file_views import add_finding, add_scan

PATH = "train/big.cu"
LINES = 4_000  # above FULL_SOURCE_LINES; bench/pages.py measures 10,000
DEEP = 3_000  # a finding far from the head


def big_source() -> str:
    """LINES lines of CUDA, most of them converted by the translator, some of them very long."""
    lines = []
    for n in range(1, LINES + 1):
        if n % 97 == 0:
            lines.append(f"float table_{n}[] = {{{', '.join(str(k) for k in range(400))}}};")
        elif n % 3 == 0:
            lines.append(f"  cudaMemcpy(d_{n}, h_{n}, bytes, cudaMemcpyHostToDevice);")
        else:
            lines.append(f"  float v{n} = x[threadIdx.x + {n}] * 2.0f;")
    return "\n".join(lines) + "\n"


@pytest.fixture
def big(people, repository):
    scan = add_scan(repository, {PATH: big_source()})
    add_finding(repository, scan, line=DEEP, path=PATH)
    return scan


@pytest.fixture
def repository(people):
    from portal.repositories.models import Repository

    return Repository.objects.create(team=people.team, name="trainer", clone_url="https://example.com/t.git")


def urls(repository) -> dict[str, str]:
    return {name: reverse(f"files:{name}", args=[repository.pk, PATH]) for name in ("file", "lines", "translation")}


def shown_lines(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'<tr id="L(\d+)"', html)}


@pytest.mark.django_db
def test_the_first_paint_of_a_big_file_is_small_and_holds_what_matters(people, repository, big):
    response = client_for(people.vera).get(urls(repository)["file"])
    html = response.content.decode()
    assert response.status_code == 200
    assert len(response.content) <= 300_000, len(response.content)
    shown = shown_lines(html)
    assert set(range(1, windows.HEAD_LINES + 1)) <= shown  # the head
    assert set(range(DEEP - windows.CONTEXT_LINES, DEEP + windows.CONTEXT_LINES + 1)) <= shown  # the finding's
    assert 2_000 not in shown and LINES not in shown
    assert "assumes 32 lanes 0" in html  # the finding, inline at its line
    assert f'data-start="{DEEP + windows.CONTEXT_LINES + 1}" data-end="{LINES}"' in html  # the last gap
    # the translation is not computed for the first paint: a placeholder loads it when the reader gets there
    assert response.context["diff_lazy"] and not response.context.get("diff")
    assert f'hx-get="{urls(repository)["translation"]}"' in html


@pytest.mark.django_db
def test_a_file_with_many_findings_shows_the_first_windows_and_counts_the_rest_in_its_gaps(people, repository, big):
    scan = big
    lines = [200 + 30 * k for k in range(windows.MAX_WINDOWS + 20)]  # 60 findings 30 lines apart
    for k, line in enumerate(lines, start=1):
        add_finding(repository, scan, line=line, path=PATH, n=k)
    response = client_for(people.vera).get(urls(repository)["file"])
    shown = shown_lines(response.content.decode())
    assert set(lines[: windows.MAX_WINDOWS]) <= shown
    assert not set(lines[windows.MAX_WINDOWS :]) & shown
    gaps = [row for row in response.context["source_rows"] if getattr(row, "is_gap", False)]
    # the 20 findings left out and the one at DEEP are counted on the gaps that hold them
    assert sum(gap.findings for gap in gaps) == 21
    assert "20 findings" in response.content.decode() or "1 finding" in response.content.decode()


@pytest.mark.django_db
def test_a_gap_loads_its_lines_a_chunk_at_a_time_with_findings_inline(people, repository, big):
    client = client_for(people.vera)
    start, end = DEEP - 1_500, DEEP + 500
    html = client.get(urls(repository)["lines"], {"start": start, "end": end}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html  # rows for htmx to swap in for the gap row
    stop = start + windows.CHUNK_LINES - 1
    assert shown_lines(html) == set(range(start, stop + 1))
    assert f'data-start="{stop + 1}" data-end="{end}"' in html  # the rest stays a gap
    after = client.get(urls(repository)["lines"], {"start": DEEP - 5, "end": DEEP + 5}, HTTP_HX_REQUEST="true")
    assert "assumes 32 lanes 0" in after.content.decode()
    # a link into the middle of a gap opens only its end and keeps the lines before it a gap
    middle = client.get(
        urls(repository)["lines"], {"start": 3_000, "end": 3_300, "before": 2_000}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'data-start="2000" data-end="2999"' in middle and min(shown_lines(middle)) == 3_000


@pytest.mark.django_db
def test_without_javascript_a_gap_is_a_page_of_its_own(people, repository, big):
    response = client_for(people.vera).get(urls(repository)["lines"], {"start": 200, "end": 260})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert shown_lines(html) == set(range(200, 261))


@pytest.mark.django_db
def test_the_translation_comes_a_page_of_rows_at_a_time(people, repository, big):
    client = client_for(people.vera)
    first = client.get(urls(repository)["translation"], HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    rows = first.context["diff"]
    assert len(rows) == windows.DIFF_PAGE and first.context["diff_more"] == windows.DIFF_PAGE
    html = first.content.decode()
    assert '<mark class="changed">hipMemcpy</mark>' in html and 'id="diff"' in html
    more = client.get(urls(repository)["translation"], {"offset": windows.DIFF_PAGE}, HTTP_HX_REQUEST="true")
    assert 'id="diff"' not in more.content.decode()  # rows only, swapped in for the "more" row
    first_lines = [int(n) for n in re.findall(r'<a href="#L(\d+)">', html)]
    more_lines = [int(n) for n in re.findall(r'<a href="#L(\d+)">', more.content.decode())]
    assert more_lines and min(more_lines) > max(first_lines)


@pytest.mark.django_db
def test_the_unified_view_shows_each_change_as_a_removed_and_an_added_line(people, repository, big):
    response = client_for(people.vera).get(urls(repository)["translation"], {"view": "unified"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'class="sbs unified"' in html
    # a changed line: its CUDA as a removed row, directly followed by its HIP as an added row
    pair = r'<tr class="row-delete">(?:(?!</tr>).)*cudaMemcpy.*?</tr>\s*<tr class="row-insert">(?:(?!</tr>).)*hipMemcpy'
    assert re.search(pair, html, re.S)
    assert 'aria-current="true">Unified' in html


@pytest.mark.django_db
def test_a_small_files_page_keeps_everything_inline(people, repository):
    add_scan(repository, {"small.cu": "int main() { cudaDeviceSynchronize(); }\n"})
    response = client_for(people.vera).get(reverse("files:file", args=[repository.pk, "small.cu"]))
    assert not response.context["big_file"] and not response.context["diff_lazy"]
    assert b"hipDeviceSynchronize" in response.content and b'class="gap" data-start' not in response.content


@pytest.mark.django_db
def test_the_on_demand_views_keep_teams_apart_and_refuse_bad_ranges(people, repository, big):
    outsider = client_for(people.charlie)  # another team's manager
    for name in ("lines", "translation"):
        assert outsider.get(urls(repository)[name], {"start": 1, "end": 2}).status_code == 404
    vera = client_for(people.vera)
    assert vera.get(urls(repository)["lines"], {"start": 9, "end": 3}).status_code == 400
    assert vera.get(urls(repository)["lines"], {"start": "x", "end": 3}).status_code == 400
    for name in ("translation", "lines"):  # a file no scan stored: the file page's empty state, not an error
        missing = vera.get(reverse(f"files:{name}", args=[repository.pk, "nope.cu"]), HTTP_HX_REQUEST="true")
        assert missing.status_code == 200 and b'data-nothing="1"' in missing.content
    assert Client().get(urls(repository)["lines"]).status_code == 302  # sign in first
