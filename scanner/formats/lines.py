"""The line view every text format shares: `#` comments removed (quote-aware), continuation lines joined, and
shell words.

Rules report at a physical line and column, so a joined logical line keeps the map back to its pieces. Results
are cached on the file's facts (`facts.cache`): a file's lines are stripped once whatever number of rules read
them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass


def strip_comment(line: str) -> str:
    """`line` without its `#` comment: a `#` at the start or after whitespace, outside quotes, not escaped.

    `$#`, `${#x}`, `a#b` and URL fragments stay (their `#` does not start a word)."""
    if "#" not in line:
        return line
    quote = ""
    prev = " "
    for i, ch in enumerate(line):
        if quote:
            if ch == quote and prev != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and prev in " \t" and (i < 2 or line[i - 1] != "\\"):
            return line[:i]
        prev = ch
    return line


def code_lines(facts) -> list[tuple[int, str]]:
    """(line number, text without comment) for every line holding something besides a comment."""
    cached = facts.cache.get("code_lines")
    if cached is None:
        cached = []
        for number, line in enumerate(facts.lines, start=1):
            text = strip_comment(line)
            if text.strip():
                cached.append((number, text.rstrip()))
        facts.cache["code_lines"] = cached
    return cached


def find(facts, pattern: re.Pattern, group: int | str = 0) -> Iterator[tuple[int, int, re.Match]]:
    """(line, column, match) of every match of `pattern` in the file's code lines (comments excluded)."""
    for number, text in code_lines(facts):
        for match in pattern.finditer(text):
            yield number, match.start(group) + 1, match


def has(facts, needle: str) -> bool:
    """A cheap pre-filter: does the raw text mention `needle` (case-insensitive) at all?"""
    lowered = facts.cache.get("lower")
    if lowered is None:
        lowered = facts.cache["lower"] = facts.text.lower()
    return needle.lower() in lowered


@dataclass(frozen=True)
class LogicalLine:
    """Physical lines joined at trailing backslashes; `pieces` maps offsets back to (line, column)."""

    text: str
    pieces: tuple[tuple[int, int, int], ...]  # (offset in text, physical line, column of that offset)

    @property
    def line(self) -> int:
        return self.pieces[0][1]

    def where(self, offset: int) -> tuple[int, int]:
        line, col = self.pieces[0][1], self.pieces[0][2]
        for start, piece_line, piece_col in self.pieces:
            if start > offset:
                break
            line, col = piece_line, piece_col + (offset - start)
        return line, col


def logical_lines(facts) -> list[LogicalLine]:
    """Comment-free lines with `\\` continuations joined (shell, Makefiles, Dockerfiles)."""
    cached = facts.cache.get("logical_lines")
    if cached is not None:
        return cached
    out: list[LogicalLine] = []
    text, pieces = "", []
    for number, line in enumerate(facts.lines, start=1):
        body = strip_comment(line).rstrip()
        if not body.strip() and not pieces:
            continue
        continued = body.endswith("\\") and not body.endswith("\\\\")
        if continued:
            body = body[:-1]
        indent = len(body) - len(body.lstrip())
        pieces.append((len(text), number, indent + 1))
        text += body.lstrip() + " "
        if not continued:
            out.append(LogicalLine(text.rstrip(), tuple(pieces)))
            text, pieces = "", []
    if pieces:
        out.append(LogicalLine(text.rstrip(), tuple(pieces)))
    facts.cache["logical_lines"] = out
    return out


_WORD = re.compile(r"""(?:[^\s'"]+|'[^']*'|"(?:\\.|[^"\\])*")+""")


def words(text: str) -> list[tuple[str, int]]:
    """Shell words of `text` with their offsets, quotes removed (shlex's rules, never raising)."""
    out = []
    for match in _WORD.finditer(text):
        raw = match.group(0)
        try:
            parts = shlex.split(raw)
        except ValueError:
            parts = [raw.strip("'\"")]
        out.append(("".join(parts), match.start()))
    return out


