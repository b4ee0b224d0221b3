"""Headers the scan does not list but the sources include: extension-less ones, in the style of libcu++ and CCCL
(`#include <cuco/detail/__config>`). Such a header is often where a project turns NVIDIA's version macros into its
own feature macros (`#if defined(CUDART_VERSION) && CUDART_VERSION >= 12010` / `#define CUCO_HAS_CG_INVOKE_ONE`),
so scanner.port reads its directives with the sources': a macro defined only on lines HIP-Clang never compiles is
undefined in the ROCm build, and an `#if defined(CUCO_HAS_CG_INVOKE_ONE)` on it is dead there
(scanner.analysis.hip_branches).

Only names with no suffix are looked up (a header with one is a scanned file already), only in the repository:
beside the including file, at the top, and under each `include/` folder the scanned files sit in; at most
`_MAX_HEADERS` files, each read once, capped like the sources.
"""

from __future__ import annotations

import os
import posixpath
import re

from scanner.sourcetext import read_capped

_READ_CAP = 512 * 1024
_MAX_HEADERS = 64
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([\w./+-]+)[">]', re.M)


def bare_headers(root: str, sources: list[tuple[str, str]], known: set[str]) -> list[tuple[str, str]]:
    """(repository-relative path, text) of each extension-less header of the repository that `sources`
    ((path, text) of the scanned C, C++ and CUDA files) include and `known` (the scanned files) does not hold."""
    roots = {""}
    for rel in known:
        parts = rel.split("/")
        roots.update("/".join(parts[: i + 1]) for i, part in enumerate(parts[:-1]) if part == "include")
    found: dict[str, str] = {}
    for rel, text in sources:
        for name in _INCLUDE.findall(text):
            if "." in posixpath.basename(name) or name.startswith("/") or ".." in name.split("/"):
                continue
            for base in (posixpath.dirname(rel), *sorted(roots)):
                path = posixpath.normpath(posixpath.join(base, name))
                if path in found or path in known:
                    break
                full = os.path.join(root, path)
                if os.path.isfile(full):
                    found[path] = read_capped(full, _READ_CAP) or ""
                    break
            if len(found) >= _MAX_HEADERS:
                return list(found.items())
    return list(found.items())
