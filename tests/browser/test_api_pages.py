"""The API's pages in Chromium: the interactive docs render from the portal's own static files (nothing fetched from
another host, no console error under the Content-Security-Policy), and a token made on the account's page is shown
once, works, and dies when revoked."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import requests
from playwright.sync_api import expect

from portal.accounts.models import ApiToken
from tests.portal.people import People

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_render_every_operation_from_our_own_static_files(tab):
    hosts = set()
    tab.page.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    tab.go("/api/v1/docs")
    expect(tab.page.locator(".opblock").first).to_be_visible()
    # one block per operation of the OpenAPI document the page renders
    schema = tab.page.evaluate("fetch('/api/v1/openapi.json').then((answer) => answer.json())")
    operations = sum(len(methods) for methods in schema["paths"].values())
    assert operations > 14 and tab.page.locator(".opblock").count() == operations
    expect(tab.page.locator(".opblock-summary-path").filter(has_text="/api/v1/findings/triage/")).to_be_visible()
    tab.shoot("api-docs")
    assert hosts == {urlsplit(tab.live.url()).netloc}, hosts  # an air-gapped install needs no CDN


def test_a_token_is_shown_once_works_and_is_revoked(tab):
    people = People.create()
    tab.sign_in(people.bob)
    page = tab.page
    page.get_by_role("link", name="API tokens").click()
    expect(page.get_by_role("heading", name="API tokens")).to_be_visible()
    expect(page.locator(".empty")).to_contain_text("CI")
    page.get_by_label("Name").fill("laptop script")
    page.get_by_label("Read-only").check()
    page.get_by_role("button", name="Create token").click()
    field = page.locator("input[data-token]")
    expect(field).to_be_visible()
    plain = field.input_value()
    assert plain.startswith("rp_") and ApiToken.objects.get(user=people.bob).read_only
    tab.shoot("token-created")

    api = tab.live.url("/api/v1/repositories/")
    assert requests.get(api, headers={"Authorization": f"Bearer {plain}"}, timeout=30).status_code == 200
    tab.go("/accounts/tokens/")  # the list: the token's prefix, never the token
    assert plain not in page.content()
    expect(page.locator("table")).to_contain_text("laptop script")
    expect(page.locator("table")).to_contain_text(plain[:10])
    page.get_by_role("button", name="Revoke").click()
    expect(page.locator(".messages")).to_contain_text("revoked")
    tab.shoot("token-revoked")
    assert requests.get(api, headers={"Authorization": f"Bearer {plain}"}, timeout=30).status_code == 401
