"""The ROCm port that is already there: what a repository's own files say about building it for AMD GPUs.

Learned once per scan (scanner.plan), before any file is analysed, and sent to the workers in ScanOptions:
- `hip_macros`: the macros the project switches its HIP build on with (`USE_ROCM`, `GGML_USE_HIP`, `BNB_HIP`):
  names of that shape in `#if` lines and build definitions, and a macro `#define`d (as 1 or empty) where only
  HIP's own macros are tested (`#if defined(__HIP_PLATFORM_AMD__) #define BNB_HIP 1`). scanner.analysis.hip_branches treats them as defined
  when it works out which #if branches HIP-Clang compiles;
- `hip_builds`: the HIP builds the build model (scanner.build) finds: targets an AMD compiler builds, with the
  sources they compile. The team accepts them (ScanOptions.hip_builds: the portal's decision, or .rocport.toml;
  unset, the model's findings stand); when the accepted ones compile every source the NVIDIA builds compile (or
  its `.hip` twin), the repository is "ported": its CUDA-only build files, CI jobs and containers are its NVIDIA
  side, not a migration still to do, and say which HIP build covers them. It never lowers C, C++ or CUDA code:
  code on a HIP path is judged as HIP code;
- `signs`: other traces of ROCm work (an AMD CI job, a ROCm container, HIP's runtime included, `.hip` sources),
  one short line each: shown, never decisive.

Reads only the files the scan already plans to analyse (plus the names of `.hip` sources, and the extension-less
headers the sources include: scanner.port_headers), each at most once, never more than `_READ_CAP` bytes of one.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field

from scanner.port_builds import has_hip_path, hip_builds, hip_sources, model_cuda_only, translated_twins, twins
from scanner.port_headers import bare_headers
from scanner.port_values import build_defines, directives_of, hip_absent_functions, hip_aliases, learn_values
from scanner.sourcetext import read_capped

_READ_CAP = 512 * 1024
_MAX_EVIDENCE = 6
# A project's own HIP switch, by its shape: USE_ROCM, GGML_USE_HIP, BNB_HIP, WITH_HIP, USE_HIPBLAS. Not an
# option of the HIP build (GGML_HIP_ROCWMMA_FATTN) nor a version number (TORCH_HIP_VERSION).
SWITCH = re.compile(r"^(?:[A-Z][A-Z0-9]*_)?(?:USE_|WITH_|ENABLE_|BUILD_)?(?:HIP|ROCM|HIPBLAS)$")
HIP_BUILTINS = frozenset({"__HIP__", "__HIPCC__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"})
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|include)\b(.*)$", re.M)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_BUILD_DEFINE = re.compile(
    r"(?:-D|add_compile_definitions\(\s*|add_definitions\(\s*-D|define_macros.*?['\"])"
    r"([A-Z_][A-Z0-9_]*)"
)

# Signs of ROCm work outside the build (an AMD CI job, a ROCm container, a Python branch on ROCm): shown with the
# port, never decisive. Only a build the build model reads (scanner.build) makes a HIP build.
_SIGNS = (
    (
        ("python",),
        re.compile(
            r"torch\.version\.hip|IS_HIP_EXTENSION|ROCM_HOME|\bis_rocm\b|\bis_hip\b|"
            r"hipify_python|\bUSE_ROCM\b"
        ),
        "a build script that branches on ROCm",
    ),
    (
        ("yaml",),
        re.compile(r"\brocm\b|runs-on:.*\b(?:amd|mi\d{3}\w*|gfx\d+)\b|\bhipcc\b|-DGGML_HIP=ON", re.I),
        "an AMD GPU CI job",
    ),
    (("dockerfile",), re.compile(r"^\s*FROM\s+rocm/", re.I | re.M), "a ROCm container"),
)


# A Python build of PyTorch extensions (a setup.py, a build helper) and its test for the ROCm build.
_TORCH_EXTENSION = re.compile(r"\bCUDAExtension\b|\bcpp_extension\b")
_ROCM_BUILD = re.compile(r"torch\.version\.hip|IS_HIP_EXTENSION|\bROCM_HOME\b")


@dataclass(frozen=True)
class Port:
    """The repository's own ROCm path, as far as its files show it (empty: none found)."""

    hip_macros: frozenset[str] = frozenset()
    # The accepted HIP builds that cover the NVIDIA side, described ("make target `train` in Makefile:12
    # (hipcc)"): non-empty only when the repository is ported.
    evidence: tuple[str, ...] = ()
    # Macros the project defines per platform (inside an #if on HIP's or its own switch): their value on AMD is
    # the project's choice, not the CUDA-side one clang sees (`BNB_WARP_SIZE` is 64 on CDNA).
    per_platform: frozenset[str] = frozenset()
    # Macros defined only on lines HIP-Clang never compiles (`NEW_MMA_AVAILABLE` under `#ifndef GGML_USE_HIP`):
    # undefined in the ROCm build, so an `#ifdef` on them is dead there too.
    hip_undefined: frozenset[str] = frozenset()
    # CUDA intrinsics the project redefines as macros (`#define __shfl_xor_sync(mask, v, o, w) __shfl_xor(v, o, w)`
    # in its HIP header): the project's own shim decides what their arguments mean on ROCm.
    shims: frozenset[str] = frozenset()
    # CUDA sources with a hand-written HIP twin beside them (kernels.cu and kernels.hip): the ROCm build compiles
    # the twin.
    hip_twins: frozenset[str] = frozenset()
    # CUDA names the project's own HIP header maps (`#define cublasCreate hipblasCreate` in a header that includes
    # HIP's runtime, or under a HIP branch): the project already ported them.
    hip_mapped: frozenset[str] = frozenset()
    # Sources the project's CMake adds only inside a CUDA-only branch (`if(BUILD_CUDA)`, never in its HIP branch),
    # and headers only those sources include: the ROCm build never compiles them (bitsandbytes' sm75/sm80 MMA
    # kernels and their gemm_4bit_mma.cuh); and those a setup.py builds only in a branch its ROCm build never
    # takes (flash-attention's FA2 CUDAExtension under `if not IS_ROCM:`).
    cuda_only_sources: frozenset[str] = frozenset()
    # Every HIP build the build model finds: (id, description, number of sources it compiles).
    hip_builds: tuple[tuple[str, str, int], ...] = ()
    # The ids the team accepts (ScanOptions.hip_builds, else every one found), and whether that came from a
    # decision ("decided") or the model alone ("found").
    accepted: tuple[str, ...] = ()
    decision: str = "found"
    # Sources an NVIDIA build compiles that no accepted HIP build compiles (nor their `.hip` twin): the ROCm
    # build does not cover them yet (the first few).
    uncovered: tuple[str, ...] = ()
    signs: tuple[str, ...] = ()
    # The first CI file with an AMD GPU job and the first ROCm container (repository-relative, "" when none): the
    # repository already tests and ships for ROCm, so its NVIDIA-only jobs and images are the NVIDIA side.
    rocm_ci: str = ""
    rocm_container: str = ""
    # (CMake file, line, the if() that opens the branch): lines in a CUDA-only branch of a CMake file whose other
    # branch builds for HIP (bitsandbytes' `if(BUILD_CUDA)` beside `elseif(BUILD_HIP)`): the NVIDIA side.
    cmake_cuda_lines: tuple[tuple[str, int, str], ...] = ()
    # Twins that are byte for byte ROCport's own translation of their CUDA source (the side-by-side merge
    # request's `.hip` copies): a copy, not a port, so the CUDA source's findings stand.
    translated_twins: frozenset[str] = frozenset()
    # A Python build of PyTorch extensions that branches on ROCm (`setup.py (`IS_HIP_EXTENSION`)`, "" when none): a
    # ROCm PyTorch hipifies its CUDAExtension sources, so names hipify renames are a rename, and its CUDA wheel CI is
    # the NVIDIA side.
    torch_hip: str = ""
    # (macro, value) of the project's macros whose value under HIP-Clang its headers give (scanner.port_values:
    # `#define P_NVLS_SUPPORTED 0` on the HIP side of a platform test).
    hip_values: tuple[tuple[str, int], ...] = ()
    # Functions the project defines only on lines HIP-Clang never compiles (scanner.port_values), in a project
    # with a HIP switch of its own: code that calls them is its NVIDIA side.
    hip_absent: frozenset[str] = frozenset()

    @property
    def ported(self) -> bool:
        """An accepted HIP build covers every source the NVIDIA builds compile."""
        return bool(self.evidence)

    def describe(self) -> str:
        """One clause for a finding's message: where the ROCm path is."""
        if not self.evidence:
            return ""
        more = f", and {len(self.evidence) - 1} more" if len(self.evidence) > 1 else ""
        return f"{self.evidence[0]}{more}"

    def key(self) -> dict:
        """What a file's cached result depends on."""
        return {
            "hip_macros": sorted(self.hip_macros),
            "ported": self.ported,
            "evidence": list(self.evidence),
            "per_platform": sorted(self.per_platform),
            "hip_undefined": sorted(self.hip_undefined),
            "shims": sorted(self.shims),
            "hip_twins": sorted(self.hip_twins),
            "translated_twins": sorted(self.translated_twins),
            "hip_mapped": sorted(self.hip_mapped),
            "cuda_only_sources": sorted(self.cuda_only_sources),
            "rocm_ci": self.rocm_ci,
            "rocm_container": self.rocm_container,
            "torch_hip": self.torch_hip,
            "hip_values": list(self.hip_values),
            "hip_absent": hashlib.sha256(repr(sorted(self.hip_absent)).encode()).hexdigest()[:16],
            # A digest: every file's key carries it, and the lines can run to thousands.
            "cmake_cuda_lines": hashlib.sha256(repr(self.cmake_cuda_lines).encode()).hexdigest()[:16],
        }


