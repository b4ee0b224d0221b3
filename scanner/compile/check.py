"""The compile check of one file, in a scanner worker: its translation unit compiled for the AMD target, with the
headers this machine lacks stubbed, and the outcome for the file.

Steps for a unit (memoised per worker: a header and the source that checks it share one compilation), compiled
with the standard, include directories and defines its build gives it (scanner.compile.unit_build: the job's
`compile_build`; the options' when the build model knows none):
- write the unit and the repository files it includes into the translated tree (scanner.compile.tree);
- list its dependencies with the compiler's own preprocessor (`-M -MG`, the host pass: every header it cannot
  find is listed instead of failing); search the folders of the tree that hold such a header by the include
  graph's conventions (an ancestor folder of the unit or of a file it includes, or its `include/`), then stub each
  one still missing with an empty file, as the scanner's parse does
  (scanner.parsing.clang_unit); a header only the device pass needs, or one the listing missed, is stubbed when
  the compilation reports it, at most `max_stub_rounds` more times;
- compile with `-c` (not `-fsyntax-only`: inline assembly fails only when the device code is assembled);
- parse and sort the diagnostics (scanner.compile.diagnostics); an NVIDIA header among the stubs is an error of
  its own, at the `#include` line that names it.
One deadline covers the whole check; past it the compiler's process group is killed and the file is "not
checked".
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

from scanner.compile import clang_hip, compilers, graph, system_libraries, unit_build
from scanner.compile import diagnostics as diags
from scanner.compile.graph import CHECKED_LANGUAGES
from scanner.compile.result import (
    COMPILES,
    COMPILES_WITH_STUBS,
    FAILS,
    NOT_CHECKED,
    CompileResult,
)
from scanner.compile.toolchain import DEFAULT_STD, Toolchain, ToolchainError, run
from scanner.compile.tree import TranslatedTree
from scanner.hip_releases import added_after
from scanner.parsing.stubs import MISSING_HEADER, safe_stub_name  # the parse's stub rules, reused
from scanner.target import DEFAULT_ROCM

PROBE_TIMEOUT = 120.0
_CRASH = re.compile(r"unable to execute command|command failed due to signal|PLEASE submit a bug report")


@dataclass(frozen=True)
class CompileSettings:
    hipcc: str = ""  # a path; empty: hipcc on PATH
    compiler: str = "auto"  # scanner.compile.compilers: auto, clang (bundled ROCm headers) or hipcc
    arch: str = ""  # --offload-arch; empty: the profile's targets, the first this hipcc builds for, else gfx90a
    targets: tuple[str, ...] = ()  # the target profile's
    rocm: tuple[int, int] = DEFAULT_ROCM  # the target profile's: which bundled HIP judges (scanner.compile.headers)
    std: str = ""  # `[compile] std`, an override for every unit; "": each unit's build's (else DEFAULT_STD)
    include_dirs: tuple[str, ...] = ()  # absolute; the ones inside the checkout are used in the translated tree
    defines: tuple[str, ...] = ()
    extra_args: tuple[str, ...] = ()  # from the operator (command line), never from the repository
    timeout_seconds: float = 60.0
    max_stub_rounds: int = 4

    @property
    def wanted_targets(self) -> tuple[str, ...]:
        return (self.arch,) if self.arch else self.targets


@dataclass
class _Unit:
    diagnostics: list[diags.Diagnostic]
    stubbed: list[str]
    failed_to_run: str = ""  # timeout, crash: the unit could not be checked
    returncode: int = 0
    elapsed: float = 0.0
    std: str = ""
    std_note: str = ""  # why `std` is not the build's own standard


class CompileChecker:
    """One per worker process (the toolchain is probed once, on first use)."""

    def __init__(self, settings: CompileSettings, translate, scratch: str | None = None):
        self.settings = settings
        self.tree = TranslatedTree(translate, scratch)
        self._toolchain: Toolchain | None = None
        # (the toolchain, the same without its own -std=): each unit's standard is added to the second's command
        self._runner: tuple[Toolchain, Toolchain] | None = None
        self._problem = ""
        self._memo: OrderedDict[str, _Unit] = OrderedDict()
        self._counter = 0

    @property
    def toolchain(self) -> Toolchain | None:
        if self._toolchain is None and not self._problem:
            try:
                # The probe's own limit: a short per-file limit must not make hipcc look unusable.
                self._toolchain = compilers.resolve(
                    self.settings.compiler,
                    self.settings.hipcc,
                    self.settings.wanted_targets,
                    self.settings.std or DEFAULT_STD,
                    max(self.settings.timeout_seconds, PROBE_TIMEOUT),
                    self.settings.rocm,
                )
            except ToolchainError as exc:
                self._problem = str(exc)
        return self._toolchain

    def skip_reason(self, job, language: str, has_cuda: bool) -> str:
        """Why this file is not compiled ("" when it is)."""
        if language not in CHECKED_LANGUAGES:
            return "a C file: the HIP compiler builds C++" if language == "c" else f"not C++ ({language})"
        if not getattr(job, "compile_unit", ""):
            return "a fragment no source file includes: it is checked only as part of one"
        if not has_cuda:
            return "no CUDA in this file: nothing for the HIP compiler to check"
        if self.toolchain is None:
            return self._problem
        return ""

    def not_checked(self, reason: str, cacheable: bool = True) -> CompileResult:
        tc = self._toolchain
        return CompileResult(NOT_CHECKED, reason, tc.arch if tc else "", tc.version if tc else "", cacheable=cacheable)

    def check(self, job, original: str, translated: str) -> CompileResult:
        """Check `job` (a scanner.engine.FileJob with compile_unit/compile_deps) whose translation is known."""
        started = time.monotonic()
        tc = self.toolchain
        if tc is None:
            return self.not_checked(self._problem)
        root = Path(job.path[: len(job.path) - len(job.rel)]) if job.path.endswith(job.rel) else Path(job.path).parent
        self.tree.use(root)
        self.tree.put(job.rel, original, translated)
        unit = job.compile_unit or job.rel
        self.tree.ensure([unit, *job.compile_deps])
        outcome = self._memo.get(unit)
        if outcome is None:
            # The unit's files: the unit and everything it includes (the job's deps are those, minus the job).
            files = tuple(sorted({job.rel, *job.compile_deps} - {unit}))
            outcome = self._compile(unit, tc, files, getattr(job, "compile_build", None))
            self._memo[unit] = outcome
            while len(self._memo) > 64:
                self._memo.popitem(last=False)
        result = self._result_for(job.rel, unit, outcome, tc, getattr(job, "compile_build", None))
        result.elapsed_ms = (time.monotonic() - started) * 1000
        return result

    def close(self) -> None:
        self.tree.close()

    # -- one unit ---------------------------------------------------------------------------------------------
    def _compile(self, unit: str, tc: Toolchain, deps: tuple[str, ...], built: unit_build.UnitBuild | None) -> _Unit:
        deadline = time.monotonic() + self.settings.timeout_seconds
        self._counter += 1
        work = self.tree.base / f"unit-{self._counter}"
        stub_dir = work / "stubs"
        stub_dir.mkdir(parents=True, exist_ok=True)
        std, std_note = unit_build.standard(self.settings.std, built)
        outcome = self._compile_with(unit, self._without_std(tc), deps, built, std, work, stub_dir, deadline)
        outcome.std, outcome.std_note = std, std_note
        return outcome

    def _without_std(self, tc: Toolchain) -> Toolchain:
        """The toolchain's command without the `-std=` it was probed with: each unit gets its own (`_flags`)."""
        if self._runner is None or self._runner[0] is not tc:
            self._runner = (tc, replace(tc, argv=tuple(a for a in tc.argv if not a.startswith(("-std=", "--std=")))))
        return self._runner[1]

    def _compile_with(
        self,
        unit: str,
        tc: Toolchain,
        deps: tuple[str, ...],
        built: unit_build.UnitBuild | None,
        std: str,
        work: Path,
        stub_dir: Path,
        deadline: float,
    ) -> _Unit:
        try:
            flags = self._flags(stub_dir, built, std)
            # The host pass only: clang's device pass of -M ignores -MG and stops at the first missing header,
            # leaving one header per stub round (a torch extension lacks five). A header only the device pass
            # includes is stubbed by the rounds below.
            host_only = ["--offload-host-only"] if tc.kind == "clang" else []
            listed = run(
                tc.command(unit, str(work / "deps.d"), [*flags, *host_only, "-M", "-MG"]),
                self.tree.dir,
                tc.env,
                deadline - time.monotonic(),
            )
            if listed.timed_out:
                return _Unit([], [], f"timed out after {self.settings.timeout_seconds:g}s (listing its headers)")
            stubs = self._missing(work / "deps.d")
            found = self._conventional_dirs(stubs, unit, deps)
            if found:  # the repository has them where its build looks without saying so: search there, stub less
                flags[-2:-2] = [f"-I{d}" for d in found]
                run(
                    tc.command(unit, str(work / "deps.d"), [*flags, *host_only, "-M", "-MG"]),
                    self.tree.dir,
                    tc.env,
                    deadline - time.monotonic(),
                )
                stubs = self._missing(work / "deps.d")
            rounds = 0
            while True:
                for name in sorted(stubs):
                    target = stub_dir / name
                    try:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.touch()
                    except OSError:  # "a.h" and "a.h/b.h" both missing: the compiler reports the one left out
                        pass
                compiled = run(
                    tc.command(unit, str(work / "unit.o"), flags), self.tree.dir, tc.env, deadline - time.monotonic()
                )
                if compiled.timed_out:
                    return _Unit([], sorted(stubs), f"timed out after {self.settings.timeout_seconds:g}s")
                more = {m for m in MISSING_HEADER.findall(compiled.stderr) if safe_stub_name(m)} - stubs
                if not more or rounds >= self.settings.max_stub_rounds:
                    break
                stubs |= more
                rounds += 1
            if compiled.returncode != 0 and _CRASH.search(compiled.stderr):
                first = next((ln for ln in compiled.stderr.splitlines() if "error" in ln), "")[:200]
                return _Unit([], sorted(stubs), f"the compiler crashed ({first})", compiled.returncode)
            newer = clang_hip.NEWER_THAN_BUNDLED if tc.kind == "clang" else frozenset()
            later = added_after(tc.hip) if tc.hip else {}
            names = frozenset(name for name in later if "/" not in name)
            found = diags.parse(compiled.stderr, self._in_tree, self._line_text, bool(stubs), newer, names)
            found += self._nvidia_headers(sorted(stubs), unit, deps)
            found += self._later_headers(sorted(stubs), unit, deps, later, tc.hip)
            if compiled.returncode != 0 and not found:  # it failed and said nothing we could read
                first = (compiled.stderr.strip().splitlines() or [f"exit code {compiled.returncode}"])[0][:200]
                found.append(diags.Diagnostic("other", "", 0, 0, first, in_tree=False))
            for d in found:
                d.path = self._rel(d.path) if d.in_tree else d.path
                d.line = self.tree.original_line(d.path, d.hip_line) if d.in_tree else d.hip_line
                d.included_from = self._original_location(d.included_from)
            return _Unit(found, sorted(stubs), "", compiled.returncode, compiled.elapsed)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _flags(self, stub_dir: Path, built: unit_build.UnitBuild | None, std: str) -> list[str]:
        """The unit's flags: the build's include directories and defines (scanner.compile.unit_build), then the
        options' (the user's additions: a define of theirs wins), the standard, the operator's arguments."""
        s = self.settings
        # Only the one warning the check reads (see scanner.compile.diagnostics); errors stay errors. No typo
        # correction: clang would go on as if `__syncwarp` were the `__sync_swap` it suggests, and report errors
        # about a call nobody wrote.
        flags = [
            "-fno-color-diagnostics",
            "-fno-caret-diagnostics",
            "-fdiagnostics-show-option",
            "-fno-spell-checking",
            "-ferror-limit=50",
            "-Wno-everything",
            "-Wshorten-64-to-32",
        ]
        if built is not None:
            flags += [f"-I{d}" for d in built.include_dirs]  # inside the checkout: relative to the tree
        root = str(self.tree.root)
        for directory in s.include_dirs:
            if directory == root or directory.startswith(root.rstrip("/") + "/"):
                rel = os.path.relpath(directory, root)
                flags.append(f"-I{rel}")  # relative to the tree: diagnostics then name repository paths
            else:
                flags.append(f"-I{directory}")
        flags += [f"-D{d}" for d in (*(built.defines if built is not None else ()), *s.defines)]
        flags.append(f"-std={std}")  # before the operator's arguments: a -std= of theirs wins
        flags.append("-iquote.")  # "src/util.h" from the repository root, as most builds allow
        flags += list(s.extra_args)
        for directory in system_libraries.mpi_include_dirs():  # a user's MPI: after everything else
            flags += ["-idirafter", directory]
        flags += ["-idirafter", str(stub_dir)]  # last: a real header always wins over a stub
        return flags

    def _missing(self, depfile: Path) -> set[str]:
        """Headers `-M -MG` listed but the compiler could not find (they are printed as written)."""
        try:
            text = depfile.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return set()
        missing = set()
        for line in text.replace("\\\n", " ").splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            for word in re.split(r"(?<!\\)\s+", line.split(":", 1)[1].strip()):
                # Make's escapes, as clang writes them: "\ " for a space, "\#" for "#", "$$" for "$".
                name = word.replace("\\ ", " ").replace("\\#", "#").replace("$$", "$")
                if (
                    name
                    and not os.path.isabs(name)
                    and not os.path.exists(self.tree.dir / name)
                    and safe_stub_name(name)
                ):
                    missing.add(name)
        return missing

    def _conventional_dirs(self, missing: set[str], unit: str, deps: tuple[str, ...]) -> list[str]:
        """Folders of the translated tree that hold headers the build's include path misses, by the graph's
        conventions (scanner.compile.graph.conventional_base) from the unit and the files it includes."""
        out: dict[str, None] = {}
        for name in sorted(missing):
            for rel in (unit, *deps):
                base = graph.conventional_base(self.tree.dir, rel, name)
                if base is not None:
                    out[base or "."] = None
                    break
        return list(out)

    def _nvidia_headers(self, stubs: list[str], unit: str, deps: tuple[str, ...]) -> list[diags.Diagnostic]:
        """A stubbed NVIDIA header is an error the translation left: located at each `#include` naming it."""
        return [
            diags.Diagnostic(
                "missing-header",
                rel,
                line,
                1,
                f"'{name}' file not found: an NVIDIA header that no ROCm installation has (stubbed, so that the rest "
                "of the file could be checked)",
            )
            for name in stubs
            if diags.is_nvidia_header(name)
            for rel, line in self._includes_of(name, (unit, *deps))
        ]

    def _later_headers(
        self, stubs: list[str], unit: str, deps: tuple[str, ...], later: dict, hip: tuple[int, ...]
    ) -> list[diags.Diagnostic]:
        """A stubbed HIP header that a later ROCm has: the profile's ROCm cannot build the file."""
        version = ".".join(map(str, hip))
        return [
            diags.Diagnostic(
                "newer-rocm",
                rel,
                line,
                1,
                f"'{name}' is not in HIP {version}: ROCm {'.'.join(map(str, later[name]))} added it (stubbed, so "
                "that the rest of the file could be checked)",
            )
            for name in stubs
            if name in later
            for rel, line in self._includes_of(name, (unit, *deps))
        ]

    def _includes_of(self, name: str, rels: tuple[str, ...]) -> list[tuple[str, int]]:
        """(file, line) of each `#include` naming header `name` in the translated files `rels`."""
        pattern = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]' + re.escape(name) + r'[>"]', re.MULTILINE)
        out = []
        for rel in rels:
            text = self.tree.translated_text(rel)
            match = pattern.search(text) if name in text else None
            if match:
                out.append((rel, text.count("\n", 0, match.start()) + 1))
        return out

    # -- the outcome for one file -----------------------------------------------------------------------------
    def _result_for(
        self, rel: str, unit: str, outcome: _Unit, tc: Toolchain, built: unit_build.UnitBuild | None = None
    ) -> CompileResult:
        later = added_after(tc.hip) if tc.hip else {}
        stubbed = [name for name in outcome.stubbed if name not in later]  # those are errors: newer-rocm
        if rel != unit and stubbed:  # a header: only the stubs it (or what it includes) asked for
            names = self._included_names(rel, built)
            stubbed = [name for name in stubbed if name in names]
        note = "; ".join(filter(None, (tc.note, outcome.std_note)))
        base = dict(
            target=tc.arch,
            compiler=tc.version,
            unit=unit,
            std=outcome.std,
            build=built.source if built is not None else "",
            note=note,
            stubbed=stubbed,
        )
        if outcome.failed_to_run:
            return CompileResult(NOT_CHECKED, outcome.failed_to_run, cacheable=False, **base)
        own = [d for d in outcome.diagnostics if d.path == rel]
        considered = outcome.diagnostics if rel == unit else own  # a source fails with its unit; a header alone
        errors = [d for d in considered if d.kind not in diags.NOT_ERRORS]
        counts: dict[str, int] = {}
        for d in errors:
            counts[d.kind] = counts.get(d.kind, 0) + 1
        set_aside = sum(1 for d in considered if d.kind in diags.NOT_ERRORS)
        gaps = sorted({d.message for d in considered if d.kind == diags.TOOLCHAIN_GAP})
        status = FAILS if errors else COMPILES_WITH_STUBS if stubbed or gaps else COMPILES
        if gaps:
            base["note"] = "; ".join(
                filter(
                    None,
                    (
                        base["note"],
                        f"not checked for what the toolchain's headers predate ({len(gaps)} error(s) set aside)",
                    ),
                )
            )
        used = [
            since
            for name, since in later.items()
            for d in errors
            if d.kind == "newer-rocm" and f"'{name}'" in d.message
        ]
        if used:
            since = max(used)
            base["note"] = "; ".join(
                filter(
                    None,
                    (
                        base["note"],
                        f"uses what HIP {'.'.join(map(str, tc.hip))} lacks: ROCm {'.'.join(map(str, since))} or "
                        "later builds it",
                    ),
                )
            )
        reason = ""
        if errors and not any(d.path == rel for d in errors):
            elsewhere = sorted({d.path or "(the compiler)" for d in errors})
            reason = "errors in files it includes: " + ", ".join(elsewhere[:5])
        shown = sorted(considered, key=lambda d: (d.path != rel, d.path, d.hip_line, d.column))
        return CompileResult(status, reason, diagnostics=shown, counts=counts, set_aside=set_aside, **base)

    def _included_names(self, rel: str, built: unit_build.UnitBuild | None = None) -> set[str]:
        """The header names in the `#include` lines of `rel` and of the tree files it reaches."""
        include_dirs = (*(built.include_dirs if built is not None else ()),) + tuple(
            d for d in (graph.inside(self.tree.root, d) for d in self.settings.include_dirs) if d is not None
        )
        names, seen, stack = set(), {rel}, [rel]
        while stack:
            current = stack.pop()
            for quote, name in graph.INCLUDE_LINE.findall(self.tree.translated_text(current)):
                names.add(name.strip())
                dep = graph.resolve(self.tree.dir, current, quote, name.strip(), include_dirs)
                if dep is not None and dep not in seen:
                    seen.add(dep)
                    stack.append(dep)
        return names

    def _original_location(self, location: str) -> str:
        """ "src/a.cu:4" in the translation -> the original file's line ("src/a.cu:3" before an added include)."""
        path, _, line = location.rpartition(":")
        if not path or not line.isdigit() or not self._in_tree(path):
            return location
        rel = self._rel(path)
        return f"{rel}:{self.tree.original_line(rel, int(line))}"

    def _in_tree(self, path: str) -> bool:
        rel = self._rel(path)
        return not rel.startswith("../") and not os.path.isabs(rel) and os.path.isfile(self.tree.dir / rel)

    def _rel(self, path: str) -> str:
        if os.path.isabs(path):
            try:
                return Path(path).relative_to(self.tree.dir).as_posix()
            except ValueError:
                return path
        return posixpath.normpath(path)

    def _line_text(self, path: str, line: int) -> str:
        lines = self.tree.translated_text(self._rel(path)).split("\n")
        return lines[line - 1] if 0 < line <= len(lines) else ""


def settings_from(options) -> CompileSettings:
    """The compile settings of a scanner.config.ScanOptions."""
    return CompileSettings(
        hipcc=options.hipcc,
        compiler=options.hip_compiler,
        arch=options.compile_arch,
        targets=options.target.targets,
        rocm=options.target.rocm,
        std=options.compile_std,
        include_dirs=tuple(options.include_dirs),
        defines=tuple(options.defines),
        extra_args=tuple(options.compile_args),
        timeout_seconds=options.compile_timeout_seconds,
    )
