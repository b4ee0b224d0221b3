"""SARIF 2.1.0 output (OASIS errata 01), streamed: the rule catalogue first, then one result per finding.

Locations are relative to the scanned root through `originalUriBaseIds["SRCROOT"]`; each result carries
`partialFingerprints` (the path-free content hash and the full identity) so code-scanning tools keep a
finding's identity across commits; suppressed findings keep an `inSource` suppression with its reason.
Files that could not be analysed become tool notifications, so "no results" never hides "not parsed".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from scanner.fingerprint import identity
from scanner.model import FileResult, ParseMode, Severity
from scanner.report.summary import Summary
from scanner.rules.base import Rule
from scanner.rules.docs import parse_sections
from scanner.version import TOOL_VERSION

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}


def level(severity: str) -> str:
    """SARIF's level for a severity ("high" -> "error"); the portal's exports use the same mapping."""
    return _LEVEL[Severity(severity)]


def region_of(line: int, column: int, end_line: int, end_column: int, snippet: str) -> dict:
    """A SARIF region from a finding's 1-based span (a column below 1 is unknown and left out); the portal's
    exports build theirs here too."""
    region = {"startLine": line}
    if column >= 1:
        region["startColumn"] = column
    if end_line >= line:
        region["endLine"] = end_line
        if end_column > 0 and (end_line > line or end_column > column):
            region["endColumn"] = end_column
    if snippet:
        region["snippet"] = {"text": snippet}
    return region


def rule_descriptor(rule: Rule, target=None) -> dict:
    """The rule as SARIF's reportingDescriptor. With the scan's target profile its default level is the one its
    results get for those targets (a warp rule is error on wave64 GPUs; ROC109 is high from ROCm 7.0): a viewer
    must not show a rule as a warning whose every result is an error."""
    sections = parse_sections(rule.doc)
    severity = rule.severity_for(target)[0] if target is not None else rule.severity
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": sections.get("What it finds", rule.summary)},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _LEVEL[severity]},
        "properties": {"risk": rule.risk.value, "severity": severity.value, "tags": ["cuda-to-hip", rule.risk.value]},
    }


class SarifReport:
    def __init__(self, out: TextIO, rules: list[Rule]):
        self.out = out
        self.rules = rules
        self.index = {rule.code: i for i, rule in enumerate(rules)}
        self.notifications: list[dict] = []
        self._first = True

    def begin(self, root: str, options) -> None:
        root_uri = Path(root).resolve().as_uri().rstrip("/") + "/"
        run = {
            "tool": {
                "driver": {
                    "name": "ROCport",
                    "version": TOOL_VERSION,
                    "informationUri": "https://github.com/ROCm/HIPIFY",
                    "rules": [rule_descriptor(rule, options.target) for rule in self.rules],
                }
            },
            "originalUriBaseIds": {"SRCROOT": {"uri": root_uri}},
            "properties": {"target": options.target.to_dict()},
        }
        head = json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]})
        # Everything up to the closing "}]}" of the run; results are streamed into it.
        self.out.write(head[: -len("}]}")] + ', "results": [\n')

    def add(self, result: FileResult) -> None:
        for finding in result.findings:
            if not self._first:
                self.out.write(",\n")
            self._first = False
            self.out.write(json.dumps(self._result(finding)))
        if result.health.mode in (ParseMode.ERROR, ParseMode.TOKENS):
            text = result.error or f"analysed by tokens only: {result.health.fallback_reason}"
            self.notifications.append(
                {
                    "level": "error" if result.error else "warning",
                    "message": {"text": f"{result.path}: {text}"},
                    "locations": [
                        {"physicalLocation": {"artifactLocation": {"uri": result.path, "uriBaseId": "SRCROOT"}}}
                    ],
                }
            )

    def _result(self, f) -> dict:
        region = region_of(f.line, f.column, f.end_line, f.end_column, f.snippet)
        out = {
            "ruleId": f.rule,
            "ruleIndex": self.index[f.rule],
            "level": _LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.path, "uriBaseId": "SRCROOT"},
                        "region": region,
                    }
                }
            ],
            "partialFingerprints": {"rocportContentHash/v1": f.fingerprint, "rocportIdentity/v1": identity(f)},
            "properties": {"risk": f.risk.value, "severity": f.severity.value},
        }
        if f.suppressed:
            out["suppressions"] = [{"kind": "inSource", "justification": f.suppression_reason}]
        return out

    def end(self, summary: Summary) -> None:
        invocation = {
            "executionSuccessful": True,
            "toolExecutionNotifications": self.notifications,
            "properties": {"summary": summary.to_dict()},
        }
        self.out.write('\n], "invocations": ' + json.dumps([invocation]) + "}]}\n")
