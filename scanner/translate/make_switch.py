"""The Makefile part of a port's build switch (scanner.translate.build_switch), guided by the build model's reading
of each Makefile (scanner.build.make): the compiler a Linux x86-64 build runs on the ported sources. Pure: no I/O.

For each recipe the model says compiles a ported source with nvcc, the compiler it names is found where a Linux
build sets it: the recipe's own word, or the last assignment of its variable on the branch that build takes
(`NVCC := $(shell which nvcc)` in the `else` of `ifeq ($(OS),Windows_NT)`, never the Windows line). There the nvcc
word becomes hipcc (a path to nvcc becomes `hipcc` whole: the CUDA toolkit's directory has no hipcc). A compiler
that also compiles a CUDA source the port does not translate is left for a person: hipcc would build CUDA code.
"""

from __future__ import annotations

import re

from scanner.build.model import NVCC
from scanner.translate.build_edits import Change, Left

_NVCC = re.compile(r"(?<![\w.$-])(?:[\w${}()./~-]*/)?nvcc(?![\w.-])")
_VARIABLE = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]")
_ASSIGN = re.compile(r"^\s*(?:(?:override|export)\s+)*[A-Za-z_.][\w.-]*\s*(?:\+=|\?=|::=|:=|=)\s*")
WHY = "the compiler of the ported sources on the branch a Linux build takes: hipcc is ROCm's driver"


def _first_word(recipe: str) -> str:
    words = recipe.strip().lstrip("@-+").split()
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]  # VAR=value before the command
    return words[0] if words else ""


def compiler_edits(
    makefiles, text_of, ported: set[str]
) -> tuple[dict[str, str], list[tuple[str, Change]], list[tuple[str, Left]]]:
    """(new texts, changes, left) for the Makefiles the model read (`makefiles`: scanner.build.make.Makefile),
    `text_of(rel)` their current texts, `ported` the branch paths of the translated sources."""
    users: dict[tuple[str, int], dict[str, set[str]]] = {}  # where the compiler is set -> sources, by kind
    names: dict[tuple[str, int], str] = {}
    for makefile in makefiles:
        for source, compilation, _ in makefile.compilations():
            if compilation.compiler != NVCC:
                continue
            lines = text_of(compilation.build_file).split("\n")
            word = _first_word(lines[compilation.line - 1] if compilation.line <= len(lines) else "")
            variable = _VARIABLE.fullmatch(word)
            where = makefile.assigned.get(variable.group(1)) if variable else (compilation.build_file, compilation.line)
            if where is None:
                continue
            names[where] = f"`{variable.group(1)}`" if variable else f"`{word}`"
            kind = "ported" if source in ported else ("cuda" if source.endswith(".cu") else "host")
            users.setdefault(where, {}).setdefault(kind, set()).add(source)
    texts: dict[str, str] = {}
    changes: list[tuple[str, Change]] = []
    left: list[tuple[str, Left]] = []
    for (path, number), kinds in sorted(users.items()):
        if "ported" not in kinds:
            continue
        lines = (texts.get(path) or text_of(path)).split("\n")
        line = lines[number - 1]
        if kinds.get("cuda"):
            others = ", ".join(f"`{s}`" for s in sorted(kinds["cuda"])[:5])
            why = (
                f"{names[(path, number)]} also compiles CUDA sources this port does not translate ({others}): "
                "hipcc would build CUDA code; switch it once they are ported, or give the ported ones their own rule"
            )
            left.append((path, Left(number, line.strip(), why)))
            continue
        assign = _ASSIGN.match(line)
        start = assign.end() if assign and not line.startswith("\t") else 0
        match = _NVCC.search(line, start)
        if match is None:
            why = f"{names[(path, number)]} runs nvcc on the ported sources, spelled where the switch is not certain"
            left.append((path, Left(number, line.strip(), why + ": set it to hipcc by hand")))
            continue
        new = line[: match.start()] + "hipcc" + line[match.end() :]
        lines[number - 1] = new
        texts[path] = "\n".join(lines)
        changes.append((path, Change(number, line, new, WHY)))
    return texts, changes, left
