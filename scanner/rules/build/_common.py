"""Shared by the build rules: where their patterns are searched, and where a match names a flag without using it.

A build setting is not in: the list a Makefile's `$(filter-out ...)` removes (`$(filter-out -arch=%,$(FLAGS))`
drops the flags it names); a search pattern (a Python regex or substring test, `re.compile(r"-gencode ...")`,
`"-arch=sm_" in flags`, `args[i] == "-gencode"`, or the pattern of `grep` or `rg` in a script), which parses builds rather than
runs one; nor a string inside a pytest test (`def test_...`) that runs no command and builds nothing (no
`subprocess`, `os.system`, `load_inline`, `build_and_load`, ...): unit-test data, such as a fake compile command
or the flags whose hash a test compares.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator

from scanner.formats import python_src
from scanner.formats.python_src import walk_ast
from scanner.port import is_ci_file
from scanner.rules.libraries._judgement import command_matches


def build_matches(ctx, pattern: re.Pattern) -> Iterator[tuple[int, int, re.Match]]:
    """`textual.matches`, except that a Python file `ast` rejects (a Python 2 setup.py) is read by its code lines
    instead of yielding nothing: its flags and paths are still findings; that a Python message string
    (printed, logged, raised) is not a build setting; and that the names a `filter-out` removes and search
    patterns are not either (the module docstring)."""
    unparsed = ctx.language == "python" and python_src.tree(ctx.source) is None
    searched = _python_patterns(ctx) if ctx.language == "python" and not unparsed else frozenset()
    data = _test_data_lines(ctx) if ctx.language == "python" and not unparsed else ()
    for line, col, match in command_matches(ctx, pattern, python_lines=unparsed):
        if (line, col) in searched or any(first <= line <= last for first, last in data):
            continue
        if ctx.language in ("make", "shell", "dockerfile", "yaml") and _not_a_setting(ctx.line_text(line), match):
            continue
        yield line, col, match


# -- Makefile: $(filter-out removed, list) ------------------------------------------------------------------
_FILTER_OUT = re.compile(r"\$[({]filter-out\s+")


def _removed_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the first argument of each `$(filter-out A,B)` on a line: what it removes."""
    spans = []
    for found in _FILTER_OUT.finditer(text):
        depth, i = 0, found.end()
        while i < len(text):
            ch = text[i]
            if ch in "({":
                depth += 1
            elif ch in ")}":
                if depth == 0:
                    break
                depth -= 1
            elif ch == "," and depth == 0:
                break
            i += 1
        spans.append((found.end(), i))
    return spans


# -- scripts: the pattern of a text search ---------------------------------------------------------------
# Not sed or awk: `sed -i "s/sm_70/sm_80/" Makefile` edits a build setting.
_SEARCH_TOOLS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack"})
_SEGMENT_START = re.compile(r"(?:\|\|?|&&|;|\$\(|`|\bthen\b|\bdo\b|\bif\b|\belse\b|\bwhile\b|\buntil\b|!)\s*")
_PREFIX_WORDS = frozenset({"sudo", "time", "command", "exec", "xargs", "RUN", "-", "run:"})


def _not_a_setting(text: str, match: re.Match) -> bool:
    start = match.start()
    if any(a <= start < b for a, b in _removed_spans(text)):
        return True
    return _search_tool(text[:start]) in _SEARCH_TOOLS


def command_word(before: str) -> str:
    """The program of the shell command that `before` (a line up to some position) is inside: `echo` for
    `echo "  - nvcc: $(`, `grep` for `nvcc --version | grep `."""
    return _search_tool(before)


def _search_tool(before: str) -> str:
    """The command word of the shell command that `before` (a line up to a match) is inside."""
    cut = 0
    for found in _SEGMENT_START.finditer(before):
        cut = found.end()
    words = before[cut:].split()
    while words and (words[0] in _PREFIX_WORDS or "=" in words[0]):
        words.pop(0)
    if words and words[0] == "git" and len(words) > 1:
        return words[1]  # `git grep -- "-gencode"`
    return words[0].rsplit("/", 1)[-1] if words else ""


