"""The portfolio and the repository dashboard (portal/dashboards)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_portfolio_shows_the_teams_repository_with_its_open_findings(tab, project):
    repository = project.repository
    open_count = Finding.objects.filter(repository=repository, state="open").count()
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go("/")
    expect(page.locator("h1")).to_be_visible()
    link = page.get_by_role("link", name=repository.name, exact=True).first
    expect(link).to_be_visible()
    assert str(open_count) in page.locator("main").inner_text()
    tab.shoot("portfolio")
    link.click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_contain_text(repository.name)
    tab.shoot("repository-from-portfolio")


def test_the_repository_dashboard_links_to_its_findings(tab, project):
    repository = project.repository
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go(f"/repositories/{repository.pk}/dashboard/")
    expect(page.locator("h1")).to_contain_text(repository.name)
    tab.shoot("repository-dashboard")
    findings = page.locator(f'main a[href*="/findings/?"][href*="repository={repository.pk}"]')
    expect(findings.first).to_be_visible()
    findings.first.click()
    page.wait_for_load_state()
    assert f"repository={repository.pk}" in page.url
    expect(page.locator("#results tbody tr").first).to_be_visible()
