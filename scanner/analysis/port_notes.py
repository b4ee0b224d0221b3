"""What the port that is already there does to a finding: lowers it to info and says why.

Two cases, both facts the scan knows (scanner.port, scanner.analysis.hip_branches):
- C, C++ and CUDA: the finding sits in a preprocessor branch HIP-Clang never compiles (the CUDA side of the
  project's `#ifdef GGML_USE_HIP`, an `#if __CUDA_ARCH__ >= 800`): the ROCm build does not see the code;
- C, C++ and CUDA that no build compiles (scanner.build: no CMake target, make rule, Python extension or
  compile_commands entry names it, nor includes it through a compiled source): low at most, and it says so; named
  only in a branch for another platform: info. Code an AMD build compiles is judged as HIP code (its guards
  evaluated with that build's defines) and is never lowered because a HIP build exists;
- a file of a vendored CUB or Thrust copy (`3rdparty/cub/`): a ROCm build links hipCUB or rocThrust instead: info;
- a warp-rule finding (ROC101-ROC119) in a file or folder named for SM100/Blackwell (`sm100_*`, `blackwell/`):
  CUTLASS/CuTe kernels for TMEM and UMMA that no ROCm build compiles; an AMD port rewrites them: info;
- a CUDA source with a hand-written HIP twin (kernels.cu beside kernels.hip): the ROCm build compiles the twin;
  not when the twin is byte for byte ROCport's own translation (a side-by-side merge request's copy): its lane
  code is the source's, and the source's findings keep their severity;
- the rest of the repository (ROC2xx: build files, CI, containers, scripts): a line in a build-file branch for
  another platform (`if(WIN32)`, `ifeq ($(OS),Windows_NT)`, aarch64) or for a CMake older than the project's
  `cmake_minimum_required`, a GitHub Actions job only Windows or macOS runners run, the flags and architectures of
  a CMake file whose every target is made in another platform's branch, a Dockerfile for another architecture
  (Jetson's l4t or `-igpu` images, arm64, named so: `Dockerfile.jetson`), a script's `docker run` of such an image
  (named so, `--platform linux/arm64`, or built by the script from such a Dockerfile) and a CMake toolchain file
  for another system or processor (`set(CMAKE_SYSTEM_NAME QNX)`, `set(CMAKE_SYSTEM_PROCESSOR aarch64)`) and a shell
  script named for Windows or macOS (`cu116-Windows-env.sh`), and a file named for another architecture, a Python
  branch for another platform and a CI job for another architecture (scanner.analysis.other_arch) are not
  migration work: info; so is a conda recipe
  or a GitHub Actions job built on a library with no ROCm build (RAPIDS RAFT or cuVS: a requirement, `raft: ON`,
  `-DX_ENABLE_CUVS=ON`), a variant a ROCm port leaves to NVIDIA, and a shell script's branch for NVIDIA's HPC SDK
  (scanner.analysis.toolchain_branches); when an
  accepted HIP build covers every source the NVIDIA builds compile (scanner.port.Port.ported), a CUDA-only file
  is the NVIDIA side, not a migration still to do, and says which HIP build covers it; so is a CI script or job
  of a project whose Python build already builds its extensions for ROCm through PyTorch's hipify (a setup.py
  testing `torch.version.hip`: scanner.port.Port.torch_hip), which sets up CUDA for the NVIDIA wheels. Rules that check the ROCm
  side itself (`Rule.rocm_side`) keep their severity.
"""

from __future__ import annotations

import re

from scanner.analysis import containers, hip_branches, other_arch, probe_branches, toolchain_branches
from scanner.build import python_rocm
from scanner.formats import yaml_doc
from scanner.formats.lines import commands, logical_lines
from scanner.model import Severity
from scanner.port import is_ci_file
from scanner.rules.libraries._judgement import other_vendor_backend, vendored_counterpart