# -- Python: regexes and substring tests ---------------------------------------------------------------------
_REGEX_FUNCTIONS = frozenset({"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"})
_REGEX_MODULES = frozenset({"re", "regex"})
_STRING_TESTS = frozenset(
    {"startswith", "endswith", "find", "rfind", "index", "count", "replace", "removeprefix", "removesuffix"}
)


def _python_patterns(ctx) -> frozenset[tuple[int, int]]:
    """(line, column) of the string constants a Python file searches with: a regex given to `re.*`, the needle of
    `"x" in s`, of `s.startswith("x")`, `s.replace("x", ...)` and the like, a string compared with `==` or `!=`,
    and `fnmatch` patterns."""
    cached = ctx.source.cache.get("py_search_patterns")
    if cached is not None:
        return cached
    found: set[tuple[int, int]] = set()
    module = python_src.tree(ctx.source)
    for node in walk_ast(module) if module is not None else ():
        needles: list[ast.AST] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, name = node.func.value, node.func.attr
            if name in _REGEX_FUNCTIONS and isinstance(owner, ast.Name) and owner.id in _REGEX_MODULES:
                needles += node.args[:1]
            elif name in _STRING_TESTS or name in ("fnmatch", "filter"):
                needles += node.args[:1] if name in _STRING_TESTS else node.args[1:2]
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            needles.append(node.left)
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            # `command[i] != "-gencode"`: a key compared with what a compile command holds
            needles += [part for part in (node.left, *node.comparators) if isinstance(part, ast.Constant)]
        for needle in needles:
            for part in ast.walk(needle):
                if isinstance(part, (ast.Constant, ast.JoinedStr)) and hasattr(part, "lineno"):
                    found.add((part.lineno, part.col_offset + 1))
    result = frozenset(found)
    ctx.source.cache["py_search_patterns"] = result
    return result


# -- Python: unit tests whose strings are data -----------------------------------------------------------------
# A call that may run a command or compile (`subprocess.run`, `os.system`, `load_inline`, `spec.build_and_load()`,
# `jit.compile(...)`): a test making one may really compile with the flags it holds. Not a name that only holds
# the word (`export_compile_commands`, `compile_database`): they write or read a compile database.
_RUNS = re.compile(
    r"^(?:run|call|check_call|check_output|Popen|system|popen|spawn\w*|exec\w*|load|load_inline|\w*_load"
    r"|build|build_\w+|\w*_build|\w*compile)$"
)


def _test_data_lines(ctx) -> tuple[tuple[int, int], ...]:
    """(first, last) lines of the pytest tests (`def test_*`) of a Python file that call nothing that may run a
    command or compile: their strings are data."""
    cached = ctx.source.cache.get("py_test_data")
    if cached is not None:
        return cached
    found = []
    module = python_src.tree(ctx.source)
    for node in walk_ast(module) if module is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            calls = (
                part.func.attr if isinstance(part.func, ast.Attribute) else getattr(part.func, "id", "")
                for part in ast.walk(node)
                if isinstance(part, ast.Call)
            )
            if not any(_RUNS.match(name) for name in calls):
                found.append((node.lineno, node.end_lineno or node.lineno))
    result = tuple(found)
    ctx.source.cache["py_test_data"] = result
    return result


# -- flags only an NVIDIA architecture's modules use ---------------------------------------------------------
# A variable named for one NVIDIA architecture (`sm103a_nvcc_flags`, `SM90_FLAGS`), and a source named for one
# (`mla_sm120.cu`, `sm100_gemm.cu`).
_ARCH_NAMED = re.compile(r"(?i)(?:^|_)sm_?(\d{2,3}[af]?)(?=_|$)")
_ARCH_SOURCE = re.compile(r"(?i)(?:^|[/_])sm_?(\d{2,3}[af]?)(?=[_.])[^/]*\.(?:cu|cuh|cpp|cc)$")