def commands(text: str) -> Iterator[list[tuple[str, int]]]:
    """The simple commands of a shell line (split at `;`, `&&`, `||`, `|`, `$(`, backquotes), as words."""
    start = 0
    for match in re.finditer(r";|&&|\|\||\||\$\(|`|\)", text + ";"):
        segment = text[start : match.start()]
        found = [(w, start + off) for w, off in words(segment)]
        # Leading assignments (`CUDA_VISIBLE_DEVICES=0 python x.py`) stay in the command: rules read them.
        if found:
            yield found
        start = match.end()


# -- text a script prints ---------------------------------------------------------------------------------
# What may precede a command word on a line: a YAML list item or `run:` key, Make's recipe prefixes (`@`, `-`, `+`),
# Docker's `RUN`, and words that run the command after them.
_LEAD = re.compile(r"^\s*(?:-\s+)?(?:(?:run|script|command)\s*:\s*[|>]?[-+]?\s*)?(?:RUN\s+)?[@+-]*\s*", re.I)
_PRINTERS = frozenset({"echo", "printf"})
_SEPARATORS = (";;", "&&", "||", ";", "|", "&")
_EXPANSION = re.compile(r"\$(?:\{[^}]*\}|[A-Za-z_]\w*)")


def echoed(text: str, offset: int) -> bool:
    """Whether `offset` of the shell line `text` lies in what an `echo` or `printf` prints to the terminal: a usage
    line, a hint (`echo "run: nvcc -arch=sm_80 k.cu"`). Not when the printed text goes anywhere but the terminal (a
    `>`/`>>` redirection into `$GITHUB_ENV` or a file, a pipe into `sh` or `tee`), and not inside a command
    substitution (`echo "$(nvcc --version)"` runs nvcc) or a variable's expansion (`echo "$CUDA_HOME"` reads it)."""
    if "echo" not in text and "printf" not in text:
        return False
    for start, end, printed, runs in _segments(text):
        if start <= offset < end:
            return printed and not any(a <= offset < b for a, b in runs)
    return False


def _segments(text: str) -> list[tuple[int, int, bool, list[tuple[int, int]]]]:
    """The simple commands of a line at its top level, quote-aware: (start, end, whether it only prints to the
    terminal, the spans of its command substitutions)."""
    out = []
    quote, depth, start, i = "", 0, 0, 0
    redirected = False
    runs: list[tuple[int, int]] = []
    opened = 0
    while i < len(text):
        ch = text[i]
        if quote == "'":
            quote = "" if ch == "'" else quote
        elif ch == "\\":
            i += 1
        elif text.startswith("$(", i):
            if depth == 0:
                opened = i
            depth += 1
            i += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                runs.append((opened, i + 1))
        elif ch == "$" and depth == 0 and (name := _EXPANSION.match(text, i)):
            runs.append((i, name.end()))  # `${CUDA_VISIBLE_DEVICES}` in the text: the variable is read
            i = name.end()
            continue
        elif ch == "`" and quote != "'":
            close = text.find("`", i + 1)
            close = len(text) if close < 0 else close
            runs.append((i, close + 1))
            i = close
        elif ch in "'\"" and depth == 0:
            quote = "" if quote == ch else (ch if not quote else quote)
        elif not quote and depth == 0:
            if ch == ">":
                redirected = True
            separator = next((s for s in _SEPARATORS if text.startswith(s, i)), "")
            if separator:
                out.append(_segment(text, start, i, redirected or separator == "|", runs))
                i += len(separator)
                start, redirected, runs = i, False, []
                continue
        i += 1
    out.append(_segment(text, start, len(text), redirected, runs))
    return out


def _segment(text: str, start: int, end: int, redirected: bool, runs) -> tuple:
    lead = _LEAD.match(text, start)
    word = re.match(r"[\w./-]+", text[lead.end() : end]) if lead else None
    printed = word is not None and word.group(0) in _PRINTERS and not redirected
    return start, end, printed, list(runs)
