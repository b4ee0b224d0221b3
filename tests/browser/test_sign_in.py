"""Signing in with the login form, and the language switch (the page's lang attribute)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_signing_in_with_the_login_form_opens_the_portfolio(tab, people):
    page = tab.page
    page.goto(tab.live.url("/"))
    assert "/accounts/login/" in page.url  # anonymous: sent to the login form, with next=
    tab.shoot("login")
    page.get_by_label("Username").fill("bob")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    tab.shoot("login-refused")

    tab.sign_in(people.bob)
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_role("link", name="Portfolio")).to_be_visible()
    assert "/accounts/login/" not in page.url
    tab.shoot("signed-in")


def test_switching_the_language_to_simplified_chinese_changes_the_page_language(tab, people):
    tab.sign_in(people.bob)
    page = tab.page
    tab.go("/findings/")
    assert page.locator("html").get_attribute("lang") == "en"
    with page.expect_navigation():
        page.locator("select[name=language]").select_option(label="简体中文")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    assert page.url.endswith("/findings/")  # the switch comes back to the same page
    tab.shoot("zh-hans")
    tab.go("/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")  # the choice is kept


def test_pages_name_an_icon_so_that_browsers_do_not_fetch_a_missing_favicon(tab, people):
    tab.go("/accounts/login/")
    icon = tab.page.locator("head link[rel~=icon]")
    expect(icon).to_have_count(1)
    response = tab.page.request.get(
        tab.live.url(icon.get_attribute("href"))
        if icon.get_attribute("href").startswith("/")
        else icon.get_attribute("href")
    )
    assert response.ok
