"""Whether a `-l` flag links a library the project builds itself, from a directory inside its own tree.

`-L$(BUILDDIR)/lib -lnccl`, where the same Makefile sets `BUILDDIR ?= $(abspath ../../build)`, links the
library the repository's own build just wrote: a port of the project produces that library under the same name,
so the flag is no CUDA dependency. The `-L` is the word right before the flag (a `-lcuda` later on the line
still links CUDA); its directory counts as in-tree when the file's own variables expand it fully to a relative path (`../build/lib`, `./lib`). A
directory that keeps an unknown variable (`$(CUDA_HOME)/lib64`, `$(NCCL_HOME)` set by the user) or is absolute
(`/usr/local/cuda/lib64`) is not: the library comes from an installation.
"""

from __future__ import annotations

import re

_ASSIGN = re.compile(r"^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.]*)\s*(?:[:?]{0,2}|::=)=\s*(.*?)\s*(?:#.*)?$")
# The `-L<dir>` word right before the flag: `-L$(BUILDDIR)/lib -lnccl`, not `-L$(BUILDDIR)/lib -lnccl -lcuda`.
_LIB_DIR = re.compile(r"(?<![\w-])-L\s*(\S+)\s+$")
_REFERENCE = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]|\$([A-Za-z_])(?![\w(])")
_PATH_FUNCTION = re.compile(r"\$[({](?:abspath|realpath)\s+([^()${}]*)[)}]")


def links_in_tree(ctx, line: int, col: int) -> bool:
    """True when the `-l` flag at `line`:`col` follows a `-L` whose directory is inside the scanned tree."""
    if ctx.language not in ("make", "shell"):
        return False
    before = ctx.line_text(line)[: col - 1]
    found = _LIB_DIR.search(before)
    if not found:
        return False
    resolved = _expand(found.group(1).strip("\"'"), _variables(ctx))
    return "$" not in resolved and bool(resolved) and not resolved.startswith(("/", "~"))


def _variables(ctx) -> dict[str, list[str]]:
    key = "rocport:in-tree-variables"
    if key not in ctx.memo:
        found: dict[str, list[str]] = {}
        for text in ctx.lines:
            match = _ASSIGN.match(text)
            if match:
                found.setdefault(match.group(1), []).append(match.group(2))
        ctx.memo[key] = found
    return ctx.memo[key]


def _expand(text: str, variables: dict[str, list[str]], depth: int = 0) -> str:
    """`text` with the file's variables substituted; a variable set more than once stays unresolved (which value
    the build sees is not known here)."""
    if depth > 8:
        return text

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        values = variables.get(name, [])
        if len(values) != 1:
            return match.group(0)
        return _expand(values[0], variables, depth + 1)

    expanded = _REFERENCE.sub(value, text)
    expanded = _PATH_FUNCTION.sub(lambda m: m.group(1).strip(), expanded)
    return expanded
