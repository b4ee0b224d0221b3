"""The build model: which builds compile each C, C++ and CUDA file of a checkout, how, and for which GPU.

`read(root, paths)` reads the build files among `paths` (scanner.build.cmake, .make, .setuptools, and a
compile_commands.json, which wins for the files it lists) into a `BuildModel` (scanner.build.model). Headers take
the compilations of the compiled sources that include them. Pure Python, no build is ever run.

Everyone asks it rather than searching for words: the parse takes a file's include directories, defines and
standard from it; scanner.port decides "an AMD build compiles this file" from it; the compile check builds each
file with its flags; the merge request's build switch edits the targets it names.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from collections.abc import Iterable

from scanner.build import cmake, make, setuptools, vendored
from scanner.build.model import (
    HIPCC,
    HOST,
    HOST_CC,
    NVCC,
    SOURCE_SUFFIXES,
    BuildModel,
    Compilation,
    FileBuild,
)
from scanner.sourcetext import read_capped

__all__ = ["read", "BuildModel", "Compilation", "FileBuild", "HOST"]

_READ_CAP = 1024 * 1024
_SOURCE = SOURCE_SUFFIXES
_HEADER = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tpp", ".ipp")
_BUILD_DEFINE = re.compile(
    r"(?:-D|add_compile_definitions\(\s*|add_definitions\(\s*-D|"
    r"target_compile_definitions\(\s*[\w${}-]+\s+(?:PUBLIC|PRIVATE|INTERFACE)\s+)([A-Za-z_]\w*)"
)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]')


def _reader(root: str):
    return lambda rel: read_capped(os.path.join(root, rel), _READ_CAP)


def _names_another(text: str, rel: str, number: int, name: str, path: str, files) -> bool:
    """Line `number` of build file `rel` names `name` only inside paths that are other files of the repository
    (`src/kernels/zgemm/gemm_w8a8.cu` for src/kernels/gemm_w8a8.cu): it says nothing of `path`."""
    line = text.split("\n")[number - 1] if number - 1 < len(text.split("\n")) else ""
    spelled = re.findall(r"[\w.+/-]*" + re.escape(name) + r"(?![\w.])", line)
    if not spelled:
        return False
    base = posixpath.dirname(rel)
    for written in spelled:
        if "/" not in written:
            return False
        resolved = posixpath.normpath(posixpath.join(base, written))
        if resolved == path or resolved not in files:
            return False
    return True


def read(root: str, paths: Iterable[str]) -> BuildModel:
    """The build model of the checkout at `root`; `paths`: its repository-relative files worth knowing (the
    scan's candidates: sources, headers and build files)."""
    root = os.path.abspath(root)  # ${CMAKE_CURRENT_SOURCE_DIR} and the like are absolute
    files = frozenset(paths)
    reader = _reader(root)
    found: dict[str, list[Compilation]] = {}
    unknowns: dict[str, list[str]] = {}
    notes: list[str] = []
    platform_lines: dict[str, dict[int, str]] = {}
    build_files: list[str] = []

    def add(items):
        for source, compilation, unknown in items:
            found.setdefault(source, []).append(compilation)
            if unknown:
                unknowns.setdefault(source, []).extend(unknown)

    project = cmake.read_projects(root, files, reader)
    if project is not None:
        add(project.compilations())
        notes += project.unknowns
        build_files += sorted(project.visited)
        _merge(platform_lines, project.platform_lines)
    for makefile in make.read_makefiles(files, reader):
        add(makefile.compilations())
        notes += [f"{makefile.rel}: {u}" for u in dict.fromkeys(makefile.unknowns)]
        build_files += sorted(makefile.seen)
        _merge(platform_lines, makefile.platform_lines)
    for rel in sorted(f for f in files if posixpath.basename(f) == "setup.py"):
        text = reader(rel)
        if not re.search(r"Extension\s*\(", text):
            continue
        items, setup_notes = setuptools.compilations(
            rel, text, files, lambda path: path.endswith(".cu") and setuptools.holds_hip(reader(path))
        )
        add(items)
        notes += setup_notes
        build_files.append(rel)
    database = _compile_commands(root, files, reader)
    if database is not None:
        rel, entries = database
        build_files.append(rel)
        for source, compilation in entries:
            found[source] = [compilation]  # it wins: the build's own record of what it ran
            unknowns.pop(source, None)
    model_files: dict[str, FileBuild] = {
        path: FileBuild(path, tuple(_unique(compilations)), tuple(dict.fromkeys(unknowns.get(path, ()))))
        for path, compilations in found.items()
    }
    switches = {d.split("=", 1)[0] for b in model_files.values() for c in b.compilations for d in c.defines}
    for rel in build_files:  # also those a build passes only on a path the default does not take
        switches.update(_BUILD_DEFINE.findall(reader(rel)))
    _headers(model_files, files, reader, switches)
    _mentions(model_files, files, tuple(dict.fromkeys(build_files)), platform_lines, reader)
    for path, where in project.globbed.items() if project is not None else ():
        if path not in model_files and path.endswith(_SOURCE):
            model_files[path] = FileBuild(
                path, unknowns=(f"matched by file(GLOB) at {where}, on a path the default configuration does not take",)
            )
    return BuildModel(
        model_files,
        tuple(dict.fromkeys(build_files)),
        platform_lines,
        tuple(dict.fromkeys(notes))[:50],
        frozenset(project.languages) if project is not None else frozenset(),
        _unreached_vendored(model_files, files, tuple(dict.fromkeys(build_files)), reader),
    )


def parse_flags(root: str, file_build: FileBuild | None) -> tuple[str, ...]:
    """The include directories, defines and standard a parse of the file takes from its build
    (FileBuild.parsed), include directories made absolute under `root`."""
    judged = file_build.parsed() if file_build else None
    if judged is None:
        return ()
    out = []
    c_file = file_build.path.endswith(".c")
    for flag in judged.flags():
        if flag.startswith("-std=") and (flag.startswith("-std=c++") or flag.startswith("-std=gnu++")) == c_file:
            continue  # a header's includer of the other language, or a build's flag for the other one
        if flag.startswith("-I") and not flag.startswith("-I/"):
            flag = "-I" + os.path.join(root, flag[2:])
        out.append(flag)
    return tuple(out)


def _merge(into: dict, more: dict) -> None:
    for path, lines in more.items():
        into.setdefault(path, {}).update(lines)


def _unique(compilations: list[Compilation]) -> list[Compilation]:
    return list(dict.fromkeys(compilations))


def _headers(model_files: dict[str, FileBuild], files: frozenset[str], reader, switches: set[str]) -> None:
    """Give each file that a compiled source includes (a header, or a `.cu` included whole) the compilations
    of its includers, transitively; by the included name's path, else by its last component."""
    by_name: dict[str, list[str]] = {}
    for path in files:
        if path.endswith(_HEADER + _SOURCE):
            by_name.setdefault(posixpath.basename(path), []).append(path)
    # `switches`: macros some build passes with -D (BUILD_CUDA): an #include under one of them is taken only by
    # the compilations that define it. Any other macro (a compiler's, a header's) decides nothing here.
    includes_of: dict[str, list[tuple[str, tuple]]] = {}
    todo = [p for p in model_files if model_files[p].compiled]
    seen = set(todo)
    while todo:
        source = todo.pop()
        if source not in includes_of:
            dirs = tuple(dict.fromkeys(d for c in model_files[source].compilations for d in c.include_dirs))
            includes_of[source] = _included(source, reader(source), by_name, files, switches, dirs)
        for header, requires in includes_of[source]:
            if header == source:
                continue
            current = model_files.get(header)
            if current is not None and current.compiled and not current.via:
                continue  # compiled in its own right
            inherited = tuple(c for c in model_files[source].compilations if _takes(c, requires))
            if not inherited:
                continue
            via = (*current.via, source) if current else (source,)
            merged = tuple(dict.fromkeys((*(current.compilations if current else ()), *inherited)))
            model_files[header] = FileBuild(
                header, merged, current.unknowns if current else (), tuple(dict.fromkeys(via))
            )
            if header not in seen or len(merged) != len(current.compilations if current else ()):
                seen.add(header)
                todo.append(header)


def _unreached_vendored(model_files: dict[str, FileBuild], files: frozenset[str], build_files, reader) -> frozenset:
    """The vendored copies' headers nothing of the repository's own includes (scanner.build.vendored)."""
    compiled = [p for p, b in model_files.items() if b.compiled and not b.via]
    roots = vendored.roots(files, build_files, reader, compiled)
    if not roots:
        return frozenset()
    code = frozenset(f for f in files if f.endswith(_HEADER + _SOURCE))
    by_name: dict[str, list[str]] = {}
    for path in code:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    dirs = tuple(dict.fromkeys(d for b in model_files.values() for c in b.compilations for d in c.include_dirs))

    def includes(path: str) -> list[str]:
        return [found for found, _ in _included(path, reader(path), by_name, code, include_dirs=dirs)]

    return vendored.unreached(roots, code, compiled, includes)


def _mentions(model_files, files, build_files, platform_lines, reader) -> None:
    """Sources no build compiles but a build file names (in a branch not taken, an option off by default, a
    branch for another platform): said per file, so "no build compiles it" is kept for sources nobody names."""
    # Every word of the build files, where it stands: one pass, then a lookup per source (a tree of thousands of
    # build files and sources stays linear).
    where: dict[str, list[tuple[str, int]]] = {}
    for rel in build_files:
        for number, line in enumerate(reader(rel).split("\n"), 1):
            for word in set(_WORD_SPLIT.split(line)):
                if word:
                    where.setdefault(word, []).append((rel, number))
    for path in sorted(files):
        if not path.endswith(_SOURCE) or path in model_files:
            continue
        name = posixpath.basename(path)
        stem = posixpath.splitext(name)[0]
        places = sorted(where.get(name, []) + where.get(f"{stem}.o", []) + where.get(f"{stem}.obj", []))
        places = [(rel, n) for rel, n in places if not _names_another(reader(rel), rel, n, name, path, files)]
        if not places:
            continue
        elsewhere = [(rel, n) for rel, n in places if n not in platform_lines.get(rel, {})]
        if elsewhere:
            rel, number = elsewhere[0]
            model_files[path] = FileBuild(
                path, unknowns=(f"named in {rel}:{number}, on a path the default configuration does not take",)
            )
        else:
            rel, number = places[0]
            condition = platform_lines[rel][number]
            model_files[path] = FileBuild(
                path, note=f"named only in {rel}:{number}, under `{condition}`: a build for another platform"
            )


_WORD_SPLIT = re.compile(r"[^\w.-]+")
_GUARD = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_SIMPLE = re.compile(r"^\s*(!)?\s*(?:defined\s*\(?\s*)?([A-Za-z_]\w*)\s*\)?\s*(?://.*|/\*.*)?$")


def _takes(compilation: Compilation, requires: tuple) -> bool:
    """Whether a compilation takes an #include that sits under `requires`: (macro, must be defined) pairs."""
    names = {d.split("=", 1)[0] for d in compilation.defines if d.split("=", 1)[1:] != ["0"]}
    return all((macro in names) == defined for macro, defined in requires)


def _included(source: str, text: str, by_name, files: frozenset[str], switches=frozenset(), include_dirs=()):
    """The repository files `source` includes, each with the build switches its `#if` blocks require
    ((macro, defined) pairs; only simple conditions on a macro some build defines count)."""
    out = []
    base = posixpath.dirname(source)
    stack: list[tuple[str, bool] | None] = []  # per open #if: its requirement, or None (decides nothing)
    for line in text.split("\n"):
        guard = _GUARD.match(line)
        if guard:
            kind, rest = guard.groups()
            simple = _SIMPLE.match(rest) if kind != "else" else None
            if kind in ("if", "ifdef", "ifndef"):
                frame = None
                if simple and simple.group(2) in switches:
                    frame = (simple.group(2), (kind != "ifndef") != bool(simple.group(1)))
                stack.append(frame)
            elif kind in ("else", "elif") and stack:
                frame = stack[-1]
                stack[-1] = (frame[0], not frame[1]) if frame and kind == "else" else None
            elif kind == "endif" and stack:
                stack.pop()
            continue
        match = _INCLUDE.match(line)
        if not match:
            continue
        requires = tuple(frame for frame in stack if frame)
        found = _resolve(match.group(2), match.group(1) == "<", base, include_dirs, by_name, files)
        if found:
            out.append((found, requires))
    return out


def _resolve(name: str, angled: bool, base: str, include_dirs, by_name, files: frozenset[str]) -> str:
    """The repository file an #include names: beside the includer (quoted), under the build's include
    directories, from the root (quoted); else, for a name with a folder (`<cutlass/gemm.h>`) or a quoted one, the
    one file anywhere whose path ends with it. A bare `<unistd.h>` is a system header unless a build's -I has it."""
    candidates = [] if angled else [posixpath.join(base, name)]
    candidates += [posixpath.join(d, name) for d in include_dirs if not d.startswith("/")]
    if not angled:
        candidates.append(name)
    for candidate in candidates:
        path = posixpath.normpath(candidate)
        if path in files:
            return path
    if angled and "/" not in name:
        return ""
    ending = [c for c in by_name.get(posixpath.basename(name), []) if c == name or c.endswith("/" + name)]
    return ending[0] if len(ending) == 1 else ""


def _compile_commands(root: str, files: frozenset[str], reader) -> tuple[str, list[tuple[str, Compilation]]] | None:
    for rel in ("compile_commands.json", "build/compile_commands.json"):
        if not os.path.isfile(os.path.join(root, rel)):
            continue
        try:
            entries = json.loads(reader(rel))
        except ValueError:
            return None
        if not isinstance(entries, list):
            return None
        out = []
        real_root = os.path.realpath(root)
        for index, entry in enumerate(entries[:100_000]):
            if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                continue
            directory = entry.get("directory") if isinstance(entry.get("directory"), str) else real_root
            path = os.path.normpath(os.path.join(directory, entry["file"]))
            source = os.path.relpath(path, real_root).replace(os.sep, "/")
            if source not in files:
                continue
            try:
                args = (
                    entry["arguments"]
                    if isinstance(entry.get("arguments"), list)
                    else shlex.split(str(entry.get("command", "")))
                )
            except ValueError:
                continue
            args = [a for a in args if isinstance(a, str)]
            if not args:
                continue
            compiler = make._compiler(args[0], " ".join(args)) or HOST_CC
            language = {NVCC: "cuda", HIPCC: "hip"}.get(compiler, "c" if source.endswith(".c") else "c++")
            includes, defines, standard = [], [], ""
            for arg in args[1:]:
                if arg.startswith("-I") and len(arg) > 2:
                    target = os.path.normpath(os.path.join(directory, arg[2:]))
                    inside = os.path.relpath(target, real_root).replace(os.sep, "/")
                    includes.append(target if inside.startswith("..") else inside)
                elif arg.startswith("-D") and len(arg) > 2:
                    defines.append(arg[2:])
                elif re.match(r"--?std=", arg):
                    standard = arg.split("=", 1)[1]
            out.append(
                (
                    source,
                    Compilation(
                        f"entry {index}",
                        rel,
                        1,
                        "compile_commands",
                        compiler,
                        language,
                        standard,
                        tuple(includes),
                        tuple(defines),
                    ),
                )
            )
        return rel, out
    return None
