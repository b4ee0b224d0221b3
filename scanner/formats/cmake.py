"""CMake files as command invocations: `name(arg arg "quoted arg" [[bracket arg]])`, with each argument's line
and column, comments (`#`, `#[[...]]`) skipped. CMake's grammar is small and regular, and no maintained PyPI
parser fits, so this is its lexer: commands spanning lines, nested parentheses, quoted and bracket arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Arg:
    value: str
    line: int
    col: int
    quoted: bool = False


@dataclass(frozen=True)
class Command:
    name: str  # lower case: CMake command names are case-insensitive
    args: tuple[Arg, ...]
    line: int
    col: int

    def values(self) -> list[str]:
        return [a.value for a in self.args]


_BRACKET_OPEN = re.compile(r"\[(=*)\[")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def commands(facts) -> list[Command]:
    cached = facts.cache.get("cmake_commands")
    if cached is None:
        cached = facts.cache["cmake_commands"] = parse_commands(facts.text)
    return cached


def parse_commands(text: str) -> list[Command]:
    out: list[Command] = []
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def where(offset: int) -> tuple[int, int]:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - line_starts[lo] + 1

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            i = _skip_comment(text, i)
            continue
        match = _IDENT.match(text, i) if ch.isalpha() or ch == "_" else None
        if match is not None:  # a letter outside ASCII (é, in a Latin-1 or UTF-8 file) starts no command
            j = match.end()
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "(":
                args, i = _arguments(text, j + 1, where)
                out.append(Command(match.group(0).lower(), tuple(args), *where(match.start())))
                continue
            i = j
            continue
        if ch == '"':
            i = _skip_quoted(text, i)
            continue
        i += 1
    return out


def _skip_comment(text: str, i: int) -> int:
    bracket = _BRACKET_OPEN.match(text, i + 1)
    if bracket:
        end = text.find("]" + bracket.group(1) + "]", bracket.end())
        return len(text) if end < 0 else end + len(bracket.group(1)) + 2
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _skip_quoted(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == '"':
            return j + 1
        j += 1
    return len(text)


def _arguments(text: str, i: int, where) -> tuple[list[Arg], int]:
    """Arguments up to the matching `)`; returns them and the offset after it."""
    args: list[Arg] = []
    depth, n = 1, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif ch == "#":
            i = _skip_comment(text, i)
        elif ch == "(":
            depth += 1
            i += 1
        elif ch == ")":
            depth -= 1
            i += 1
            if depth == 0:
                return args, i
        elif ch == '"':
            end = _skip_quoted(text, i)
            args.append(Arg(text[i + 1 : end - 1], *where(i), quoted=True))
            i = end
        elif ch == "[" and _BRACKET_OPEN.match(text, i):
            bracket = _BRACKET_OPEN.match(text, i)
            close = "]" + bracket.group(1) + "]"
            end = text.find(close, bracket.end())
            end = n if end < 0 else end
            args.append(Arg(text[bracket.end() : end], *where(i), quoted=True))
            i = end + len(close)
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n()#"':
                if text[j] == "\\":
                    j += 1
                j += 1
            args.append(Arg(text[i:j], *where(i)))
            i = j
    return args, n
