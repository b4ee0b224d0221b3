"""The human report: findings grouped by file, then a summary by risk, severity and parse mode."""

from __future__ import annotations

from typing import TextIO

from scanner.model import FileResult, ParseMode
from scanner.report.summary import Summary

_RISK_ORDER = ("silent-wrong-result", "build-break", "runtime-failure", "performance", "deprecation")


class TextReport:
    def __init__(self, out: TextIO, show_suppressed: bool = False):
        self.out = out
        self.show_suppressed = show_suppressed

    def begin(self, root: str, options) -> None:
        targets = ", ".join(options.target.targets)
        self.out.write(f"ROCport scan of {root} (targets {targets}, ROCm {options.target.rocm_text})\n\n")

    def add(self, result: FileResult) -> None:
        shown = [f for f in result.findings if self.show_suppressed or not f.suppressed]
        degraded = result.health.mode in (ParseMode.TOKENS, ParseMode.ERROR)
        failed = result.compile is not None and result.compile["status"] == "fails"
        if not shown and not degraded and not failed:
            return
        mode = result.health.mode.value
        stubs = f", {len(result.health.stubbed_headers)} headers stubbed" if result.health.stubbed_headers else ""
        self.out.write(f"{result.path}  [{mode}{stubs}]\n")
        if result.error:
            self.out.write(f"  error: {result.error}\n")
        elif result.health.mode == ParseMode.TOKENS:
            self.out.write(f"  parsed by tokens only: {result.health.fallback_reason}\n")
        if result.compile is not None and result.compile["status"] != "not-checked":
            c = result.compile
            stubs = f", stubbed: {', '.join(c['stubbed'])}" if c["stubbed"] else ""
            why = f" ({c['reason']})" if c["reason"] else ""
            self.out.write(f"  compile check ({c['target']}): {c['status']}{why}{stubs}\n")
        for f in shown:
            flag = "  (suppressed: " + f.suppression_reason + ")" if f.suppressed else ""
            # A repository-level result (path ".") holds findings located in other files: name them.
            where = f"{f.path}:{f.line}:{f.column}" if f.path != result.path else f"{f.line}:{f.column}"
            self.out.write(f"  {where}  {f.rule} {f.severity.value:<8} {f.name}{flag}\n")
            self.out.write(f"      {f.message}\n")
            if f.snippet:
                self.out.write(f"      | {f.snippet[:160]}\n")
        self.out.write("\n")

    def end(self, summary: Summary) -> None:
        w = self.out.write
        w(f"{summary.files} files, {summary.lines} lines, {summary.cuda_refs} CUDA references\n")
        w(f"{summary.findings} findings ({summary.suppressed} suppressed)\n")
        for risk in _RISK_ORDER:
            if summary.by_risk.get(risk):
                w(f"  {risk:<20} {summary.by_risk[risk]}\n")
        if summary.by_rule:
            w("by rule: " + ", ".join(f"{code} {n}" for code, n in sorted(summary.by_rule.items())) + "\n")
        if summary.translated_files:
            total = summary.converted_refs + summary.unconverted_refs
            percent = 100.0 * summary.converted_refs / total if total else 0.0
            w(
                f"translation: {summary.converted_refs} CUDA references converted, {summary.unconverted_refs} without "
                f"a HIP equivalent ({percent:.1f}%), {summary.changed_lines} lines changed\n"
            )
        if summary.compile_status:
            w(
                f"compile check ({summary.compile_target or 'no hipcc'}): "
                + ", ".join(f"{status} {n}" for status, n in sorted(summary.compile_status.items()))
                + "\n"
            )
        w("parse modes: " + ", ".join(f"{mode} {n}" for mode, n in sorted(summary.parse_modes.items())) + "\n")
        for path, why in summary.submodules_missing:
            w(f"submodule {path} not read: {why}\n")
