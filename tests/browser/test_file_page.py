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
    expect(main).to_contain_text(finding.message)  # the finding, inline
    expect(page.locator(f'main a[href="/findings/{finding.pk}/"]').first).to_be_attached()
    tab.shoot("file")
    # the finding page links back to the file at the finding's line
    tab.go(f"/findings/{finding.pk}/")
    page.locator(f'main a[href*="/files/{path}"]').first.click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_contain_text("gemm.cu")
