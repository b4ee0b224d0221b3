"""What the project's own macros are under HIP-Clang, from its headers and its build (for scanner.port).

A project with a HIP layer of its own turns HIP's platform macros into its own (`#if defined(__HIP_PLATFORM_AMD__)
#define P_DEVICE_HIP #else #define P_DEVICE_CUDA #endif`), into values (`#define P_NVLS_SUPPORTED 0` on the HIP side,
`#define P_USE_CUDA !defined(__HIP_PLATFORM_AMD__)`), and its CMake defines a CUDA switch only in the CUDA branch of
an `if(P_USE_CUDA) ... elseif(P_USE_ROCM)`. Code under `#if defined(P_DEVICE_CUDA)` or `#if P_NVLS_SUPPORTED` is
then the NVIDIA side, which the ROCm build never compiles. Learned here, to a fixed point (a macro defined only
behind another such macro is undefined too):
- `undefined`: macros every definition of which sits on a line HIP-Clang never compiles (and that no build file
  defines outside a CUDA-only CMake branch): undefined in the ROCm build;
- `values`: (macro, value) of the object-like macros whose every definition HIP-Clang compiles gives the same
  known integer, when that value comes from the platform: another definition of the macro sits on a dead line, or
  the value's expression tests a macro whose HIP value is known. A definition under a test of its own name (a
  default, `#ifndef P_X #define P_X 0`), a macro `#undef`ined anywhere, or one a build file defines, has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.analysis.hip_branches import HIP_DEFINED, HIP_UNDEFINED, dead_lines, value_of

# A definition in a build file: `-DNAME`, `define_macros=[("NAME", ...)]`, and CMake's definition commands
# (`add_compile_definitions(NAME ...)`, `target_compile_definitions(t PRIVATE NAME ...)`).
_BUILD_DEFINE = re.compile(r"-D\s*([A-Za-z_]\w*)|define_macros.*?['\"]([A-Za-z_]\w*)")
_CMAKE_DEFINITIONS = re.compile(r"\b(add_compile_definitions|target_compile_definitions)\s*\(([^)]*)\)", re.I)
_CMAKE_KEYWORDS = frozenset({"PRIVATE", "PUBLIC", "INTERFACE"})
_NAME = re.compile(r"[A-Za-z_]\w*")
# `-DX_USE_CUDA=ON`, `-DCMAKE_BUILD_TYPE=...`: a CMake cache variable on a command line, not a macro.
_CMAKE_VARIABLE = re.compile(r"-D\s*(?:CMAKE_\w+|\w+=(?:ON|OFF|TRUE|FALSE)\b)", re.I)
_ROUNDS = 4


def build_defines(text: str, cuda_lines: set[int] = frozenset(), cmake: bool = True) -> tuple[set[str], set[str]]:
    """(macros a build file defines on `cuda_lines`, the lines of its CUDA-only CMake branches; those it defines
    anywhere else). Outside CMake (`cmake=False`: a Makefile, a setup.py, a script), a `-D` on a line that runs
    CMake, or that sets ON/OFF, is a CMake cache variable."""
    inside: set[str] = set()
    outside: set[str] = set()
    found: list[tuple[int, str]] = []
    for match in _CMAKE_DEFINITIONS.finditer(text):
        words = match.group(2).split()
        if match.group(1).lower().startswith("target"):
            words = words[1:]  # the target
        for word in words:
            name = word.strip("\"'")
            name = (name[2:] if name.startswith("-D") else name).split("=", 1)[0]
            if _NAME.fullmatch(name) and name.upper() not in _CMAKE_KEYWORDS:
                found.append((match.start(), name))
    for m in _BUILD_DEFINE.finditer(text):
        if m.group(1) and not cmake:
            end = text.find("\n", m.end())
            line = text[text.rfind("\n", 0, m.start()) + 1 : end if end >= 0 else len(text)]
            if _CMAKE_VARIABLE.match(text, m.start()) or "cmake" in line.lower():
                continue
        found.append((m.start(), m.group(1) or m.group(2)))
    for at, name in found:
        (inside if text.count("\n", 0, at) + 1 in cuda_lines else outside).add(name)
    return inside, outside


def learn_values(
    sources: list[tuple[str, list, int]],
    hip_macros: frozenset[str],
    project_defined: frozenset[str],
    build_undefined: frozenset[str] = frozenset(),
    build_defined: frozenset[str] = frozenset(),
) -> tuple[frozenset[str], tuple[tuple[str, int], ...]]:
    """(undefined, values) for `sources`: (path, directives of `directives_of`, line count)."""
    undefined: frozenset[str] = frozenset(build_undefined)
    values: tuple[tuple[str, int], ...] = ()
    undefs = {
        d.tokens[0].text for _rel, directives, _count in sources for d in directives if d.name == "undef" and d.tokens
    }
    for _round in range(_ROUNDS):
        dead_defs: set[str] = set()
        live: dict[str, list] = {}
        for _rel, directives, count in sources:
            defines = [d for d in directives if d.name == "define" and d.tokens]
            if not defines:
                continue
            dead = dead_lines(directives, count, hip_macros, undefined, project_defined, values)
            guarded = _self_tested(directives)
            for d in defines:
                name = d.tokens[0].text
                if d.line in dead:
                    dead_defs.add(name)
                else:
                    live.setdefault(name, []).append((d, name in guarded))
        new_undefined = frozenset((dead_defs - set(live)) | (build_undefined - set(live)))
        new_values = tuple(
            sorted(
                _values(live, dead_defs, hip_macros, new_undefined, dict(values), undefs | set(build_defined)).items()
            )
        )
        if new_undefined == undefined and new_values == values:
            break
        undefined, values = new_undefined, new_values
    return undefined, values


def _values(live: dict, dead_defs: set[str], hip_macros, undefined, values: dict, excluded: set[str]) -> dict:
    out: dict[str, int] = {}
    for name, definitions in live.items():
        if name in excluded or name in HIP_DEFINED or name in HIP_UNDEFINED or name in hip_macros:
            continue
        found: set = set()
        derived = name in dead_defs
        for d, guarded in definitions:
            body = [t.text for t in d.tokens[1:]]
            if guarded or not body or getattr(d, "function_like", False):
                found.add(None)
                break
            known_names = [
                t
                for t in body
                if t in HIP_DEFINED or t in HIP_UNDEFINED or t in hip_macros or t in undefined or t in values
            ]
            derived = derived or bool(known_names)
            found.add(value_of(body, hip_macros, undefined, tuple(values.items())))
        if derived and len(found) == 1 and None not in found:
            out[name] = found.pop()
    return out


def _self_tested(directives) -> set[str]:
    """Names a file tests the definition of (`#ifndef X`, `!defined(X)`, `#ifdef X`): a definition of them in that
    file may be a default the build overrides."""
    names: set[str] = set()
    for d in directives:
        texts = [t.text for t in d.tokens]
        if d.name in ("ifdef", "ifndef") and texts:
            names.add(texts[0])
        elif d.name in ("if", "elif"):
            for i, text in enumerate(texts):
                if text == "defined":
                    after = texts[i + 1 : i + 3]
                    names.add(after[1] if after[:1] == ["("] and len(after) > 1 else (after[0] if after else ""))
    return names


# A function definition's head: `name(...) {`, `name<...>(...) const {`, the name after a type, not a statement
# keyword. One level of nested parentheses in the parameters.
_DEFINITION = re.compile(
    r"(?<![\w.>-])(?<!-> )([A-Za-z_]\w*)\s*\((?:[^;{}()]|\([^;{}()]*\))*\)\s*(?:const\s*)?(?:noexcept\s*)?"
    r"(?:->\s*[\w:<>]+\s*)?\{"
)
_TYPE_BEFORE = re.compile(r"[\w>*&]\s*$")
_CALL = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(")
_KEYWORDS = frozenset({"if", "for", "while", "switch", "return", "catch", "sizeof", "decltype", "alignof", "defined"})


def hip_absent_functions(
    sources: list[tuple[str, list, int, str]],
    hip_macros: frozenset[str],
    undefined: frozenset[str],
    project_defined: frozenset[str],
    values: tuple[tuple[str, int], ...],
) -> frozenset[str]:
    """Functions the project defines only on lines HIP-Clang never compiles (`multimemStore` under `#if
    defined(P_DEVICE_CUDA)`): the ROCm build has no such function to call. `sources`: (path, directives, line count,
    text)."""
    dead_names: set[str] = set()
    live_names: set[str] = set()
    called: set[str] = set()
    for _rel, directives, count, text in sources:
        dead = dead_lines(directives, count, hip_macros, undefined, project_defined, values) if directives else {}
        for name, at in defined_functions(text).items():
            for start in at:
                line = text.count("\n", 0, start) + 1
                (dead_names if line in dead else live_names).add(name)
        if dead:
            for number, code in enumerate(text.split("\n"), 1):
                if number not in dead and "(" in code:
                    called.update(_CALL.findall(code))
    # A name called where HIP compiles is another function of that name (a member, std's): the ROCm build
    # calls an absent function nowhere, or it would not compile.
    return frozenset(dead_names - live_names - called)


def defined_functions(text: str) -> dict[str, list[int]]:
    """The functions `text` defines, each with the offsets of its definitions' names."""
    out: dict[str, list[int]] = {}
    for match in _DEFINITION.finditer(text):
        name = match.group(1)
        if name in _KEYWORDS or not _TYPE_BEFORE.search(text[max(0, match.start() - 80) : match.start()]):
            continue
        out.setdefault(name, []).append(match.start())
    return out


