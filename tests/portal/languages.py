"""Rendering in both languages, the base shared by the page tests: the request headers of each language, a client
signed in under one, and the detector of English left on a page shown in Chinese (its visible text, the data it
may show as it is, the names Chinese engineers write in Latin letters)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from django.test import Client

from portal.findings.models import Finding, FindingEvent
from portal.scans.models import Scan, ScannedFile
from tests.portal.people import client_for

EN = {"Accept-Language": "en-US,en;q=0.9"}
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


LANGUAGES = {"en": EN, "zh-hans": ZH}


def client_in(user, language: str) -> Client:
    """A client signed in as `user` (anonymous with None) whose browser asks for `language` ("en" or "zh-hans")."""
    if user is None:
        return Client(headers=LANGUAGES[language])
    return client_for(user, headers=LANGUAGES[language])


def in_both_languages(user, url: str) -> dict:
    """`url` requested by `user` in each language: {"en": response, "zh-hans": response}."""
    return {language: client_in(user, language).get(url) for language in LANGUAGES}
