"""Where a 32 in lane arithmetic is not a lane assumption, for ROC101 (warp_size_lane_arithmetic): the names of
thread counts, warp counts and warp indexes, and the shapes of code whose 32 is data (a bit field, an alignment
test, a fragment's share of a tile, a warp number that only staggers peers, lanes packed by half-warps)."""

from __future__ import annotations

import re

from scanner.analysis.context import LANE_NAME
from scanner.rules.warp import _groups
from scanner.rules.warp._common import RANK_NAME, peel

# A number of threads (a block's size): divided by 32 it is a warp count (`blockDim.x / 32`, `THREADS / 32`).
THREAD_COUNT = re.compile(
    r"^(?:blockDim\.[xyz]|[A-Za-z_]*(?:[Tt]hreads|THREADS)(?:_?[Pp]er_?(?:[Bb]lock|CTA|[Cc]ta)|"
    r"_PER_BLOCK|_PER_CTA)?|TPB|[kK]?(?:Num|NUM|n|N)?_?[Tt]hreads\w*|BLOCK_THREADS|"
    r"[kK]?[Bb]lock(?:_[Ss]|S)ize|BLOCK_SIZE|BLOCK_DIM|CTA_SIZE|[kK]?CtaSize)$"
)
# Helpers that round a count up to whole warps: `divUp(numThreads, kWarpSize)`, `ceil_div(n, 32)`.
DIVIDE_UP = re.compile(r"(?i)^(?:div_?up|ceil_?div|cdiv|round_?up|align_?up|DIV_ROUND_UP)$")
# Names of a number of warps: times the warp size they give a thread count.
WARP_COUNT = re.compile(r"(?i)^\w*(?:num_?warps|warps_?per_?\w*|n_?warps|\w*Warps)$")
# Names of a warp or lane index: scaled by 32 they give the warp's first element.
WARP_INDEX = re.compile(r"(?i)^(?:warp_?id\w*|warp_?idx|wid|warp|lane\w*|warp_?num)$")


WARPISH = re.compile(r"(?i)lane|warp|wid|wave|^w$|^lid$")
_THREADISH = re.compile(r"(?i)lane|warp|wid|wave|^w$|^lid$|thread|^t?id$|^tx$")


def half_warp_test(ctx, lhs, rhs) -> bool:
    """`laneId < 16` on a variable named as a lane (not a thread id) in a file that shuffles: the lower half of a
    32-lane warp, where 32 lanes' values are packed into 16 slots (`WarpPackedBits`-style writers and readers)."""
    if lhs is None or ctx.literal_value(rhs) != 16:
        return False
    node = peel(lhs)
    if not node.is_decl_ref or not re.fullmatch(r"(?i)lane_?(?:id|idx)?|laneid", node.name):
        return False
    key = "rocport:file-shuffles"
    if key not in ctx.memo:
        ctx.memo[key] = any("shfl" in t.text.lower() for t in ctx.view.code if t.kind == "identifier")
    return ctx.memo[key]


def warps_of_32(ctx) -> bool:
    """The function also numbers its warps by 32 (`warp = threadIdx.x / 32`): lanes 32-63 of a wavefront are then
    another warp with its own rows, so a stride of 32 from `tid % 32` does not make them repeat lanes 0-31's
    elements (the `/ 32` itself is reported where it is)."""
    function = ctx.function.node if ctx.function is not None else None
    if function is None:
        return False
    for node in function.walk():
        if node.is_var_decl and WARPISH.search(node.name):
            values = [c for c in node.children if c.is_expression]
            init = peel(values[-1]) if values else None
            if (
                init is not None
                and init.is_binary_operator
                and len(init.children) == 2
                and (
                    (init.operator == "/" and ctx.literal_value(init.children[1]) == 32)
                    or (init.operator == ">>" and ctx.literal_value(init.children[1]) == 5)
                )
            ):
                return True
    return False


def _user(node):
    """The expression that uses `node`'s value, under parentheses and casts."""
    parent = node.parent
    while parent is not None and parent.kind_name in ("UNEXPOSED_EXPR", "PAREN_EXPR", "CSTYLE_CAST_EXPR"):
        parent = parent.parent
    return parent


