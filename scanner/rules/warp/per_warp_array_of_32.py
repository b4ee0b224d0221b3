"""Shared-memory array sized for a 32-lane warp.

What it finds:
    `__shared__` arrays whose size encodes a 32-lane warp: one slot per lane (`__shared__ float buf[32]`),
    a warp-wide tile padded against bank conflicts (`[32][33]`), or one slot per warp
    (`[BLOCK / 32]`, `[kThreads >> 5]`). Only literal 32 (or 5 for a shift) is matched; sizes written
    with warpSize-derived or named constants are left to the rules on those constants.

Why it breaks on ROCm:
    AMD CDNA/Instinct GPUs (MI100 to MI350) run 64-lane wavefronts. A buffer indexed by lane overflows
    into the next slot for lanes 32-63. A buffer with `BLOCK / 32` slots gets only `BLOCK / 64` of them
    written (one per wavefront), and the usual second pass that reads all `BLOCK / 32` slots adds
    uninitialised values: the reduction is silently wrong.

Example:
    __shared__ float partial[BLOCK / 32];
    if (lane == 0) partial[warp] = sum;
    sum = threadIdx.x < BLOCK / 32 ? partial[lane] : 0.f;

Use instead:
    Derive the slot count and every index from one warp-size constant chosen per platform (64 on AMD
    CDNA), or from `warpSize` at run time with the buffer sized for the smallest warp
    (`BLOCK / 32` slots, of which `blockDim.x / warpSize` are used); give per-lane buffers 64 slots.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warpsize
    https://rocm.docs.amd.com/projects/HIP/en/latest/understand/programming_model.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#shared

    A padded tile is reported only where a subscript of it names a lane (`tile[laneId][k]`). A note only (info)
    where the function keeps to 32-lane groups (warp ids and lanes from the same 32, shuffles
    that stay within 32 lanes).

Known problems:
    The rule cannot see how the array is indexed: a 32-entry buffer indexed by warp id with warpSize
    (one slot per wavefront, at most 16 used on AMD) is correct and is reported anyway. Square tiles
    without padding (`[32][32]`, typical for matrix tiles) are not reported.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import declaration_in, int_value, named_constant
from scanner.rules.warp._groups import lane_report


def _is_literal(node, value: str) -> bool:
    """The node's value is `value`: a literal, or a name the code defines as one (`WARP_SIZE`, `kWarpSize`, a
    template parameter defaulted to 32)."""
    return int_value(node) == int(value)


def _per_warp(dim) -> bool:
    """`X / 32` or `X >> 5`: one slot per 32-lane warp."""
    dim = dim.strip()
    if not dim.is_binary_operator or len(dim.children) != 2:
        return False
    op = dim.operator
    rhs = dim.children[1]
    return (op == "/" and _is_literal(rhs, "32")) or (op == ">>" and _is_literal(rhs, "5"))


def _padding(dim) -> bool:
    """33 or 32 + 1: a row of a 32-lane tile padded by one."""
    dim = dim.strip()
    if _is_literal(dim, "33"):
        return True
    return (
        dim.is_binary_operator
        and dim.operator == "+"
        and len(dim.children) == 2
        and _is_literal(dim.children[0], "32")
        and _is_literal(dim.children[1], "1")
    )


def _through(dims) -> str:
    """ " (`WARP_SIZE` is 32)" when the size is written with a name rather than the number."""
    for dim in dims:
        note = named_constant(dim)
        if note:
            return f" ({note})"
    return ""


def _indexed_by_lane(ctx, name: str) -> bool:
    """Some subscript of the array names a lane (`tile[laneId][k]`): a padded tile indexed by `threadIdx.x` of a
    32-wide block and shared through __syncthreads does not depend on the wavefront's width."""
    function = ctx.function.node if ctx.function is not None else None
    if function is None:
        return True
    for node in function.walk():
        if not node.is_array_subscript or not re.search(rf"\b{re.escape(name)}\b", node.text):
            continue
        for ref in node.walk():
            if ref.is_decl_ref and re.search(r"(?i)lane", ref.name) and not _thread_x(function, ref.name):
                return True
    return False


def _thread_x(function, name: str) -> bool:
    """`int laneId = threadIdx.x;`: the thread's x in a block whose rows are 32 wide, not a hardware lane."""
    decl = declaration_in(function, name)
    values = [c for c in decl.children if c.is_expression] if decl is not None else []
    return bool(values) and values[-1].text.replace(" ", "") == "threadIdx.x"


def check(ctx: Context) -> None:
    node = ctx.node
    if not node.is_shared or ctx.platform_guarded:
        return
    dims = [c for c in node.children if c.is_expression]
    if not dims:
        return
    if any(_per_warp(d) for d in dims):
        lane_report(
            ctx,
            f"`{node.name}`{_through(dims)} has one slot per 32-lane warp; on 64-lane wavefronts the warp count "
            "and the index disagree unless both use warpSize (or a per-platform constant).",
        )
        return
    if len(dims) == 1 and _is_literal(dims[0], "32"):
        lane_report(
            ctx,
            f"`{node.name}[32]`{_through(dims)} assumes a 32-lane warp; lanes 32-63 of an AMD wavefront index past "
            "it. Size it from a per-platform warp constant (64 on AMD CDNA).",
        )
        return
    if (
        len(dims) == 2
        and any(_is_literal(d, "32") for d in dims)
        and any(_padding(d) for d in dims)
        and _indexed_by_lane(ctx, node.name)
    ):
        lane_report(
            ctx,
            f"`{node.name}`{_through(dims)} is a 32-lane tile padded for 32 banks; check that rows are not indexed "
            "by lane on 64-lane wavefronts, or size it from a per-platform warp constant.",
        )


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: a `__shared__` array sized 32, `X / 32` or `X >> 5` on one line."""
    match = _shapes.PER_WARP_ARRAY.search(ctx.line_code)
    if match and not ctx.platform_guarded:
        lane_report(
            ctx,
            f"`{match.group('name')}` has one slot per 32-lane warp (or 32 lanes); on 64-lane wavefronts "
            "the warp count and the index disagree unless both use a per-platform warp constant.",
            at=ctx.token_at(match.start("name")),
        )


RULE = Rule(
    name="warp-per-warp-array-of-32",
    formerly=("per-warp-array-of-32",),
    summary="__shared__ array sized for a 32-lane warp ([32], [32][33], [N / 32])",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("var_decl",),
    requires=("__shared__",),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
