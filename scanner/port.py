"""The ROCm port that is already there: what a repository's own files say about building it for AMD GPUs.

Learned once per scan (scanner.plan), before any file is analysed, and sent to the workers in ScanOptions:
- `hip_macros`: the macros the project switches its HIP build on with (`USE_ROCM`, `GGML_USE_HIP`, `BNB_HIP`):
  names of that shape in `#if` lines and build definitions, and a macro `#define`d (as 1 or empty) where only
  HIP's own macros are tested (`#if defined(__HIP_PLATFORM_AMD__) #define BNB_HIP 1`). scanner.analysis.hip_branches treats them as defined
  when it works out which #if branches HIP-Clang compiles;
- `evidence`: where the repository builds or tests for ROCm (a HIP CMake project, `.hip` sources, an AMD CI
  job, a build script that branches on ROCm), one short line each. A repository with evidence is "ported": its
  CUDA-only build files, CI jobs and containers are its NVIDIA side, not a migration still to do.

Reads only the files the scan already plans to analyse (plus the names of `.hip` sources), each at most once,
never more than `_READ_CAP` bytes of one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

_READ_CAP = 512 * 1024
_MAX_EVIDENCE = 6
# A project's own HIP switch, by its shape: USE_ROCM, GGML_USE_HIP, BNB_HIP, WITH_HIP, USE_HIPBLAS. Not an
# option of the HIP build (GGML_HIP_ROCWMMA_FATTN) nor a version number (TORCH_HIP_VERSION).
SWITCH = re.compile(r"^(?:[A-Z][A-Z0-9]*_)?(?:USE_|WITH_|ENABLE_|BUILD_)?(?:HIP|ROCM|HIPBLAS)$")
HIP_BUILTINS = frozenset({"__HIP__", "__HIPCC__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"})
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|include)\b(.*)$", re.M)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_BUILD_DEFINE = re.compile(r"(?:-D|add_compile_definitions\(\s*|add_definitions\(\s*-D|define_macros.*?['\"])"
                           r"([A-Z_][A-Z0-9_]*)")

# What each kind of file shows when it builds or tests for ROCm: (languages, pattern, what it is).
_SIGNS = (
    (("cmake",), re.compile(r"enable_language\s*\(\s*HIP|project\s*\([^)]*\bHIP\b|find_package\s*\(\s*(?:hip|HIP|"
                            r"rocblas|hipblas|hipcub|rocprim|rocthrust)\b|LANGUAGE\s+HIP\b|hip_add_\w+|CMAKE_HIP_"),
     "a HIP build"),
    (("make", "shell"), re.compile(r"\bhipcc\b|\bHIPCC\b|\bamdclang\+\+|--offload-arch=gfx"), "a HIP build"),
    (("python",), re.compile(r"torch\.version\.hip|IS_HIP_EXTENSION|ROCM_HOME|\bis_rocm\b|\bis_hip\b|"
                             r"hipify_python|\bUSE_ROCM\b"), "a build that branches on ROCm"),
    (("yaml",), re.compile(r"\brocm\b|runs-on:.*\b(?:amd|mi\d{3}\w*|gfx\d+)\b|\bhipcc\b|-DGGML_HIP=ON", re.I),
     "an AMD GPU CI job"),
    (("dockerfile",), re.compile(r"^\s*FROM\s+rocm/", re.I | re.M), "a ROCm container"),
)


@dataclass(frozen=True)
class Port:
    """The repository's own ROCm path, as far as its files show it (empty: none found)."""

    hip_macros: frozenset[str] = frozenset()
    evidence: tuple[str, ...] = ()

    @property
    def ported(self) -> bool:
        return bool(self.evidence)

    def describe(self) -> str:
        """One clause for a finding's message: where the ROCm path is."""
        if not self.evidence:
            return ""
        more = f", and {len(self.evidence) - 1} more" if len(self.evidence) > 1 else ""
        return f"{self.evidence[0]}{more}"

    def key(self) -> dict:
        """What a file's cached result depends on."""
        return {"hip_macros": sorted(self.hip_macros), "ported": self.ported}


