"""Scan-wide totals, accumulated file by file."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from scanner.model import FileResult, Severity


@dataclass
class Summary:
    files: int = 0
    lines: int = 0
    findings: int = 0
    suppressed: int = 0
    by_risk: Counter = field(default_factory=Counter)
    by_severity: Counter = field(default_factory=Counter)
    by_rule: Counter = field(default_factory=Counter)
    parse_modes: Counter = field(default_factory=Counter)
    errors: int = 0
    cuda_refs: int = 0
    worst: Severity | None = None
    translated_files: int = 0
    converted_refs: int = 0
    unconverted_refs: int = 0
    changed_lines: int = 0
    compile_status: Counter = field(default_factory=Counter)  # scanner.compile statuses, per file
    compile_target: str = ""
    # (path, why) of the submodules `.gitmodules` lists that were not read: their headers were stubbed or modelled
    submodules_missing: list = field(default_factory=list)

    def add(self, result: FileResult) -> None:
        self.files += 1
        self.lines += result.stats.lines
        self.cuda_refs += result.stats.cuda_refs_total
        self.parse_modes[result.health.mode.value] += 1
        if result.error:
            self.errors += 1
        if result.translation is not None:
            stats = result.translation["stats"]
            self.translated_files += 1
            self.converted_refs += stats["converted"]
            self.unconverted_refs += stats["unconverted"]
            self.changed_lines += stats["changed_lines"]
        if result.compile is not None:
            self.compile_status[result.compile["status"]] += 1
            self.compile_target = self.compile_target or result.compile.get("target", "")
        for finding in result.findings:
            if finding.suppressed:
                self.suppressed += 1
                continue
            self.findings += 1
            self.by_risk[finding.risk.value] += 1
            self.by_severity[finding.severity.value] += 1
            self.by_rule[finding.rule] += 1
            if self.worst is None or finding.severity.rank > self.worst.rank:
                self.worst = finding.severity

    def to_dict(self) -> dict:
        return {
            "files": self.files,
            "lines": self.lines,
            "findings": self.findings,
            "suppressed": self.suppressed,
            "by_risk": dict(sorted(self.by_risk.items())),
            "by_severity": dict(sorted(self.by_severity.items())),
            "by_rule": dict(sorted(self.by_rule.items())),
            "parse_modes": dict(sorted(self.parse_modes.items())),
            "file_errors": self.errors,
            "cuda_refs": self.cuda_refs,
            **(
                {
                    "translation": {
                        "files": self.translated_files,
                        "converted": self.converted_refs,
                        "unconverted": self.unconverted_refs,
                        "changed_lines": self.changed_lines,
                    }
                }
                if self.translated_files
                else {}
            ),
            **(
                {"compile": {"target": self.compile_target, "files": dict(sorted(self.compile_status.items()))}}
                if self.compile_status
                else {}
            ),
            **(
                {"submodules_missing": [{"path": path, "why": why} for path, why in self.submodules_missing]}
                if self.submodules_missing
                else {}
            ),
        }
