"""A viewer reads but sees no triage controls, and triage requests forged from the page are refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding, FindingEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_viewer_sees_no_triage_controls_and_a_forged_post_is_refused(tab, project):
    finding = Finding.objects.filter(repository=project.repository, state="open").first()
    tab.sign_in(project.people.vera)
    page = tab.page
    tab.go("/findings/")
    expect(page.locator("#results tbody tr").first).to_be_visible()
    for control in ("input[name=ids]", "button[name=decision]", "select[name=decision]", "select[name=scope]"):
        expect(page.locator(f"#results {control}")).to_have_count(0)
    tab.shoot("viewer-list")
    tab.go(f"/findings/{finding.pk}/")
    expect(page.locator("#triage")).to_be_visible()  # the decision is shown …
    expect(page.locator("#triage form")).to_have_count(0)  # … but cannot be changed
    expect(page.locator("main textarea[name=text]")).to_have_count(0)  # nor commented
    tab.shoot("viewer-finding")

    token = tab.csrf_token()
    triage = {"decision": "false_positive", "reason": "forged"}
    with tab.allow_console_errors(r"\b403\b"):
        assert tab.post_from_page(f"/findings/{finding.pk}/triage/", triage, token) == 403
        assert tab.post_from_page(f"/findings/{finding.pk}/triage/", triage, None) == 403
        assert tab.post_from_page("/findings/bulk/", {**triage, "scope": "all"}, token) == 403
        assert tab.post_from_page(f"/findings/{finding.pk}/comment/", {"text": "forged"}, token) == 403
    assert not Finding.objects.exclude(triage="untriaged").exists()
    assert not FindingEvent.objects.filter(kind__in=("triaged", "commented")).exists()
