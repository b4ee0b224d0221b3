"""The rule catalogue (reached from a finding), the repository's scans page and its settings page, and the
portfolio in Simplified Chinese."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding
from tests.portal.people import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finding_links_to_its_rule_and_the_catalogue_filters_by_risk(tab, project):
    finding = Finding.objects.filter(repository=project.repository, state="open").order_by("rule").first()
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go(f"/findings/{finding.pk}/")
    page.locator("h1").get_by_role("link", name=finding.rule).click()
    expect(page.locator("h1")).to_contain_text(finding.rule)
    expect(page.get_by_text("Why it breaks on ROCm", exact=False).first).to_be_visible()
    tab.shoot("rule")
    page.get_by_role("link", name="Rules").first.click()
    expect(page.locator("select[name=risk]")).to_be_visible()
    rows = page.locator("table tbody tr")
    everything = rows.count()
    assert everything >= 70
    page.locator("select[name=risk]").select_option("build-break")
    expect(rows.first).to_be_visible()
    # A function, not an expression: Playwright evals an expression again on every poll, which the page's CSP
    # (no 'unsafe-eval') refuses; a function is evaluated once and then called.
    page.wait_for_function("n => document.querySelectorAll('table tbody tr').length < n", arg=everything)
    for text in rows.locator("td:nth-child(3)").all_inner_texts()[:20]:
        assert "build" in text.lower()
    tab.shoot("catalogue-build-break")


def test_a_manager_uses_the_settings_page_and_the_scans_page(tab, project):
    tab.sign_in(project.people.alice)
    page = tab.page
    tab.go(f"/repositories/{project.repository.pk}/dashboard/")
    page.get_by_role("link", name="Settings").click()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("input[name=credentials_secret]")).to_have_value("")  # write-only
    tab.shoot("settings")
    tab.go(f"/repositories/{project.repository.pk}/dashboard/")
    page.get_by_role("link", name="Scans and deliveries").click()
    expect(page.get_by_role("link", name=f"#{project.scan.pk}")).to_be_visible()
    tab.shoot("scans")
    page.get_by_role("link", name=f"#{project.scan.pk}").click()
    expect(page.locator("main")).to_contain_text(project.scan.commit_sha[:10])


def test_the_portfolio_in_simplified_chinese_from_the_browser_language(request, live, chromium, project):
    from tests.browser.live import artifacts_dir
    from tests.browser.tab import Tab

    context = chromium.new_context(base_url=live.url(), locale="zh-CN", viewport={"width": 1280, "height": 900})
    try:
        tab = Tab(context.new_page(), live, request.node.name, artifacts_dir())
        tab.go("/accounts/login/")
        page = tab.page
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
        page.locator("input[name=username]").fill(project.people.bob.username)
        page.locator("input[name=password]").fill(PASSWORD)
        with page.expect_navigation():
            page.locator("button[type=submit]").click()
        tab.go("/")
        expect(page.get_by_role("navigation").first).to_contain_text("问题")
        tab.shoot("portfolio-zh-hans")
        assert not tab.console_errors, tab.console_errors
    finally:
        context.close()
