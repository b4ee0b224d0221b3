"""What people saw wrong, in the browser: the registration form (styled, "Clone URL", the default branch checked on
the remote), the settings page (clone URL at full width, commit-status API URL empty unless set), the new token's
copy button, and the finding page (history with labels, updated after a triage without a reload; rule text with
<code>; no blank line after the highlighted line). In English and Simplified Chinese, with screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding
from portal.repositories.models import Repository
from tests.portal.people import PASSWORD
from tests.portal.servers import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def sign_in(tab, user) -> None:
    """By field name: the labels are in the page's language."""
    tab.go("/accounts/login/")
    tab.page.locator("input[name=username]").fill(user.username)
    tab.page.locator("input[name=password]").fill(PASSWORD)
    with tab.page.expect_navigation():
        tab.page.locator("form button[type=submit]").click()
    assert "/accounts/login/" not in tab.page.url


def _width(locator) -> float:
    return locator.evaluate("e => e.getBoundingClientRect().width")


def test_the_registration_form_is_styled_and_checks_the_branch(tab, zh_tab, people, repo_factory):
    remote = repo_factory("remote")
    remote.commit("first", **{"k.cu": "int k;\n"})
    for t in (tab, zh_tab):
        sign_in(t, people.alice)
    page = tab.page
    tab.go(f"/repositories/new/{people.team.pk}/")
    expect(page.get_by_label("Clone URL")).to_be_visible()
    assert "Clone url" not in page.locator("main").inner_text()
    form = page.locator("form.stacked")
    # Text fields as wide as the form (the browser's default is about 20 characters, ~170 px)
    assert _width(page.get_by_label("Clone URL")) > 0.9 * _width(form.locator("p").first)
    assert _width(page.get_by_label("Clone URL")) > 500
    expect(form.get_by_role("button", name="Register")).to_have_class("primary")
    page.locator("input[name=name]").fill("kernels")
    page.get_by_label("Clone URL").fill(remote.url)
    page.get_by_label("Default branch").fill("mian")
    tab.shoot("register-filled")
    form.get_by_role("button", name="Register").click()
    expect(page.locator("main")).to_contain_text(
        "The branch mian does not exist in the repository (its branches: main)."
    )
    assert not Repository.objects.exists()
    tab.shoot("register-branch-refused")

    zh = zh_tab.page
    zh_tab.go(f"/repositories/new/{people.team.pk}/")
    expect(zh.locator("html")).to_have_attribute("lang", "zh-hans")
    zh.locator("input[name=name]").fill("kernels")
    zh.locator("input[name=clone_url]").fill(remote.url)
    zh.locator("input[name=default_branch]").fill("mian")
    zh.locator("form.stacked button[type=submit]").click()
    expect(zh.locator("main")).to_contain_text("仓库中不存在分支 mian（现有分支：main）。")
    text = zh.locator("main").inner_text()
    for english in ("Clone url", "Clone URL", "Token, password", "Register"):
        assert english not in text, english
    zh_tab.shoot("register-branch-refused-zh-hans")
    zh.locator("input[name=default_branch]").fill("main")
    zh.locator("form.stacked button[type=submit]").click()
    zh.wait_for_url("**/dashboard/")
    assert Repository.objects.get().default_branch == "main"


def test_the_settings_page_shows_the_whole_clone_url_and_derives_the_status_api(tab, people):
    long_url = "git://git.internal.example.net:9418/gpu-platform/kernels/attention-and-collectives-for-mi300x.git"
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url=long_url)
    sign_in(tab, people.alice)
    page = tab.page
    tab.go(f"/repositories/{repository.pk}/settings/")
    field = page.locator("input[name=clone_url]")
    expect(field).to_have_value(long_url)
    # Wide enough for the whole URL: its text fits in the field (nothing scrolled out of view)
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth"), "the clone URL is cut"
    assert _width(field) > 0.9 * _width(field.locator("xpath=.."))
    expect(page.locator("input[name=api_url]")).to_have_value("")
    expect(page.locator("input[name=project]")).to_have_value("")
    page.locator("#commit-statuses").scroll_into_view_if_needed()
    tab.shoot("settings")


