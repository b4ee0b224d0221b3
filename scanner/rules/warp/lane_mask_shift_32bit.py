"""Lane mask built with a 32-bit shift.

What it finds:
    Shifts of a 32-bit constant by an amount that derives from a thread or lane id, in device code:
    `1 << lane`, `1u << laneId`, `(1u << lane) - 1`, `0xffffffffu << lane`, `0xffffffff >> (32 - lane)`.
    `1ull << lane` and `(uint64_t)1 << lane` are fine and not reported.

Why it breaks on ROCm:
    On AMD CDNA/Instinct GPUs lanes are numbered 0-63. Shifting a 32-bit value by 32 or more is undefined
    behaviour in C++ and on AMD hardware the shift amount is taken modulo 32, so the masks of lanes 32-63
    alias those of lanes 0-31: lane masks, "lanes below me" prefixes and comparisons with a 64-bit ballot
    are silently wrong for the upper half of the wavefront.

Example:
    unsigned lt_mask = (1u << lane) - 1;
    int rank = __popc(ballot & lt_mask);

Use instead:
    64-bit arithmetic: `(1ull << lane) - 1`, `__popcll(ballot & lt_mask)`, with `unsigned long long`
    variables; on HIP `__lanemask_lt()` gives the mask directly.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-cross-lane-functions
    https://en.cppreference.com/w/cpp/language/operator_arithmetic#Built-in_bitwise_shift_operators
    https://developer.nvidia.com/blog/using-cuda-warp-level-primitives/

Known problems:
    A shift whose amount the code keeps below 32 is a 32-bit word operation and is not reported: `1u << (tid &
    31)`, `15 << ((tid & 31) & ~3)` (a 4-lane group's mask), `0x08 << 4 * (il % 2)`, a loop variable that runs
    to 4, a local set once from `tid % 32` (ROC101 flags the `% 32`). Nor is a shift by a warp index
    (`1u << warp_id`: at most 32 warps per block; a count `__popc(__ballot_sync(~0u, (lane + 1) * n <= wid))`,
    a quotient of one, too), nor by a grid-wide index (`1u << (blockIdx.x * blockDim.x + threadIdx.x)` is a bit pattern, not a lane). A lane
    that a 64-bit ballot later meets is then ROC107's (the ballot kept in 32 bits). Nor is a shift by a variable
    named for a rank or peer of a communicating group (`1u << peer`, `1u << rank`: a participant bitmask below
    the world size, even where one thread per peer sets it from `threadIdx.x`). A note only (info) for a
    shift by the thread's x (`threadIdx.x`, a `tid` set from it) where only threads 0-31 reach the line: after
    `if (threadIdx.x >= 32) return;` at the function's top level, or inside `if (threadIdx.x < 32) { ... }`
    (or `if (tid < 32 && ...) { ... }`).
    A note too where the mask meets a ballot the code keeps in 32 bits (`votes & ((1u << lane) - 1)` with
    `unsigned int votes = __ballot_sync(...)`): ROC107 reports the ballot, and the two widen together.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import (
    RANK_NAME,
    declaration_in,
    in_platform_macro,
    int_value,
    safe_size,
    upper_bound,
)
from scanner.rules.warp._first_warp import (
    first_warp_note,
    reached_by_first_warp,
    tested_below_32,
    thread_x_names,
)


def _bounded_to_32(ctx, expr) -> bool:
    """The shift amount is always below 32 (`x & 31`, `4 * (il % 2)`, a loop variable up to 4, a lane set from
    `tid & 31`): the shift packs bits into a 32-bit word or names a lane of a 32-lane group, never lanes
    32-63 of the wavefront."""
    bound = upper_bound(ctx, expr)
    return bound is not None and 0 <= bound <= 31


def _warp_index(ctx, expr) -> bool:
    """A warp index (`warp_id`, `wid`, `tid / 32`, a variable set from `tid / 32`): at most 32 warps per
    block, so a 32-bit mask of warps is right."""
    node = expr.strip()
    if node.is_binary_operator and node.operator in ("/", ">>"):
        return True
    if not node.is_decl_ref:
        return False
    if re.search(r"warp|wid|wave", node.name, re.IGNORECASE):
        return True
    decl = declaration_in(ctx.function.node if ctx.function else None, node.name)
    values = [c for c in decl.children if c.is_expression] if decl is not None else []
    if values:
        init = values[-1].strip()
        return (init.is_binary_operator and init.operator in ("/", ">>")) or _ballot_quotient(ctx, init)
    return False


_POPCS = frozenset({"__popc", "__popcll"})


def _ballot_quotient(ctx, init) -> bool:
    """`__popc(__ballot_sync(~0u, (lane + 1) * n <= wid))`: the lanes whose multiple stays below a warp index
    count at most that index (a division `wid / n` done by ballot), so it is a warp index too."""
    if not init.is_call or init.callee_name not in _POPCS:
        return False
    if not any(n.is_call and n.callee_name in _BALLOTS for n in init.walk()):
        return False
    for n in init.walk():
        if n.is_binary_operator and n.operator in ("<=", "<") and len(n.children) == 2:
            bound = n.children[1].strip()
            if bound.is_decl_ref and re.search(r"warp|wid|wave", bound.name, re.IGNORECASE):
                return True
    return False


def _rank_index(expr) -> bool:
    """A rank of a communicating group (`peer`, `rank`, `gpu_id`): a participant bitmask `1u << peer`, below the
    world size, not a lane."""
    node = expr.strip()
    return node.is_decl_ref and RANK_NAME.match(node.name) is not None


def _global_index(ctx, expr) -> bool:
    """A grid-wide thread index (`blockIdx.x * blockDim.x + threadIdx.x`, or a variable set from one): it counts
    threads across blocks, not lanes of a warp, so `1 << gid` is a bit pattern, not a lane mask."""
    node = expr.strip()
    names = {n.name for n in node.walk() if (n.is_decl_ref or n.is_member_ref)}
    if "blockIdx" in names:
        return True
    if not node.is_decl_ref:
        return False
    decl = declaration_in(ctx.function.node if ctx.function else None, node.name)
    return decl is not None and any(n.is_decl_ref and n.name == "blockIdx" for n in decl.walk())


def _narrow_destination(node) -> bool:
    """`uint8_t m = 1 << (4*n + j)`: stored in 8 or 16 bits it is a bit of packed data, never a lane mask."""
    parent = node.parent
    while parent is not None and (parent.is_wrapper or parent.is_c_cast):
        if parent.is_c_cast and safe_size(parent) in (1, 2):
            return True
        parent = parent.parent
    return parent is not None and parent.is_var_decl and safe_size(parent) in (1, 2)


_BALLOTS = frozenset({"__ballot_sync", "__ballot", "__activemask", "__match_any_sync"})


def _masks_32bit_ballot(ctx, node) -> str:
    """`ballot & ((1u << lane_id) - 1)` where `unsigned int ballot = __ballot_sync(...)`: the mask meets a ballot
    already held in 32 bits (ROC107's finding); the ballot variable's name, else ""."""
    user = node.parent
    while user is not None and (
        user.is_wrapper or user.is_c_cast or (user.is_binary_operator and user.operator == "-")
    ):
        user = user.parent
    if user is None or not user.is_binary_operator or user.operator != "&":
        return ""
    function = ctx.function.node if ctx.function is not None else None
    for operand in user.children:
        ref = operand.strip()
        if not ref.is_decl_ref:
            continue
        decl = declaration_in(function, ref.name)
        if decl is None or not decl.is_var_decl or safe_size(decl) != 4:
            continue
        if any(n.is_call and n.callee_name in _BALLOTS for n in decl.walk()):
            return ref.name
    return ""


def _first_warp_shift(ctx, amount) -> str:
    """Why the shift amount, the thread's x (`threadIdx.x`, a `tid` set from it), stays below 32: only threads
    0-31 reach the line (scanner.rules.warp._first_warp). Empty otherwise."""
    text = amount.strip().text.replace(" ", "")
    if text != "threadIdx.x" and text not in thread_x_names(ctx):
        return tested_below_32(ctx, ctx.node.line, text)  # `if (tid < 32 && ...)` on a member `tid`
    return reached_by_first_warp(ctx, ctx.node.line)


def check(ctx: Context) -> None:
    node = ctx.node
    if node.operator not in ("<<", ">>") or not ctx.in_device_code or ctx.platform_guarded:
        return
    lhs, rhs = ctx.operands()
    if lhs is None:
        return
    base = lhs.strip()
    value = int_value(base)
    if value is None or safe_size(base) not in (1, 2, 4):
        return
    if node.operator == ">>" and value & 0xFFFFFFFF != 0xFFFFFFFF:
        return  # only the all-ones mask shifted right is a lane mask
    if (
        not ctx.derives_from_thread_id(rhs)
        or _bounded_to_32(ctx, rhs)
        or _warp_index(ctx, rhs)
        or _global_index(ctx, rhs)
        or _rank_index(rhs)
        or _narrow_destination(node)
    ):
        return
    if in_platform_macro(ctx, node):
        return
    ballot = _masks_32bit_ballot(ctx, node)
    if ballot:
        ctx.report(
            f"`{node.text}` builds a lane mask in 32 bits for `{ballot}`, a ballot this code keeps in 32 bits "
            "(ROC107 reports it there): the two are one 32-lane design, and widening the ballot to 64 bits "
            "widens this mask with it. A note only.",
            severity=Severity.INFO,
        )
        return
    why = _first_warp_shift(ctx, rhs)
    if why:
        ctx.report(
            first_warp_note(
                f"`{node.text}` builds a lane mask in 32 bits",
                why,
                "The shift stays below 32 and lanes 32-63 never take part",
            ),
            severity=Severity.INFO,
        )
        return
    ctx.report(
        f"`{node.text}` builds a lane mask in 32 bits; lanes 32-63 of a 64-lane wavefront shift "
        "out of range. Use a 64-bit constant (1ull, ~0ull)."
    )


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: `1u << lane` (a one-lane mask in 32 bits)."""
    match = _shapes.LANE_SHIFT.search(ctx.line_code)
    if match and not ctx.platform_guarded:
        ctx.report(
            f"`{match.group(0)}` builds a lane mask in 32 bits; lanes 32-63 of a 64-lane wavefront "
            "overflow it. Use 1ull << lane.",
            at=ctx.token_at(match.start()),
        )


RULE = Rule(
    name="warp-lane-mask-shift-32bit",
    formerly=("lane-mask-shift-32bit",),
    summary="Lane mask built with a 32-bit shift by a lane id (1 << lane)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("binary_op",),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