# A CUDA name the project's HIP side aliases to HIP's: `using CUdeviceptr = hipDeviceptr_t;`, `typedef
# hipStream_t cudaStream_t;`, `constexpr auto cudaSuccess = hipSuccess;`.
_ALIAS = re.compile(
    r"\busing\s+(\w+)\s*=\s*(?:::)?hip\w*\s*;|\btypedef\s+(?:struct\s+|enum\s+)?(?:::)?hip\w*\s+(\w+)\s*;|"
    r"\bconstexpr\s+(?:auto|[\w:]+)\s+(\w+)\s*=\s*(?:::)?hip\w*\s*;"
)


def hip_aliases(code: str) -> set[str]:
    """The names `code` (lines of the project's HIP side) makes aliases of HIP's types and constants."""
    return {a or b or c for a, b, c in _ALIAS.findall(code)}


@dataclass
class _Tok:
    text: str


@dataclass
class _Dir:
    name: str
    line: int
    end_line: int
    tokens: tuple
    function_like: bool = False  # `#define F(x) ...`

    @property
    def text(self) -> str:
        return " ".join(t.text for t in self.tokens)


_TOKEN = re.compile(r"0[xX][0-9a-fA-F]+\w*|\w+|&&|\|\||[<>=!]=|<<|>>|\S")


def directives_of(text: str) -> list[_Dir]:
    """A source's preprocessor lines, tokenised enough for scanner.analysis.hip_branches (continuations joined)."""
    out, lines, number = [], text.split("\n"), 0
    while number < len(lines):
        start = number
        line = lines[number]
        while line.rstrip().endswith("\\") and number + 1 < len(lines):
            number += 1
            line = line.rstrip()[:-1] + " " + lines[number]
        match = re.match(r"\s*#\s*(\w+)(.*)", line)
        if match:
            body = re.sub(r"//.*|/\*.*?\*/", "", match.group(2))
            tokens = tuple(_Tok(t) for t in _TOKEN.findall(body))
            function_like = match.group(1) == "define" and bool(re.match(r"\s*\w+\(", match.group(2)))
            out.append(_Dir(match.group(1), start + 1, number + 1, tokens, function_like))
        number += 1
    return out
