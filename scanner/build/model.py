"""What the repository's builds compile, file by file: the build model's data.

Shaped like a compile_commands.json entry (https://clang.llvm.org/docs/JSONCompilationDatabase.html) and CMake's
file API "codemodel" (a target, its compile groups: language, standard, includes, defines): one `Compilation`
per (source, target), read from the build files without running them (scanner.build.cmake, .make, .setuptools,
.compile_db). What a reader could not evaluate is kept, per file, in `FileBuild.unknowns`: never silently guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# The host a ROCm GPU of the profiles (MI300X, RDNA cards) sits in: the build a Linux x86-64 machine takes.
HOST = "linux-x86_64"
# Compilers, by what they build a GPU source for.
NVCC, HIPCC, CLANG_CUDA, HOST_CC = "nvcc", "hipcc", "clang-cuda", "host"
AMD_COMPILERS = frozenset({HIPCC})
# What a build compiles by itself; anything else (a header) is compiled through a source that includes it.
SOURCE_SUFFIXES = (".cu", ".hip", ".cpp", ".cc", ".cxx", ".c", ".c++")


@dataclass(frozen=True)
class Compilation:
    """One source compiled by one target of one build."""

    target: str  # the build's own name for it: a CMake target, a make target, a Python extension
    build_file: str  # repository-relative path of the file that says so
    line: int
    system: str  # "cmake" | "make" | "setuptools" | "compile_commands"
    compiler: str  # NVCC | HIPCC | CLANG_CUDA | HOST_CC
    language: str  # "cuda" | "hip" | "c++" | "c"
    standard: str = ""  # "c++20", "c++17", ... or "" (the compiler's default)
    include_dirs: tuple[str, ...] = ()  # repository-relative (or absolute, outside the tree)
    defines: tuple[str, ...] = ()  # "NAME" or "NAME=VALUE"
    condition: str = ""  # the unevaluated condition it sits under, when there is one ("if(USE_FOO)")
    # In a branch the project's own ROCm build never takes (`if not IS_ROCM:` around a CUDAExtension): the
    # project builds something else for ROCm, so this is its NVIDIA side.
    cuda_only: bool = False

    @property
    def amd(self) -> bool:
        """Built for an AMD GPU: by hipcc, or as the HIP language."""
        return self.compiler in AMD_COMPILERS or self.language == "hip"

    @property
    def nvidia(self) -> bool:
        return self.compiler in (NVCC, CLANG_CUDA) or self.language == "cuda"

    @property
    def build_id(self) -> str:
        """A stable name for the build this compilation belongs to: `<build file>:<target>`."""
        return f"{self.build_file}:{self.target}"

    def describe(self) -> str:
        where = f"{self.system} target `{self.target}` in {self.build_file}:{self.line} ({self.compiler})"
        return f"{where}, under {re.sub(r' at [^,]+', '', self.condition)}" if self.condition else where

    def flags(self) -> tuple[str, ...]:
        """The flags a parse or a compile of this file needs: includes, defines, the standard."""
        out = [f"-I{d}" for d in self.include_dirs]
        out += [f"-D{d}" for d in self.defines]
        if self.standard:
            out.append(f"-std={self.standard}")
        return tuple(out)


@dataclass(frozen=True)
class FileBuild:
    """A source or header, as the builds see it."""

    path: str
    compilations: tuple[Compilation, ...] = ()
    # What a reader could not evaluate on the way to this file: "if(USE_FOO) at CMakeLists.txt:12".
    unknowns: tuple[str, ...] = ()
    # A header: the compiled sources that include it (the compilations above are theirs).
    via: tuple[str, ...] = ()
    # Why no build compiles it, when one is known ("named only in CMakeLists.txt:14, under if(WIN32)").
    note: str = ""

    @property
    def compiled(self) -> bool:
        return bool(self.compilations)

    @property
    def amd(self) -> tuple[Compilation, ...]:
        return tuple(c for c in self.compilations if c.amd)

    @property
    def nvidia(self) -> tuple[Compilation, ...]:
        return tuple(c for c in self.compilations if c.nvidia and not c.amd)

    def judged(self) -> Compilation | None:
        """The compilation a file is judged under: an AMD one when there is one (code on a HIP path is judged as
        HIP code), else the first the build takes without a condition, else the first."""
        ordered = sorted(self.compilations, key=lambda c: (not c.amd, bool(c.condition)))
        return ordered[0] if ordered else None

    def parsed(self) -> Compilation | None:
        """The compilation the parse takes its flags from: the parse reads CUDA, so an NVIDIA one when there is
        one (it sees both sides of the file's guards; scanner.analysis.port_notes evaluates them with the AMD
        build's defines), else judged()."""
        nvidia = [c for c in self.nvidia if not c.condition] or list(self.nvidia)
        return nvidia[0] if nvidia else self.judged()

    def key(self) -> dict:
        """What a file's cached result depends on."""
        judged = self.judged()
        return {
            "verdict": self.verdict(),
            "note": self.note,
            "amd": sorted({c.build_id for c in self.amd}),
            "flags": list(judged.flags()) if judged else [],
            "parse_flags": list(self.parsed().flags()) if judged else [],
        }

    def verdict(self) -> str:
        """One of "compiled", "unknown" (a condition or value could not be evaluated), "none"."""
        if self.compilations and not all(c.condition for c in self.compilations):
            return "compiled"
        if self.unknowns or self.compilations:
            return "unknown"
        return "none"


@dataclass(frozen=True)
class BuildModel:
    """Every build file read, and per file what they compile."""

    files: Mapping[str, FileBuild] = field(default_factory=dict)
    build_files: tuple[str, ...] = ()  # the build files read, in path order
    # Lines of build files in branches a Linux x86-64 build never takes (`if(WIN32)`, `ifeq ($(OS),Windows_NT)`,
    # an aarch64 or QNX branch): path -> {line: the condition}.
    platform_lines: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    # What no reader could evaluate, repository-wide (an unknown build system, a generated CMakeLists).
    notes: tuple[str, ...] = ()
    # The languages the CMake project enables, on any path (a HIP branch counts even when its condition is unknown).
    languages: frozenset[str] = frozenset()
    # Headers of copies of other projects (`third_party/cutlass`) that nothing of the repository's own includes
    # (scanner.build.vendored): compiled by nobody, whatever the build files left unevaluated.
    unreached: frozenset[str] = frozenset()

    @property
    def complete(self) -> bool:
        """Whether "no build compiles it" can be said of a file the builds never name: there is a build, and
        every build file was read without a note."""
        return bool(self.build_files) and not self.notes

    def of(self, path: str) -> FileBuild:
        found = self.files.get(path)
        if found is not None:
            return found
        if path in self.unreached:
            return FileBuild(path)
        if not self.build_files:
            return FileBuild(path, unknowns=("no build file (CMake, Makefile, setup.py, compile_commands.json)",))
        if self.notes:
            return FileBuild(path, unknowns=self.notes)
        if not path.endswith(SOURCE_SUFFIXES):
            # A header no compiled source includes: a library may install it for its users' builds.
            return FileBuild(path, unknowns=("a header no compiled source includes (the build may install it)",))
        return FileBuild(path)

    def hip_builds(self) -> list[Compilation]:
        """One compilation per AMD build (target), in build-file order; one behind an option or a condition the
        model cannot decide counts, with its condition (a HIP build the project offers with -DGGML_HIP=ON)."""
        seen: dict[str, Compilation] = {}
        for build in self.files.values():
            for c in build.compilations:
                if c.amd and not build.via:
                    seen.setdefault(c.build_id, c)
        return sorted(seen.values(), key=lambda c: (c.build_file, c.line, c.target))

    def platform_branch(self, path: str, line: int) -> str:
        return self.platform_lines.get(path, {}).get(line, "")