@dataclass
class _Learned:
    macros: set[str] = field(default_factory=set)
    per_platform: set[str] = field(default_factory=set)
    shims: set[str] = field(default_factory=set)
    mapped: set[str] = field(default_factory=set)
    # CMake source mentions: path -> whether any mention sits outside a CUDA-only branch.
    cmake_sources: dict[str, bool] = field(default_factory=dict)
    # Lines inside CUDA-only if() branches of CMake files that also have a HIP branch.
    cmake_cuda_lines: list = field(default_factory=list)
    # Macros the build files define only in such branches, and those they define anywhere else.
    build_cuda_only: set[str] = field(default_factory=set)
    build_elsewhere: set[str] = field(default_factory=set)


def learn(
    root: str, jobs, model=None, accepted_ids: tuple[str, ...] | None = None, hip_files: list[str] | None = None
) -> Port:
    """The Port of the checkout at `root`, from the files of `jobs` (scanner.engine.FileJob) and its build model
    (scanner.build.BuildModel); `accepted_ids`: the team's decision (ScanOptions.hip_builds)."""
    learned = _Learned()
    signs: dict[str, str] = {}
    rocm_files: dict[str, str] = {}  # language -> the first CI file or Dockerfile that builds for ROCm
    sources: list[tuple[str, str]] = []
    cuda_files: list[str] = []
    torch_hip = ""
    for job in jobs:
        if job.problem:
            continue
        if job.language in ("cuda", "c++", "c"):
            cuda_files.append(job.rel)
            text = _read(job.path)
            if text and "#" in text:
                sources.append((job.rel, text))
                _learn_directives(text, learned)
                if "5:source" not in signs and re.search(r"#\s*include\s*[<\"]hip/hip_runtime", text):
                    signs["5:source"] = f"HIP's runtime included in {job.rel}"
            continue
        for rank, (languages, pattern, what) in enumerate(_SIGNS):
            if job.language not in languages:
                continue
            if job.language == "yaml" and not is_ci_file(job.rel):
                continue
            text = _read(job.path)
            match = pattern.search(text) if text else None
            if match:
                signs.setdefault(f"{rank}:{job.language}", f"{what} in {job.rel} (`{match.group(0).strip()}`)")
                if job.language == "python" and _TORCH_EXTENSION.search(text) and _ROCM_BUILD.search(text):
                    torch_hip = torch_hip or f"{job.rel} (`{_ROCM_BUILD.search(text).group(0)}`)"
                if job.language in ("yaml", "dockerfile"):
                    rocm_files.setdefault(job.language, job.rel)
        if job.language in ("cmake", "make", "python", "shell"):
            text = _read(job.path)
            if text and job.language == "cmake":
                before = len(learned.cmake_cuda_lines)
                _learn_cmake_sources(job.rel, text, learned.cmake_sources, learned.cmake_cuda_lines)
                inside, outside = build_defines(text, {line for _p, line, _c in learned.cmake_cuda_lines[before:]})
                learned.build_cuda_only |= inside
                learned.build_elsewhere |= outside
            elif text:
                learned.build_elsewhere |= build_defines(text, cmake=False)[1]
            if text:
                learned.macros.update(name for name in _BUILD_DEFINE.findall(text) if SWITCH.match(name))
    for rel, text in bare_headers(root, sources, set(cuda_files)):  # `<cuco/detail/__config>`: not scanned
        sources.append((rel, text))
        _learn_directives(text, learned)
    hip_macros = frozenset(learned.macros - HIP_BUILTINS)
    hip_found = hip_files if hip_files is not None else hip_sources(root)
    if hip_found:
        signs.setdefault("6:hip", f"a HIP source, {hip_found[0]}")
    builds, accepted, decision, evidence, uncovered = hip_builds(model, accepted_ids, hip_found)
    twin_sources = twins(cuda_files, hip_found)
    parsed = [(rel, directives_of(text), text.count("\n") + 1, text) for rel, text in sources]
    undefined, values = learn_values(
        [(rel, directives, count) for rel, directives, count, _text in parsed],
        hip_macros,
        frozenset(learned.per_platform | learned.mapped),
        frozenset(learned.build_cuda_only - learned.build_elsewhere),
        frozenset(learned.build_cuda_only | learned.build_elsewhere),
    )
    return Port(
        hip_macros,
        evidence,
        frozenset(learned.per_platform),
        undefined,
        frozenset(learned.shims),
        twin_sources,
        frozenset(learned.mapped),
        (_cuda_only(learned.cmake_sources, cuda_files, sources) if has_hip_path(model, evidence) else frozenset())
        | model_cuda_only(model),
        builds,
        accepted,
        decision,
        uncovered,
        tuple(signs[key] for key in sorted(signs))[:_MAX_EVIDENCE],
        rocm_files.get("yaml", ""),
        rocm_files.get("dockerfile", ""),
        tuple(learned.cmake_cuda_lines[:_MAX_CMAKE_LINES]),
        translated_twins(root, twin_sources, set(hip_found)),
        torch_hip,
        values,
        hip_absent_functions(
            parsed, hip_macros, undefined, frozenset(learned.per_platform | learned.mapped) - undefined, values
        )
        if hip_macros
        else frozenset(),
    )


