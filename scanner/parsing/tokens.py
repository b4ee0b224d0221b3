"""The main file's tokens from libclang's tokenizer, and what the preprocessor lines say.

Tokens are lexed raw (before preprocessing), so they cover every #if branch, active or not; comments and
string literals are their own tokens, which is how rules stay out of them.
"""

from __future__ import annotations

import ctypes
import re
import struct
from dataclasses import dataclass, field
from typing import NamedTuple

import clang.cindex as ci

IDENT, KEYWORD, LITERAL, PUNCT, COMMENT = "identifier", "keyword", "literal", "punctuation", "comment"
_HEADER = re.compile(r'^\s*#\s*include(?:_next)?\s*([<"])([^>"]+)[>"]')


class Token(NamedTuple):
    """One lexed token. A NamedTuple: files have tens of thousands of them and creation cost matters."""

    kind: str
    text: str
    line: int
    col: int
    offset: int


@dataclass(slots=True, frozen=True)
class Directive:
    """One preprocessor line: `#define WARP_SIZE 32` is Directive("define", line, tokens after "define")."""

    name: str
    line: int
    end_line: int
    tokens: tuple[Token, ...]

    @property
    def text(self) -> str:
        return " ".join(t.text for t in self.tokens)


@dataclass(slots=True, frozen=True)
class Include:
    header: str
    angled: bool
    line: int
    col: int


@dataclass(slots=True, frozen=True)
class Guard:
    """An enclosing conditional: the directive's condition text, negated in an #else/#elif chain."""

    directive: str  # if | ifdef | ifndef | elif | else
    condition: str
    line: int


@dataclass
class TokenView:
    tokens: list[Token]
    code: list[Token]  # tokens outside preprocessor lines and comments
    comments: list[Token]
    directives: list[Directive]
    includes: list[Include]
    guards_by_line: dict[int, tuple[Guard, ...]] = field(default_factory=dict)

    def guards_at(self, line: int) -> tuple[Guard, ...]:
        return self.guards_by_line.get(line, ())


def tokenize(tu: ci.TranslationUnit, path: str, text: str) -> list[Token]:
    """All tokens of the main file, from one clang_tokenize call."""
    data = text.encode("utf-8")
    spans = token_spans(tu, path, data)
    if not spans:
        return []
    line_starts = _line_starts(data)
    out: list[Token] = []
    append = out.append
    kinds = _KIND_BY_INT
    line, start, next_start = 1, 0, line_starts[1]
    for kind, offset, length in spans:
        while offset >= next_start:
            line += 1
            start, next_start = next_start, line_starts[line]
        # Columns are 1-based bytes, as clang counts them.
        append(
            Token(
                kinds.get(kind, PUNCT),
                data[offset : offset + length].decode("utf-8", "replace"),
                line,
                offset - start + 1,
                offset,
            )
        )
    return out


def token_spans(tu: ci.TranslationUnit, path: str, data: bytes) -> list[tuple[int, int, int]]:
    """(kind, byte offset, byte length) of every token of the main file; kind is CXTokenKind (0 punctuation,
    1 keyword, 2 identifier, 3 literal, 4 comment).

    Reading each token through the Python bindings costs ~5 native calls per token and dominated scan time.
    A CXToken already holds its kind, its raw source location and its length (clang's CIndex sets int_data to
    [kind, raw location, length]); for a file's raw lexer tokens the raw location is the file's base offset
    plus the token's offset. The base is taken from the first token through the public API and the result is
    checked against the public API at both ends; on any mismatch the slow, public path is used.
    """
    file = tu.get_file(path)
    extent = ci.SourceRange.from_locations(
        ci.SourceLocation.from_offset(tu, file, 0), ci.SourceLocation.from_offset(tu, file, len(data))
    )
    memory = ctypes.POINTER(ci.Token)()
    count = ctypes.c_uint()
    ci.conf.lib.clang_tokenize(tu, extent, ctypes.byref(memory), ctypes.byref(count))
    n = count.value
    if n == 0:
        return []
    try:
        array = ctypes.cast(memory, ctypes.POINTER(ci.Token * n)).contents
        spans = _fast_spans(tu, array, n)
        if spans is None or not _agrees(tu, array, spans, 0) or not _agrees(tu, array, spans, n - 1):
            spans = _public_spans(tu, array, n)
        return spans
    finally:
        ci.conf.lib.clang_disposeTokens(tu, memory, count)


