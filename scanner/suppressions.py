"""Inline suppressions: `// rocport: ignore[ROC101] reason` silences one rule on one line.

C, C++ and CUDA comments come from libclang's tokens; text files (CMake, shell, YAML, Dockerfiles, Python, ...)
use `# rocport: ignore[ROC221] reason`, read by `hash_comments`.

The brackets hold codes or rule names, comma-separated; a name a rule had before (`Rule.formerly`) still works:
it is read as the rule's current name (scanner.rules.canonical).

The comment applies to its own line, or, when it stands alone on a line, to the next line of code.
A suppressed finding is still reported, marked suppressed with its reason: it is never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.parsing.tokens import Token
from scanner.rules import canonical

_MARKER = re.compile(r"rocport:\s*ignore\[([A-Za-z0-9_,\s-]+)\]\s*(.*?)\s*(?:\*/)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Suppression:
    line: int
    rules: frozenset[str]  # codes or rule names (former names read as current ones)
    reason: str


def collect(comments: list[Token], lines: list[str]) -> dict[int, list[Suppression]]:
    by_line: dict[int, list[Suppression]] = {}
    for comment in comments:
        match = _MARKER.search(comment.text)
        if not match:
            continue
        rules = frozenset(canonical(part.strip()) for part in match.group(1).split(",") if part.strip())
        reason = match.group(2).strip()
        line = comment.line
        before = lines[line - 1][: max(comment.col - 1, 0)] if line <= len(lines) else ""
        if not before.strip():
            line = _next_code_line(lines, line + comment.text.count("\n"))
        by_line.setdefault(line, []).append(Suppression(line, rules, reason))
    return by_line


def hash_comments(lines: list[str]) -> list[Token]:
    """The `#` comments of a text file that carry a suppression marker, as comment tokens."""
    out = []
    for number, line in enumerate(lines, start=1):
        if "rocport" not in line or not _MARKER.search(line):
            continue
        marker = line.lower().find("rocport:")
        start = line.rfind("#", 0, marker)
        if start >= 0:
            out.append(Token("comment", line[start:], number, start + 1, 0))
    return out


def _next_code_line(lines: list[str], after: int) -> int:
    line = after + 1
    while line <= len(lines) and not lines[line - 1].strip():
        line += 1
    return line


def match(by_line: dict[int, list[Suppression]], line: int, code: str, name: str) -> Suppression | None:
    for suppression in by_line.get(line, ()):
        if code in suppression.rules or name in suppression.rules:
            return suppression
    return None