_CXX = frozenset({"cuda", "c++", "c"})
_FROM = re.compile(r"^\s*FROM\s", re.I)
# A probe of NVIDIA's tools (ROC231, ROC234): the NVIDIA side when ROCm's sits in a sibling branch.
_NVIDIA_PROBE = re.compile(r"\b(?:nvidia-smi|nvcc|nvidia_smi)\b")
_PROBE_RULES = frozenset({"ROC231", "ROC234"})
# A warp-rule finding (ROC101-ROC119) in a file or folder named for SM100/Blackwell (`sm100_fmha.hpp`,
# `sm100_blk64/`, `blackwell/`): CUTLASS/CuTe kernels for that architecture only.
_BLACKWELL = re.compile(r"(?i)(?:^|[/_.-])(?:sm_?1[02]\d[af]?|blackwell)(?=[/_.-]|$)")
# What makes a CMake target (or a directory that may): a file whose every one is another platform's sets flags
# for nothing on Linux. ROC204 and ROC205 are such settings; find_package and project() still run at configure.
_TARGET_MAKER = re.compile(r"^\s*(?:add_executable|add_library|add_subdirectory|cuda_add_\w+)\s*\(", re.I)
_TARGET_SETTINGS = frozenset({"ROC204", "ROC205"})
# A GitHub-hosted or self-hosted runner of another system: a job only they run builds for another platform.
# A file or folder named for Windows or macOS: a word of the path (`cu116-Windows-env.sh`, `scripts/macos/`).
_FOREIGN_SCRIPT = re.compile(r"(?:^|[/_.-])(windows|win32|win64|macos|osx|darwin)(?=[/_.-]|$)", re.I)
_FOREIGN_RUNNER = re.compile(r"^(?:windows|macos|macOS|win\b|self-hosted-windows)", re.I)
# Libraries with no ROCm build (RAPIDS RAFT and cuVS): a conda recipe or CI job built on them makes a CUDA-only
# variant a ROCm port never builds. A requirement line of a recipe, or a CI job asking for them (`raft: "ON"`,
# `-DFAISS_ENABLE_CUVS=ON`, an install of the package).
_NO_ROCM_LIBRARY = r"(?:lib|py|pylib)?(?:raft|cuvs)(?:-dask|-headers)?"
_NO_ROCM_REQUIREMENT = re.compile(rf"^\s*-\s*({_NO_ROCM_LIBRARY})(?:\s|[=<>!]|$)", re.I)
_NO_ROCM_SETTING = re.compile(r"(?:ENABLE|USE|WITH)_(RAFT|CUVS)\s*=\s*(?:ON|1|TRUE|YES)\b", re.I)
_NO_ROCM_INSTALL = re.compile(rf"\b(?:conda|mamba|pip|micromamba)\s+install\b.*?\s({_NO_ROCM_LIBRARY})\b", re.I)
_TRUE = frozenset({"on", "true", "1", "yes"})
# A CI job that dumps NVIDIA's machine code (PTX, SASS) to read or archive it: its steps run cuobjdump or nvdisasm
# and no tests. There is nothing in it to port; a ROCm twin would be a separate choice (llvm-objdump of a code
# object).
_DUMP_TOOL = re.compile(r"\b(cuobjdump|nvdisasm)\b")
_TEST_STEP = re.compile(r"\b(?:pytest|ctest|unittest|test)\b|\./test_|make\s+(?:\S+\s+)*check\b", re.I)
_MATRIX_LABEL = re.compile(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}")
_ARG = re.compile(r"^\s*ARG\s+(\w+)=[\"']?([^\s\"']+)", re.I)
_VARIABLE = re.compile(r"\$\{?(\w+)(?::-[^}]*)?\}?")
# A CMake toolchain file for another system or processor: the whole file configures a build no x86-64 Linux
# host with the profile's GPU runs.
_TOOLCHAIN = re.compile(
    r"^set\s*\(\s*CMAKE_SYSTEM_(?:NAME\s+[\"']?(?!Linux\b)(\w+)|PROCESSOR\s+[\"']?(aarch64|arm64|armv\w*|arm)\b)",
    re.I,
)