_KIND_BY_INT = {0: PUNCT, 1: KEYWORD, 2: IDENT, 3: LITERAL, 4: COMMENT}
_CXTOKEN = struct.Struct("@4IP")  # unsigned int_data[4]; void *ptr_data (native layout)


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    find = data.find
    pos = find(b"\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = find(b"\n", pos + 1)
    starts.append(len(data) + 1)
    return starts


def _fast_spans(tu, array, n: int) -> list[tuple[int, int, int]] | None:
    if ctypes.sizeof(ci.Token) != _CXTOKEN.size:
        return None
    base = array[0].int_data[1] - ci.conf.lib.clang_getTokenLocation(tu, array[0]).offset
    raw = ctypes.string_at(ctypes.addressof(array), n * _CXTOKEN.size)
    return [(kind, loc - base, length) for kind, loc, length, _, _ in _CXTOKEN.iter_unpack(raw)]


def _agrees(tu, array, spans, i: int) -> bool:
    kind, offset, length = spans[i]
    loc = ci.conf.lib.clang_getTokenLocation(tu, array[i])
    spelling = ci.conf.lib.clang_getTokenSpelling(tu, array[i])
    return (
        loc.offset == offset
        and len(spelling.encode("utf-8")) == length
        and ci.conf.lib.clang_getTokenKind(array[i]) == kind
    )


def _public_spans(tu, array, n: int) -> list[tuple[int, int, int]]:
    out = []
    for i in range(n):
        tok = array[i]
        loc = ci.conf.lib.clang_getTokenLocation(tu, tok)
        spelling = ci.conf.lib.clang_getTokenSpelling(tu, tok)
        out.append((ci.conf.lib.clang_getTokenKind(tok), loc.offset, len(spelling.encode("utf-8"))))
    return out


def build_view(tokens: list[Token], lines: list[str]) -> TokenView:
    code, comments, directives, includes = [], [], [], []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.kind == COMMENT:
            comments.append(tok)
            i += 1
            continue
        if tok.text == "#" and _starts_line(tokens, i) and i + 1 < n and tokens[i + 1].line == tok.line:
            name_tok = tokens[i + 1]
            end_line = _logical_line_end(lines, tok.line)
            j = i + 2
            body = []
            while j < n and tokens[j].line <= end_line:
                if tokens[j].kind != COMMENT:
                    body.append(tokens[j])
                else:
                    comments.append(tokens[j])
                j += 1
            directives.append(Directive(name_tok.text, tok.line, end_line, tuple(body)))
            if name_tok.text in ("include", "include_next", "import"):
                match = _HEADER.match(lines[tok.line - 1]) if tok.line <= len(lines) else None
                if match:
                    includes.append(Include(match.group(2).strip(), match.group(1) == "<", tok.line, tok.col))
            i = j
            continue
        code.append(tok)
        i += 1
    view = TokenView(tokens, code, comments, directives, includes)
    view.guards_by_line = _guards(directives, len(lines))
    return view


def _starts_line(tokens: list[Token], i: int) -> bool:
    return i == 0 or tokens[i - 1].line != tokens[i].line or tokens[i - 1].kind == COMMENT


def _logical_line_end(lines: list[str], line: int) -> int:
    while line <= len(lines) and lines[line - 1].rstrip().endswith("\\"):
        line += 1
    return line


# An #elif/#else is described by the branches before it: naming every one would make a chain of thousands of
# #elif quadratic in text (a 200 KB file took gigabytes), so the first few are named and the rest counted.
_CHAIN_NAMED = 8


def _guards(directives: list[Directive], line_count: int) -> dict[int, tuple[Guard, ...]]:
    """For each line inside at least one #if, the stack of conditions that enclose it."""
    result: dict[int, tuple[Guard, ...]] = {}
    stack: list[Guard] = []
    # Conditions of earlier branches of the current chain, to describe an #else ("not (A or B)").
    chain: list[list[str]] = []
    prev_line = 1
    for d in directives:
        if stack:
            frozen = tuple(stack)
            for line in range(prev_line, d.line):
                result[line] = frozen
        if stack:  # a directive's own lines sit inside the conditions that enclose it
            for line in range(d.line, d.end_line + 1):
                result[line] = tuple(stack)
        prev_line = d.end_line + 1
        if d.name in ("if", "ifdef", "ifndef"):
            if d.name == "if":
                cond = d.text
            elif d.name == "ifdef":
                cond = f"defined({d.text})"
            else:
                cond = f"!defined({d.text})"
            stack.append(Guard(d.name, cond, d.line))
            chain.append([cond])
        elif d.name in ("elif", "elifdef", "elifndef", "else") and stack:
            previous = chain[-1]
            negated = " && ".join(f"!({c})" for c in previous[:_CHAIN_NAMED])
            if len(previous) > _CHAIN_NAMED:
                negated += f" && !(any of {len(previous) - _CHAIN_NAMED} more earlier branches)"
            cond = negated if d.name == "else" else f"{negated} && ({d.text})"
            stack[-1] = Guard(d.name, cond, d.line)
            previous.append(d.text)
        elif d.name == "endif" and stack:
            stack.pop()
            chain.pop()
    if stack:
        frozen = tuple(stack)
        for line in range(prev_line, line_count + 1):
            result[line] = frozen
    return result
