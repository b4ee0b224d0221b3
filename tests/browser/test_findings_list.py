"""The findings list: htmx filters with the filter in the URL, keyset pages, triage from a row, bulk triage."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = "#results tbody tr[id^='finding-']"


def row_ids(page) -> list[int]:
    return [int(i.removeprefix("finding-")) for i in page.locator(ROWS).evaluate_all("rows => rows.map(r => r.id)")]


def test_a_filter_change_updates_the_results_in_place_and_the_url_carries_it(tab, project):
    high = Finding.objects.filter(repository=project.repository, state="open", severity="high").count()
    assert 0 < high < 50
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go("/findings/")
    expect(page.locator(ROWS)).to_have_count(50)
    tab.shoot("list")
    tab.mark()
    page.locator("select[name=severity]").select_option("high")
    page.wait_for_url("**/findings/?*severity=high*")
    expect(page.locator(ROWS)).to_have_count(high)
    assert tab.not_reloaded(), "the filter reloaded the page instead of swapping the results"
    assert page.locator(f"{ROWS} .sev-high").count() == high  # every row is a high one
    tab.shoot("filtered")
    page.reload()  # the URL alone reproduces the view
    expect(page.locator("select[name=severity]")).to_have_value("high")
    expect(page.locator(ROWS)).to_have_count(high)


def test_paging_through_the_findings_list(tab, project):
    total = Finding.objects.filter(repository=project.repository, state="open").count()
    assert total > 50
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go("/findings/")
    first = row_ids(page)
    assert len(first) == 50
    tab.mark()
    seen = list(first)
    while page.locator("#results a[rel=next]").count():
        previous = row_ids(page)
        page.locator("#results a[rel=next]").click()
        page.wait_for_function("ids => !document.querySelector('#finding-' + ids[0])", arg=previous)
        assert "after=" in page.url  # the page is in the URL too
        rows = row_ids(page)
        assert 0 < len(rows) <= 50
        seen += rows
    assert len(seen) == len(set(seen)) == total  # every finding once, none twice
    assert tab.not_reloaded(), "paging reloaded the page instead of swapping the results"
    tab.shoot("last-page")
    page.get_by_role("link", name="First page").click()
    page.wait_for_function("pk => !!document.querySelector('#finding-' + pk)", arg=first[0])
    assert row_ids(page) == first


def test_triaging_a_row_changes_it_in_place_and_the_change_persists(tab, project):
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go("/findings/")
    pk = row_ids(page)[0]
    row = page.locator(f"#finding-{pk}")
    expect(row.locator("[data-triage]")).to_have_attribute("data-triage", "untriaged")
    tab.mark()
    row.get_by_role("button", name="Confirm").click()
    expect(page.locator(f"#finding-{pk} [data-triage]")).to_have_attribute("data-triage", "confirmed")
    assert tab.not_reloaded(), "triage from the row reloaded the page"
    tab.shoot("row-triaged")
    page.reload()
    expect(page.locator(f"#finding-{pk} [data-triage]")).to_have_attribute("data-triage", "confirmed")
    assert Finding.objects.get(pk=pk).triage == "confirmed"


def test_bulk_triage_of_a_filtered_selection(tab, project):
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go("/findings/?severity=high")
    ids = row_ids(page)
    chosen, left = ids[:3], ids[3:]
    for pk in chosen:
        page.locator(f"#finding-{pk} input[name=ids]").check()
    page.locator("select[name=decision]").last.select_option("false_positive")
    page.locator("input[name=reason]").last.fill("generated code, never built for ROCm")
    page.locator("select[name=scope]").select_option("selected")
    tab.shoot("bulk-selection")
    with page.expect_navigation():
        page.get_by_role("button", name="Review and apply").click()
    # nothing applied yet: the count and the decision, to confirm or cancel
    expect(page.locator("#bulk-summary")).to_contain_text("Mark 3 findings as “False positive”?")
    assert not Finding.objects.filter(pk__in=ids).exclude(triage="untriaged").exists()
    tab.shoot("bulk-confirm")
    with page.expect_navigation():
        page.get_by_role("button", name="Triage 3 findings").click()
    assert "severity=high" in page.url  # back to the same filtered list
    expect(page.get_by_role("status")).to_contain_text("3")
    for pk in chosen:
        expect(page.locator(f"#finding-{pk} [data-triage]")).to_have_attribute("data-triage", "false_positive")
    tab.shoot("bulk-triaged")
    triaged = Finding.objects.filter(pk__in=ids, triage="false_positive")
    assert sorted(triaged.values_list("pk", flat=True)) == sorted(chosen)
    assert set(triaged.values_list("triage_reason", flat=True)) == {"generated code, never built for ROCm"}
    assert not Finding.objects.filter(pk__in=left).exclude(triage="untriaged").exists()
