"""The JSON report, schema "rocport-scan/1" (docs/json-format.md), written as a stream.

{"schema": "rocport-scan/1", "tool": {...}, "root": "...", "target": {...}, "rules": [enabled codes],
 "files": [FileResult...], "summary": {...}}

`rules` lets a reader (the portal, for an upload) tell "fixed" from "not checked": a finding of a rule that was
switched off is neither. `extra` adds top-level keys (the upload's `tree`); added keys keep the schema number.
`slim`: each file's translation keeps its statistics only (no HIP text, diff or name lists): what an upload
needs, at a fraction of the size.
"""

from __future__ import annotations

import json
from typing import TextIO

from scanner.model import FileResult
from scanner.report.summary import Summary
from scanner.version import TOOL_VERSION

SCHEMA = "rocport-scan/1"
_SLIM = ("backend", "backend_version", "stats", "fallback_reason", "error")


class JsonReport:
    def __init__(self, out: TextIO, rules: list | None = None, extra: dict | None = None, slim: bool = False):
        self.out = out
        self.rules = rules
        self.extra = extra or {}
        self.slim = slim
        self._first = True

    def begin(self, root: str, options) -> None:
        head = {
            "schema": SCHEMA,
            "tool": {"name": "rocport", "version": TOOL_VERSION},
            "root": root,
            "target": options.target.to_dict(),
        }
        if self.rules is not None:
            head["rules"] = [rule.code for rule in self.rules]
        head.update(self.extra)
        text = json.dumps(head, indent=None)
        self.out.write(text[:-1] + ', "files": [\n')

    def add(self, result: FileResult) -> None:
        if not self._first:
            self.out.write(",\n")
        self._first = False
        data = result.to_dict()
        if self.slim and data.get("translation"):
            data["translation"] = {k: v for k, v in data["translation"].items() if k in _SLIM}
        self.out.write(json.dumps(data))

    def end(self, summary: Summary) -> None:
        self.out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
