"""Rewrites that make CUDA's warp and cache-hint calls build with HIP, beyond hipify's renames:

- the 32-bit full mask of a warp-synchronous call (`__shfl_xor_sync(0xffffffff, v, o)`) becomes the 64-bit
  `0xffffffffffffffffull`: HIP's *_sync functions take a 64-bit mask and reject a 32-bit one with a
  static_assert, and "all lanes" of a 64-lane wavefront is the 64-bit mask. Any other mask is left alone: what a
  partial mask means on 64 lanes is a person's decision (ROC106 reports it). A macro the file defines as that
  mask (`#define FINAL_MASK 0xffffffff`, and nothing else) is widened the same way where a call names it;
- the streaming cache hints HIP does not declare become the plain load and store they hint at: `__ldcs(p)` ->
  `(*(p))`, `__stcs(p, v)` -> `(*(p) = (v))`. Same values, no hint: clang's `__builtin_nontemporal_load` would
  keep it but takes scalars and vectors only, and CUDA code streams `int4` and packed structs through these.
- in a file of cuda_bf16.h's types, `__ldg(p)` -> `(*(p))` too: HIP's `__ldg` is that plain load for every type it
  declares, and it declares none for `__hip_bfloat16`/`__hip_bfloat162`, which cuda_bf16.h overloads (a token
  cannot tell the pointer's type, so the whole file's calls take the load HIP's own would be).
hipify-clang and hipify-perl leave all of these as written, and the translation then fails to compile.
"""

from __future__ import annotations

import re

from scanner.translate.tokenwalk import Span, byte_range, call_at

Edit = tuple[int, int, bytes]

MASKED = frozenset(
    {
        b"__shfl_sync",
        b"__shfl_up_sync",
        b"__shfl_down_sync",
        b"__shfl_xor_sync",
        b"__ballot_sync",
        b"__any_sync",
        b"__all_sync",
        b"__uni_sync",
        b"__match_any_sync",
        b"__match_all_sync",
        b"__syncwarp",
        b"__reduce_add_sync",
        b"__reduce_min_sync",
        b"__reduce_max_sync",
        b"__reduce_and_sync",
        b"__reduce_or_sync",
        b"__reduce_xor_sync",
    }
)
# Every cache-operator load and store of CUDA's PTX ISA (cs: streaming, cg: global, ca: all levels, lu: last use,
# cv: volatile; wb/wt: write-back/-through): HIP declares none of them for the plain types.
STREAMING_LOADS = frozenset({b"__ldcs", b"__ldcg", b"__ldca", b"__ldlu", b"__ldcv"})
STREAMING_STORES = frozenset({b"__stcs", b"__stcg", b"__stwb", b"__stwt"})
STREAMING = STREAMING_LOADS | STREAMING_STORES
READ_ONLY_LOAD = b"__ldg"  # plain only in a file of bf16 types (the caller decides)
CALLS = MASKED | STREAMING
FULL_MASK_64 = b"0xffffffffffffffffull"
_FULL_MASK_32 = re.compile(rb"^\(?\s*(?:0[xX][fF]{8}[uU]?|~0[uU]?|0[xX][fF]{8}[uU][lL]?)\s*\)?$")


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]*?)[ \t]*(?://[^\n]*)?$", re.MULTILINE)


def full_mask_macros(data: bytes) -> frozenset[bytes]:
    """Object-like macros the file defines as the 32-bit full mask, every time it defines them
    (`#define FINAL_MASK 0xffffffff`): as a *_sync call's mask they mean "all lanes", as the literal does."""
    full, other = set(), set()
    for name, value in _DEFINE.findall(data):
        (full if _FULL_MASK_32.match(value.strip()) else other).add(name)
    return frozenset(full - other)


def call_edits(
    data: bytes, spans: list[Span], i: int, name: bytes, mask_macros: frozenset[bytes] = frozenset()
) -> tuple[list[Edit], bool]:
    """The edits for the call whose name is token i, and whether they rewrote the call itself. Every edit sits on
    the call's own tokens (its name, parentheses, comma), so the names inside its arguments are still translated.
    A mask that is one of `mask_macros` (full_mask_macros) is widened where the call names it; the #define stays,
    for whatever else the file does with it."""
    call = call_at(data, spans, i)
    if call is None:
        return [], False
    paren, close, args = call
    if name in MASKED:
        if not args:
            return [], False
        start, end = byte_range(spans, *args[0])
        mask = data[start:end].strip()
        return ([(start, end, FULL_MASK_64)] if _FULL_MASK_32.match(mask) or mask in mask_macros else []), False
    expected = 1 if name in STREAMING_LOADS or name == READ_ONLY_LOAD else 2
    if len(args) != expected:
        return [], False
    name_start = spans[i][1]
    paren_end = spans[paren][1] + spans[paren][2]
    close_start = spans[close][1]
    edits: list[Edit] = [(name_start, paren_end, b"(*("), (close_start, close_start + 1, b"))")]
    if name in STREAMING_STORES:
        comma_start = byte_range(spans, *args[0])[1]
        value_start = byte_range(spans, *args[1])[0]
        edits.append((comma_start, value_start, b") = ("))
    return edits, True