def bit_field(ctx, node) -> bool:
    """`(qh >> 5) & 0x00001000`: the shifted value is masked to bits above a lane number's, so it is packed data."""
    parent = _user(node)
    if parent is None or parent.kind_name != "BINARY_OPERATOR" or parent.operator != "&":
        return False
    masks = [ctx.literal_value(child) for child in parent.children]
    return any(mask is not None and mask >= 64 for mask in masks)


def alignment_test(node, lhs) -> bool:
    """`iqs % 32 != 0` on a value not named as a thread or lane: a test for a block boundary of the data, not a
    lane number (`threadIdx.x % 32 == 0`, one leader per warp, stays reported)."""
    parent = _user(node)
    if parent is None or parent.kind_name != "BINARY_OPERATOR" or parent.operator not in ("==", "!="):
        return False
    if not any(child.strip().is_integer_literal and child.strip().text == "0" for child in parent.children):
        return False
    names = [n.name for n in peel(lhs).walk() if (n.is_decl_ref or n.is_member_ref)]
    return bool(names) and not any(_THREADISH.search(name) for name in names)


def destination(node) -> str:
    """The variable the expression's value is stored in (`int lane = ...`, `warp = ...`); empty when it is used in
    place (an index, an element, an argument)."""
    parent = node.parent
    while parent is not None and parent.kind_name in ("UNEXPOSED_EXPR", "PAREN_EXPR", "CSTYLE_CAST_EXPR"):
        parent = parent.parent
    if parent is None:
        return ""
    if parent.is_var_decl:
        return parent.name
    if (
        parent.is_binary_operator
        and parent.operator == "="
        and parent.children
        and parent.children[0].strip().is_decl_ref
    ):
        return parent.children[0].strip().name
    return ""


# Names of threads or lanes (a warp's tile, `WARP_M`, is a size of data and passes).
_COUNTS_THREADS = re.compile(r"(?i)lane|thread|^t?id$|^tx$|wave")
_PTX_MATRIX = re.compile(r"\b(?:mma\.sync|wgmma|ldmatrix)\b|\bwmma::")


def fragment_share(ctx, lhs) -> bool:
    """`OP_M * 16 / WARP_SIZE`, `WARP_M * WARP_K / WARP_SIZE`: a product of constants none of which counts threads
    or warps (a tile's elements), divided among a warp, in a file that issues PTX matrix instructions: a fragment's per-thread size."""
    node = peel(lhs)
    if not node.is_binary_operator or node.operator != "*" or ctx.literal_value(node) is None:
        return False
    names = [n.name for n in node.walk() if n.is_decl_ref]
    if any(_COUNTS_THREADS.search(name) or THREAD_COUNT.match(name) or WARP_COUNT.match(name) for name in names):
        return False
    key = "rocport:ptx-matrix"
    if key not in ctx.memo:
        ctx.memo[key] = any(_PTX_MATRIX.search(line) for line in ctx.lines)
    return ctx.memo[key]


def staggers_peers(ctx, node) -> str:
    """`int warp = blockIdx.x + (threadIdx.x >> 5);` read only in `(i + warp + myrank) & (RANKS - 1)`: the warp
    number staggers which peer each thread visits first (every thread still visits all of them), in a function
    that does nothing per warp (no shuffle, vote, warp helper or tile, in it or what it calls). The variable's
    name, or "" when the value is used otherwise."""
    function = ctx.function
    whole = _whole_expression(node)
    stored = whole.parent
    if function is None or function.node is None or stored is None or not stored.is_var_decl:
        return ""
    name = stored.name
    uses = [n for n in function.node.walk() if n.is_decl_ref and n.name == name]
    if not uses or _groups.works_per_warp(ctx, function):
        return ""
    for use in uses:
        if not any(n.is_decl_ref and RANK_NAME.match(n.name) for n in _whole_expression(use).walk()):
            return ""
    return name


def _whole_expression(node):
    """The outermost expression `node` is part of (up to its statement or declaration)."""
    while node.parent is not None and node.parent.is_expression:
        node = node.parent
    return node


def names_a_lane(node) -> bool:
    """`int lane = i % 32;`: whatever `i` is, the result is named as a lane (host code laying data out per lane)."""
    parent = node.parent
    while parent is not None and parent.kind_name in ("UNEXPOSED_EXPR", "PAREN_EXPR", "CSTYLE_CAST_EXPR"):
        parent = parent.parent
    return parent is not None and parent.is_var_decl and LANE_NAME.match(parent.name) is not None


