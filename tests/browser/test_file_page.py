"""The file page (portal/files): the file's translation diff and its findings inline."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.findings.models import Finding
from portal.scans.models import BlobResult, ScannedFile

pytestmark = pytest.mark.django_db(transaction=True)


def first_change(diff: str) -> tuple[str, str]:
    """The first removed and the first added line of a unified diff, without their markers."""
    lines = diff.splitlines()
    removed = next(
        line[1:].strip() for line in lines if line.startswith("-") and not line.startswith("---") and line[1:].strip()
    )
    added = next(
        line[1:].strip() for line in lines if line.startswith("+") and not line.startswith("+++") and line[1:].strip()
    )
    return removed, added


def test_the_file_page_shows_the_diff_and_an_inline_finding(tab, project):
    path = "src/gemm.cu"
    scanned = ScannedFile.objects.get(scan=project.scan, path=path)
    blob = BlobResult.objects.filter(blob_sha=scanned.blob_sha).exclude(translation=None).first()
    removed, added = first_change(blob.translation["diff"])
    finding = Finding.objects.filter(repository=project.repository, path=path, state="open").order_by("line").first()
    tab.sign_in(project.people.bob)
    page = tab.page
    tab.go(f"/repositories/{project.repository.pk}/files/{path}")
    expect(page.locator("h1")).to_contain_text("gemm.cu")
    main = page.locator("main")
    expect(main).to_contain_text(removed)  # the CUDA line …
    expect(main).to_contain_text(added)  # … and its HIP translation
    # the finding, inline; its Markdown code spans are shown as code, without the backticks
    expect(main).to_contain_text(finding.message.replace("`", ""))
    expect(page.locator(f'main a[href="/findings/{finding.pk}/"]').first).to_be_attached()
    tab.shoot("file")
    # the finding page links back to the file at the finding's line
    tab.go(f"/findings/{finding.pk}/")
    page.locator(f'main a[href*="/files/{path}"]').first.click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_contain_text("gemm.cu")


def test_a_big_files_page_wraps_long_lines_and_opens_the_gap_a_link_points_into(tab, people):
    from portal.repositories.models import Repository
    from tests.portal.files.test_big_file_page import DEEP, PATH, big_source
    from tests.portal.files.test_file_views import add_finding, add_scan

    repository = Repository.objects.create(team=people.team, name="trainer", clone_url="https://example.com/t.git")
    scan = add_scan(repository, {PATH: big_source()})
    add_finding(repository, scan, line=DEEP, path=PATH)
    tab.sign_in(people.bob)
    page = tab.page
    # a line inside a gap: the page opens that gap, then shows the line
    tab.go(f"/repositories/{repository.pk}/files/{PATH}#L1234")
    expect(page.locator("#L1234")).to_be_visible()
    expect(page.locator("#L1234")).to_contain_text("1234")
    tab.shoot("big-file-line", full_page=False)
    # the gap opens from 200 lines above the target; the lines before that stay a gap of their own
    assert page.locator("#L1000").count() == 0
    expect(page.locator('tr.gap[data-start="101"][data-end="1033"]')).to_be_attached()
    # the translation loads when the reader gets to it, and its lines (400 numbers long) wrap inside the box
    page.locator("#diff").scroll_into_view_if_needed()
    table = page.locator("table.sbs")
    expect(table).to_be_visible(timeout=60_000)  # the first request computes the diff (seconds on a busy machine)
    box = page.locator("#translation .table-wrap").first
    widths = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths
    expect(table.locator("td.code.new").filter(has_text="hipMemcpy").first).to_be_visible()
    tab.shoot("big-file-split", full_page=False)
    page.get_by_role("link", name="Unified").click()
    expect(page.locator("table.sbs.unified")).to_be_visible(timeout=30_000)
    expect(page.locator("table.sbs.unified tr.row-insert").filter(has_text="hipMemcpy").first).to_be_visible()
    tab.shoot("big-file-unified", full_page=False)


def test_a_mid_size_files_page_loads_its_gaps_and_its_translation_on_demand(tab, people):
    """A 1,000-line file of ordinary CUDA (~1.2 MB of HTML whole) gets the windowed page (issue 21, defect 2)."""
    from portal.repositories.models import Repository
    from tests.portal.files.test_big_file_page import cuda_source, finding_lines
    from tests.portal.files.test_file_views import add_finding, add_scan

    path = "train/mid.cu"
    repository = Repository.objects.create(team=people.team, name="trainer", clone_url="https://example.com/t.git")
    scan = add_scan(repository, {path: cuda_source(1_000)})
    for k, line in enumerate(finding_lines(1_000), start=1):
        add_finding(repository, scan, line=line, path=path, n=k)
    tab.sign_in(people.bob)
    page = tab.page
    tab.go(f"/repositories/{repository.pk}/files/{path}")
    expect(page.locator("[data-big-file]")).to_be_visible()
    expect(page.locator("#L134")).to_contain_text("atomicAdd")  # a finding's line, shown at first paint
    expect(page.locator("main")).to_contain_text("assumes 32 lanes 2")  # and the finding under it
    # the first gap after the head: its link loads its lines in place
    gap = page.locator("tr.gap[data-start]").first
    start = int(gap.get_attribute("data-start"))
    assert page.locator(f"#L{start}").count() == 0
    gap.get_by_role("link").click()
    expect(page.locator(f"#L{start}")).to_be_visible()
    expect(page.locator(f"#L{start} td.code")).not_to_be_empty()
    tab.shoot("mid-file-gap-opened", full_page=False)
    # the translation is loaded when the reader gets to it, then switched to the unified view
    page.locator("#diff").scroll_into_view_if_needed()
    expect(page.locator("table.sbs.split")).to_be_visible(timeout=60_000)
    expect(page.locator("table.sbs td.code.new").filter(has_text="hipMemcpyAsync").first).to_be_visible()
    page.get_by_role("link", name="Unified").click()
    expect(page.locator("table.sbs.unified tr.row-insert").filter(has_text="hipMemcpyAsync").first).to_be_visible(
        timeout=30_000
    )
    page.locator("table.sbs.unified").scroll_into_view_if_needed()
    tab.shoot("mid-file-unified", full_page=False)
