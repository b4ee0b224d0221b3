"""Analyses one file: read it safely, parse it, run the rules, and return its FileResult.

Steps:
- refuse what must not be parsed (binary, not UTF-8, over the size cap, a symlink) with an error result;
- parse hermetically (scanner.parsing.clang_unit); fall back to tokens when clang cannot make sense of it;
- one dispatch pass over tokens and AST (scanner.analysis.dispatch);
- turn rule reports into findings: target-aware severity, suppressions, fingerprints; per-file statistics;
- with a translator, the HIP translation; with a compile checker (scanner.compile), the translation compiled for
  an AMD target and the compiler's errors as findings of the "compile" rules.

A generated data file (a C/C++ source that is mostly a byte array: an embedded cubin) is recognized from its text
before libclang (scanner.parsing.data_files) and given the "file" rules only.

Text files (scanner.formats.TEXT_LANGUAGES: build files, containers, scripts, YAML, Python, packaging, sysctl)
skip libclang: their format's parser runs once (a file it rejects is analysed by lines, and says so), then the
"file" rules; suppressions come from their `#` comments.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from scanner import file_measures, fingerprint, formats, nametable, submodules, suppressions
from scanner.analysis.ast import UnitSource, main_file_roots
from scanner.analysis.context import FileFacts
from scanner.analysis.dispatch import Dispatcher
from scanner.analysis.port_notes import PortNotes
from scanner.model import FileResult, FileStats, Finding, ParseHealth, ParseMode
from scanner.parsing import data_files, includers
from scanner.parsing.clang_unit import Parser, guess_unknown_macros, left_open_at_end, system_include_dirs
from scanner.parsing.tokens import TokenView, build_view, tokenize
from scanner.port import Port
from scanner.sourcetext import decode_source
from scanner.target import TargetProfile

_BINARY_PROBE = 8192
# Any of these and a file is CUDA code, parsed with the CUDA prelude only (the machine's headers would clash).
_CUDA_CODE = re.compile(
    r"__global__|__device__|__shared__|__host__|<<<|\b(?:threadIdx|blockIdx|blockDim|warpSize)\b|"
    r"\bcuda[A-Z_]\w*|\bcu[A-Z][a-z]\w*\s*\(|\bCU[a-z_]\w*|\b(?:nccl|cublas|cudnn|curand|cufft|"
    r"cusparse|cusolver|nvtx|nvml)\w*|\b__shfl|cuda_runtime|cuda\.h|\b__half|\b__nv_bfloat"
)
_EMPTY_VIEW = TokenView([], [], [], [], [])


@dataclass(frozen=True)
class FileJob:
    path: str  # absolute
    rel: str
    language: str
    problem: str = ""
    file_args: tuple[str, ...] = ()  # from compile_commands.json
    compile_unit: str = ""  # the translation unit the compile check builds for this file (scanner.compile.graph)
    compile_deps: tuple[str, ...] = ()  # the repository files that unit includes
    # What the build model says that unit is built with (scanner.compile.unit_build.UnitBuild: standard, include
    # directories, defines); None: the model knows no compilation of it, the options' flags are used.
    compile_build: object = None
    # The build model's view of this file (scanner.build): which builds compile it, for which GPU; None when
    # no model was read (a single file analysed on its own).
    build: object = None
    # A build file's lines in branches for another platform (scanner.build.model.BuildModel.platform_lines).
    build_lines: tuple[tuple[int, str], ...] = ()
    # A header's includers in the repository, (rel, line of the #include) (scanner.parsing.includers): a header
    # that ends tokens-only alone is read again after its includer's preceding lines.
    includers: tuple[tuple[str, int], ...] = ()
    # The includers above the first includer when that one is a header fragment too, outermost first.
    outer_includers: tuple[tuple[str, int], ...] = ()


class Analyzer:
    """Everything one worker process needs, built once: parser (and its PCH), rules, name table."""

    def __init__(
        self,
        parser: Parser,
        rules: list,
        target: TargetProfile,
        max_file_bytes: int,
        translator=None,
        compiler=None,
        port: Port | None = None,
        missing_submodules: tuple[tuple[str, str], ...] = (),
    ):
        self.parser = parser
        self.missing_submodules = missing_submodules  # (path, why): named where a stubbed header is theirs
        self.port = port or Port()  # the repository's own ROCm path (scanner.port)
        self.translator = translator  # scanner.translate.Translator, when the scan also translates
        self.compiler = compiler  # scanner.compile.CompileChecker, when the scan also compiles (needs translator)
        self.compile_rules = [r for r in rules if "compile" in r.on]
        self.dispatcher = Dispatcher([r for r in rules if "compile" not in r.on])
        self.target = target
        self.max_file_bytes = max_file_bytes
        self.names = nametable.load()

    def analyze(self, job: FileJob) -> FileResult:
        started = time.perf_counter()
        result = self._analyze(job)
        result.elapsed_ms = (time.perf_counter() - started) * 1000
        return result

    def _analyze(self, job: FileJob) -> FileResult:
        if job.problem:
            return error_result(job, job.problem)
        try:
            with open(job.path, "rb") as handle:
                data = handle.read(self.max_file_bytes + 1)
        except OSError as exc:
            return error_result(job, f"cannot read: {exc.strerror or exc}")
        if len(data) > self.max_file_bytes:
            return self._oversized(job, data[: self.max_file_bytes])
        if b"\0" in data[:_BINARY_PROBE]:
            return error_result(job, "binary file (contains NUL bytes)")
        text, encoding_guess = decode_source(data)
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = text.split("\n")
        stats = FileStats(lines=len(lines) - (1 if text.endswith("\n") else 0), bytes=len(data))
        if job.language == "ptx":
            empty = TokenView([], [], [], [], [])
            return self._run(job, lines, stats, ParseHealth(ParseMode.TEXT), empty, [], [])
        if job.language in formats.TEXT_LANGUAGES:
            result = self._run_text(job, text, lines, stats)
            result.health.encoding_guess = encoding_guess
            return result
        data = data_files.recognize(text)
        if data is not None:  # an embedded cubin or table: read as data, never handed to libclang
            result = self._run_data(job, lines, stats, data)
            result.health.encoding_guess = encoding_guess
            return result

        attempt = self._understand(job, text, lines, job.file_args)
        if attempt is not None:
            attempt[0].encoding_guess = encoding_guess
        if attempt is None:
            return error_result(job, "libclang could neither parse nor tokenize this file")
        if attempt[0].mode == ParseMode.TOKENS or attempt[0].error_count:
            # A second chance: macros from stubbed headers (namespace/attribute macros) defined as empty; kept
            # when it reads the file and leaves fewer errors.
            guesses = guess_unknown_macros(text, attempt[0].first_errors)
            if guesses:
                retry = self._understand(job, text, lines, job.file_args + tuple(f"-D{n}=" for n in guesses))
                if (
                    retry is not None
                    and retry[0].mode != ParseMode.TOKENS
                    and (attempt[0].mode == ParseMode.TOKENS or retry[0].error_count < attempt[0].error_count)
                ):
                    retry[0].defines = [f"{n}=" for n in guesses]
                    attempt = retry
        if (
            attempt[0].mode == ParseMode.TOKENS
            and job.language in ("c", "c++")
            and not _CUDA_CODE.search(text)
            and system_include_dirs(job.language)
        ):
            # A host file (a CPU or Vulkan backend, a test driver) whose standard-library use the prelude does not
            # model: parsed again as plain C/C++ against this machine's own headers. Only such files pay for them.
            retry = self._understand(job, text, lines, job.file_args, system_headers=True)
            if retry is not None and retry[0].mode != ParseMode.TOKENS:
                retry[0].system_headers = True
                attempt = retry
        if (attempt[0].mode == ParseMode.TOKENS or attempt[0].error_count) and job.includers and job.language != "c":
            attempt = self._after_includer(job, text, lines, attempt)
        health, view, (roots, function_nodes, error_lines) = attempt
        health.encoding_guess = encoding_guess
        note = submodules.missing_note(health.stubbed_headers, self.missing_submodules, _repo_include_dirs(job))
        if note:
            health.fallback_reason = f"{health.fallback_reason}; {note}" if health.fallback_reason else note
        result = self._run(job, lines, stats, health, view, roots, function_nodes, error_lines)
        if self.translator is not None:
            result.translation = self._translate(job, text)
        if self.compiler is not None and result.translation is not None:
            self._compile(job, text, lines, view, function_nodes, result)
        return result

    def _compile(
        self, job: FileJob, text: str, lines: list[str], view: TokenView, function_nodes, result: FileResult
    ) -> None:
        """The compile check of this file's translation; its errors become findings of the "compile" rules."""
        # inside: scanner.compile loads only when the compile check is on
        from scanner.compile import findings as compile_findings

        translation = result.translation
        has_cuda = bool(
            job.language == "cuda"
            or result.stats.cuda_refs_total
            or result.stats.kernels
            or translation["stats"]["changed_lines"]
            or translation.get("unconverted")
        )
        reason = self.compiler.skip_reason(job, job.language, has_cuda)
        if not reason and translation.get("error"):
            reason = f"not translated: {translation['error']}"
        if reason:
            result.compile = self.compiler.not_checked(reason).to_dict()
            return
        try:
            checked = self.compiler.check(job, text, translation["text"])
        except Exception as exc:  # a bug in the check costs the check, not the file's analysis
            result.compile = self.compiler.not_checked(
                f"internal error in the compile check: {exc!r}"[:300], cacheable=False
            ).to_dict()
            return
        result.compile = checked.to_dict()
        reports = compile_findings.reports(
            self.compile_rules,
            job.rel,
            result.compile,
            checked.diagnostics,
            lines,
            translation["text"],
            Dispatcher.functions(function_nodes),
            toolchain=self.compiler.toolchain,
        )
        if reports:
            facts = FileFacts(
                job.rel, job.language, lines, view, [], self.names, self.target, False, port=self.port, build=job.build
            )
            facts.reports = reports
            result.findings = sorted(
                result.findings + self._findings(facts, view.comments, lines), key=lambda f: (f.line, f.column, f.rule)
            )

    def _translate(self, job: FileJob, text: str) -> dict:
        # inside: scanner.translate loads only when the scan translates
        from scanner.translate import unified_diff

        translated = self.translator.translate(job.rel, text, Path(job.path))
        data = translated.to_dict(include_text=True)
        data["diff"] = unified_diff(job.rel, text, translated.text)
        return data

    def _after_includer(self, job: FileJob, text: str, lines: list[str], attempt):
        """A header fragment read after the lines of an includer that precede its #include (the first includer
        whose prefix reads it better), kept when it reads the header and leaves fewer errors than alone."""
        root = _root_of(job)
        best = None
        # A brace left open at the end: the file's own #include entered an include cycle in its middle, where a
        # header of the cycle misses what its includer declares after it (warp's array.h and builtin.h). Read
        # after its includer's lines, the cycle is entered where the project enters it.
        # Likewise a header configured by macros its includer defines before including it (`#define PNANOVDB_C`).
        # Both only for a file that lost its tree: a second parse of every header with an error would cost more.
        lost = attempt[0].mode == ParseMode.TOKENS
        cycle = lost and left_open_at_end(attempt[0].first_errors, text)
        for rel, line, prefix, then_alone in self._includer_prefixes(job, root):
            if not (
                cycle
                or includers.declares_what_was_missing(prefix, attempt[0].first_errors)
                or (lost and includers.configures(prefix, text))
            ):
                continue  # nothing the header missed is named there: a second parse would read it no better
            # beside the includer: its own quoted includes resolve from there, as they do for the compiler
            prefix_path = os.path.join(root, os.path.dirname(rel), f".rocport-prefix-{os.path.basename(rel)}")
            retry = self._understand(
                job, text, lines, job.file_args + ("-include", prefix_path), prefix=(prefix_path, prefix)
            )
            if (
                retry is not None
                and retry[0].mode != ParseMode.TOKENS
                and (attempt[0].mode == ParseMode.TOKENS or retry[0].error_count < attempt[0].error_count)
                and (best is None or retry[0].error_count < best[0].error_count)
            ):
                retry[0].read_after = f"{rel}:{line}"
                best = retry
            if best is not None and not (then_alone and best[0].error_count):
                return best
        return best or attempt

    @staticmethod
    def _includer_prefixes(job: FileJob, root: str):
        """(includer, line, prefix, whether the includer's lines alone come next) to read the header after, in
        order. The first includer is a fragment too when outer includers are known: its includers' lines come
        first. But such an includer may be a whole header that the outer lines already include (cuCollections'
        `static_map_ref.cuh`, which includes its `.inl` at its end): read after them, the header's definitions
        come twice. When that read leaves errors, the includer's own lines alone are the next try."""
        for index, (rel, line) in enumerate(job.includers):
            includer_text = includers.read_head(root, rel)
            if includer_text is None:
                continue
            prefix = includers.prefix_of(includer_text, line)
            if index == 0 and job.outer_includers:
                outer = [(r, n, includers.read_head(root, r)) for r, n in job.outer_includers]
                outer_prefix = "".join(includers.outer_prefix(root, r, t, n) for r, n, t in outer if t is not None)
                yield rel, line, outer_prefix + prefix, True
            yield rel, line, prefix, False

    def _understand(
        self,
        job: FileJob,
        text: str,
        lines: list[str],
        file_args: tuple[str, ...],
        system_headers: bool = False,
        prefix: tuple[str, str] | None = None,
    ):
        """Parse, tokenize and build the AST: (health, token view, AST roots), or None if nothing worked."""
        root = _root_of(job)
        unit = self.parser.parse(
            job.path, text, job.language, file_args, root, system_headers=system_headers, prefix=prefix
        )
        health = ParseHealth(
            unit.mode,
            unit.stubbed,
            len(unit.errors),
            unit.errors[:5],
            unit.rounds,
            fallback_reason=unit.fallback_reason,
            modelled_headers=unit.modelled,
        )
        tu = unit.tu
        if tu is None:
            tu = self.parser.tokenize_only(job.path, text, root)
            if tu is None:
                return None
        view = build_view(tokenize(tu, job.path, text), lines)
        roots, function_nodes = [], []
        error_lines = frozenset(int(e.split(":", 1)[0]) for e in unit.errors if e.split(":", 1)[0].isdigit())
        if unit.mode in (ParseMode.AST, ParseMode.AST_STUBBED):
            health.skipped_ranges = self.parser.skipped_ranges(tu, job.path)
            unit_source = UnitSource(text)
            roots = main_file_roots(tu, job.path, unit_source)
            function_nodes = unit_source.function_nodes
            if health.error_count:
                coverage = file_measures.ast_coverage(roots, view, health.skipped_ranges)
                if coverage < 0.5:
                    health.mode = ParseMode.TOKENS
                    stubbed = ", ".join(unit.stubbed[:4]) + (
                        f" and {len(unit.stubbed) - 4} more" if len(unit.stubbed) > 4 else ""
                    )
                    health.fallback_reason = (
                        f"clang recovered declarations for only {coverage:.0%} of the code "
                        f"lines ({health.error_count} errors, the first at line "
                        f"{unit.errors[0] if unit.errors else '?'}"
                        + (f"; stubbed headers: {stubbed}" if stubbed else "")
                        + (f"; modelled headers: {', '.join(unit.modelled)}" if unit.modelled else "")
                        + ")"
                    )
                    roots, function_nodes = [], []
        return health, view, (roots, function_nodes, error_lines)

    def _run(self, job, lines, stats, health, view, roots, function_nodes, error_lines=frozenset()) -> FileResult:
        functions = Dispatcher.functions(function_nodes)
        facts = FileFacts(
            job.rel,
            job.language,
            lines,
            view,
            functions,
            self.names,
            self.target,
            bool(roots),
            port=self.port,
            build=job.build,
            root=_root_of(job),
        )
        facts.error_lines = error_lines if roots else frozenset()
        self.dispatcher.run(facts, roots)
        file_measures.count_references(view, stats, self.names)
        stats.kernels = sum(1 for fn in functions if fn.is_kernel)
        stats.kernel_launches = sum(1 for t in view.code if t.text == "<<<")
        findings = self._findings(facts, view.comments, lines)
        return FileResult(job.rel, job.language, health, stats, findings)

    def _run_text(self, job: FileJob, text: str, lines: list[str], stats: FileStats) -> FileResult:
        parsed = formats.parse(job.language, text)
        health = ParseHealth(ParseMode.TEXT)
        if parsed.error:
            # The structure is lost, the lines are not: rules fall back to them, and the result says so.
            health = ParseHealth(
                ParseMode.TOKENS,
                error_count=1,
                first_errors=[parsed.error],
                fallback_reason=f"{parsed.error}; analysed by lines",
            )
        facts = FileFacts(
            job.rel,
            job.language,
            lines,
            _EMPTY_VIEW,
            [],
            self.names,
            self.target,
            False,
            parsed=parsed,
            port=self.port,
            build_lines=dict(job.build_lines),
            root=_root_of(job),
        )
        facts._text = text
        self.dispatcher.file_pass(facts)
        findings = self._findings(facts, suppressions.hash_comments(lines), lines)
        return FileResult(job.rel, job.language, health, stats, findings)

    def _oversized(self, job: FileJob, head: bytes) -> FileResult:
        """A file past the cap: an error, unless its first bytes are a generated data file (an embedded cubin of
        tens of megabytes), which is read as data from those bytes; the reason says only they were read."""
        cap = f"larger than the {self.max_file_bytes}-byte cap (scan.max_file_bytes)"
        if job.language in formats.TEXT_LANGUAGES or job.language == "ptx" or b"\0" in head[:_BINARY_PROBE]:
            return error_result(job, cap)
        text, _ = decode_source(head)
        data = data_files.recognize(text)
        if data is None:
            return error_result(job, cap)
        lines = text.split("\n")
        result = self._run_data(job, lines, FileStats(lines=len(lines), bytes=len(head)), data)
        result.health.fallback_reason += f"; {cap}: only its first {len(head)} bytes were read"
        return result

    def _run_data(self, job: FileJob, lines: list[str], stats: FileStats, data: data_files.DataFile) -> FileResult:
        """A generated data file: the "file" rules read what it embeds (scanner.parsing.data_files.DataFile)."""
        health = ParseHealth(ParseMode.TEXT, fallback_reason=data.reason())
        facts = FileFacts(
            job.rel,
            job.language,
            lines,
            _EMPTY_VIEW,
            [],
            self.names,
            self.target,
            False,
            parsed=formats.Parsed(data),
            port=self.port,
            build=job.build,
        )
        self.dispatcher.file_pass(facts)
        findings = self._findings(facts, [], lines)
        return FileResult(job.rel, job.language, health, stats, findings)

    def _findings(self, facts: FileFacts, comments, lines: list[str]) -> list[Finding]:
        marks = suppressions.collect(comments, lines)
        notes = PortNotes(facts)
        findings, functions, seen = [], [], set()
        for report in facts.reports:
            rule = report.rule
            key = (rule.code, report.line, report.col, report.message)
            if key in seen:  # one construct reached through two events
                continue
            seen.add(key)
            severity, note = rule.severity_for(self.target)
            if report.severity is not None and report.severity.rank < severity.rank:
                severity = report.severity
            severity, port_note = notes.adjust(rule, report.line, severity)
            message = " ".join(part for part in (report.message, note, port_note) if part)
            snippet = lines[report.line - 1].strip() if 0 < report.line <= len(lines) else ""
            finding = Finding(
                rule.code,
                rule.name,
                rule.risk,
                severity,
                facts.path,
                report.line,
                report.col,
                report.end_line,
                report.end_col,
                message,
                snippet,
            )
            mark = suppressions.match(marks, report.line, rule.code, rule.name)
            if mark is not None:
                finding.suppressed = True
                finding.suppression_reason = mark.reason or "(no reason given)"
            findings.append(finding)
            functions.append(report.function)
        fingerprint.assign(findings, functions)
        findings.sort(key=lambda f: (f.line, f.column, f.rule))
        return findings


def _root_of(job: FileJob) -> str:
    """The scanned tree: the job's absolute path without its relative one."""
    suffix = "/" + job.rel
    return job.path[: -len(suffix)] if job.path.endswith(suffix) else ""


def error_result(job: FileJob, message: str) -> FileResult:
    return FileResult(job.rel, job.language, ParseHealth(ParseMode.ERROR), FileStats(), error=message)


def _repo_include_dirs(job: FileJob) -> tuple[str, ...]:
    """The file's -I directories that lie in its repository, repository-relative (the build model's are absolute)."""
    root = job.path[: -len(job.rel)] if job.rel and job.path.endswith(job.rel) else ""
    if not root:
        return ()
    return tuple(
        os.path.relpath(arg[2:], root)
        for arg in job.file_args
        if arg.startswith("-I") and os.path.isabs(arg[2:]) and arg[2:].startswith(root)
    )
