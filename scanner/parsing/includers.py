"""Where a header is included from, for the parse of a header that only makes sense inside its includer.

Some headers are fragments: `parallel-openmp-impl.h` defines `torchao::parallel_1d` that its includer declared,
a kernel library's `ops/warp/*.cuh` use the namespace and types its umbrella header brought in before including
them, a `*_launch.cuh` calls kernels declared above its include line. Parsed alone, such a header ends tokens-only
("use of undeclared identifier"). Read the way the compiler reads it, it comes after the lines of its includer that
precede the include: `prefix_of` gives those lines, and the parse puts them before the header (`-include`), so the
header's own lines keep their numbers.

`index` reads each C/C++ file's `#include` lines once per scan (the first MAX_BYTES of each) and maps each
repository header to the files that include it: by the spelled path from the includer's folder, else by the
spelled path's tail among the repository's headers (`#include <kittens/ops/warp.cuh>` built with `-Iinclude`).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable

MAX_BYTES = 1 << 20
MAX_INCLUDERS = 3
MAX_DEPTH = 4  # includers of includers followed for a fragment a fragment includes (an umbrella header's tree)
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
_HEADER = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc")
_SOURCE = (".cu", ".cpp", ".cc", ".cxx", ".c")
_OPEN_IF = re.compile(r"^[ \t]*#[ \t]*if(?:n?def)?\b", re.MULTILINE)
_END_IF = re.compile(r"^[ \t]*#[ \t]*endif\b", re.MULTILINE)


def is_header(rel: str) -> bool:
    return rel.lower().endswith(_HEADER)


def index(root: str, rels: Iterable[str]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Header rel -> up to MAX_INCLUDERS (includer rel, 1-based line of its #include), sources first."""
    rels = list(rels)
    headers = [r for r in rels if is_header(r)]
    if not headers:
        return {}
    known = set(rels)
    by_tail: dict[str, list[str]] = {}
    for header in headers:
        parts = header.split("/")
        for i in range(len(parts)):
            by_tail.setdefault("/".join(parts[i:]), []).append(header)
    found: dict[str, list[tuple[str, int]]] = {}
    for rel in rels:
        if not rel.lower().endswith(_HEADER + _SOURCE):
            continue
        try:
            with open(os.path.join(root, rel), "rb") as handle:
                data = handle.read(MAX_BYTES)
        except OSError:
            continue
        folder = os.path.dirname(rel)
        for match in _INCLUDE.finditer(data):
            spelled = match.group(1).decode("utf-8", "replace").strip()
            local = os.path.normpath(os.path.join(folder, spelled)).replace(os.sep, "/")
            targets = [local] if local in known else by_tail.get(spelled.lstrip("./"), [])
            if len(targets) != 1 or targets[0] == rel:
                continue  # unknown, or ambiguous (two headers end the same way): no guess
            line = data.count(b"\n", 0, match.start()) + 1
            found.setdefault(targets[0], []).append((rel, line))
    return {
        header: tuple(sorted(pairs, key=lambda p: (is_header(p[0]), p[0], p[1]))[:MAX_INCLUDERS])
        for header, pairs in found.items()
    }


def chains(index: dict[str, tuple[tuple[str, int], ...]]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Header rel -> the includers above its first includer, outermost first, when that includer is itself a header
    another file includes (ThunderKittens' `group.cuh` opens `struct group {` and includes `shared/shared.cuh`,
    which includes `vec/vec.cuh`, which includes `maps.cuh`: `maps.cuh` reads only after all three)."""
    out = {}
    for header, pairs in index.items():
        chain: list[tuple[str, int]] = []
        seen, rel = {header}, pairs[0][0]
        while is_header(rel) and rel in index and len(chain) < MAX_DEPTH:
            seen.add(rel)
            outer, line = index[rel][0]
            if outer in seen:
                break
            chain.append((outer, line))
            rel = outer
        if chain:
            out[header] = tuple(reversed(chain))
    return out


_QUOTED_INCLUDE = re.compile(r'^([ \t]*#[ \t]*include[ \t]*)"([^"\n]+)"', re.MULTILINE)


def outer_prefix(root: str, rel: str, text: str, line: int) -> str:
    """`prefix_of` for an includer further out than the direct one: its quoted includes made absolute, because the
    prefix is read from beside the direct includer, not beside this one."""
    folder = os.path.join(root, os.path.dirname(rel))

    def absolute(match: re.Match) -> str:
        target = os.path.normpath(os.path.join(folder, match.group(2)))
        return f'{match.group(1)}"{target}"' if os.path.isfile(target) else match.group(0)

    return _QUOTED_INCLUDE.sub(absolute, prefix_of(text, line))


def read_head(root: str, rel: str) -> str | None:
    """An includer's first MAX_BYTES, or None when it cannot be read."""
    try:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as handle:
            return handle.read(MAX_BYTES)
    except OSError:
        return None


def prefix_of(includer_text: str, line: int) -> str:
    """The includer's lines before its #include of the header, with the conditionals they leave open closed (an
    include guard around the rest of the file), so that the lines can stand before the header in a parse."""
    lines = includer_text.split("\n")[: max(0, line - 1)]
    prefix = "\n".join(lines)
    unclosed = len(_OPEN_IF.findall(prefix)) - len(_END_IF.findall(prefix))
    return prefix + "\n" + "#endif\n" * max(0, unclosed)


_QUOTED_NAME = re.compile(r"'(?:[\w:]+::)?([A-Za-z_]\w*)'")


def declares_what_was_missing(prefix: str, first_errors: list[str]) -> bool:
    """Whether the names the header's first errors quote (`unknown type name 'lane_tile'`, `no member named
    'parallel_1d' in namespace 'torchao'`) appear in the includer's lines before the #include: only then can a
    parse after them read the header better, and only then is it worth a second parse."""
    names = {m.group(1) for error in first_errors for m in _QUOTED_NAME.finditer(error)}
    return any(re.search(rf"\b{re.escape(name)}\b", prefix) for name in names)


_DEFINED = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_CONDITION = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b(.*)$", re.MULTILINE)


def configures(prefix: str, header_text: str) -> bool:
    """Whether the includer's lines define a macro the header's conditionals test (`#define PNANOVDB_C` before a
    header whose every declaration sits under `#if defined(PNANOVDB_C)`): a header configured by its includer, which
    read alone takes none of its branches, whatever its errors name."""
    defined = set(_DEFINED.findall(prefix))
    if not defined:
        return False
    tested = {name for line in _CONDITION.findall(header_text) for name in re.findall(r"[A-Za-z_]\w*", line)}
    return bool(defined & tested - {"defined"})


def key(job) -> str:
    """What a header's parse may read besides its own blob: its includers' lines before each #include (a digest,
    for a result cache: a change there can change how the header reads)."""
    root = job.path[: -len(job.rel)] if job.path.endswith(job.rel) else ""
    digest = hashlib.sha256()
    for rel, line in tuple(job.outer_includers) + tuple(job.includers):
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as handle:
                text = handle.read(MAX_BYTES)
        except OSError:
            text = ""
        digest.update(f"{rel}:{line}\0".encode() + prefix_of(text, line).encode("utf-8", "replace") + b"\0")
    return digest.hexdigest()[:32]
