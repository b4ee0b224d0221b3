"""Dockerfiles and Containerfiles as instructions (`FROM`, `RUN`, `ENV`, ...), continuation lines joined, with
the map back to physical lines. The grammar is line-based (an instruction word, then arguments; `\\` continues;
`#` starts a comment only at the start of a line), so this is a careful line reader rather than a dependency.
Heredoc bodies (`RUN <<EOF`) are read as part of their instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.formats.lines import LogicalLine, strip_comment

_INSTRUCTION = re.compile(r"^\s*([A-Za-z]+)\b\s*(.*)$", re.S)
_HEREDOC = re.compile(r"<<-?\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?")


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case
    args: str
    logical: LogicalLine
    args_offset: int  # where `args` starts in logical.text

    @property
    def line(self) -> int:
        return self.logical.line

    def where(self, offset_in_args: int) -> tuple[int, int]:
        return self.logical.where(self.args_offset + offset_in_args)


def instructions(facts) -> list[Instruction]:
    cached = facts.cache.get("dockerfile")
    if cached is not None:
        return cached
    out: list[Instruction] = []
    lines = facts.lines
    i = 0
    while i < len(lines):
        raw = lines[i]
        if not raw.strip() or raw.lstrip().startswith("#"):
            i += 1
            continue
        text, pieces = "", []
        heredoc = ""
        while i < len(lines):
            body = lines[i].rstrip()
            # A trailing ` # comment` is a shell comment inside RUN, and not part of other instructions' values.
            body = strip_comment(body).rstrip() if not heredoc else body
            continued = body.endswith("\\") and not heredoc
            if continued:
                body = body[:-1]
            indent = len(body) - len(body.lstrip())
            pieces.append((len(text), i + 1, indent + 1))
            text += body.lstrip() + (" " if not heredoc else "\n")
            if not heredoc:
                match = _HEREDOC.search(body)
                heredoc = match.group(1) if match and body.lstrip().upper().startswith(("RUN", "COPY")) else ""
            elif body.strip() == heredoc:
                heredoc = ""
            i += 1
            if not continued and not heredoc:
                break
        logical = LogicalLine(text.rstrip(), tuple(pieces))
        match = _INSTRUCTION.match(logical.text)
        if match:
            out.append(Instruction(match.group(1).upper(), match.group(2), logical, match.start(2)))
    facts.cache["dockerfile"] = out
    return out
