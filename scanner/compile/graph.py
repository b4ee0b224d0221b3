"""The repository's include graph, for the compile check: which files a translation unit needs, and which unit
checks a header.

Built once per scan, before the workers start, from the `#include` lines of the C/C++/CUDA files (every `#if`
branch: over-approximating only writes a file too many into the translated tree). A name is resolved the way the
compiler will search the translated tree: a quoted include next to the including file, then in the configured
include directories, then from the repository root (`-iquote`); an angle include in the include directories
only. A file the build model knows (scanner.build) has its includes resolved under each of its compilations'
include directories too (scanner.compile.unit_build.include_dir_sets), every match kept. A header name that resolves
under none of those is looked for under the including file's ancestor folders and their `include/` folders
(`conventional_base`), where builds put them by variables the model cannot read. What does not resolve
inside the repository is the compiler's business (a system or ROCm header) or a header this machine lacks (stubbed
by the check).

A header is not compiled alone: it is checked inside the first source file (path order, `.cu` first) that
includes it, directly or not, so that the device code that source uses is really emitted and assembled (inline
PTX fails only then); a header no source includes is compiled on its own. `.inl`-style fragments no source
includes are not checked.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from scanner.parsing.include_walk import INCLUDE_LINE  # the scanner's own include reader

HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inl", ".inc", ".tpp", ".ipp"})
FRAGMENT_SUFFIXES = frozenset({".inl", ".inc", ".tpp", ".ipp"})  # never meant to compile alone
CHECKED_LANGUAGES = frozenset({"cuda", "c++"})
_MAX_READ = 2_000_000


def is_header(rel: str) -> bool:
    return os.path.splitext(rel)[1].lower() in HEADER_SUFFIXES


@dataclass
class IncludeGraph:
    root: Path
    include_dirs: tuple[str, ...]  # relative to the root, "/" separated, inside the repository
    edges: dict[str, tuple[str, ...]]  # file -> the repository files it includes

    def closure(self, rel: str) -> tuple[str, ...]:
        """Every repository file `rel` includes, directly or not (not `rel` itself), sorted."""
        seen, stack = set(), [rel]
        while stack:
            for dep in self.edges.get(stack.pop(), ()):
                if dep not in seen and dep != rel:
                    seen.add(dep)
                    stack.append(dep)
        return tuple(sorted(seen))


def build(
    root: Path,
    rels: list[str],
    include_dirs: tuple[str, ...],
    max_bytes: int = _MAX_READ,
    build_dirs: Callable[[str], list[tuple[str, ...]]] | None = None,
) -> IncludeGraph:
    """The include edges of the files `rels` (relative paths of C/C++/CUDA files under `root`). `build_dirs(rel)`:
    the include directories (repository-relative) of each compilation the build model knows for `rel`; its
    includes resolve under each of them, before the configured ones, as well as under the configured ones alone."""
    dirs = tuple(d for d in (inside(root, d) for d in include_dirs) if d is not None)
    graph = IncludeGraph(root, dirs, {})
    pending, seen = list(rels), set(rels)
    while pending:
        rel = pending.pop()
        text = _read(root, rel, max_bytes)
        searches = [dirs]
        for own in build_dirs(rel) if build_dirs else ():
            searches.append((*(d for d in (inside(root, d) for d in own) if d is not None), *dirs))
        deps = []
        for quote, name in INCLUDE_LINE.findall(text):
            found = [d for d in (resolve(root, rel, quote, name.strip(), s) for s in dict.fromkeys(searches)) if d]
            base = conventional_base(root, rel, name.strip()) if not found else None
            if base is not None:  # under a folder the build names in a way the model could not read
                found.append(posixpath.normpath(posixpath.join(base, name.strip())))
            for dep in found:
                deps.append(dep)
                if dep not in seen:  # an included file that is not a candidate (a .def, a generated .h)
                    seen.add(dep)
                    pending.append(dep)
        graph.edges[rel] = tuple(dict.fromkeys(deps))
    return graph


def units(graph: IncludeGraph, rels: list[str]) -> dict[str, str]:
    """The translation unit that checks each file: a source checks itself; a header, its first includer."""
    sources = sorted((r for r in rels if not is_header(r)), key=lambda r: (not r.endswith(".cu"), r))
    includer: dict[str, str] = {}
    for source in sources:
        for dep in graph.closure(source):
            includer.setdefault(dep, source)
    out = {}
    for rel in rels:
        if not is_header(rel):
            out[rel] = rel
        elif rel in includer:
            out[rel] = includer[rel]
        elif os.path.splitext(rel)[1].lower() not in FRAGMENT_SUFFIXES:
            out[rel] = rel
    return out


def attach(
    root: Path,
    jobs: list,
    include_dirs: tuple[str, ...],
    max_bytes: int = _MAX_READ,
    build_dirs: Callable[[str], list[tuple[str, ...]]] | None = None,
) -> list:
    """`jobs` (scanner.engine.FileJob) with `compile_unit` and `compile_deps` set for the files the check may
    compile; other jobs unchanged. `build_dirs`: as for `build`."""
    rels = [j.rel for j in jobs if j.language in CHECKED_LANGUAGES and not j.problem]
    graph = build(root, rels, include_dirs, max_bytes, build_dirs)
    chosen = units(graph, rels)
    out = []
    for job in jobs:
        unit = chosen.get(job.rel)
        if unit is None:
            out.append(job)
        else:
            deps = tuple(sorted({*graph.closure(unit), unit} - {job.rel}))
            out.append(replace(job, compile_unit=unit, compile_deps=deps))
    return out


def inside(root: Path, directory: str) -> str | None:
    """An include directory as a root-relative path, or None when it is outside the repository."""
    path = Path(directory)
    try:
        rel = (path if path.is_absolute() else root / path).resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return None
    return "" if rel == "." else rel


def resolve(root: Path, rel: str, quote: str, name: str, include_dirs: tuple[str, ...]) -> str | None:
    if not name or name.startswith("/") or "\0" in name:
        return None
    bases = ([posixpath.dirname(rel)] if quote == '"' else []) + list(include_dirs) + ([""] if quote == '"' else [])
    for base in bases:
        candidate = posixpath.normpath(posixpath.join(base, name))
        if candidate.startswith("../") or candidate == "..":
            continue
        path = root / candidate
        if os.path.isfile(path) and not _has_symlink(root, candidate):  # False, not OSError, for a too-long name
            return candidate
    return None


def conventional_base(root: Path, rel: str, name: str) -> str | None:
    """The folder an include that resolves nowhere the build says is found under by the two conventions builds
    follow without the model reading them (a CMake variable, a generated flag): an ancestor folder of the including
    file (`#include "src/core/check.h"` in a vendored project's `third_party/tm/src/kernels/x.cu`), or the
    `include/` folder of one (`cpp/include/lib/x.hpp` for `cpp/bench/x.cu`, `include/kittens.cuh` for a kernel
    folder). Nearest first; header names only (a system `<vector>` never matches), None when none has it."""
    if not name or name.startswith("/") or os.path.splitext(name)[1].lower() not in HEADER_SUFFIXES:
        return None
    folder = posixpath.dirname(rel)
    while True:
        for base in (folder, posixpath.join(folder, "include") if folder else "include"):
            candidate = posixpath.normpath(posixpath.join(base, name))
            if candidate.startswith("../") or candidate == "..":
                continue
            if os.path.isfile(root / candidate) and not _has_symlink(root, candidate):
                return base
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _has_symlink(root: Path, rel: str) -> bool:
    """A path through a symlink could lead out of the checkout: such a file is never copied into the tree."""
    current = root
    for part in rel.split("/"):
        current = current / part
        if current.is_symlink():
            return True
    return False


def _read(root: Path, rel: str, max_bytes: int) -> str:
    try:
        with open(root / rel, "rb") as handle:
            data = handle.read(max_bytes)
    except OSError:
        return ""
    return data.decode("utf-8", "replace") if b"\0" not in data[:8192] else ""