def _cuda_only(cmake_sources: dict[str, bool], cuda_files: list[str], sources: list[tuple[str, str]]) -> frozenset[str]:
    """Sources CMake adds only in CUDA-only branches, and the headers that only those sources include, through
    other such headers too (bitsandbytes' gemm_4bit_mma.cuh, included by its sm75/sm80 kernels alone;
    CTranslate2's flash-attention mask.h, under kernel headers only its sm80 sources include)."""
    known = set(cuda_files)
    only = {path for path, elsewhere in cmake_sources.items() if not elsewhere and path in known}
    if not only:
        return frozenset()
    by_name: dict[str, list[str]] = {}
    for rel in known:
        by_name.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
    includers: dict[str, set[str]] = {}
    for rel, text in sources:
        for name in _QUOTED_INCLUDE.findall(text):
            for target in _resolve_quoted(rel, name, known, by_name):
                includers.setdefault(target, set()).add(rel)
    headers = [
        rel for rel in cuda_files if rel not in only and rel not in cmake_sources and rel.rsplit(".", 1)[-1] in _HEADERS
    ]
    # A header nothing includes (flash-attention's alibi.h, left over upstream) compiles nowhere: it keeps no
    # header it includes in the ROCm build.
    orphans = {rel for rel in headers if not includers.get(rel)}
    grown = True
    while grown:  # a header of headers: until no more join
        grown = False
        for rel in headers:
            by = includers.get(rel, set()) - orphans
            if rel not in only and by and by <= only:
                only.add(rel)
                grown = True
    return frozenset(only)


