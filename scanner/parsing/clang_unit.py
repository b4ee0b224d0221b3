"""Parses one CUDA/C++ file hermetically with libclang: prelude as a PCH, missing headers stubbed, bounded reparses.

Steps for a file:
- resolve its #include lines up front; every header not found on the configured paths becomes an empty
  unsaved file under a virtual stub directory, so one parse usually suffices;
- parse with `-x cuda --cuda-host-only -nocudainc -nocudalib -nostdinc` and the prelude PCH;
- if clang still reports a missing header (one included by a real project header), stub it and reparse,
  at most `max_reparse_rounds` times;
- decide the parse mode: AST, AST with stubs, or tokens when clang could not make sense of the file.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from scanner.model import ParseMode
from scanner.parsing import libclang
from scanner.parsing.prelude import PRELUDE_PATH, prelude_text

STUB_DIR = "/__rocport_stubs__"
_INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_MISSING_HEADER = re.compile(r"'([^']+)' file not found")

_BASE_ARGS = (
    "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-nostdinc", "-nostdinc++",
    "-std=c++17", "-fsyntax-only", "-ferror-limit=200", "-Wno-unknown-cuda-version",
    "-Wno-everything",  # warnings are not findings; errors still count towards parse health
)
_C_ARGS = ("-x", "c", "-nostdinc", "-std=gnu11", "-fsyntax-only", "-ferror-limit=200", "-Wno-everything")
_PARSE_OPTIONS = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | ci.TranslationUnit.PARSE_INCOMPLETE


@dataclass(frozen=True)
class ParseSettings:
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()  # "NAME" or "NAME=VALUE"
    cuda_path: str = ""  # a real toolkit: raises fidelity, never required
    max_reparse_rounds: int = 8
    extra_args: tuple[str, ...] = ()


@dataclass
class ParsedUnit:
    tu: ci.TranslationUnit | None
    mode: ParseMode
    stubbed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # main-file errors, "line: message"
    rounds: int = 0
    fallback_reason: str = ""


class Parser:
    """One per worker process: owns the libclang index and the prelude PCH."""

    def __init__(self, settings: ParseSettings = ParseSettings()):
        self.settings = settings
        self.index = ci.Index.create()
        self._pch_dir = tempfile.mkdtemp(prefix="rocport-pch-")
        self._pch: str | None = None

    # -- public ---------------------------------------------------------------------------------------
    def parse(self, path: str, text: str, language: str, file_args: tuple[str, ...] = (),
              root: str = "") -> ParsedUnit:
        """`root`: the scanned tree; an include the source spells as a path out of it is read as empty."""
        args = self._args(language, file_args)
        stubs = self._initial_stubs(path, text, args)
        unsaved_base = [(path, text)] + [(name, "") for name in blanked_includes(path, text, args, root)]
        if language != "c" and not self._pch:
            unsaved_base.append((PRELUDE_PATH, prelude_text()))
        rounds = 0
        while True:
            unsaved = unsaved_base + [(f"{STUB_DIR}/{name}", "") for name in sorted(stubs)]
            try:
                tu = self.index.parse(path, args=list(args), unsaved_files=unsaved, options=_PARSE_OPTIONS)
            except ci.TranslationUnitLoadError as exc:
                return ParsedUnit(None, ParseMode.TOKENS, sorted(stubs), rounds=rounds,
                                  fallback_reason=f"libclang could not create a translation unit: {exc}")
            missing = self._missing_headers(tu) - stubs
            if not missing or rounds >= self.settings.max_reparse_rounds:
                break
            stubs |= missing
            rounds += 1
        return self._classify(tu, path, text, stubs, rounds)

    def tokenize_only(self, path: str, text: str, root: str = "") -> ci.TranslationUnit | None:
        """A translation unit good for libclang's tokenizer alone: no prelude, no includes, no bodies."""
        args = ["-x", "c++", "-nostdinc", "-nostdinc++", "-fsyntax-only", "-Wno-everything", "-ferror-limit=1"]
        try:
            return self.index.parse(
                path, args=args,
                unsaved_files=[(path, text)] + [(name, "") for name in blanked_includes(path, text, args, root)],
                options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | ci.TranslationUnit.PARSE_INCOMPLETE,
            )
        except ci.TranslationUnitLoadError:
            return None

    # -- helpers --------------------------------------------------------------------------------------
    def _args(self, language: str, file_args: tuple[str, ...]) -> tuple[str, ...]:
        s = self.settings
        if language == "c":
            base = _C_ARGS
        else:
            base = _BASE_ARGS
            if s.cuda_path:
                base = tuple(a for a in base if a != "-nocudainc") + (f"--cuda-path={s.cuda_path}",)
        args = list(base)
        args += [f"-D{d}" for d in s.defines]
        args += [f"-I{d}" for d in s.include_dirs]
        args += list(s.extra_args)
        if language != "c":
            # The PCH is keyed on the project-wide flags only; per-file flags (compile_commands.json, guessed
            # macro stubs) come after it, so one PCH serves every file of a scan.
            pch = self._prelude_pch(tuple(args))
            args += ["-include-pch", pch] if pch else ["-include", PRELUDE_PATH]
        args += list(file_args)
        args.append(f"-I{STUB_DIR}")  # last: a real header always wins over a stub
        return tuple(args)

    def _prelude_pch(self, args: tuple[str, ...]) -> str | None:
        """Build the prelude PCH once per process and configuration (4 ms/file instead of 45 ms)."""
        key = hashlib.sha1("\0".join(args).encode()).hexdigest()[:16]
        pch = os.path.join(self._pch_dir, f"prelude-{key}.pch")
        if os.path.exists(pch):
            self._pch = pch
            return pch
        header = "/__rocport__/prelude_pch.cuh"
        try:
            tu = self.index.parse(header, args=list(args), unsaved_files=[(header, prelude_text())],
                                  options=ci.TranslationUnit.PARSE_INCOMPLETE)
            tu.save(pch)
        except (ci.TranslationUnitLoadError, ci.TranslationUnitSaveError):
            self._pch = None
            return None
        self._pch = pch
        return pch

    def _initial_stubs(self, path: str, text: str, args: tuple[str, ...]) -> set[str]:
        here = Path(path).parent
        search = [Path(a[2:]) for a in args if a.startswith("-I") and a[2:] != STUB_DIR]
        if self.settings.cuda_path:
            search.append(Path(self.settings.cuda_path) / "include")
        stubs = set()
        for quote, name in _INCLUDE_LINE.findall(text):
            name = name.strip()
            if not _safe_stub_name(name):
                continue
            candidates = ([here] if quote == '"' else []) + search
            if not any((base / name).is_file() for base in candidates):
                stubs.add(name)
        return stubs

    @staticmethod
    def _missing_headers(tu: ci.TranslationUnit) -> set[str]:
        missing = set()
        for diag in tu.diagnostics:
            if diag.severity >= ci.Diagnostic.Error:
                match = _MISSING_HEADER.search(diag.spelling)
                if match and _safe_stub_name(match.group(1)):
                    missing.add(match.group(1))
        return missing

    def _classify(self, tu, path: str, text: str, stubs: set[str], rounds: int) -> ParsedUnit:
        errors, fatal = [], False
        for diag in tu.diagnostics:
            if diag.severity < ci.Diagnostic.Error:
                continue
            loc = diag.location
            if diag.severity == ci.Diagnostic.Fatal:
                fatal = True
            if loc.file is not None and loc.file.name == path:
                errors.append(f"{loc.line}: {diag.spelling}")
        lines = text.count("\n") + 1
        mode = ParseMode.AST_STUBBED if stubs else ParseMode.AST
        reason = ""
        if fatal:
            mode, reason = ParseMode.TOKENS, "a fatal error stopped the parse: " + (errors[0] if errors else "")
        elif len(errors) >= 20 and len(errors) * 8 > lines:
            # More than one error per 8 lines: the AST is mostly recovery nodes; trust tokens instead.
            mode, reason = ParseMode.TOKENS, f"{len(errors)} clang errors in {lines} lines"
        return ParsedUnit(tu, mode, sorted(stubs), errors, rounds, reason)

    def skipped_ranges(self, tu: ci.TranslationUnit, path: str) -> list[tuple[int, int]]:
        return libclang.skipped_line_ranges(tu, path)


