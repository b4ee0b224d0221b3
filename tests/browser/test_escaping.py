"""Repository content is text, never markup, on every page that shows it: a repository whose paths, code, commit
message, branch names and rule-matched lines hold `<script>`, `"><img onerror>`, `{{ }}` and `javascript:` is
scanned by the real pipeline, and each page that shows them is opened in Chromium. The text must appear
literally, and nothing may run: no dialog (every payload calls alert), no element or handler the page did not
ship, no inline script, no `javascript:` link, no console error (the `tab` fixture fails on one; a blocked
inline script or an image loaded from `x` would log one). The downloads' file names are checked too.

The commit message is in the repository but no page shows it (ROCport stores commits by sha only)."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import quote, unquote

import pytest

from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import ScannedFile
from portal.scans.pipeline import runner as pipeline

pytestmark = pytest.mark.django_db(transaction=True)

# Paths (a `/` inside `</script>` makes a directory: the path is still exactly this string).
SCRIPT_PATH = "src/<script>alert(1)</script>.cu"
IMG_PATH = 'src/"><img src=x onerror=alert(2)>.cu'
TEMPLATE_PATH = "src/{{7*7}} javascript:alert(3) ?q=1#frag.cuh"
BINARY_PATH = "src/<svg onload=alert(4)>.cu"  # NUL bytes: an error result, listed with its path
# Code: a rule-matched line and a translated line, each with markup in a comment or a string.
MATCHED_LINE = "x[threadIdx.x % 32] = warpSize; // <script>alert(5)</script> {{ 7*7 }}"
TRANSLATED_LINE = 'cudaMalloc(&p, 4); const char *s = "\\"><img src=x onerror=alert(6)>"; /* javascript:alert(7) */'
KERNEL = f"""#include <cuda_runtime.h>
__global__ void k(float *x) {{
  {MATCHED_LINE}
}}
void host() {{
  float *p;
  {TRANSLATED_LINE}
}}
"""
BRANCHES = ["<script>alert(8)</script>", 'x"><svg/onload=alert(9)>', "{{x}}", "a&amp;b"]
REPOSITORY_NAME = "<b>esc</b> \"'><img src=x onerror=alert(10)>"
COMMIT_MESSAGE = '<script>alert(11)</script> "><img src=x onerror=alert(12)> {{7*7}}'


@pytest.fixture
def hostile(people, repo_factory):
    git = repo_factory("hostile")
    for path in (SCRIPT_PATH, IMG_PATH, TEMPLATE_PATH):
        git.write(path, KERNEL)
    (git.path / BINARY_PATH).write_bytes(b"\x00\x01binary" * 10)
    commit = git.commit(COMMIT_MESSAGE)
    for branch in BRANCHES:
        git.git("branch", branch)
    repository = Repository.objects.create(
        team=people.team, name=REPOSITORY_NAME, clone_url=git.url, tracked_branches=BRANCHES
    )
    scans = {}
    for branch in ["main", *BRANCHES]:
        scan = do_create_scan(repository, branch=branch, commit_sha=commit, enqueue=False)
        pipeline.run(scan.pk)
        scan.refresh_from_db()
        assert scan.status == "finished", (branch, scan.error_code, scan.error_message)
        scans[branch] = scan
    paths = set(ScannedFile.objects.filter(scan=scans["main"]).values_list("path", flat=True))
    assert {SCRIPT_PATH, IMG_PATH, TEMPLATE_PATH, BINARY_PATH} <= paths, paths  # nothing lost on the way in
    return people, repository, scans


def _watch(tab) -> list[str]:
    dialogs: list[str] = []

    def on_dialog(dialog):
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    tab.page.on("dialog", on_dialog)
    return dialogs


# What a page must not contain after rendering: markup from the repository turned into live elements.
_INJECTED = """() => {
  const all = [...document.querySelectorAll('*')];
  return {
    handlers: all.filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith('on')))
                 .map(e => e.outerHTML.slice(0, 200)),
    elements: [...document.querySelectorAll('img[src="x"], svg[onload], script:not([src])')]
                 .concat([...document.querySelectorAll('b')].filter(b => b.textContent === 'esc'))
                 .map(e => e.outerHTML.slice(0, 200)),
    scripts: [...document.scripts].filter(s => /alert/.test(s.src + s.textContent)).map(s => s.outerHTML),
    links: [...document.querySelectorAll('[href], [src], [action], [hx-get], [hx-post]')]
             .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action')
                       || e.getAttribute('hx-get') || e.getAttribute('hx-post') || '')
             .filter(v => /^\\s*javascript:/i.test(v)),
  };
}"""


def _check(tab, dialogs, path: str, *literal: str):
    """Open `path`, then: each `literal` appears as text, nothing was injected, nothing ran."""
    tab.go(path)
    page = tab.page
    page.wait_for_load_state("networkidle")
    text = page.locator("body").inner_text()
    for value in literal:
        assert value in text, f"{path}: {value!r} is not shown literally"
    injected = page.evaluate(_INJECTED)
    assert injected == {"handlers": [], "elements": [], "scripts": [], "links": []}, (path, injected)
    assert not dialogs, (path, dialogs)
    return page


def test_repository_content_is_shown_as_text_on_every_page_and_nothing_runs(tab, hostile):
    people, repository, scans = hostile
    dialogs = _watch(tab)
    tab.sign_in(people.bob)
    pk = repository.pk
    main_scan = scans["main"]

    # the findings list: every hostile path, and the repository's name
    _check(tab, dialogs, f"/findings/?repository={pk}", SCRIPT_PATH, IMG_PATH, TEMPLATE_PATH, REPOSITORY_NAME)
    tab.shoot("findings-list")

    # the finding page: its path, branch and the rule-matched line
    finding = Finding.objects.filter(
        repository=repository, path=SCRIPT_PATH, branch="main", snippet__contains="alert(5)"
    ).first()
    assert finding is not None, list(Finding.objects.values_list("path", "snippet"))
    page = _check(tab, dialogs, f"/findings/{finding.pk}/", SCRIPT_PATH, MATCHED_LINE.strip())
    file_link = page.locator("main a[href*='/files/']").first
    assert file_link.get_attribute("href").startswith(f"/repositories/{pk}/files/src/%3Cscript%3E"), (
        file_link.get_attribute("href")
    )
    tab.shoot("finding")

    # the file page, reached through the finding's link (the path is encoded in it) and by URL, with the HIP diff
    for path in (SCRIPT_PATH, IMG_PATH, TEMPLATE_PATH):
        page = _check(
            tab,
            dialogs,
            f"/repositories/{pk}/files/{quote(path)}",
            path,
            MATCHED_LINE.strip(),
            TRANSLATED_LINE,
            TRANSLATED_LINE.replace("cudaMalloc", "hipMalloc"),
        )
    tab.shoot("file-page")
    tab.go(f"/findings/{finding.pk}/")
    with page.expect_navigation():
        page.locator("main a[href*='/files/']").first.click()
    assert "alert(5)" in page.locator("main").inner_text()

    # the scan page of each branch: the branch name; the default branch's scan: the binary file's error
    for branch, scan in scans.items():
        _check(tab, dialogs, f"/scans/{scan.pk}/", branch)
    tab.shoot("scan-page")

    # the repository dashboard (paths in its tables, tracked branches), the branches partial, the list pages
    _check(tab, dialogs, f"/repositories/{pk}/dashboard/", REPOSITORY_NAME, *BRANCHES)
    tab.shoot("dashboard")
    _check(tab, dialogs, f"/repositories/{pk}/dashboard/branches/", *BRANCHES)
    _check(tab, dialogs, "/", REPOSITORY_NAME)
    _check(tab, dialogs, f"/repositories/{pk}/", REPOSITORY_NAME)

    # downloads: file names from ASCII letters, digits, dot, dash and underscore only; the content keeps the paths
    tab.go(f"/scans/{main_scan.pk}/")
    for label, extension in (("SARIF", "sarif"), ("CSV", "csv")):
        with page.expect_download() as info:
            page.locator("#scan-exports a", has_text=label).first.click()
        download = info.value
        assert re.fullmatch(r"rocport-[A-Za-z0-9._-]+-scan-\d+\." + extension, download.suggested_filename), (
            download.suggested_filename
        )
        content = open(download.path(), encoding="utf-8").read()
        if extension == "sarif":  # locations are URIs: percent-encoded
            paths = {
                unquote(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                for result in json.loads(content)["runs"][0]["results"]
            }
        else:
            paths = {row["path"] for row in csv.DictReader(io.StringIO(content))}
        assert {SCRIPT_PATH, IMG_PATH, TEMPLATE_PATH} <= paths, paths
    assert not dialogs, dialogs