def _resolve_quoted(includer: str, name: str, known: set[str], by_name: dict[str, list[str]]) -> list[str]:
    """The repository files `#include "name"` in `includer` may mean: beside the includer when there is one,
    otherwise every file whose path ends with the name (an include directory the scanner does not know)."""
    beside = os.path.normpath(os.path.join(os.path.dirname(includer), name)).replace(os.sep, "/")
    if beside in known:
        return [beside]
    return [rel for rel in by_name.get(name.rsplit("/", 1)[-1], ()) if rel == name or rel.endswith("/" + name)]


_HEADERS = ("h", "hh", "hpp", "cuh", "inl")
_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def _learn_directives(text: str, learned: _Learned) -> None:
    """HIP switches, per-platform macros and intrinsic shims in one source's directives (see Port)."""
    # One frame per open #if chain: [this branch holds under HIP, the names the whole chain tests].
    stack: list[list] = []
    macros = learned.macros
    includes_hip = False
    last = 0
    for match in _DIRECTIVE.finditer(text):
        if includes_hip or any(frame[0] for frame in stack):  # the code since the last directive is HIP's
            learned.mapped.update(name for name in hip_aliases(text[last : match.start()]) if _CUDA_NAME.match(name))
        last = match.end()
        kind, rest = match.group(1), match.group(2)
        rest = re.sub(r"//.*|/\*.*", "", rest)
        names = _IDENT.findall(rest)
        if kind in ("if", "ifdef", "ifndef", "elif"):
            macros.update(n for n in names if SWITCH.match(n))
            # A branch that holds under HIP whatever else is set: its condition tests HIP's macros or the
            # project's switches and nothing else, none of them negated.
            tested = [n for n in names if n != "defined"]
            hip = (
                kind != "ifndef"
                and "!" not in rest
                and "&&" not in rest
                and bool(tested)
                and all(n in HIP_BUILTINS or n in macros for n in tested)
            )
            if kind == "elif" and stack:
                stack[-1] = [hip, stack[-1][1] + tested]
            else:
                stack.append([hip, tested])
        elif kind == "else" and stack:
            stack[-1][0] = False
        elif kind == "endif" and stack:
            stack.pop()
        elif kind == "include" and re.search(r"[<\"]hip/", rest):
            includes_hip = True
        elif kind == "define" and names:
            name = names[0]
            in_hip_branch = any(frame[0] for frame in stack)
            if (
                _CUDA_NAME.match(name)
                and len(names) > 1
                and (includes_hip or in_hip_branch)
                and re.match(r"(?i)hip|roc|rccl|miopen", names[1])
            ):
                learned.mapped.add(name)
            if (
                name.startswith("__")
                and rest.lstrip().startswith(name + "(")
                and name.endswith(("_sync", "activemask"))
                and not name.startswith("__HIP")
            ):
                learned.shims.add(name)
            if any(n in HIP_BUILTINS or n in macros or n.startswith("__HIP") for frame in stack for n in frame[1]):
                learned.per_platform.add(name)
            if stack and stack[-1][0]:
                value = rest.split(None, 1)[1].strip() if len(rest.split(None, 1)) > 1 else ""
                if value in ("", "1"):
                    macros.add(name)