# An ALL-CAPS name alone on a line (`CUB_NAMESPACE_BEGIN`), or opening a declaration before a type or a keyword
# (`CUB_RUNTIME_FUNCTION static cudaError_t f(...)`, `C10_HOST_DEVICE inline int g()`): the shape of a macro from
# a header that was stubbed. Defined as empty, the code around it parses.
_MACRO_ALONE = re.compile(r"^[ \t]*([A-Z_][A-Z0-9_]{2,})[ \t]*(?://.*)?$", re.MULTILINE)
_MACRO_PREFIX = re.compile(r"^[ \t]*((?:[A-Z_][A-Z0-9_]{2,}[ \t]+)+)(?=[A-Za-z_])", re.MULTILINE)
_DEFINED = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_NOT_MACROS = frozenset({"NULL", "EOF", "TRUE", "FALSE"})


def guess_unknown_macros(text: str) -> list[str]:
    """Names that look like attribute or namespace macros from a missing header, not defined in this file."""
    defined = set(_DEFINED.findall(text))
    names = set(_MACRO_ALONE.findall(text))
    for group in _MACRO_PREFIX.findall(text):
        names.update(group.split())
    return sorted(n for n in names - defined - _NOT_MACROS if not n.startswith("__") or n.endswith("_"))


_DEVICE_TREES = ("/dev/", "/proc/", "/sys/")
_MAX_HEADERS_FOLLOWED = 200


