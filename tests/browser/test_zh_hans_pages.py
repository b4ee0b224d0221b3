"""A Chinese engineer's first pages with a zh-CN browser: the sign-in page, the portfolio and the repository
dashboard, a file page (findings with their messages translated, the HIP translation and its "no HIP equivalent"
marks), a finding's page, the rule catalogue and a rule's page, and a failed scan, all in Simplified Chinese, with screenshots (var/test-artifacts/screenshots/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.catalogue import messages
from portal.findings.models import Finding
from portal.scans.models import Scan
from tests.browser.live import artifacts_dir
from tests.browser.tab import Tab
from tests.portal.people import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def zh_tab(request, live, chromium):
    context = chromium.new_context(base_url=live.url(), locale="zh-CN", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    tab = Tab(context.new_page(), live, request.node.name, artifacts_dir())
    yield tab
    context.close()
    assert not tab.console_errors, tab.console_errors


def test_a_chinese_engineer_signs_in_and_reads_the_pages_in_chinese(zh_tab, project):
    tab, page = zh_tab, zh_tab.page
    tab.go("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("h1")).to_have_text("登录")
    expect(page.get_by_label("用户名")).to_be_visible()
    expect(page.get_by_label("密码")).to_be_visible()
    page.get_by_label("用户名").fill(project.people.bob.username)
    page.get_by_label("密码").fill("wrong")
    page.get_by_role("button", name="登录").click()
    expect(page.get_by_role("alert")).to_have_text("用户名或密码不正确。")
    tab.shoot("sign-in-refused-zh-hans")
    page.get_by_label("用户名").fill(project.people.bob.username)
    page.get_by_label("密码").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="登录").click()
    assert "/accounts/login/" not in page.url
    tab.shoot("portfolio-zh-hans")

    repository = project.repository
    tab.go(f"/repositories/{repository.pk}/dashboard/")
    main = page.locator("main")
    expect(main).to_contain_text("小时")
    assert "Severity hours" not in main.inner_text()
    tab.shoot("dashboard-zh-hans")

    # a file with CUDA names HIP lacks (rule ROC150), so that the translation marks them and says why
    finding = (
        Finding.objects.filter(repository=repository, path__startswith="src/", rule="ROC150").order_by("path").first()
        or Finding.objects.filter(repository=repository, path__startswith="src/").order_by("path").first()
    )
    tab.go(f"/repositories/{repository.pk}/files/{finding.path}")
    if finding.rule == "ROC150":
        expect(main).to_contain_text("HIP 中没有对应项")
        assert "HIP has no equivalent" not in main.inner_text()
    badges = page.locator(".badge[class*=sev-]")
    assert badges.count() and not set(badges.all_inner_texts()) & {"critical", "high", "medium", "low", "info"}
    # the scanner's English message, translated for the page (portal.catalogue.messages); code spans as <code>
    chinese = messages.translate(finding.rule, finding.message, "zh-hans")
    assert chinese, finding.message
    shown = page.locator("tr.inline-finding, .finding-list li").filter(has_text=chinese.replace("`", "")).first
    expect(shown).to_be_visible()
    if finding.rule == "ROC150":
        expect(main).to_contain_text("在 HIP 中没有对应项（依据 HIPIFY")
    assert finding.message.replace("`", "") not in main.inner_text()
    tab.shoot("file-zh-hans")
    tab.go(f"/findings/{finding.pk}/")
    expect(main).to_contain_text(chinese.replace("`", ""))
    tab.shoot("finding-zh-hans")

    tab.go("/rules/")
    expect(page.locator("tr[data-rule=ROC101]")).to_contain_text("从线程号计算")
    tab.shoot("catalogue-zh-hans", full_page=False)
    tab.go("/rules/ROC101/")
    expect(page.locator("p.lead")).to_contain_text("用 32 从线程号计算 lane 或 warp 索引")
    tab.shoot("rule-zh-hans")

    failed = Scan.objects.create(
        repository=repository,
        branch="main",
        status="failed",
        error_code="scan:user:ref-not-found",
        error_message="the branch or ref 'main' does not exist on the remote",
    )
    tab.go(f"/scans/{failed.pk}/")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("扫描失败")
    expect(alert.locator("[lang=en]")).to_have_text("the branch or ref 'main' does not exist on the remote")
    tab.shoot("failed-scan-zh-hans")