class PortNotes:
    def __init__(self, facts):
        self.facts = facts
        self._dead: dict | None = None
        self._by_line: dict | None = None
        self._python_dead: dict | None = None
        self._cmake_cuda: dict | None = None
        self._probe_paths: dict | None = None
        self._foreign_jobs: list | None = None
        self._foreign_runs: dict | None = None
        self._no_rocm_jobs: list | None = None
        self._dump_jobs: list | None = None
        self._hpc_sdk: dict = {}
        self._other_arch: tuple | None = None

    def adjust(self, rule, line: int, severity: Severity) -> tuple[Severity, str]:
        facts = self.facts
        if facts.language in _CXX:
            branch = self.dead_lines().get(line)
            if branch is not None:
                return Severity.INFO, (
                    f"HIP-Clang does not compile this line (`{branch.directive}`, line "
                    f"{branch.line}): the ROCm build takes another branch."
                )
            backend = other_vendor_backend(facts.path)
            if backend:
                return Severity.INFO, (
                    f"This file is in another vendor's backend (`{backend}/`): neither the CUDA nor the ROCm "
                    "build compiles it."
                )
            copy, counterpart = vendored_counterpart(facts.path)
            if copy:
                return Severity.INFO, (
                    f"This file is part of a vendored copy (`{copy}/`) of a library ROCm ships as {counterpart}: "
                    f"a ROCm build uses {counterpart} in its place and does not compile the copy."
                )
            if facts.path in facts.port.cuda_only_sources:
                return Severity.INFO, (
                    "The project builds this file only for CUDA (its CMake or setup.py adds it, or "
                    "every source that includes it, in a branch its ROCm build never takes): its "
                    "ROCm build never compiles it."
                )
            if facts.path in facts.port.hip_twins and facts.path not in facts.port.translated_twins:
                return Severity.INFO, (
                    "This file has a hand-written HIP twin beside it (a .hip or _hip source): "
                    "the ROCm build compiles that one, so check the twin rather than this line."
                )
            blackwell = _BLACKWELL.search(facts.path) if rule.code[3:4] == "1" and rule.code[4:5] in "01" else None
            if blackwell:
                return Severity.INFO, (
                    f"This file is named for NVIDIA Blackwell (`{blackwell.group(0).strip('/_.-')}`): its kernels "
                    "use SM100-only hardware (TMEM, UMMA, TMA), so no ROCm build compiles it and an AMD port "
                    "rewrites it rather than fixing this line."
                )
            unbuilt = self.unbuilt(severity)
            if unbuilt:
                return unbuilt
            mapped = self.mapped_on(line) if rule.code[3:4] == "1" and rule.code[4:5] in "2356" else ""
            if mapped:
                return Severity.INFO, (
                    f"The project's own HIP header maps `{mapped}` to its HIP counterpart "
                    "(`#define` beside HIP's runtime): this use is already ported."
                )
            return severity, ""
        platform = (
            facts.build_lines.get(line)
            or self.foreign_image()
            or self.foreign_toolchain()
            or self.foreign_script()
            or self.foreign_job(line)
            or self.foreign_run(line)
            or self.other_arch(line)
        )
        if platform and rule.code.startswith("ROC2") and "CMAKE_VERSION" in platform:
            return Severity.INFO, (
                f"This line is in a branch for a CMake older than the project's `cmake_minimum_required` "
                f"(`{platform}`): no configure takes it, so it is not migration work."
            )
        if platform and rule.code.startswith("ROC2"):
            return Severity.INFO, (
                f"This line is in a branch for another platform (`{platform}`): a Linux x86-64 build, the "
                "host of the profile's AMD GPU, never takes it, so it is not migration work."
            )
        targets = self.platform_only_targets() if rule.code in _TARGET_SETTINGS else ""
        if targets:
            return Severity.INFO, (
                f"Every target this CMake file makes is in a branch for another platform (`{targets}`): on a "
                "Linux x86-64 host the setting reaches no compilation, so it is not migration work."
            )
        library = self.no_rocm_library(line) if rule.code.startswith("ROC2") and not rule.rocm_side else ""
        if library:
            return Severity.INFO, library
        dump = self.dump_job(line) if rule.code.startswith("ROC2") and not rule.rocm_side else ""
        if dump:
            return Severity.INFO, dump
        if facts.language == "shell" and rule.code.startswith("ROC2") and not rule.rocm_side:
            hpc_sdk = toolchain_branches.note(facts.lines, line, self._hpc_sdk)
            if hpc_sdk:
                return Severity.INFO, hpc_sdk
        port = facts.port
        if rule.code.startswith("ROC2") and not rule.rocm_side:
            side = self.nvidia_side(line, rule.code)
            if side:
                return Severity.INFO, side
        if port.ported and rule.code.startswith("ROC2") and not rule.rocm_side:
            return Severity.INFO, (
                f"The HIP build {port.describe()} compiles every source the CUDA builds compile: this is the "
                "repository's NVIDIA side."
            )
        return severity, ""

    def nvidia_side(self, line: int, code: str) -> str:
        """Why a line outside C, C++ and CUDA is the NVIDIA side of a ROCm path the repository already has (a
        Python branch ROCm never takes, a CI job beside the repository's ROCm CI, an image beside its ROCm
        container, a probe in a script that handles ROCm too), or empty."""
        facts, port = self.facts, self.facts.port
        if facts.language == "cmake" and port.cmake_cuda_lines:
            if self._cmake_cuda is None:
                self._cmake_cuda = {n: why for path, n, why in port.cmake_cuda_lines if path == facts.path}
            opening = self._cmake_cuda.get(line)
            if opening:
                return (
                    f"This line is in the CUDA-only branch `{opening}` of a CMake file whose other branch "
                    "builds for HIP: a ROCm configure never takes it, so it is the NVIDIA side."
                )
        if facts.language == "python":
            if self._python_dead is None:
                self._python_dead = python_rocm.dead_lines("\n".join(facts.lines))
            branch = self._python_dead.get(line)
            if branch:
                return f"A ROCm build never runs this line: it takes the other branch of {branch}. This is the NVIDIA side."
        if facts.language == "yaml" and port.rocm_ci and is_ci_file(facts.path):
            where = "this file" if port.rocm_ci == facts.path else port.rocm_ci
            return (
                f"The repository already runs an AMD GPU CI job ({where}): this NVIDIA job is its NVIDIA side, "
                "not a migration still to do."
            )
        if facts.language == "dockerfile" and port.rocm_container and port.rocm_container != facts.path:
            return (
                f"The repository already ships a ROCm container ({port.rocm_container}): this image is its "
                "NVIDIA side, not a migration still to do."
            )
        if port.torch_hip and facts.language in ("shell", "yaml") and is_ci_file(facts.path):
            return (
                f"The project's Python build already builds its extensions for ROCm through PyTorch's hipify "
                f"({port.torch_hip}): this CI script sets up CUDA for its NVIDIA wheels, the NVIDIA side."
            )
        if (
            code in _PROBE_RULES
            and facts.language in ("shell", "yaml", "python")
            and _NVIDIA_PROBE.search(facts.lines[line - 1] if 0 < line <= len(facts.lines) else "")
        ):
            if self._probe_paths is None:
                self._probe_paths = probe_branches.branch_paths(facts.lines, facts.language)
            sibling = probe_branches.rocm_sibling(facts.lines, line, self._probe_paths)
            if sibling:
                return (
                    f"This script handles ROCm too (`{sibling[1]}` on line {sibling[0]}, in the other branch): "
                    "the NVIDIA probe is one side of it."
                )
        return ""

    def no_rocm_library(self, line: int) -> str:
        """Why `line` belongs to a conda recipe or a GitHub Actions job built on a library with no ROCm build
        (RAFT, cuVS), or empty: that variant stays NVIDIA's, a ROCm port builds the project without it."""
        facts = self.facts
        name = facts.path.rsplit("/", 1)[-1]
        if facts.language in ("conda", "yaml") and name.endswith(("meta.yaml", "meta.yml", "recipe.yaml")):
            for number, text in enumerate(facts.lines, 1):
                found = _NO_ROCM_REQUIREMENT.match(text)
                if found:
                    return _no_rocm_note("conda recipe", found.group(1), number)
            return ""
        if facts.language != "yaml" or "github-actions" not in yaml_doc.kinds(facts):
            return ""
        if self._no_rocm_jobs is None:
            self._no_rocm_jobs = []
            for doc in yaml_doc.documents(facts):
                for _, key, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                    found = _no_rocm_request(job)
                    if found:
                        self._no_rocm_jobs.append((yaml_doc.line_of(key), job.end_mark.line + 1, found))
        for first, last, (library, number) in self._no_rocm_jobs:
            if first <= line <= last:
                return _no_rocm_note("CI job", library, number)
        return ""

    def dump_job(self, line: int) -> str:
        """Why `line` belongs to a GitHub Actions job whose purpose is dumping PTX/SASS (its steps run cuobjdump or
        nvdisasm, none runs tests), or empty."""
        facts = self.facts
        if facts.language != "yaml" or "github-actions" not in yaml_doc.kinds(facts):
            return ""
        if self._dump_jobs is None:
            self._dump_jobs = []
            for doc in yaml_doc.documents(facts):
                for _, key, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                    runs = [yaml_doc.get(step, "run") for step in yaml_doc.elements(yaml_doc.get(job, "steps"))]
                    texts = [(yaml_doc.text(run), yaml_doc.line_of(run)) for run in runs if run is not None]
                    dumps = [(found.group(1), number) for text, number in texts if (found := _DUMP_TOOL.search(text))]
                    if dumps and not any(_TEST_STEP.search(text) for text, _ in texts):
                        self._dump_jobs.append((yaml_doc.line_of(key), job.end_mark.line + 1, dumps[0]))
        for first, last, (tool, number) in self._dump_jobs:
            if first <= line <= last:
                return (
                    f"This CI job dumps NVIDIA's PTX and SASS (`{tool}`, step on line {number}) and runs no tests: "
                    "it inspects NVIDIA's machine code, so there is nothing in it to port."
                )
        return ""

    def platform_only_targets(self) -> str:
        """The platform condition of a CMake file whose every target (`add_executable`, `add_library`,
        `add_subdirectory`) is made in a branch for another platform (`if(WIN32)`), or empty: its flags and
        architectures reach nothing on Linux x86-64."""
        facts = self.facts
        if facts.language != "cmake" or not facts.build_lines:
            return ""
        makers = [n for n, text in enumerate(facts.lines, 1) if _TARGET_MAKER.match(text)]
        if not makers or any(n not in facts.build_lines for n in makers):
            return ""
        return facts.build_lines[makers[0]]

    def foreign_job(self, line: int) -> str:
        """`runs-on: <label>` of the GitHub Actions job holding `line` when every runner it can get is Windows or
        macOS (a `${{ matrix.os }}` label read through the job's matrix), or empty: that job builds for another
        platform."""
        facts = self.facts
        if facts.language != "yaml" or "github-actions" not in yaml_doc.kinds(facts):
            return ""
        if self._foreign_jobs is None:
            self._foreign_jobs = []
            for doc in yaml_doc.documents(facts):
                for _, key, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                    labels = _runner_labels(job)
                    if labels and all(_FOREIGN_RUNNER.match(label) for label in labels):
                        self._foreign_jobs.append((yaml_doc.line_of(key), job.end_mark.line + 1, labels[0]))
        for first, last, label in self._foreign_jobs:
            if first <= line <= last:
                return f"runs-on: {label}"
        return ""

    def foreign_image(self) -> str:
        """A Dockerfile whose every stage is an image for another architecture (Jetson's l4t, arm64): it cannot
        host the profile's GPU, so it is not migration work."""
        if self.facts.language != "dockerfile":
            return ""
        name = self.facts.path.rsplit("/", 1)[-1]
        defaults: dict[str, str] = {}
        froms = []
        for text in self.facts.lines:
            if found := _ARG.match(text):
                defaults.setdefault(found.group(1), found.group(2))
            elif _FROM.match(text):
                # `ARG BASE=nvcr.io/nvidia/l4t-base:r36` then `FROM ${BASE}`: the image is the ARG's default.
                froms.append((text, _VARIABLE.sub(lambda m: defaults.get(m.group(1), m.group(0)), text)))
        if froms and all(containers.FOREIGN_IMAGE.search(resolved) for _, resolved in froms):
            return froms[0][0].strip()
        if froms and containers.FOREIGN_NAME.search(name.replace("Dockerfile", "")):
            return name
        return ""

    def foreign_run(self, line: int) -> str:
        """`docker run <image>` on `line` of a script when the image is for another architecture: named so
        (`aarch_wheel`, `:arm64`, an l4t image), run with `--platform linux/arm64`, or tagged by a `docker build`
        of the same script from such a Dockerfile (`-f Dockerfile.aarch`) or for such a platform."""
        if self.facts.language != "shell":
            return ""
        if self._foreign_runs is None:
            self._foreign_runs = {}
            built: set[str] = set()
            for item in logical_lines(self.facts):
                for words in commands(item.text):
                    verb = containers.engine_verb(words)
                    if verb == "build":
                        tag, foreign = containers.foreign_build(words)
                        if tag and foreign:
                            built.add(tag)
                    elif verb == "run":
                        image = containers.foreign_run_image(words, built)
                        if image:
                            for _, number, _ in item.pieces:
                                self._foreign_runs[number] = f"docker run {image}"
        return self._foreign_runs.get(line, "")

    def foreign_toolchain(self) -> str:
        """A CMake toolchain file (not a CMakeLists.txt) for another system or processor: `set(CMAKE_SYSTEM_NAME
        QNX)`, `set(CMAKE_SYSTEM_PROCESSOR aarch64)` at its top level."""
        facts = self.facts
        if facts.language != "cmake" or facts.path.rsplit("/", 1)[-1].lower() == "cmakelists.txt":
            return ""
        for text in facts.lines:
            if _TOOLCHAIN.match(text):
                return text.strip()
        return ""

    def other_arch(self, line: int) -> str:
        """A file named for another architecture, a Python branch or a CI job for another platform
        (scanner.analysis.other_arch), or empty."""
        facts = self.facts
        if self._other_arch is None:
            named = other_arch.named_file(facts.path) if facts.language in other_arch.NAMED_LANGUAGES else ""
            lines = other_arch.python_lines(facts) if facts.language == "python" else {}
            jobs = other_arch.ci_jobs(facts) if facts.language == "yaml" else []
            self._other_arch = (named, lines, jobs)
        named, lines, jobs = self._other_arch
        return named or lines.get(line, "") or next((why for a, b, why in jobs if a <= line <= b), "")

    def foreign_script(self) -> str:
        """A shell script named for Windows or macOS (`cu116-Windows-env.sh`, `windows/setup.sh`, `build_macos.sh`):
        the environment of another platform's CI runner or build, which a Linux build never sources."""
        if self.facts.language != "shell":
            return ""
        found = _FOREIGN_SCRIPT.search(self.facts.path)
        return f"a script named for {found.group(1)}" if found else ""

    def unbuilt(self, severity: Severity) -> tuple[Severity, str] | None:
        """Low at most for a source no build compiles, info for one built only for another platform."""
        build = self.facts.build
        if build is None or build.verdict() != "none" or self.facts.path in self.facts.port.translated_twins:
            return None  # a side-by-side copy's source: the build compiles its .hip translation
        if build.note:
            return Severity.INFO, f"No build for this host compiles this file ({build.note})."
        if severity.rank <= Severity.LOW.rank:
            return severity, "No build of this repository compiles this file."
        return Severity.LOW, (
            "No build of this repository compiles this file (no CMake target, make rule, Python extension or "
            "compile_commands.json entry names it, and no compiled source includes it): low at most."
        )

    def mapped_on(self, line: int) -> str:
        """A CUDA name on `line` that the project's HIP header maps (scanner.port.Port.hip_mapped), or empty."""
        mapped = self.facts.port.hip_mapped
        if not mapped:
            return ""
        if self._by_line is None:
            self._by_line = {}
            for tok in self.facts.view.code:
                if tok.text in mapped:
                    self._by_line.setdefault(tok.line, tok.text)
        return self._by_line.get(line, "")

    def amd_defines(self) -> frozenset[str]:
        """Macros an AMD build of this file defines (`-DMYPROJ_HIP` in its hipcc recipe): its guards are
        evaluated with them."""
        build = self.facts.build
        if build is None:
            return frozenset()
        return frozenset(d.split("=", 1)[0] for c in build.amd for d in c.defines if d.split("=", 1)[1:] != ["0"])

    def dead_lines(self) -> dict:
        if self._dead is None:
            view = self.facts.view
            port = self.facts.port
            macros = port.hip_macros | self.amd_defines()
            self._dead = (
                hip_branches.dead_lines(
                    view.directives,
                    len(self.facts.lines),
                    macros,
                    port.hip_undefined,
                    port.per_platform | port.hip_mapped,
                    port.hip_values,
                )
                if view.directives
                else {}
            )
        return self._dead