def nvidia_arch_only(ctx, line: int) -> str:
    """Why a Python build setting on `line` only reaches modules built for one NVIDIA architecture, or empty:
    - an entry of a per-architecture flag table: a module-level list named for one architecture (`sm103a_nvcc_
      flags = ["-gencode=arch=compute_103a,code=sm_103a"]`) beside entries for others; the build picks one by
      the GPU's compute capability, so an AMD build never selects it;
    - an argument of a call whose literal source list holds a source named for one architecture
      (`gen_jit_spec(..., [".../mla_sm120.cu", ...], extra_ldflags=["-lcuda"])`): a module for that GPU only."""
    if ctx.language != "python":
        return ""
    notes = ctx.memo.get("nvidia_arch_only")
    if notes is None:
        notes = ctx.memo["nvidia_arch_only"] = _arch_only_lines(ctx)
    return notes.get(line, "")


def _arch_only_lines(ctx) -> dict[int, str]:
    module = python_src.tree(ctx.source)
    if module is None:
        return {}
    notes: dict[int, str] = {}
    table = []
    for node in module.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named = _ARCH_NAMED.search(node.targets[0].id)
            if named and isinstance(node.value, (ast.List, ast.BinOp)):
                table.append((node, node.targets[0].id, named.group(1).lower()))
    if len({arch for _, _, arch in table}) >= 2:
        for node, name, _arch in table:
            for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                notes[number] = (
                    f"This is one entry of a per-architecture flag table (`{name}`): the build picks an entry by "
                    "the GPU's compute capability, so an AMD build never selects it; a port adds a gfx entry of "
                    "its own rather than editing this one."
                )
    for node in walk_ast(module):
        if not isinstance(node, ast.Call):
            continue
        values = list(node.args) + [k.value for k in node.keywords]
        source = ""
        for value in values:
            if isinstance(value, (ast.List, ast.Tuple)):
                for element in value.elts:
                    text = ast.unparse(element)
                    if _ARCH_SOURCE.search(text.strip("'\"")):
                        source = text.strip("'\"").rsplit("/", 1)[-1]
                        break
            if source:
                break
        if source:
            for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                notes.setdefault(
                    number,
                    f"This module is built from `{source}`, a source for one NVIDIA architecture: only that GPU's "
                    "build generates it, so an AMD build never links or compiles it with these flags.",
                )
    return notes


# -- Python: a CI or tooling script that builds nothing ---------------------------------------------------
# A module that builds (or drives a build): PyTorch's extension API, setuptools and its kin, a JIT compiler API.
_BUILD_IMPORT = re.compile(
    r"^\s*(?:from|import)\s+(?:torch\.utils\.cpp_extension|torch\.utils|setuptools|distutils|skbuild|"
    r"scikit_build|pybind11\.setup_helpers|cupy|pycuda|numba|cuda\.bindings|triton|tvm|jinja2)\b",
    re.M,
)
# A compiler or build tool named as a word: a command the script may put the flags on.
_BUILD_PROGRAM = re.compile(
    r"(?<![\w.-])(?:nvcc|hipcc|clang\+\+|clang|g\+\+|gcc|c\+\+|cmake|make|ninja|bazel)(?![\w-])"
)
_TOOLING_DIR = re.compile(r"(?:^|/)(?:pre-commit|precommit|lint|linters|docs?)(?:/|$)")


def not_a_build(ctx) -> str:
    """Why a Python file's flags are data, not a build setting, or empty: a CI or tooling script (under `ci/`,
    `.github/`, a `pre-commit/`, `lint/` or `docs/` folder) that imports no build API and names no compiler or
    build tool (cuCollections' `ci/pre-commit/example_links.py` sends `-arch=sm_70` to Compiler Explorer for the
    README's links). setup.py, a build helper and a JIT package import or run one."""
    if ctx.language != "python":
        return ""
    key = "rocport:python-not-a-build"
    if key not in ctx.memo:
        path = ctx.path
        why = ""
        if (is_ci_file(path) or _TOOLING_DIR.search(path)) and posixpath.basename(path) != "setup.py":
            text = "\n".join(ctx.lines)
            if not _BUILD_IMPORT.search(text) and not _BUILD_PROGRAM.search(text):
                why = (
                    "This CI or tooling script imports no build API and runs no compiler or build tool: the flags "
                    "are data it hands elsewhere, not a setting of a build (low)."
                )
        ctx.memo[key] = why
    return ctx.memo[key]
