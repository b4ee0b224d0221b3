"""No English on any page a user can reach under Simplified Chinese.

Every route of the URL configuration (the access matrix's walk) is rendered with the test client under
Accept-Language zh-CN on a realistic dataset (the demo's CUDA scanned by the real pipeline, a failed and a
superseded scan, a triaged and commented finding, a token, the rule catalogue with every rule's page, forms with
errors, the sign-in page). The visible text is extracted (tags, scripts, styles, <code>, <pre>, <textarea> and
`translate="no"` elements left out; title, placeholder, aria-label and alt attributes kept), the user's and the
scanner's data are taken out (DATA below), and any English word left that is not a name in ALLOWED fails the
test, listing the phrases and their pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from portal.accounts import tokens
from portal.catalogue import translations
from portal.findings.actions import do_triage_findings
from portal.findings.models import Finding
from portal.ports.models import MergeRequest
from portal.scans.models import Scan
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections
from tests.browser.data import build_project
from tests.portal.languages import ZH, data_strings, english_in, visible_text
from tests.portal.people import PASSWORD, client_for
from tests.portal.routes import PUBLIC, concrete, routes


def english_sources() -> str:
    """English the pages show on purpose, NOT TRANSLATED YET: the rule documentation sections that have no
    translation in portal/catalogue/i18n (the "What it finds", "Example", "References" and "Known problems" sections,
    and "Why it breaks on ROCm" / "Use instead" of the rules not translated yet), on the rule pages and the finding
    page, marked lang="en". The scanner's finding messages are no longer here: they are translated for display."""
    docs = []
    with translation.override("zh-hans"):
        for code, rule in catalogue().items():
            for name, body in parse_sections(rule.doc).items():
                key = {v: k for k, v in translations.SECTIONS.items()}.get(name)
                if name and not (key and translations.translated(code, key)):
                    docs.append(" ".join(body.split()))
    return "\n".join(docs)


def _english_data(chunk: str, url: str, docs: str) -> bool:
    piece = chunk.strip().removesuffix("...").removesuffix("…").strip()
    return bool(piece) and re.match(r"^/(rules/ROC|findings/\d)", url) is not None and piece in docs


MR_DETAIL = "the repository's credentials can read but not push"


def _merge_request(repository) -> MergeRequest:
    """A failed merge request: its page shows the advice for its error code, and what was left for people."""
    return MergeRequest.objects.create(
        repository=repository,
        base_commit="c" * 40,
        target_branch="main",
        files=["src/gemm.cu"],
        left_for_people=[["src/old.cu", "reviewed on an older version of the file: review it again"]],
        key="zh",
        branch="rocport/port-1",
        state="failed",
        error_code="no_write_access",
        error_message=MR_DETAIL,
    )


def _pages(project, failed, superseded, token, finding) -> list[str]:
    repository = project.repository
    path = finding.path
    objects = {
        "repository": repository.pk,
        "scan": project.scan.pk,
        "finding": finding.pk,
        "token": token.pk,
        "team_id": project.people.team.pk,
        "repository_id": repository.pk,
        "scan_id": project.scan.pk,
        "finding_id": finding.pk,
        "kind": "csv",
        "path": path,
        "code": "ROC101",
        "provider": "github",
        "mr": _merge_request(repository).pk,
    }
    urls = []
    for route in routes():
        if route.startswith(("api/", "hooks/", "^api")) or route in ("accounts/logout/", "i18n/setlang/", "healthz"):
            continue  # the API's errors are JSON `detail` texts for programs: English by design
        urls.append(concrete(route, objects) if route not in PUBLIC else "/" + route)
    urls += [f"/scans/{failed.pk}/", f"/scans/{superseded.pk}/", f"/scans/{failed.pk}/progress/"]
    urls += [f"/rules/{code}/" for code in catalogue()]
    urls += ["/rules/?q=warp", "/rules/?q=nothing-matches-this", "/findings/?state=all", "/findings/?rule=ROC101"]
    urls += [f"/repositories/{repository.pk}/files/{path}?view=split", f"/repositories/{repository.pk}/patch/"]
    return urls


