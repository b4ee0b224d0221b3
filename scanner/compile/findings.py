"""From a file's compile diagnostics to rule reports: the "compile" event of the rules in scanner/rules/compile/.

A rule subscribed to "compile" gets a `CompileContext` holding the diagnostics located in this file (already
mapped back to the original CUDA line) and the toolchain that judged them, and reports the ones of its kind,
naming that toolchain (clang with the bundled HIP headers is the default, hipcc the alternative: a message that
said "hipcc" for clang's verdict sent readers to the wrong compiler). The column is moved to the same name on
the original line when the translation renamed something before it (column 1 when the name is not there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scanner.analysis.context import Report
from scanner.compile.diagnostics import SET_ASIDE, Diagnostic
from scanner.compile.toolchain import Toolchain

_WORD = re.compile(r"[A-Za-z_]\w*")
TOOLCHAIN_UNKNOWN = "the HIP compiler"


@dataclass
class CompileContext:
    rule: object
    path: str
    target: str  # the --offload-arch the file was compiled for
    own: list[Diagnostic]  # this file's diagnostics, set-aside ones excluded
    lines: list[str]  # the original file
    translated_lines: list[str]
    functions: list = field(default_factory=list)  # FunctionInfo, to name the enclosing function
    reports: list[Report] = field(default_factory=list)
    toolchain: str = TOOLCHAIN_UNKNOWN  # who judged (Toolchain.label): "clang 19 with HIP 7.2's headers", "hipcc"

    def diagnostics(self, kind: str) -> list[Diagnostic]:
        return [d for d in self.own if d.kind == kind]

    def report(self, diagnostic: Diagnostic, message: str) -> None:
        line = min(max(diagnostic.line, 1), max(len(self.lines), 1))
        col, end_col = self._columns(diagnostic, line)
        self.reports.append(Report(self.rule, message, line, col, line, end_col, self._function(line)))

    def _columns(self, diagnostic: Diagnostic, line: int) -> tuple[int, int]:
        original = self.lines[line - 1] if line <= len(self.lines) else ""
        hip = (
            self.translated_lines[diagnostic.hip_line - 1]
            if 0 < diagnostic.hip_line <= len(self.translated_lines)
            else ""
        )
        if hip == original and diagnostic.column:
            word = _WORD.match(hip, diagnostic.column - 1)
            return diagnostic.column, diagnostic.column + (len(word.group()) if word else 1)
        word = _WORD.match(hip, max(diagnostic.column - 1, 0)) if hip else None
        if word is not None:
            at = original.find(word.group())
            if at >= 0:
                return at + 1, at + 1 + len(word.group())
        return 1, len(original) + 1

    def _function(self, line: int) -> str:
        best = None
        for fn in self.functions:
            if fn.start_line <= line <= fn.end_line and (best is None or fn.start_line >= best.start_line):
                best = fn
        return best.name if best is not None else ""


def reports(
    rules: list,
    rel: str,
    result: dict,
    diagnostics: list[Diagnostic],
    lines: list[str],
    translated: str,
    functions: list,
    toolchain: Toolchain | None = None,
) -> list[Report]:
    """Run the enabled compile rules over one file's diagnostics; `toolchain` is the one that judged them, which
    the findings name (clang with the bundled HIP headers, or hipcc)."""
    own = [d for d in diagnostics if d.path == rel and d.kind != SET_ASIDE]
    if not own:
        return []
    out = []
    translated_lines = translated.split("\n")
    label = toolchain.label if toolchain is not None else TOOLCHAIN_UNKNOWN
    for rule in rules:
        ctx = CompileContext(
            rule, rel, result.get("target", ""), own, lines, translated_lines, functions, toolchain=label
        )
        rule.check(ctx)
        out += ctx.reports
    return out
