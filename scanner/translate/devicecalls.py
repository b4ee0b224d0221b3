"""CUDA device functions HIPIFY's table calls unsupported that HIP can say exactly with what it has:

- CUDA's integer min/max (`umin`, `umax`, `llmin`, `llmax`, `ullmin`, `ullmax`: both arguments converted to the
  type, the smaller or larger returned) -> HIP's device template `::min<T>`/`::max<T>` (clang's __clang_hip_math.h,
  `(a < b) ? a : b`) with T the CUDA function's type, so the arguments convert as they did. Qualified with `::` so
  that `using namespace std` cannot make `std::min<T>` ambiguous with it;
- `atomicInc_system(p, v)`/`atomicDec_system(p, v)` -> the builtins HIP's own atomicInc/atomicDec call, at system
  scope (`""`, as HIP's other *_system atomics are): `__builtin_amdgcn_atomic_inc32(p, v, __ATOMIC_RELAXED, "")`.

Only calls are rewritten (a name after `.`/`->` or a declaration's type is left alone), and the min/max only in
CUDA sources: plain C/C++ defines functions of these names too, and a file without CUDA is never edited.
"""

from __future__ import annotations

from scanner.translate.tokenwalk import IDENT, KEYWORD, Span, call_at, prev_code, text

Edit = tuple[int, int, bytes]

_MIN_MAX = {
    b"umin": b"::min<unsigned int>(",
    b"umax": b"::max<unsigned int>(",
    b"llmin": b"::min<long long int>(",
    b"llmax": b"::max<long long int>(",
    b"ullmin": b"::min<unsigned long long int>(",
    b"ullmax": b"::max<unsigned long long int>(",
}
_ATOMICS = {
    b"atomicInc_system": b"__builtin_amdgcn_atomic_inc32(",
    b"atomicDec_system": b"__builtin_amdgcn_atomic_dec32(",
}
MIN_MAX = frozenset(_MIN_MAX)
CALLS = MIN_MAX | frozenset(_ATOMICS)
# Keywords a call may follow (`return umin(a, b)`); any other keyword or a name before it makes a declaration.
_BEFORE_A_CALL = frozenset({b"return", b"case", b"else", b"do", b"throw", b"co_return", b"sizeof"})


def call_edits(data: bytes, spans: list[Span], i: int, name: bytes) -> list[Edit]:
    """The edits for the two-argument call whose name is token i; none when it is not such a call."""
    before = prev_code(spans, i)
    global_scope = False  # `::umin(a, b)`: CUDA's own, named from the global namespace
    if before >= 0 and text(data, spans[before]) == b"::":
        owner = prev_code(spans, before)
        if owner >= 0 and (spans[owner][0] == IDENT or text(data, spans[owner]) == b">"):
            return []  # `my::umin(a, b)`: a namespace's or class's own
        global_scope, before = True, owner
    if before >= 0 and not global_scope:
        kind, word = spans[before][0], text(data, spans[before])
        if kind == IDENT or (kind == KEYWORD and word not in _BEFORE_A_CALL) or word in (b".", b"->", b"~"):
            return []  # a declaration (`unsigned int umin(`), a member
    call = call_at(data, spans, i)
    if call is None or len(call[2]) != 2:
        return []
    paren, close, _ = call
    start = spans[i][1]
    if name in _MIN_MAX:
        opening = _MIN_MAX[name]
        return [(start, spans[paren][1] + 1, opening[2:] if global_scope else opening)]
    close_start = spans[close][1]
    return [(start, spans[paren][1] + 1, _ATOMICS[name]), (close_start, close_start + 1, b', __ATOMIC_RELAXED, "")')]