def learn(root: str, jobs) -> Port:
    """The Port of the checkout at `root`, from the files of `jobs` (scanner.engine.FileJob)."""
    macros: set[str] = set()
    evidence: dict[str, str] = {}
    for job in jobs:
        if job.problem:
            continue
        if job.language in ("cuda", "c++", "c"):
            text = _read(job.path)
            if text and "#" in text:
                _learn_switches(text, macros)
                if "source" not in evidence and re.search(r"#\s*include\s*[<\"]hip/hip_runtime", text):
                    evidence.setdefault("5:source", f"HIP's runtime included in {job.rel}")
            continue
        for rank, (languages, pattern, what) in enumerate(_SIGNS):
            if job.language not in languages:
                continue
            if job.language == "yaml" and not _is_ci(job.rel):
                continue
            text = _read(job.path)
            match = pattern.search(text) if text else None
            if match:
                evidence.setdefault(f"{rank}:{job.language}", f"{what} in {job.rel} (`{match.group(0).strip()}`)")
            if text and job.language in ("cmake", "make", "python", "shell"):
                macros.update(name for name in _BUILD_DEFINE.findall(text) if SWITCH.match(name))
    hip_sources = _hip_sources(root)
    if hip_sources:
        evidence.setdefault("6:hip", f"a HIP source, {hip_sources[0]}")
    ordered = [evidence[key] for key in sorted(evidence)]  # the strongest sign first: a HIP build
    return Port(frozenset(macros - HIP_BUILTINS), tuple(ordered[:_MAX_EVIDENCE]))


def _learn_switches(text: str, macros: set[str]) -> None:
    """HIP switches in one source's directives (see the module docstring)."""
    stack: list[tuple[bool, list[str]]] = []  # (this branch holds under HIP, names its condition tests)
    for match in _DIRECTIVE.finditer(text):
        kind, rest = match.group(1), match.group(2)
        rest = re.sub(r"//.*|/\*.*", "", rest)
        names = _IDENT.findall(rest)
        if kind in ("if", "ifdef", "ifndef", "elif"):
            macros.update(n for n in names if SWITCH.match(n))
            # A branch that holds under HIP whatever else is set: its condition tests HIP's macros or the
            # project's switches and nothing else, none of them negated.
            tested = [n for n in names if n != "defined"]
            hip = kind != "ifndef" and "!" not in rest and "&&" not in rest and bool(tested) and all(
                n in HIP_BUILTINS or n in macros for n in tested)
            if kind == "elif" and stack:
                stack[-1] = (hip, names)
            else:
                stack.append((hip, names))
        elif kind == "else" and stack:
            stack[-1] = (False, [])
        elif kind == "endif" and stack:
            stack.pop()
        elif kind == "define" and stack and stack[-1][0] and names:
            value = rest.split(None, 1)[1].strip() if len(rest.split(None, 1)) > 1 else ""
            if value in ("", "1"):
                macros.add(names[0])


def _is_ci(rel: str) -> bool:
    lower = rel.lower()
    return lower.startswith((".github/workflows/", ".gitlab", ".gitea/workflows/", ".forgejo/workflows/",
                             ".circleci/", ".buildkite/", "ci/", ".ci/")) or "/ci/" in lower or \
        lower.endswith((".gitlab-ci.yml", "azure-pipelines.yml", ".drone.yml"))


def _hip_sources(root: str) -> list[str]:
    found = []
    for current, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", ".hg", ".svn", "node_modules"))
        for name in sorted(files):
            if name.endswith((".hip", ".hip.cpp")):
                found.append(os.path.relpath(os.path.join(current, name), root).replace(os.sep, "/"))
                return found
    return found


def _read(path: str) -> str:
    try:
        if os.path.islink(path):
            return ""
        with open(path, "rb") as handle:
            return handle.read(_READ_CAP).decode("utf-8", "replace")
    except OSError:
        return ""