def _no_rocm_request(job) -> tuple[str, int] | None:
    """(library, line) where a GitHub Actions job asks for a library with no ROCm build, or None."""
    for path, key, value in yaml_doc.walk(job):
        if re.fullmatch(r"(?i)raft|cuvs", path[-1]) and yaml_doc.text(value).strip().lower() in _TRUE:
            return path[-1], yaml_doc.line_of(key)
        for scalar in yaml_doc.scalars(value):
            found = _NO_ROCM_SETTING.search(scalar.value) or _NO_ROCM_INSTALL.search(scalar.value)
            if found:
                return found.group(1), yaml_doc.line_of(scalar)
    return None


def _no_rocm_note(what: str, library: str, line: int) -> str:
    return (
        f"This {what} is built on `{library}` (line {line}), a RAPIDS library (RAFT, cuVS) with no ROCm build: it "
        "makes a CUDA-only variant that a ROCm port leaves to NVIDIA, so it is not migration work."
    )


def _runner_labels(job) -> list[str]:
    """The runner labels a GitHub Actions job can get: its `runs-on` scalars, each `${{ matrix.x }}` replaced by
    the values of the job's `strategy.matrix.x` (and its `include` entries); empty when one cannot be told."""
    matrix = yaml_doc.get(yaml_doc.get(job, "strategy"), "matrix")
    labels = []
    for scalar in yaml_doc.scalars(yaml_doc.get(job, "runs-on")):
        found = _MATRIX_LABEL.fullmatch(scalar.value.strip())
        if not found:
            labels.append(scalar.value)
            continue
        name = found.group(1)
        values = [s.value for s in yaml_doc.scalars(yaml_doc.get(matrix, name))]
        values += [
            yaml_doc.text(yaml_doc.get(entry, name)) for entry in yaml_doc.elements(yaml_doc.get(matrix, "include"))
        ]
        values = [v for v in values if v]
        if not values:
            return []
        labels += values
    return labels
