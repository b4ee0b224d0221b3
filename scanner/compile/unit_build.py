"""What a translation unit of the compile check is built with: the standard, include directories and defines the
build model (scanner.build) gives the unit's file, under the compilation it is judged under (`FileBuild.judged()`:
an AMD one first, else the first the build takes without a condition).

Which standard wins, per unit:
1. `[compile] std` in .rocport.toml, when the user set it: an explicit override, for every unit;
2. else the build's own standard for the unit's file (CMake's `CMAKE_CUDA_STANDARD`, `cxx_std_20`, a `-std=` in a
   Makefile, setup.py or compile_commands.json): that is what the build compiles it with, so a C++20 project is
   never judged as C++17 and a concept is never reported as the code's error;
3. else c++17 (scanner.compile.toolchain.DEFAULT_STD).
A build standard older than C++11 is checked as C++11 (HIP's headers need it; the note says so), one the check
does not know falls back to the default (the note says so too): neither is the code's error.

The build's include directories and defines come first; the options' (`[parse] include_dirs` / `defines`, the
user's additions) follow, so a user's define overrides the build's. Values from the repository are kept only when
they are safe to hand to the compiler: include directories inside the checkout (a build machine's
/usr/local/cuda or an unexpanded `${VAR}` is not ours to read: a header only there is stubbed, like any header
this machine lacks), defines that are a macro name with an optional value.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from scanner.compile.toolchain import DEFAULT_STD

# The dialects clang accepts for C++ (`-std=`); c++26 is spelled c++2c before clang 18.
_DIALECT = re.compile(r"^(c|gnu)\+\+(98|03|0x|11|1y|14|1z|17|2a|20|2b|23|2c|26)$")
_BEFORE_HIP = frozenset({"98", "03"})  # HIP's headers need C++11
_SPELLING = {"0x": "11", "1y": "14", "1z": "17", "26": "2c"}
_DEFINE = re.compile(r"^[A-Za-z_]\w*(?:\([\w\s,.]*\))?(?:=[^\n\0]*)?$")


@dataclass(frozen=True)
class UnitBuild:
    """The build model's flags for a unit's file; `source` names the build that says so."""

    standard: str = ""  # as the build says it ("c++20"), "" when it says none
    include_dirs: tuple[str, ...] = ()  # repository-relative, inside the checkout; "." for the root
    defines: tuple[str, ...] = ()  # "NAME" or "NAME=VALUE"
    source: str = ""  # scanner.build.model.Compilation.describe(): "cmake target `app` in CMakeLists.txt:4 (nvcc)"

    def key(self) -> dict:
        """What a cached compile result depends on."""
        return {
            "standard": self.standard,
            "include_dirs": list(self.include_dirs),
            "defines": list(self.defines),
            "source": self.source,
        }


def of(file_build) -> UnitBuild | None:
    """The flags of `file_build` (a scanner.build.model.FileBuild, or None) under its judged compilation; None when
    the build model knows no compilation of the file (the options' flags are used then)."""
    judged = file_build.judged() if file_build is not None else None
    if judged is None:
        return None
    return UnitBuild(
        judged.standard,
        tuple(dict.fromkeys(d for d in map(inside_dir, judged.include_dirs) if d is not None)),
        tuple(dict.fromkeys(d for d in judged.defines if _DEFINE.match(d))),
        judged.describe(),
    )


def include_dir_sets(file_build) -> list[tuple[str, ...]]:
    """Every compilation's include directories for `file_build` (judged first), inside the checkout: the include
    graph resolves a file's includes under each, so the unit's headers are in the translated tree whichever
    compilation checks it."""
    if file_build is None:
        return []
    judged = file_build.judged()
    ordered = [judged] + [c for c in file_build.compilations if c is not judged] if judged else []
    sets = [tuple(d for d in map(inside_dir, c.include_dirs) if d is not None) for c in ordered]
    return [s for s in dict.fromkeys(sets) if s]


def inside_dir(directory: str) -> str | None:
    """A build's include directory as a path inside the checkout, or None (absolute, above the root, a variable
    the reader could not expand)."""
    if not directory or "$" in directory or "\0" in directory or directory.startswith(("/", "-")):
        return "." if directory in ("", ".") else None
    path = posixpath.normpath(directory)
    if path == ".." or path.startswith("../"):
        return None
    return path


def standard(explicit: str, unit: UnitBuild | None) -> tuple[str, str]:
    """The `-std=` dialect a unit is compiled with, and a note when it is not the build's own (see the module's
    docstring): (`explicit` or the build's or the default, why)."""
    if explicit:
        built = unit.standard if unit is not None else ""
        note = f"[compile] std = {explicit} overrides the build's {built}" if built and built != explicit else ""
        return explicit, note
    built = unit.standard if unit is not None else ""
    if not built:
        return DEFAULT_STD, ""
    match = _DIALECT.match(built)
    if match is None:
        return (
            DEFAULT_STD,
            f"the build's standard {built!r} is not a C++ dialect the check knows: checked as {DEFAULT_STD}",
        )
    dialect, year = match.groups()
    if year in _BEFORE_HIP:
        return f"{dialect}++11", f"the build says {built}; HIP needs C++11 at least: checked as {dialect}++11"
    return f"{dialect}++{_SPELLING.get(year, year)}", ""
