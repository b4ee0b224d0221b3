"""Parses one CUDA/C++ file hermetically with libclang: prelude as a PCH, missing headers stubbed, bounded reparses.

Steps for a file:
- resolve its #include lines up front; every header not found on the configured paths becomes an unsaved file
  under a virtual stub directory, so one parse usually suffices: empty, or for a dependency the code is written
  against (PyTorch, pybind11, Python, CUTLASS, CuTe), an include of its model (scanner.parsing.models);
- parse with `-x cuda --cuda-host-only -nocudainc -nocudalib -nostdinc` and the prelude PCH;
- if clang still reports a missing header (one included by a real project header), stub it and reparse,
  at most `max_reparse_rounds` times;
- decide the parse mode: AST, AST with stubs, or tokens when clang could not make sense of the file.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import os
import re
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from scanner.model import ParseMode
from scanner.parsing import libclang
from scanner.parsing.include_walk import INCLUDE_LINE, blanked_includes, inside, walk_includes
from scanner.parsing.models import FAMILIES, model_files, modelled_families, models_pch_text, stub_text
from scanner.parsing.prelude import LIBC_PRELUDE_PATH, PRELUDE_PATH, libc_prelude_text, prelude_text
from scanner.parsing.stubs import MISSING_HEADER, STUB_DIR, safe_stub_name, stub_path

_BASE_ARGS = (
    "-x",
    "cuda",
    "--cuda-host-only",
    "-nocudainc",
    "-nocudalib",
    "-nostdinc",
    "-nostdinc++",
    "-std=c++17",
    "-fsyntax-only",
    "-ferror-limit=0",
    "-Wno-unknown-cuda-version",
    "-Wno-everything",  # warnings are not findings; errors still count towards parse health
)
# No error limit: "too many errors emitted" is a fatal error that ends the parse, and errors in headers (names
# of a stubbed system header) would then cost the main file its AST.
_C_ARGS = ("-x", "c", "-nostdinc", "-std=gnu11", "-fsyntax-only", "-ferror-limit=0", "-Wno-everything")
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
    modelled: list[str] = field(default_factory=list)  # model families standing in for missing headers


# The prelude's precompiled headers outlive a process: a scan's workers, the next scan and a portal worker after a
# restart read the one made first (about a second of libclang's time each, and one more for the models' PCH).
PCH_CACHE_ENV = "ROCPORT_CACHE_DIR"  # the compile check's bundled headers live there too (scanner.compile.headers)
_PCH_OPTIONS = ci.TranslationUnit.PARSE_INCOMPLETE


def pch_cache_dir() -> str:
    """`$ROCPORT_CACHE_DIR/pch` (default ~/.cache/rocport/pch), made private to the user; a private temporary
    folder when that cannot be made."""
    base = os.environ.get(PCH_CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rocport"
    )
    folder = os.path.join(base, "pch")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    return tempfile.mkdtemp(prefix="rocport-pch-")


class Parser:
    """One per worker process: owns the libclang index and the prelude PCH."""

    def __init__(self, settings: ParseSettings = ParseSettings()):
        self.settings = settings
        self.index = ci.Index.create()
        self._pch_dir = pch_cache_dir()
        self._pch: str | None = None
        self._pch_args: dict[str, tuple[str, ...]] = {}  # prelude PCH -> the arguments it was built with
        self._failed_pch: set[str] = set()  # not built: not tried again
        self._pch_ready: dict[tuple, str] = {}  # (arguments, with models) -> a PCH made or checked by this process

    # -- public ---------------------------------------------------------------------------------------
    def parse(
        self,
        path: str,
        text: str,
        language: str,
        file_args: tuple[str, ...] = (),
        root: str = "",
        system_headers: bool = False,
        prefix: tuple[str, str] | None = None,
    ) -> ParsedUnit:
        """`root`: the scanned tree; an include the source spells as a path out of it is read as empty.
        `system_headers`: plain C or C++ (no CUDA) against this machine's own C/C++ headers instead of the prelude
        (the second chance of a host file whose standard-library use the prelude does not model).
        `prefix`: (path, text) of an unsaved file the arguments `-include` (a header fragment's includer's lines,
        scanner.parsing.includers)."""
        args = self._args(language, file_args, system_headers)
        walk = walk_includes(path, text, args, root)
        if prefix:  # an unsaved file, so the walk above did not read it: its includes are stubbed up front too
            before = walk_includes(prefix[0], prefix[1], args, root)
            walk.missing |= before.missing
            walk.blanked |= before.blanked
            walk.inferred_dirs += [d for d in before.inferred_dirs if d not in walk.inferred_dirs]
        if walk.inferred_dirs:  # before the stub directory: a real header always wins over a stub
            inferred = [f"-I{d}" for d in dict.fromkeys(walk.inferred_dirs)]
            args = args[:-1] + tuple(inferred) + args[-1:]
        stubs = self._initial_stubs(path, text, args) | walk.missing
        unsaved_base = [(path, text)] + [(name, "") for name in sorted(walk.blanked)] + ([prefix] if prefix else [])
        if system_headers:
            pass
        elif language != "c" and "-include-pch" not in args:
            unsaved_base.append((PRELUDE_PATH, prelude_text()))
        elif language == "c":
            unsaved_base.append((LIBC_PRELUDE_PATH, libc_prelude_text()))
        rounds = 0
        while True:
            unsaved = unsaved_base + [(stub_path(name), stub_text(name)) for name in sorted(stubs)]
            modelled = modelled_families(stubs)
            unsaved += model_files(modelled)
            try:
                tu = self.index.parse(
                    path,
                    args=self._with_models_pch(args) if modelled else list(args),
                    unsaved_files=unsaved,
                    options=_PARSE_OPTIONS,
                )
            except ci.TranslationUnitLoadError as exc:
                return ParsedUnit(
                    None,
                    ParseMode.TOKENS,
                    sorted(stubs),
                    rounds=rounds,
                    fallback_reason=f"libclang could not create a translation unit: {exc}",
                )
            missing = self._missing_headers(tu) - stubs
            if not missing or rounds >= self.settings.max_reparse_rounds:
                break
            stubs |= missing
            rounds += 1
        unit = self._classify(tu, path, text, stubs, rounds, walk.chains, root)
        unit.modelled = modelled_families(stubs)
        if prefix:
            # The includer's lines leave its namespace open; its `}` comes after the fragment, not in this unit.
            # (`struct group {` left open: "expected ';' after struct" at the end instead.)
            twice = _read_twice(tu, path)
            unit.errors = [e for e in unit.errors if not left_open_at_end([e], text) and e not in twice]
        return unit

    def tokenize_only(self, path: str, text: str, root: str = "") -> ci.TranslationUnit | None:
        """A translation unit good for libclang's tokenizer alone: no prelude, no includes, no bodies."""
        args = ["-x", "c++", "-nostdinc", "-nostdinc++", "-fsyntax-only", "-Wno-everything", "-ferror-limit=1"]
        try:
            return self.index.parse(
                path,
                args=args,
                unsaved_files=[(path, text)] + [(name, "") for name in blanked_includes(path, text, args, root)],
                options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | ci.TranslationUnit.PARSE_INCOMPLETE,
            )
        except ci.TranslationUnitLoadError:
            return None

    # -- helpers --------------------------------------------------------------------------------------
    def _args(self, language: str, file_args: tuple[str, ...], system_headers: bool = False) -> tuple[str, ...]:
        s = self.settings
        if system_headers:
            host = ("-x", "c", "-std=gnu11") if language == "c" else ("-x", "c++", "-std=c++17")
            args = [*host, "-nostdinc", "-nostdinc++", "-fsyntax-only", "-ferror-limit=0", "-Wno-everything"]
            args += [f"-D{d}" for d in s.defines] + [f"-I{d}" for d in s.include_dirs] + list(s.extra_args)
            for directory in system_include_dirs("c" if language == "c" else "c++"):
                args += ["-isystem", directory]
            return tuple(args + list(file_args) + [f"-I{STUB_DIR}"])
        if language == "c":
            base = _C_ARGS + ("-include", LIBC_PRELUDE_PATH)
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
            # A file's own standard (the build model's, compile_commands.json's) would not match the PCH's.
            own_standard = any(a.startswith("-std=") for a in file_args)
            pch = None if own_standard else self._prelude_pch(tuple(args))
            args += ["-include-pch", pch] if pch else ["-include", PRELUDE_PATH]
        args += list(file_args)
        args.append(f"-I{STUB_DIR}")  # last: a real header always wins over a stub
        return tuple(args)

    def _prelude_pch(self, args: tuple[str, ...], models: bool = False) -> str | None:
        """Build the prelude PCH once per process and configuration (4 ms/file instead of 45 ms). With `models`, the
        PCH also holds every dependency model (scanner.parsing.models), for the units that need one: parsed each
        time, the models would cost such a unit ~100 ms; inside the PCH, a stub's include of its model finds the
        model's include guard already defined."""
        known = self._pch_ready.get((args, models))
        if known is not None:  # made or checked by this process already
            if not models:
                self._pch = known
            return known
        header = "/__rocport__/prelude_pch.cuh"
        text = prelude_text() + (models_pch_text() if models else "")
        unsaved = [(header, text)] + (model_files(FAMILIES) if models else [])
        # The key holds everything the PCH is made of (libclang, the arguments, every text in it): a PCH of
        # another scanner version or configuration is never read.
        material = [libclang.version(), *args, *(t for pair in unsaved for t in pair)]
        key = hashlib.sha256("\0".join(material).encode()).hexdigest()[:24]
        pch = os.path.join(self._pch_dir, f"prelude-{key}.pch")
        if pch in self._failed_pch:
            return None
        if not models:
            self._pch_args[pch] = args
        if not (os.path.exists(pch) and self._loads(pch, args)):
            try:
                tu = self.index.parse(header, args=list(args), unsaved_files=unsaved, options=_PCH_OPTIONS)
                # written beside, then renamed: another worker reading the cache never sees half a file
                partial = f"{pch}.{os.getpid()}.partial"
                tu.save(partial)
                os.replace(partial, pch)
            except (ci.TranslationUnitLoadError, ci.TranslationUnitSaveError, OSError):
                self._failed_pch.add(pch)
                if not models:
                    self._pch = None
                return None
        self._pch_ready[(args, models)] = pch
        if not models:
            self._pch = pch
        return pch

    def _loads(self, pch: str, args: tuple[str, ...]) -> bool:
        """Whether a PCH found in the cache reads (a truncated or foreign file is removed and made again)."""
        probe = "/__rocport__/pch_probe.cu"
        try:
            tu = self.index.parse(
                probe, args=[*args, "-include-pch", pch], unsaved_files=[(probe, "int __rocport_probe;\n")]
            )
            if not any(d.severity >= ci.Diagnostic.Error for d in tu.diagnostics):
                return True
        except ci.TranslationUnitLoadError:
            pass
        with contextlib.suppress(OSError):
            os.unlink(pch)
        return False

    def _with_models_pch(self, args: tuple[str, ...]) -> list[str]:
        """`args` with the prelude PCH swapped for the one that also holds the dependency models."""
        args = list(args)
        if "-include-pch" not in args:
            return args
        at = args.index("-include-pch") + 1
        base = self._pch_args.get(args[at])
        pch = self._prelude_pch(base, models=True) if base is not None else None
        if pch:
            args[at] = pch
        return args

    def _initial_stubs(self, path: str, text: str, args: tuple[str, ...]) -> set[str]:
        here = Path(path).parent
        search = [Path(a[2:]) for a in args if a.startswith("-I") and a[2:] != STUB_DIR]
        if self.settings.cuda_path:
            search.append(Path(self.settings.cuda_path) / "include")
        stubs = set()
        for quote, name in INCLUDE_LINE.findall(text):
            name = name.strip()
            if not safe_stub_name(name):
                continue
            candidates = ([here] if quote == '"' else []) + search
            # os.path.isfile, not Path.is_file: a name past the file system's limit (ENAMETOOLONG) is no file
            if not any(os.path.isfile(base / name) for base in candidates):
                stubs.add(name)
        return stubs

    @staticmethod
    def _missing_headers(tu: ci.TranslationUnit) -> set[str]:
        missing = set()
        for diag in tu.diagnostics:
            if diag.severity >= ci.Diagnostic.Error:
                match = MISSING_HEADER.search(diag.spelling)
                if match and safe_stub_name(match.group(1)):
                    missing.add(match.group(1))
        return missing

    def _classify(
        self,
        tu,
        path: str,
        text: str,
        stubs: set[str],
        rounds: int,
        chains: dict[str, tuple[str, ...]] | None = None,
        root: str = "",
    ) -> ParsedUnit:
        """The mode is decided by the main file's own errors; a header's errors count only when fatal (the parse
        stopped there), and the reason then names the header and the includes that led to it."""
        errors, fatal = [], ""
        for diag in tu.diagnostics:
            if diag.severity < ci.Diagnostic.Error:
                continue
            loc = diag.location
            in_main = loc.file is not None and loc.file.name == path
            if diag.severity == ci.Diagnostic.Fatal and not fatal:
                fatal = (
                    f"line {loc.line}: {diag.spelling}"
                    if in_main
                    else _header_error(loc, diag.spelling, path, chains or {}, root)
                )
            if in_main:
                errors.append(f"{loc.line}: {diag.spelling}")
        mode = ParseMode.AST_STUBBED if stubs else ParseMode.AST
        reason = ""
        if fatal:
            mode, reason = ParseMode.TOKENS, "a fatal error stopped the parse: " + fatal
        # Many errors alone do not make a file tokens: names of a stubbed vendor SDK (sycl::, vk::) fail the
        # statements that use them while the declarations and the rest of the code keep their tree. The engine
        # measures how much of the code the recovered declarations cover, and token shapes cover the error lines.
        return ParsedUnit(tu, mode, sorted(stubs), errors, rounds, reason)

    def skipped_ranges(self, tu: ci.TranslationUnit, path: str) -> list[tuple[int, int]]:
        return libclang.skipped_line_ranges(tu, path)


