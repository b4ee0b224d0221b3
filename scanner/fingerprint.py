"""Finding identity across scans: a content hash that leaves out the path and the line number.

content = sha256(rule code, enclosing function, the finding's line with whitespace collapsed)
  - no line number: a shift (lines added above) keeps the identity;
  - no following lines: editing the lines right after a finding keeps it (GitHub's weak spot);
  - the enclosing function's name, not its position: moving a function within the file keeps it;
  - no path: a renamed file carries its findings (the portal pairs renames through git).
Identical findings in one file (CUDA repeats lines often) get `occurrence` 0, 1, 2... in file order, so they
stay distinct and pair one-to-one across scans; the full identity is `fingerprint:occurrence`.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

from scanner.model import Finding

_SPACE = re.compile(r"\s+")
VERSION = "v1"


def normalise(line: str) -> str:
    return _SPACE.sub(" ", line).strip()


def content_hash(rule: str, function: str, snippet: str) -> str:
    digest = hashlib.sha256(f"{VERSION}\0{rule}\0{function}\0{normalise(snippet)}".encode()).hexdigest()
    return digest[:32]


def assign(findings: list[Finding], functions: list[str]) -> None:
    """Set `fingerprint` and `occurrence` on a file's findings (`functions[i]` encloses findings[i])."""
    order = sorted(range(len(findings)), key=lambda i: (findings[i].line, findings[i].column, findings[i].rule))
    seen: dict[str, int] = defaultdict(int)
    for i in order:
        finding = findings[i]
        finding.fingerprint = content_hash(finding.rule, functions[i], finding.snippet)
        finding.occurrence = seen[finding.fingerprint]
        seen[finding.fingerprint] += 1


def identity(finding: Finding) -> str:
    return f"{finding.fingerprint}:{finding.occurrence}"