def blanked_includes(path: str, text: str, args, root: str = "") -> list[str]:
    """Files clang would open for this unit that it must read as empty, each under the names clang may use for it:
    anything that is not a regular file or lives under /dev, /proc or /sys (`#include "/dev/zero"` never ends,
    /dev/stdin is the worker's job pipe, /proc/self/environ holds its secrets), and, with `root`, any file the
    source itself spells as a path out of the tree (an absolute include, "../" past the root). Configured include
    directories are not confined here. The include lines of headers inside the tree are followed (up to
    _MAX_HEADERS_FOLLOWED files), so a header cannot do what the main file may not."""
    search = _search_dirs(args)
    forced = [(None, a[len("-include"):] or "") for a in args if a.startswith("-include") and a != "-include-pch"]
    forced += [(None, args[i + 1]) for i, a in enumerate(args[:-1]) if a == "-include"]
    root_real = os.path.realpath(root) if root else ""
    blanked: set[str] = set()
    seen, queue = {os.path.realpath(path)}, [(path, text)]
    while queue:
        current, source = queue.pop()
        here = os.path.dirname(current)
        directives = _INCLUDE_LINE.findall(source) + (forced if current == path else [])
        for quote, name in directives:
            name = name.strip()
            if not name:
                continue
            if os.path.isabs(name):
                candidates = [name]
            else:
                candidates = ([here] if quote == '"' else []) + search
                candidates = [os.path.join(base, name) for base in candidates]
            spelled_out = os.path.isabs(name) or ".." in Path(name).parts
            for candidate in candidates:
                if not os.path.lexists(candidate):
                    continue
                real = os.path.realpath(candidate)
                outside = bool(root_real) and spelled_out and not _inside(real, root_real)
                if outside or _not_a_source(real):
                    blanked.update({candidate, os.path.normpath(candidate), real})
                elif root_real and _inside(real, root_real) and real not in seen \
                        and len(seen) < _MAX_HEADERS_FOLLOWED:
                    seen.add(real)
                    try:
                        with open(real, "rb") as handle:
                            queue.append((real, handle.read(1_000_000).decode("utf-8", "replace")))
                    except OSError:
                        pass
                break  # clang takes the first directory that has the file
    return sorted(blanked)


def _search_dirs(args) -> list[str]:
    dirs = []
    for i, arg in enumerate(args):
        for flag in ("-I", "-isystem", "-iquote"):
            if arg == flag and i + 1 < len(args):
                dirs.append(args[i + 1])
            elif arg.startswith(flag) and arg != flag:
                dirs.append(arg[len(flag):])
    return [d for d in dirs if d != STUB_DIR]


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip("/") + "/")


def _not_a_source(real: str) -> bool:
    if real.startswith(_DEVICE_TREES):
        return True
    try:
        return not os.path.isfile(real)
    except OSError:
        return True


def _safe_stub_name(name: str) -> bool:
    """A stub path must stay inside the virtual stub directory."""
    return bool(name) and not name.startswith("/") and ".." not in Path(name).parts and "\0" not in name