def _header_error(loc, message: str, path: str, chains: dict[str, tuple[str, ...]], root: str) -> str:
    """`in llmc/dataloader.h line 23: 'glob.h' file not found (included from train_gpt2.cu -> llmc/dataloader.h)`"""

    def shown(name: str) -> str:
        if root and inside(os.path.realpath(name), os.path.realpath(root)):
            return os.path.relpath(os.path.realpath(name), os.path.realpath(root))
        return name

    if loc.file is None:
        return message
    header = loc.file.name
    chain = chains.get(os.path.realpath(header), (path,))
    where = f"in {shown(header)} line {loc.line}: {message}"
    return f"{where} (included from {' -> '.join(shown(step) for step in chain)})"


# An ALL-CAPS name alone on a line (`CUB_NAMESPACE_BEGIN`), or opening a declaration before a type or a keyword
# (`CUB_RUNTIME_FUNCTION static cudaError_t f(...)`, `C10_HOST_DEVICE inline int g()`): the shape of a macro from
# a header that was stubbed. Defined as empty, the code around it parses.
_MACRO_ALONE = re.compile(r"^[ \t]*([A-Z_][A-Z0-9_]{2,})[ \t]*(?://.*)?$", re.MULTILINE)
_MACRO_PREFIX = re.compile(r"^[ \t]*((?:[A-Z_][A-Z0-9_]{2,}[ \t]+)+)(?=[A-Za-z_])", re.MULTILINE)
# An ALL-CAPS call alone at column 0 that ends with `;` (`DMLC_REGISTRY_FILE_TAG(updater);`,
# `REGISTER_PARAMETERS(Config);`): a declaration a missing header's macro writes, at namespace scope (a statement
# in a body is indented). Defined as a function-like macro that writes nothing, the line is an empty declaration.
_MACRO_DECLARATION = re.compile(r"^([A-Z_][A-Z0-9_]{2,})[ \t]*\([^;{}]*\)[ \t]*;[ \t]*(?://.*)?$", re.MULTILINE)
_DEFINED = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_NOT_MACROS = frozenset({"NULL", "EOF", "TRUE", "FALSE"})


