"""The JSON report, schema "rocport-scan/1" (docs/json-format.md), written as a stream.

{"schema": "rocport-scan/1", "tool": {...}, "root": "...", "target": {...}, "files": [FileResult...],
 "summary": {...}}
"""

from __future__ import annotations

import json
from typing import TextIO

from scanner.model import FileResult
from scanner.report.summary import Summary

SCHEMA = "rocport-scan/1"


class JsonReport:
    def __init__(self, out: TextIO):
        self.out = out
        self._first = True

    def begin(self, root: str, options) -> None:
        from scanner.version import TOOL_VERSION

        head = {"schema": SCHEMA, "tool": {"name": "rocport", "version": TOOL_VERSION}, "root": root,
                "target": options.target.to_dict()}
        text = json.dumps(head, indent=None)
        self.out.write(text[:-1] + ', "files": [\n')

    def add(self, result: FileResult) -> None:
        if not self._first:
            self.out.write(",\n")
        self._first = False
        self.out.write(json.dumps(result.to_dict()))

    def end(self, summary: Summary) -> None:
        self.out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
