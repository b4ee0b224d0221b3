"""Small helpers over token spans (kind, offset, length): matching brackets and splitting argument lists."""

from __future__ import annotations

PUNCT, KEYWORD, IDENT, LITERAL, COMMENT = 0, 1, 2, 3, 4
_OPEN = {b"(": b")", b"[": b"]", b"{": b"}"}
_CLOSE = {b")", b"]", b"}"}

Span = tuple[int, int, int]


def text(data: bytes, span: Span) -> bytes:
    return data[span[1] : span[1] + span[2]]


def next_code(spans: list[Span], i: int) -> int:
    """Index of the next token after i that is not a comment, or len(spans)."""
    i += 1
    while i < len(spans) and spans[i][0] == COMMENT:
        i += 1
    return i


def prev_code(spans: list[Span], i: int) -> int:
    i -= 1
    while i >= 0 and spans[i][0] == COMMENT:
        i -= 1
    return i


def matching_close(data: bytes, spans: list[Span], i: int) -> int | None:
    """Index of the bracket closing the one at i, or None."""
    depth = 0
    for j in range(i, len(spans)):
        if spans[j][0] != PUNCT:
            continue
        tok = text(data, spans[j])
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return None


def split_arguments(data: bytes, spans: list[Span], open_index: int, close_index: int) -> list[tuple[int, int]]:
    """Token index ranges [first, last] of each top-level argument between the brackets (empty list: no args)."""
    args, depth, start = [], 0, open_index + 1
    for j in range(open_index + 1, close_index):
        kind = spans[j][0]
        if kind != PUNCT:
            continue
        tok = text(data, spans[j])
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth -= 1
        elif tok == b"," and depth == 0:
            args.append((start, j - 1))
            start = j + 1
    if start <= close_index - 1:
        args.append((start, close_index - 1))
    return [(a, b) for a, b in args if a <= b and any(spans[k][0] != COMMENT for k in range(a, b + 1))]


def byte_range(spans: list[Span], first: int, last: int) -> tuple[int, int]:
    return spans[first][1], spans[last][1] + spans[last][2]


def call_at(data: bytes, spans: list[Span], i: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """For a call whose name is token i: its "(" and ")" token indices and its arguments (first, last token); None
    when no argument list follows or it does not close."""
    paren = next_code(spans, i)
    if paren >= len(spans) or text(data, spans[paren]) != b"(":
        return None
    close = matching_close(data, spans, paren)
    if close is None:
        return None
    return paren, close, split_arguments(data, spans, paren, close)


def member_declarations(data: bytes, spans: list[Span]) -> frozenset[int]:
    """Indices of names a class of the file declares as its own methods: written right after an identifier (a call
    never follows one) and before `(`, either directly in a class or struct body (`CUresult cuLaunchKernel(...)
    const;`) or anywhere when the file also uses the name as a member (`w.cuGetErrorName(`). TensorRT's and
    FasterTransformer's CUDADriverWrapper name its methods after the driver functions they wrap: those are the
    class's, not CUDA's."""
    members = {
        text(data, spans[j]) for j in range(1, len(spans)) if text(data, spans[prev_code(spans, j)]) in (b".", b"->")
    }
    out = set()
    bodies: list[int] = []  # brace depths at which a class body is open
    depth, pending = 0, False  # pending: `class X` seen, its `{` not yet
    for j, (kind, _, _) in enumerate(spans):
        tok = text(data, spans[j])
        if tok in (b"class", b"struct") and text(data, spans[prev_code(spans, j)]) not in (b"<", b","):
            pending = True  # not a template's `class T`
        elif tok == b";":
            pending = False
        elif tok == b"{":
            depth += 1
            if pending:
                bodies.append(depth)
                pending = False
        elif tok == b"}":
            if bodies and bodies[-1] == depth:
                bodies.pop()
            depth -= 1
        elif kind == IDENT and j and spans[prev_code(spans, j)][0] == IDENT:
            opening = next_code(spans, j)
            in_body = bool(bodies) and bodies[-1] == depth
            called = opening < len(spans) and text(data, spans[opening]) == b"("
            if called and (in_body or tok in members):
                out.add(j)
    return frozenset(out)
