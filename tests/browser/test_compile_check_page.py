"""The compile check on the demo project (issue 10's acceptance): every translated file's page shows its compile
status beside the HIP diff and the compiler's errors inline; the dashboard shows the share that builds for gfx942.
The demo is scanned by the real pipeline with the default toolchain, clang-19 and the bundled ROCm headers
(skipped without them: scripts/ensure-test-tools.sh)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from portal.scans.models import BlobResult, ScannedFile
from tests.browser.data import DEMO, build_project
from tests.tools import needs

pytestmark = [pytest.mark.django_db(transaction=True), needs("hip-clang")]


@pytest.fixture
def compiled(people, repo_factory):
    git = repo_factory("cuda-demo")
    git.write(".rocport.toml", (DEMO / ".rocport.toml").read_text())  # the demo's include directory
    # The demo's header PTX now translates (a non-caching load becomes a plain one); a 64-bit timer read has no sure
    # counterpart and its `=l` constraint is an error on AMDGPU, so the unit keeps an error located in the header.
    header = (
        (DEMO / "include/ptx_utils.cuh")
        .read_text()
        .replace(
            "  return v;\n",
            '  unsigned long long t;\n  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));\n  return v + (t & 0);\n',
        )
    )
    with override_settings(ROCPORT_COMPILE_CHECK="auto"):
        return build_project(people, git, changed={"include/ptx_utils.cuh": header})


def test_each_translated_demo_file_shows_its_compile_status_and_its_errors_inline(tab, compiled):
    checked = {f.path: f for f in ScannedFile.objects.filter(scan=compiled.scan, path__startswith="src/")}
    assert set(checked) == {"src/comm.cu", "src/gemm.cu", "src/portable.cu", "src/softmax.cu"}
    tab.sign_in(compiled.people.bob)
    page = tab.page
    for path, scanned in sorted(checked.items()):
        status = scanned.stats["compile"]["status"]
        stored = BlobResult.objects.filter(blob_sha=scanned.blob_sha).order_by("-id").first().result["compile"]
        here = [d for d in stored["diagnostics"] if d["path"] == path]  # set-aside ones are shown too, as such
        tab.go(f"/repositories/{compiled.repository.pk}/files/{path}")
        box = page.locator("#compile")
        expect(box).to_have_attribute("data-compile", status)
        expect(box).to_contain_text(stored["target"])
        assert stored["target"] == "gfx942"  # the profile's own target, not a fallback
        if here:  # the errors located in this file, on their HIP lines
            rows = page.locator("tr.inline-error")
            expect(rows).to_have_count(len(here))
            expect(rows.first).to_contain_text(here[0]["message"][:60])
        tab.shoot(path.replace("/", "-"))
    # src/softmax.cu: its own error inline, and the unit's errors in the headers it includes, linked
    tab.go(f"/repositories/{compiled.repository.pk}/files/src/softmax.cu")
    expect(page.locator("tr.inline-error").first).to_contain_text("64-bit wavefront mask stored in 32 bits")
    page.locator("#compile details summary").click()
    expect(page.locator('#compile a[href*="/files/include/ptx_utils.cuh#L"]')).to_be_visible()
    # the dashboard: the share that builds, beside the migration progress
    tab.go(f"/repositories/{compiled.repository.pk}/dashboard/")
    card = page.locator("#builds")
    expect(card).to_contain_text("builds for gfx942")
    summary = compiled.scan.summary["compile"]["files"]
    built = summary.get("compiles", 0) + summary.get("compiles-with-stubs", 0)
    expect(card).to_contain_text(f"{built} of {built + summary.get('fails', 0)} compiled file")
    tab.shoot("dashboard")
