"""Copies of other projects inside a repository (`third_party/cutlass`, a folder with its own licence): their
headers are the vendor's code, compiled only where one of the repository's own sources includes them.

A header no compiled source includes may still be compiled by the repository's users when the repository
installs it (a library's public headers), so the build model calls such a header "unknown". A vendored copy's
header is not the repository's public API: unless a build file installs the copy, a header of it that no file of
the repository's own (and no compiled source) includes, directly or through other headers, is compiled by nobody;
whatever the build files left unevaluated, since it asks only what includes what.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable

# Folder names that hold other projects' code by convention.
VENDOR_FOLDERS = frozenset(
    {"third_party", "third-party", "thirdparty", "3rdparty", "3rd_party", "3rd-party", "external", "externals"}
    | {"extern", "vendor", "vendored", "deps", "submodules"}
)
_LICENCE = re.compile(r"(?i)^(license|licence|copying)(\.(txt|md|rst))?$")
_INSTALL = re.compile(r"(?is)\binstall\s*\((.*?)\)")


def roots(
    files: Iterable[str], build_files: Iterable[str], reader: Callable[[str], str], compiled: Iterable[str] = ()
) -> tuple[str, ...]:
    """The vendored copies among `files`' folders: each child of a conventional vendor folder, and each folder
    below the top that carries its own licence file and holds no source a build compiles (a package of the
    project's own, such as its Python bindings with a copy of the licence, compiles its sources); less those a
    build file's `install(...)` names."""
    found: set[str] = set()
    licensed: set[str] = set()
    for path in files:
        parts = path.split("/")
        for depth, part in enumerate(parts[:-2]):
            if part.lower() in VENDOR_FOLDERS:
                found.add("/".join(parts[: depth + 2]))
                break
        if len(parts) > 1 and _LICENCE.match(parts[-1]):
            licensed.add(posixpath.dirname(path))
    compiled = tuple(compiled)
    found |= {r for r in licensed if not any(c.startswith(r + "/") for c in compiled)}
    installed = " ".join(m.group(1) for rel in build_files for m in _INSTALL.finditer(reader(rel)))
    return tuple(sorted(r for r in found if not _names(installed, r)))


def unreached(
    vendored: tuple[str, ...], files: Iterable[str], compiled: Iterable[str], includes: Callable[[str], Iterable[str]]
) -> frozenset[str]:
    """The headers of the vendored copies that no file outside them, and no compiled source, includes, directly
    or through other headers (`includes(path)`: the repository files `path` includes)."""
    if not vendored:
        return frozenset()
    files = tuple(files)
    inside = {f for f in files if root_of(f, vendored)}
    todo = [f for f in files if f not in inside] + [c for c in compiled if c in inside]
    reached = set(todo)
    while todo:
        for header in includes(todo.pop()):
            if header not in reached:
                reached.add(header)
                todo.append(header)
    return frozenset(f for f in inside if f not in reached)


def root_of(path: str, vendored: tuple[str, ...]) -> str:
    """The vendored copy `path` lies in, or empty."""
    for root in vendored:
        if path.startswith(root + "/"):
            return root
    return ""


def _names(text: str, root: str) -> bool:
    """Whether an install() text names the copy's folder (or its last component, as `${DIR}/cutlass` would)."""
    return bool(text) and (root in text or re.search(rf"(?<![\w-]){re.escape(posixpath.basename(root))}\b", text))