def test_a_new_token_has_a_copy_button(tab, zh_tab, people):
    tab.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(tab, people.bob)
    page = tab.page
    tab.go("/accounts/tokens/")
    page.locator("input[name=name]").fill("ci")
    page.get_by_role("button", name="Create token").click()
    token = page.locator("#new-token-value").input_value()
    assert token.startswith("rp_")
    button = page.get_by_role("button", name="Copy", exact=True)
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("[data-copy-status]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == token
    tab.shoot("token-copied")

    zh_tab.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(zh_tab, people.alice)
    zh = zh_tab.page
    zh_tab.go("/accounts/tokens/")
    zh.locator("input[name=name]").fill("ci")
    zh.locator("form button[type=submit].primary").click()
    zh.get_by_role("button", name="复制", exact=True).click()
    expect(zh.locator("[data-copy-status]")).to_have_text("已复制")
    zh_tab.shoot("token-copied-zh-hans")


def _finding(project):
    return (
        Finding.objects.filter(repository=project.repository, state="open", path__endswith=".cu")
        .order_by("-severity_rank", "id")
        .first()
    )


def test_the_finding_history_speaks_in_labels_and_follows_a_triage(tab, zh_tab, project):
    finding = _finding(project)
    sign_in(tab, project.people.bob)
    page = tab.page
    tab.go(f"/findings/{finding.pk}/")

    # The rule's documentation: inline code as <code>, no Markdown backticks left
    about = page.locator("dl").first
    assert about.locator("code").count() > 0
    assert "`" not in about.inner_text()

    # The code excerpt: the line after the highlighted one starts where the highlighted one ends (no blank line)
    gap = page.evaluate(
        """() => {
             const here = document.querySelector('pre.code span.here');
             const walker = document.createTreeWalker(here.closest('pre'), NodeFilter.SHOW_TEXT);
             let node;
             while ((node = walker.nextNode())) {
               const after = here.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING;
               const at = node.textContent.search(/\\S/);
               if (!after || here.contains(node) || at < 0) continue;
               const range = document.createRange();
               range.setStart(node, at); range.setEnd(node, at + 1);
               return range.getBoundingClientRect().top - here.getBoundingClientRect().bottom;
             }
             return null;
           }"""
    )
    assert abs(gap) < 3, f"a blank line of {gap}px after the highlighted line"

    options = page.locator("#triage select[name=decision] option").all_inner_texts()
    assert "Won't fix" in options and "False positive" in options

    tab.mark()
    page.locator("#triage select[name=decision]").select_option("false_positive")
    page.locator("#triage input[name=reason]").fill("generated code")
    page.locator("#triage").get_by_role("button").click()
    history = page.locator("#history")
    expect(history.locator("li").first).to_contain_text("triaged by bob: Untriaged → False positive (generated code)")
    assert tab.not_reloaded(), "the history was updated by a reload"
    assert "false_positive" not in history.inner_text()
    tab.shoot("history-after-triage")

    page.locator("textarea[name=text]").fill("checked with the HIP build")
    page.get_by_role("button", name="Add comment").click()
    expect(history.locator("li").first).to_contain_text("commented by bob: checked with the HIP build")
    assert " :" not in history.inner_text()
    tab.shoot("history-commented")

    sign_in(zh_tab, project.people.bob)
    zh = zh_tab.page
    zh_tab.go(f"/findings/{finding.pk}/")
    zh_history = zh.locator("#history")
    expect(zh_history).to_contain_text("未分诊 → 误报")
    assert "false_positive" not in zh_history.inner_text() and "`" not in zh.locator("dl").first.inner_text()
    zh_tab.shoot("history-zh-hans")


# Banner backgrounds (static/rocport.css): a success's green, a warning's yellow
GREEN, YELLOW = "rgb(218, 251, 225)", "rgb(255, 248, 197)"


def _banner(page):
    banner = page.locator(".messages p")
    expect(banner).to_have_count(1)
    return banner, banner.evaluate("e => getComputedStyle(e).backgroundColor")


def test_a_remote_that_does_not_answer_registers_under_a_yellow_warning_not_a_green_success(
    tab, zh_tab, people, repo_factory
):
    """Issue 36, item 4: "could not be checked" showed in the green banner of a success."""
    remote = repo_factory("remote")
    remote.commit("first", **{"k.cu": "int k;\n"})
    for t, name, url in (
        (tab, "silent", f"git://127.0.0.1:{free_port()}/kernels.git"),
        (zh_tab, "silent-zh", f"git://127.0.0.1:{free_port()}/kernels.git"),
    ):
        sign_in(t, people.alice)
        t.go(f"/repositories/new/{people.team.pk}/")
        t.page.locator("input[name=name]").fill(name)
        t.page.locator("input[name=clone_url]").fill(url)
        with t.page.expect_navigation():
            t.page.locator("form.stacked button[type=submit]").click()
        banner, colour = _banner(t.page)
        expect(banner).to_have_class("message-warning")
        assert colour == YELLOW
        expect(banner).to_contain_text(f"{url} " + ("did not answer this server" if t is tab else "没有应答本服务器"))
        t.shoot("registered-with-warning" + ("-zh-hans" if t is zh_tab else ""))
    assert set(Repository.objects.values_list("name", flat=True)) == {"silent", "silent-zh"}

    page = tab.page
    tab.go(f"/repositories/new/{people.team.pk}/")
    page.locator("input[name=name]").fill("answers")
    page.locator("input[name=clone_url]").fill(remote.url)
    with page.expect_navigation():
        page.locator("form.stacked button[type=submit]").click()
    banner, colour = _banner(page)
    expect(banner).to_have_class("message-success")
    assert colour == GREEN
    expect(banner).to_contain_text("Repository answers registered.")