def guess_unknown_macros(text: str, errors: list[str] | None = None) -> list[str]:
    """Names that look like attribute or namespace macros from a missing header, not defined in this file; a
    declaration macro comes as `NAME(...)`, for `-DNAME(...)=`, and given the first parse's errors ("line: message")
    only when one of them is clang not knowing that name on a line it is called on: a macro a model or a project
    header defines (`INSTANTIATE_TEST_SUITE_P(...);`) is not worth a second parse."""
    defined = set(_DEFINED.findall(text))
    names = set(_MACRO_ALONE.findall(text))
    for group in _MACRO_PREFIX.findall(text):
        names.update(group.split())
    calls = set()
    for match in _MACRO_DECLARATION.finditer(text):
        line, name = text.count("\n", 0, match.start()) + 1, match.group(1)
        if errors is None or any(e.startswith(f"{line}: ") and f"'{name}'" in e for e in errors):
            calls.add(name)
    calls -= names
    return sorted(
        (f"{n}(...)" if n in calls else n)
        for n in (names | calls) - defined - _NOT_MACROS
        if not n.startswith("__") or n.endswith("_")
    )


@functools.cache
def system_include_dirs(language: str) -> tuple[str, ...]:
    """This machine's own C (and C++) header directories, newest GCC's, as its compiler searches them; none on a
    machine without them. Every Linux worker with a compiler has them; no CUDA toolkit is involved."""
    triple = sysconfig.get_config_var("MULTIARCH") or ""

    def newest(pattern: str) -> str:
        found = [p for p in glob.glob(pattern) if os.path.isdir(p)]
        numeric = [p for p in found if os.path.basename(p).split(".")[0].isdigit()]
        return max(numeric, key=lambda p: [int(x) for x in os.path.basename(p).split(".") if x.isdigit()], default="")

    dirs = []
    if language != "c":
        cxx = newest("/usr/include/c++/*")
        if cxx:
            version = os.path.basename(cxx)
            dirs += [cxx, f"/usr/include/{triple}/c++/{version}" if triple else "", f"{cxx}/backward"]
    gcc = newest(f"/usr/lib/gcc/{triple}/*") if triple else ""
    if gcc:
        dirs.append(f"{gcc}/include")
    dirs += [f"/usr/include/{triple}" if triple else "", "/usr/include"]
    dirs = [d for d in dirs if d and os.path.isdir(d)]
    # Without stdio.h (and, for C++, <vector>) there is nothing to gain over the prelude.
    needed = ("stdio.h",) if language == "c" else ("stdio.h", "vector")
    if not all(any(os.path.isfile(os.path.join(d, n)) for d in dirs) for n in needed):
        return ()
    return tuple(dirs)