_CUDA_NAME = re.compile(
    r"^(?:cuda|cu[A-Z]|CU[A-Za-z_]|cublas|CUBLAS|cusparse|CUSPARSE|curand|CURAND|cufft|CUFFT|"
    r"cusolver|nccl|NCCL|nvrtc|__nv_|cudnn|CUDNN)"
)

_MAX_CMAKE_LINES = 20_000
_CMAKE_BLOCK = re.compile(r"^\s*(if|elseif|else|endif)\s*\((.*)$", re.I)
_CUDA_ONLY_CONDITION = re.compile(
    r"BUILD_CUDA|USE_CUDA|WITH_CUDA|GGML_CUDA\b|CMAKE_CUDA_COMPILER|STREQUAL\s+\"?cuda\b|"
    r"^\s*CUDA\b|CUDAToolkit_FOUND|CUDA_FOUND",
    re.I,
)
_HIP_CONDITION = re.compile(r"HIP|ROCM", re.I)
_CMAKE_SOURCE = re.compile(r"[\w${}./-]+\.(?:cu|cuh|cpp|cc|c)\b")


def _learn_cmake_sources(rel: str, text: str, sources: dict[str, bool], cuda_lines: list | None = None) -> None:
    """Which sources a CMake file names inside a CUDA-only `if()` branch, and which anywhere else; and, when the
    file also has a HIP branch, its lines inside CUDA-only branches with the `if()` that opens each
    (`cuda_lines`: (path, line, condition) triples)."""
    base = os.path.dirname(rel)
    stack: list[tuple[bool, str]] = []  # per open if(): the current branch is CUDA-only, and its if() line
    found: list[tuple[str, int, str]] = []
    hip_branch = False
    for number, line in enumerate(text.split("\n"), 1):
        code = line.split("#", 1)[0]
        block = _CMAKE_BLOCK.match(code)
        if block:
            kind, condition = block.group(1).lower(), block.group(2)
            cuda_only = (
                bool(_CUDA_ONLY_CONDITION.search(condition))
                and not _HIP_CONDITION.search(condition)
                and "NOT" not in condition.upper().split()
            )
            hip_branch = hip_branch or (kind in ("if", "elseif") and bool(_HIP_CONDITION.search(condition)))
            opening = f"{kind}({condition.strip().rstrip(')').strip()}), line {number}"
            if kind == "if":
                stack.append((cuda_only, opening))
            elif kind == "elseif" and stack:
                stack[-1] = (cuda_only, opening)
            elif kind == "else" and stack:
                stack[-1] = (False, opening)
            elif kind == "endif" and stack:
                stack.pop()
            continue
        inside = any(only for only, _ in stack)
        if inside and code.strip():
            found.append((rel, number, next(opening for only, opening in reversed(stack) if only)))
        for mention in _CMAKE_SOURCE.findall(code):
            mention = re.sub(r"^\$\{(?:CMAKE_CURRENT_SOURCE_DIR|PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\}/", "", mention)
            if "${" in mention:
                continue
            path = os.path.normpath(os.path.join(base, mention)).replace(os.sep, "/")
            sources[path] = sources.get(path, False) or not inside
    if hip_branch and cuda_lines is not None:
        cuda_lines.extend(found)


def is_ci_file(rel: str) -> bool:
    """A CI definition: a workflow, a composite action, a pipeline file."""
    lower = rel.lower()
    return (
        lower.startswith(
            (
                ".github/workflows/",
                ".github/actions/",
                ".gitlab",
                ".gitea/workflows/",
                ".forgejo/workflows/",
                ".circleci/",
                ".buildkite/",
                "ci/",
                ".ci/",
            )
        )
        or "/ci/" in lower
        or lower.endswith((".gitlab-ci.yml", "azure-pipelines.yml", ".drone.yml"))
    )


def _read(path: str) -> str:
    return read_capped(path, _READ_CAP)
