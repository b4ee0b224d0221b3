"""The profile page in the browser (issue 36, item 2), in English and Simplified Chinese: reached from the header, it
takes an address, a language and the weekly digest; it previews the digest of the user's own team as the email
reads; "send me now" refuses without an address and sends once with one (the live server's console mail backend
prints the message to its log); the language chosen there is the portal's at the next sign-in.

Screenshots go to var/test-artifacts/screenshots/ (test_profile_page's names)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.accounts.models import Profile
from portal.digests.models import DigestSubscription
from portal.repositories.models import Repository

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def repositories(people):
    Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.test/kernels.git")
    Repository.objects.create(team=people.other_team, name="secret-sauce", clone_url="https://example.test/s.git")


def _mails_to(live, address: str) -> int:
    """Messages the live server's console backend printed for `address`."""
    return len(re.findall(rf"^To: {re.escape(address)}$", live.log.read_text(), flags=re.MULTILINE))


def _open_profile(tab, link: str) -> None:
    tab.go("/")
    with tab.page.expect_navigation():
        tab.page.locator("header").get_by_role("link", name=link, exact=True).click()
    assert tab.page.url.endswith("/accounts/profile/")


def test_the_profile_page_in_english(tab, people, repositories, live):
    tab.sign_in(people.alice)
    _open_profile(tab, "Profile")
    page = tab.page
    expect(page.locator("h1")).to_have_text("Profile")
    preview = page.locator("#digest-preview")
    expect(preview.locator("[data-preview-subject]")).to_contain_text("ROCport weekly digest: GPU team, week of ")
    body = preview.locator("[data-preview-body]")
    expect(body).to_contain_text("Weekly digest of the team GPU team")
    expect(body).to_contain_text("- kernels: ")
    assert "secret-sauce" not in page.locator("main").inner_text()  # the other team's repository
    tab.shoot("profile-empty")

    preview.get_by_role("button", name="Send me now").click()
    expect(page.locator(".messages")).to_contain_text("Your profile has no email address, so nothing can be sent")
    assert _mails_to(live, "alice@example.test") == 0
    tab.shoot("send-now-refused")

    page.get_by_label("Email address").fill("alice@example.test")
    page.get_by_label("Send me the weekly digest of GPU team").check()
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator(".messages")).to_have_text("Profile saved.")
    alice = get_user_model().objects.get(pk=people.alice.pk)
    assert alice.email == "alice@example.test"
    assert DigestSubscription.objects.get(user=alice).language == "en"

    page.locator("#digest-preview").get_by_role("button", name="Send me now").click()
    expect(page.locator(".messages")).to_have_text("The weekly digest of GPU team is on its way to alice@example.test.")
    assert _mails_to(live, "alice@example.test") == 1
    tab.shoot("send-now-sent")

    # Chinese chosen on the profile: the page, its message and the preview switch; the next sign-in keeps it
    page.locator("main").get_by_label("Language").select_option("zh-hans")
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator(".messages")).to_have_text("个人资料已保存。")
    expect(page.locator("[data-preview-body]")).to_contain_text("团队 GPU team 的每周摘要")
    assert Profile.objects.get(user=alice).language == "zh-hans"
    page.context.clear_cookies()  # a browser that asks for English (en-US), signed out
    tab.sign_in(people.alice)
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    tab.shoot("signed-in-again-in-chinese")


def test_the_profile_page_in_chinese(zh_tab, people, repositories, live):
    zh_tab.sign_in(people.bob)
    _open_profile(zh_tab, "个人资料")
    page = zh_tab.page
    expect(page.locator("h1")).to_have_text("个人资料")
    expect(page.locator("main")).to_contain_text("每周摘要预览")
    expect(page.locator("[data-preview-body]")).to_contain_text("团队 GPU team 的每周摘要")
    expect(page.locator("[data-preview-body]")).to_contain_text("- kernels: ")
    text = page.locator("main").inner_text()
    for english in ("Email address", "Language", "Send me now", "Save profile", "Preview", "secret-sauce"):
        assert english not in text, english
    zh_tab.shoot("profile-zh-hans")

    page.get_by_role("button", name="立即发给我").click()
    expect(page.locator(".messages")).to_contain_text("你的个人资料中没有邮箱地址")

    address = page.get_by_label("邮箱地址")
    address.fill("bob at example")
    assert address.evaluate("e => !e.validity.valid")  # an <input type=email>: the browser holds it back
    address.fill("bob@example.test")
    page.get_by_label("给我发送 GPU team 的每周摘要").check()
    page.get_by_role("button", name="保存个人资料").click()
    expect(page.locator(".messages")).to_have_text("个人资料已保存。")
    bob = get_user_model().objects.get(pk=people.bob.pk)
    assert bob.email == "bob@example.test"
    assert DigestSubscription.objects.get(user=bob).language == "zh-hans"  # the page's language, kept

    page.get_by_role("button", name="立即发给我").click()
    expect(page.locator(".messages")).to_have_text("GPU team 的每周摘要正在发往 bob@example.test。")
    assert _mails_to(live, "bob@example.test") == 1
    zh_tab.shoot("send-now-sent-zh-hans")