_OPEN_AT_END = (": expected '}'", ": expected ';' after struct", ": expected ';' after class")


def _read_twice(tu, path: str) -> set[str]:
    """The main file's "redefinition of" errors whose previous definition is the same line of the same file: the
    includer's lines included the file already (an include cycle, `#pragma once` being no guard for the main file),
    and its second reading is the parse of the file itself, not an error of its code."""
    out = set()
    for diag in tu.diagnostics:
        loc = diag.location
        if diag.severity < ci.Diagnostic.Error or loc.file is None or loc.file.name != path:
            continue
        if diag.spelling.startswith("redefinition of ") and any(
            (note.location.file is not None and note.location.file.name == path and note.location.line == loc.line)
            or note.spelling.startswith(f"'{path}' included multiple times")
            for note in diag.children
        ):
            out.add(f"{loc.line}: {diag.spelling}")
    return out


def left_open_at_end(errors: list[str], text: str) -> bool:
    """Whether the parse ended with a brace still open ("expected '}'" on the file's last lines): a brace of an
    included header, when the header came in the middle of an include cycle the file's own #include started."""
    last = text.count("\n") + 1
    return any(e.endswith(_OPEN_AT_END) and _line_of(e) >= last - 1 for e in errors)


def _line_of(error: str) -> int:
    head = error.split(":", 1)[0]
    return int(head) if head.isdigit() else 0
