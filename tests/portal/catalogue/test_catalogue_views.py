"""The rule catalogue: the list (filters, search, htmx partial) and the rule page (documentation, open findings
of the current team), for each role."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.accounts.models import Membership
from portal.findings.models import Finding
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections
from tests.portal.findings_data import make_findings
from tests.portal.htmx import HTMX
from tests.portal.people import client_for


@pytest.mark.django_db
def test_the_catalogue_needs_a_login():
    for url in (reverse("catalogue:rules"), reverse("catalogue:rule", args=["ROC101"])):
        response = Client().get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["vera", "bob", "alice", "charlie"])
def test_every_member_sees_every_rule(people, who):
    response = client_for(getattr(people, who)).get(reverse("catalogue:rules"))
    html = response.content.decode()
    assert response.status_code == 200 and "<title>Rules · ROCport</title>" in html
    for rule in catalogue().values():
        assert f'data-rule="{rule.code}"' in html and rule.name in html
    assert len(response.context["entries"]) == len(catalogue())


@pytest.mark.django_db
def test_the_list_filters_by_risk_and_family_and_searches(people):
    client = client_for(people.vera)
    risky = client.get(reverse("catalogue:rules"), {"risk": "build-break"}).context["entries"]
    assert risky and all(e.rule.risk.value == "build-break" for e in risky)
    warp = client.get(reverse("catalogue:rules"), {"family": "warp"}).context["entries"]
    assert {e.rule.code for e in warp} == {c for c, r in catalogue().items() if r.module.startswith("warp.")}
    found = client.get(reverse("catalogue:rules"), {"q": "lane ARITHMETIC"}).context["entries"]
    assert "ROC101" in [e.rule.code for e in found]
    none = client.get(reverse("catalogue:rules"), {"q": "no-such-thing-anywhere"})
    assert none.context["entries"] == [] and b'class="empty"' in none.content


@pytest.mark.django_db
def test_htmx_gets_the_table_partial_and_the_browser_the_page(people):
    client = client_for(people.bob)
    full = client.get(reverse("catalogue:rules"), {"family": "cmake"})
    assert b"<html" in full.content and b'id="rules"' in full.content
    partial = client.get(reverse("catalogue:rules"), {"family": "cmake"}, headers=HTMX)
    assert b"<html" not in partial.content and b'id="rules"' in partial.content and b"ROC201" in partial.content
    assert b"ROC101" not in partial.content


@pytest.mark.django_db
def test_the_rule_page_shows_the_whole_documentation(people):
    rule = catalogue()["ROC101"]
    sections = parse_sections(rule.doc)
    response = client_for(people.vera).get(reverse("catalogue:rule", args=["ROC101"]))
    html = response.content.decode()
    assert response.status_code == 200 and "<title>ROC101 warp-size-lane-arithmetic · ROCport</title>" in html
    for heading in ("What it finds", "Why it breaks on ROCm", "Example", "Use instead", "References"):
        assert f"<h2>{heading}</h2>" in html
    assert '<pre class="code"><code>' in html and "threadIdx.x % 32" in html  # the example, as code
    for url in sections["References"].split():
        assert f'<a href="{url}"' in html
    assert "<code>warpSize</code>" in html  # `backticks` in the prose are code


@pytest.mark.django_db
def test_known_problems_are_shown_where_a_rule_has_them(people):
    with_problems = [r for r in catalogue().values() if parse_sections(r.doc).get("Known problems")]
    if not with_problems:
        pytest.skip("no rule documents known problems yet")
    html = client_for(people.vera).get(reverse("catalogue:rule", args=[with_problems[0].code])).content.decode()
    assert "<h2>Known problems</h2>" in html


@pytest.mark.django_db
def test_the_rule_page_counts_the_current_teams_open_findings(people):
    make_findings(people.team, 30)  # ROC101..ROC103 in turn: ROC101 gets 10
    make_findings(people.other_team, 9, name="theirs")
    first = Finding.objects.filter(repository__team=people.team, rule="ROC101").order_by("id").first()
    Finding.objects.filter(pk=first.pk).update(state="fixed")  # fixed findings are not counted
    response = client_for(people.vera).get(reverse("catalogue:rule", args=["ROC101"]))
    assert response.context["open_findings"] == 9
    assert f"{reverse('findings:list')}?rule=ROC101".encode() in response.content
    assert client_for(people.charlie).get(reverse("catalogue:rule", args=["ROC101"])).context["open_findings"] == 3


@pytest.mark.django_db
def test_a_user_without_a_team_reads_the_rule_without_a_count(people):
    Membership.objects.filter(user=people.vera).delete()
    response = client_for(people.vera).get(reverse("catalogue:rule", args=["ROC101"]))
    assert response.status_code == 200 and response.context["open_findings"] is None


@pytest.mark.django_db
def test_unknown_rules_get_404_and_codes_are_case_insensitive(people):
    client = client_for(people.vera)
    assert client.get(reverse("catalogue:rule", args=["ROC999"])).status_code == 404
    assert client.get(reverse("catalogue:rule", args=["roc101"])).status_code == 200


@pytest.mark.django_db
def test_the_catalogue_is_read_only(people):
    client = client_for(people.alice)
    assert client.post(reverse("catalogue:rules")).status_code == 405
    assert client.post(reverse("catalogue:rule", args=["ROC101"])).status_code == 405


@pytest.mark.django_db
def test_every_rule_page_renders(people):
    client = client_for(people.vera)
    for code in catalogue():
        assert client.get(reverse("catalogue:rule", args=[code])).status_code == 200, code