def _spelled(node) -> str:
    return peel(node).text.replace(" ", "") if node is not None else ""


def _divides_by_32(ctx, node, value: str) -> bool:
    """`value / 32` or `value >> 5`."""
    node = peel(node)
    if not node.is_binary_operator or len(node.children) != 2 or _spelled(node.children[0]) != value:
        return False
    return (node.operator, ctx.literal_value(node.children[1])) in (("/", 32), (">>", 5))


def _bit_of(ctx, node, value: str) -> bool:
    """`1u << (value % 32)` or `1 << (value & 31)`."""
    node = peel(node)
    if not node.is_binary_operator or node.operator != "<<" or len(node.children) != 2:
        return False
    if ctx.literal_value(node.children[0]) != 1:
        return False
    count = peel(node.children[1])
    return (
        count.is_binary_operator
        and len(count.children) == 2
        and _spelled(count.children[0]) == value
        and (count.operator, ctx.literal_value(count.children[1])) in (("%", 32), ("&", 31))
    )


def bitmap_bit(ctx, node, lhs) -> bool:
    """`masks[i / 32] & (1u << (i % 32))`, `atomicOr(&bits[id >> 5], 1u << (id & 31))`: one bit of a bitmap kept
    in 32-bit words, the word picked by the value divided by 32 and the bit by the remainder, in one expression
    (lmdeploy's token bitmap). The 32 is the width of the word, not of a warp; a value named as a thread, lane or
    warp stays reported."""
    value = _spelled(lhs)
    names = [n.name for n in peel(lhs).walk() if n.is_decl_ref or n.is_member_ref] if lhs is not None else []
    if not value or not names or any(_THREADISH.search(name) for name in names):
        return False
    whole = _whole_expression(node)
    words = bits = False
    for part in whole.walk():
        if part.kind_name == "ARRAY_SUBSCRIPT_EXPR" and len(part.children) == 2:
            words = words or _divides_by_32(ctx, part.children[1], value)
        elif part.is_binary_operator and part.operator == "<<":
            bits = bits or _bit_of(ctx, part, value)
    return words and bits


# cuBLASLt's tiled int8 layouts (`CUBLASLT_ORDER_COL32`, `COL4_4R2_8C`, `COL32_2R_4R4`): 32 columns per tile.
_TILED_LAYOUT = re.compile(r"COL32|COL4_|ORDER_COL")


def tiled_layout(ctx, node) -> str:
    """In a function for cuBLASLt's COL32/COL4 tiled layouts (its name, a parameter or a local names one:
    `softmax_COL32`, `use_ORDER_COL32_2R_4R4`), a `% 32`, `& 31` or `>> 5` whose value is not stored as a lane or
    a warp addresses a column or a tile of that layout (FasterTransformer's int8 kernels). The layout's name, or
    ""."""
    function = ctx.function
    if function is None or function.node is None or WARPISH.search(destination(node)):
        return ""
    memo = ctx.memo.setdefault("rocport:tiled-layout", {})
    key = (function.name, function.start_line)
    if key not in memo:
        found = _TILED_LAYOUT.search(function.name or "")
        names = (n.name for n in function.node.walk() if n.is_decl_ref or n.is_var_decl or n.kind_name == "PARM_DECL")
        memo[key] = function.name if found else next((n for n in names if _TILED_LAYOUT.search(n or "")), "")
    return memo[key]


_WORD_TYPE = r"(?:uint32_t|unsigned(?:\s+int)?|int32_t|int|uint)"


def bitmap_words(ctx, node) -> str:
    """`const int mask_size = cdiv(vocab_size, 32);` with `sizeof(uint32_t) * mask_size` in the same function:
    the number of 32-bit words of a bitmap (lmdeploy's token mask), not a number of warps. The variable, or ""."""
    name = destination(node)
    function = ctx.function
    if not name or function is None or WARPISH.search(name):
        return ""
    size = re.compile(
        rf"\bsizeof\s*\(\s*{_WORD_TYPE}\s*\)\s*\*\s*{re.escape(name)}\b|\b{re.escape(name)}\s*\*\s*sizeof\s*\(\s*"
        rf"{_WORD_TYPE}\s*\)"
    )
    lines = ctx.lines[max(function.start_line - 1, 0) : function.end_line]
    return name if any(size.search(line) for line in lines) else ""
