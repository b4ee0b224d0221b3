"""The finding page: the code around the finding and triage with a reason (an htmx partial), kept after reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding, FindingEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_triage_with_a_reason_on_the_finding_page(tab, project):
    finding = (
        Finding.objects.filter(repository=project.repository, state="open").order_by("-severity_rank", "id").first()
    )
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go(f"/findings/{finding.pk}/")
    expect(page.locator("h1")).to_contain_text(finding.rule)
    expect(page.locator("main")).to_contain_text(f"{finding.path}:{finding.line}")
    tab.shoot("finding")
    tab.mark()
    triage = page.locator("#triage")
    triage.locator("select[name=decision]").select_option("accepted_risk")
    triage.locator("input[name=reason]").fill("only built for wave64 targets")
    triage.get_by_role("button").click()
    expect(page.locator("#triage [data-triage]")).to_have_attribute("data-triage", "accepted_risk")
    expect(page.locator("#triage")).to_contain_text("only built for wave64 targets")
    assert tab.not_reloaded(), "the triage form reloaded the page instead of swapping its section"
    tab.shoot("finding-triaged")
    page.reload()
    expect(page.locator("#triage [data-triage]")).to_have_attribute("data-triage", "accepted_risk")
    expect(page.locator("main")).to_contain_text("only built for wave64 targets")  # also in the history
    event = FindingEvent.objects.get(finding=finding, kind="triaged")
    assert (event.actor, event.data["to"], event.data["reason"]) == (
        project.people.bob,
        "accepted_risk",
        "only built for wave64 targets",
    )
