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
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import translation

from portal.accounts import tokens
from portal.catalogue import translations
from portal.findings.actions import do_triage_findings
from portal.findings.models import Finding, FindingEvent
from portal.ports.models import MergeRequest
from portal.scans.models import Scan, ScannedFile
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections
from tests.browser.data import build_project
from tests.portal.people import PASSWORD, client_for
from tests.portal.site.test_access_matrix import PUBLIC, concrete, routes

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}

# Names and technical terms Chinese engineers write in Latin letters (products, formats, tools, protocols, and
# GPU vocabulary that has no settled Chinese term: warp, lane, wavefront, tile...). Case-insensitive.
ALLOWED = {
    *"ROCport CUDA HIP ROCm GitHub GitLab Gitea Forgejo SARIF CSV JSON API URL htmx HTML HTTP HTTPS".split(),
    *"AMD NVIDIA PTX NVVM NVRTC hipRTC AMDGPU NVPTX libdevice TensorRT MIGraphX ONNX Runtime cuDNN MIOpen".split(),
    *"cuBLAS cuFFT cuRAND cuSPARSE cuSOLVER hipBLAS hipFFT hipRAND hipSPARSE hipSOLVER NCCL RCCL NVTX roctx".split(),
    *"Thrust CUB rocThrust hipCUB CUTLASS CuTe Composable Kernel hipBLASLt cuTENSOR hipTensor cuBLASLt".split(),
    *"WMMA MMA rocWMMA MFMA NVML SMI HIPIFY Tensor Core Instinct CDNA RDNA LDS SM EU XNACK KiB MiB GiB".split(),
    *"CMake FindCUDA Makefile Makefiles Dockerfile Dockerfiles Compose Kubernetes PyTorch vLLM NVLS CollNet".split(),
    *"nvcc hipcc clang libclang hipify hipify-clang Pygments git ssh https http docker conda pip Python".split(),
    *"nvidia-smi rocm-smi amd-smi Nsight rocprofv3 autograd wheel Actions CI Celery PostgreSQL Redis".split(),
    *"GPU GPUs CPU MI300X MI100 MI350 NUMA warp warps lane lanes wave wavefront shuffle ballot tile cluster".split(),
    *"epilogue setup.py pyproject.toml requirements runs-on tags Bearer token OpenAPI Swagger UI ID".split(),
    *"Triton Inference Server Volta NVLink rocprofiler cubin fatbin Numba".split(),
    *"matmul fragment bank scratch trap lambda root".split(),
    *"pynvml flash-attn CK torchvision torchaudio cuda-python Omnitrace Systems Megatron Infinity Fabric".split(),
    *"rccl-tests Linux Ansible Helm sysctl cloud-init playbook role shell Action".split(),
    *"ptxas amdclang apt Docker DataLoader seccomp Pod Pending Operator ROCr Slurm Ray".split(),  # GPU programming words usually left in English
    *"ast ast-stubbed tokens".split(),  # parse modes: identifiers the README and the JSON report use
    *"webhook webhooks Web Shell builtin HIP-Clang gfx softmax roctracer rocprofiler-sdk ROCm-Device-Libs".split(),
    *"rank ranks peer peers Hopper Blackwell DSL pyproject info".split(),  # communication and architecture names
    "English",  # the language switch names each language in its own script
}
_ALLOWED = {word.lower() for word in ALLOWED}
_SKIP = {"script", "style", "code", "pre", "textarea", "kbd", "samp", "svg"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Whitespace, CJK characters and full-width punctuation separate tokens (Chinese has no spaces between words)
_SPLIT = re.compile(r"[\s\u2000-\u206f\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


class _Visible(HTMLParser):
    """Text a reader sees or hears: text nodes and a few attributes, outside skipped elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.chunks: list[str] = []

    def _skipping(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        # source lines of the file page (<td class="src">, <td class="code old">) and the brand (ROC<span>port)
        skipped = (
            tag in _SKIP
            or attrs.get("translate") == "no"
            or ("hidden" in attrs and tag != "input")
            or bool(classes & {"src", "code", "brand"})
        )
        if (
            tag not in ("script", "style")
            and attrs.get("title")
            and not any(t in ("script", "style") for t, _ in self.stack)
        ):
            self.chunks.append(attrs["title"])  # a tooltip, also on a mark inside the source
        if not skipped and not self._skipping():
            for name in ("placeholder", "aria-label", "alt"):
                if attrs.get(name):
                    self.chunks.append(attrs[name])
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.chunks.append(attrs["value"])
        if tag not in _VOID:
            self.stack.append((tag, skipped))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if data.strip() and not self._skipping():
            self.chunks.append(data)


def visible_text(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html.split("<body", 1)[-1] if "<body" in html else html)
    return [" ".join(chunk.split()) for chunk in parser.chunks]


def english_in(chunk: str, data: list[str]) -> list[str]:
    """The English words of a chunk once data, URLs, paths, file names and identifiers are taken out."""
    for value in data:
        if value in chunk:
            chunk = chunk.replace(value, " ")
    words = []
    for token in _SPLIT.split(chunk):
        if re.search(r"://|/|\\|[_0-9@#=<>{}\[\]()*]|\.\w", token) or re.search(r"[a-z][A-Z]", token):
            continue  # a URL, a path, a file name, an identifier, a number, a flag, camelCase
        for word in _WORD.findall(token):
            if word.isupper() or word.lower() in _ALLOWED or word.lower().strip("'’-") in _ALLOWED:
                continue  # an acronym (NVIDIA, LDS) or an allowed name
            words.append(word)
    return words


def data_strings(project, extra: list[str]) -> list[str]:
    """What the page shows as data, longest first: the user's (names, branches, paths, commits, comments) and the
    scanner's. The translator's fallback reasons, clang's diagnostics, the parse errors and the stored English detail
    of a failed scan are English data from the scanner and the pipeline: NOT TRANSLATED YET (the pages show them as
    secondary text beside translated headings and explanations). Finding.message is not data: the pages translate it
    (portal.catalogue.messages), so an untranslated message fails the walk."""
    repository = project.repository
    values = {repository.name, repository.clone_url, repository.default_branch, *extra}
    for scan in Scan.objects.filter(repository=repository):
        values |= {scan.branch, scan.commit_sha, scan.commit_sha[:10], scan.error_message}
    for f in Finding.objects.filter(repository=repository):
        values |= {f.path, f.name, f.rule, f.snippet, f.triage_reason}
    for event in FindingEvent.objects.filter(finding__repository=repository):
        values |= {str(v) for v in (event.data or {}).values() if isinstance(v, str)}
    for scanned in ScannedFile.objects.filter(scan__repository=repository):
        values |= {scanned.path, scanned.error}
    people = project.people
    values |= {people.team.name, people.other_team.name}
    values |= {u.username for u in (people.alice, people.bob, people.vera, people.charlie)}
    return sorted((v for v in values if v and len(v) > 1), key=len, reverse=True)


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
