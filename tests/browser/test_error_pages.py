"""An address that does not exist, as a reader meets it: the portal's own page, in its layout and the reader's
language, with the language switch working on it; never Django's debug page listing the URL patterns."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

MISSING = "/no/such/page/"


def open_missing(tab):
    with tab.allow_console_errors(r"status of 404"):  # Chromium logs the page's own 404
        response = tab.page.goto(tab.live.url(MISSING))
    assert response.status == 404
    return tab.page


def assert_in_the_portals_layout(page):
    # The stylesheet applied (the dark header bar), not an unstyled page; and no URL-pattern listing.
    expect(page.locator("header.top")).to_have_css("background-color", "rgb(36, 41, 47)")
    assert "URLconf" not in page.content() and "admin/" not in page.locator("main").inner_text()


def test_an_unknown_address_shows_the_portals_not_found_page_and_switches_language(tab, people):
    tab.sign_in(people.bob)
    page = open_missing(tab)
    expect(page.locator("h1")).to_have_text("Not found")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    assert_in_the_portals_layout(page)
    tab.shoot("not-found")

    with tab.allow_console_errors(r"status of 404"), page.expect_navigation():
        page.locator("select[name=language]").select_option(label="简体中文")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("h1")).to_have_text("未找到")
    assert page.url.endswith(MISSING)  # the switch came back to the same address
    with page.expect_navigation():
        page.get_by_role("link", name="前往项目组合").click()
    assert page.url == tab.live.url("/")


def test_a_chinese_reader_gets_the_not_found_page_in_chinese_before_signing_in(zh_tab):
    page = open_missing(zh_tab)
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("h1")).to_have_text("未找到")
    assert_in_the_portals_layout(page)
    zh_tab.shoot("not-found-zh-hans")