@pytest.fixture
def dataset(people, repo_factory):
    project = build_project(people, repo_factory("cuda-demo"))
    repository = project.repository
    failed = Scan.objects.create(
        repository=repository,
        branch="main",
        status="failed",
        error_code="scan:user:ref-not-found",
        error_message="the branch or ref 'main' does not exist on the remote",
    )
    superseded = Scan.objects.create(
        repository=repository, branch="main", status="superseded", error_message=f"superseded by scan {failed.pk}"
    )
    finding = Finding.objects.filter(repository=repository, path__endswith=".cu").order_by("path", "line").first()
    do_triage_findings(
        Finding.objects.filter(pk=finding.pk), "wont_fix", "kept for the NVIDIA build", acting_user=people.alice
    )
    client_for(people.alice).post(f"/findings/{finding.pk}/comment/", {"text": "looked at it"})
    token, _ = tokens.issue(people.alice, "ci-token")
    return project, failed, superseded, token, finding


@pytest.mark.django_db
def test_no_page_shows_english_under_zh_hans(dataset):
    project, failed, superseded, token, finding = dataset
    data = data_strings(
        project,
        ["ci-token", "new-token", "looked at it", "kept for the NVIDIA build", "ftp", "nonsense"]
        + [MR_DETAIL],  # the worker's recorded detail, shown after the translated advice: data, like a message
    )
    sources = english_sources()
    client = client_for(project.people.alice, headers=ZH)
    found: dict[str, list[str]] = {}
    rendered = 0
    for url in _pages(project, failed, superseded, token, finding):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        rendered += 1
        for chunk in visible_text(response.content.decode()):
            if english_in(chunk, data) and not _english_data(chunk, url, sources):
                found.setdefault(chunk, []).append(url)
    # Forms that answer with errors, and the sign-in page signed out
    anonymous = Client(headers=ZH)
    for url, body, who in (
        ("/accounts/login/", None, anonymous),
        ("/accounts/login/", {"username": "alice", "password": "wrong"}, anonymous),
        (f"/repositories/new/{project.people.team.pk}/", {"name": "", "clone_url": "ftp://x"}, client),
        (f"/repositories/{project.repository.pk}/settings/", {"action": "repository", "clone_url": "ftp://x"}, client),
        ("/accounts/tokens/", {"name": ""}, client),
        ("/accounts/tokens/", {"name": "new-token"}, client),  # the token shown once
        # the messages framework's texts, on the page the POST redirects to
        (f"/repositories/{project.repository.pk}/settings/", {"action": "rotate"}, client),
        (f"/accounts/tokens/{token.pk}/revoke/", {}, client),
        (f"/findings/{finding.pk}/triage/", {"decision": "nonsense"}, client),
        ("/findings/bulk/", {"ids": [finding.pk]}, client),
        (f"/notifications/{project.people.team.pk}/", {"threshold": "nonsense"}, client),
        ("/accounts/profile/", {"email": "not an address", "language": "zh-hans"}, client),
        ("/digests/send/", {"team": project.people.team.pk}, client),  # refused: alice has no address yet
    ):
        response = who.get(url) if body is None else who.post(url, body, follow=True)
        assert response.status_code in (200, 400), (url, response.status_code)
        rendered += 1
        shown = response.redirect_chain[-1][0] if getattr(response, "redirect_chain", None) else url
        for chunk in visible_text(response.content.decode()):
            if english_in(chunk, data) and not _english_data(chunk, shown, sources):
                found.setdefault(chunk, []).append(f"{shown} (after POST {url})" if body is not None else url)
    assert rendered >= 100
    # The detector is not blind: the same pages in English are full of English.
    english = client_for(project.people.alice, headers={"Accept-Language": "en"}).get("/findings/").content.decode()
    assert sum(bool(english_in(chunk, data)) for chunk in visible_text(english)) > 20
    report = [
        f"{chunk!r} on {urls[0]}" + (f" (+{len(urls) - 1} more)" if len(urls) > 1 else "")
        for chunk, urls in found.items()
    ]
    assert not report, f"{len(report)} English phrases under zh-Hans:\n" + "\n".join(report)


def test_the_detector_sees_english_and_lets_names_and_data_pass():
    html = (
        "<body><h1>扫描 ROCport</h1><p title='Open findings'>CUDA 与 HIP</p><script>var x = 'Sign in'</script>"
        "<p>Sign in</p><code>cudaMalloc failed</code><p>src/k.cu main a1b2c3d4 __shfl_sync warpSize</p>"
        "<span translate='no'>tokens only</span><p>仓库 kernels-repo</p></body>"
    )
    chunks = visible_text(html)
    flagged = [chunk for chunk in chunks if english_in(chunk, ["kernels-repo", "main"])]
    assert flagged == ["Open findings", "Sign in"]
    assert english_in("the branch mian", []) == ["the", "branch", "mian"]
    assert PASSWORD  # the dataset's users sign in with it
