"""What a file already includes, and where: each `#include` with the conditional blocks it sits in, and where code
(anything but directives and comments) is, so that the translator adds no include the file already has.

An include the file has covers one the translator would write at a point when it is always seen there: its blocks
are the point's own or enclosing ones (an `#ifdef DEBUG` include does not cover code outside that block; an include
guard encloses both), and it comes before the point or after it with only directives and comments between (an
include after code that needs it would not do)."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from scanner.translate.tokenwalk import COMMENT, next_code, text

_HEADER = re.compile(rb'\s*([<"])([^>"\n]+)([>"])')

# Spellings of one header that declare the same names for host code. Not <cmath> for <math.h>: libstdc++'s <cmath>
# undefines C's macros (isfinite) and declares std:: functions only, so host code calling isfinite(x) still needs
# <math.h>.
SAME_HEADER = {b"cassert": b"assert.h", b"cstring": b"string.h"}
_OPENS = frozenset({b"if", b"ifdef", b"ifndef"})
_BRANCHES = frozenset({b"elif", b"else", b"elifdef", b"elifndef"})


@dataclass
class IncludeLine:
    hash_offset: int  # the `#`
    name_start: int  # first byte of the header name
    name: bytes
    end: int  # just past the closing delimiter


def parse(data: bytes, hash_offset: int, after_keyword: int) -> IncludeLine | None:
    """The include line whose keyword ends at `after_keyword`, or None when no <name> or "name" follows."""
    match = _HEADER.match(data, after_keyword)
    if not match:
        return None
    return IncludeLine(hash_offset, match.start(2), match.group(2), match.end(3))


def header_key(name: bytes) -> bytes:
    """One key per header whatever the spelling: `<cassert>` and `"assert.h"` are assert.h."""
    name = name.strip()
    return SAME_HEADER.get(name, name)


@dataclass(frozen=True)
class Included:
    key: bytes  # header_key of the name
    start: int  # the `#`
    blocks: tuple[int, ...]  # ids of the conditional blocks around it, outermost first


class FileIncludes:
    def __init__(self, data: bytes, spans: list[tuple[int, int, int]]):
        self.includes: list[Included] = []
        self.code: list[int] = []  # offsets of tokens outside directives and comments, ascending
        self._blocks: dict[int, tuple[int, ...]] = {}  # a directive's `#` -> its blocks
        self._walk(data, spans)

    def _walk(self, data: bytes, spans: list[tuple[int, int, int]]) -> None:
        stack: list[int] = []
        opened = 0
        directive_end = -1
        for i, (kind, off, _length) in enumerate(spans):
            if off < directive_end or kind == COMMENT:
                continue
            if text(data, spans[i]) != b"#" or data[data.rfind(b"\n", 0, off) + 1 : off].strip():
                self.code.append(off)
                continue
            directive_end = _line_end(data, off)
            keyword_index = next_code(spans, i)
            keyword = text(data, spans[keyword_index]) if keyword_index < len(spans) else b""
            if keyword in _OPENS or (keyword in _BRANCHES and stack):
                if keyword in _BRANCHES:
                    stack.pop()
                opened += 1
                stack.append(opened)
            elif keyword == b"endif" and stack:
                stack.pop()
            self._blocks[off] = tuple(stack)
            if keyword in (b"include", b"import"):
                _, keyword_off, keyword_length = spans[keyword_index]
                line = parse(data, off, keyword_off + keyword_length)
                if line is not None:
                    self.includes.append(Included(header_key(line.name), off, tuple(stack)))

    def covers(self, name: bytes, directive: int, at: int, exclude: int = -1) -> bool:
        """Whether the file includes `name` (any spelling) where an include written at offset `at`, next to the
        directive whose `#` is at `directive`, would be seen; `exclude`: that directive itself."""
        key, blocks = header_key(name), self._blocks.get(directive, ())
        for included in self.includes:
            if included.key != key or included.start == exclude or included.blocks != blocks[: len(included.blocks)]:
                continue
            if included.start < at or not self._code_between(at, included.start):
                return True
        return False

    def _code_between(self, start: int, end: int) -> bool:
        i = bisect_left(self.code, start)
        return i < len(self.code) and self.code[i] < end


def _line_end(data: bytes, off: int) -> int:
    """The end of the logical line starting at `off` (backslash-newline continues it)."""
    while True:
        newline = data.find(b"\n", off)
        if newline < 0:
            return len(data)
        if data[newline - 1 : newline] == b"\\" or data[newline - 2 : newline] == b"\\\r":
            off = newline + 1
            continue
        return newline
