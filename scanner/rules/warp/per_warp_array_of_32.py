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
    that stay within 32 lanes), and for a `[32]` buffer in a function that does no warp-level work at all (no
    shuffle, ballot, warp reduction or warpSize: 32 values of data). Not reported: a size written with a name
    of something else that is 32 (`[QK]`, `[kTileK]`: a quantization group, a tile's depth); 32 slots indexed
    only by a warp number made with warpSize (`s[threadIdx.x / warpSize]`) and by a lane read under a test
    that bounds it by such a count (`lane < blockDim.x / warpSize ? s[lane] : 0`): a 64-lane wavefront makes
    at most 1024 / 64 = 16 warps, so 32 slots are enough.

Known problems:
    The rule reads subscripts in the function that declares the array only; an array passed to a helper is
    judged by its size. Square tiles without padding (`[32][32]`, typical for matrix tiles) are not reported.
    A note only for one slot per 32 of a count of data (`[kColsPerTile / 32]`: a scale per 32 columns) in a
    function that does no warp-level work. A variable the code declares itself as `warpSize` (`int warpSize =
    blockDim.x - base;`, the lanes of a partial warp) hides HIP's: it does not make the function reach past
    32-lane groups.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import declaration_in, int_value, named_constant, other_named_constant
from scanner.rules.warp._groups import lane_report, wavefront_use, works_per_warp


def _is_literal(node, value: str) -> bool:
    """The node's value is `value`: a literal, or a name the code defines as one (`WARP_SIZE`, `kWarpSize`, a
    template parameter defaulted to 32); not a name of something else that happens to be 32 (`QK`, `kTileK`: a
    quantization group, a tile's depth)."""
    return int_value(node) == int(value) and not other_named_constant(node)


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


_WARPISH = re.compile(r"(?i)lane|warp|wave|wid")


def _warp_indexed(ctx, name: str) -> bool:
    """Every subscript of the array is a constant, a warp number made with warpSize (`s[threadIdx.x / warpSize]`),
    or a lane made with warpSize read under a test that bounds it by warpSize (`lane < blockDim.x / warpSize ?
    s[lane] : 0`, `num_warps` = blockDim.x / warpSize), and one of them uses warpSize: at most 1024 / 64 = 16
    slots are used on a 64-lane wavefront, so 32 are enough."""
    function = ctx.function.node if ctx.function is not None else None
    if function is None:
        return False
    subscripts = [
        n
        for n in function.walk()
        if n.is_array_subscript and len(n.children) == 2 and n.children[0].strip().name == name
    ]
    verdicts = [_warp_index(function, s) for s in subscripts]
    return bool(verdicts) and all(verdicts) and any(v == "warpSize" for v in verdicts)


def _initialiser(function, name: str) -> str:
    decl = declaration_in(function, name)
    values = [c for c in decl.children if c.is_expression] if decl is not None else []
    return values[-1].text.replace(" ", "") if values else ""


def _warp_index(function, subscript) -> str:
    """ "constant", "warpSize" (a warp number or a bounded lane made with it), or "" (anything else)."""
    index = subscript.children[1].strip()
    if int_value(index) is not None:
        return "constant"
    text = _initialiser(function, index.name) if index.is_decl_ref else index.text.replace(" ", "")
    if "warpSize" not in text:
        return ""
    if "/warpSize" in text or ">>" in text:
        return "warpSize"  # a warp's number: below 16 on AMD
    for ancestor in subscript.ancestors():  # a lane: only where a test bounds it by the warp count
        if ancestor.kind_name in ("IF_STMT", "CONDITIONAL_OPERATOR") and ancestor.children:
            if any(_bounded_by_warp_count(function, test) for test in ancestor.children[0].walk()):
                return "warpSize"
    return ""


def _bounded_by_warp_count(function, test) -> bool:
    """`lane < num_warps`, `threadIdx.x < blockDim.x / warpSize`: a comparison whose bound is a count made with
    warpSize (written there or in the bound's initialiser)."""
    if not test.is_binary_operator or test.operator not in ("<", "<=", ">", ">=") or len(test.children) != 2:
        return False
    bound = test.children[1] if test.operator in ("<", "<=") else test.children[0]
    bound = bound.strip()
    text = _initialiser(function, bound.name) if bound.is_decl_ref else bound.text.replace(" ", "")
    return "/warpSize" in text and "threadIdx" not in text


# A count of threads (`BLOCK_THREADS`, `blockDim.x`, `kBlockSize`, `TPB`): divided by 32, a number of warps.
_THREAD_COUNT = re.compile(r"(?i)thread|blockdim|block_?size|block_?dim|\btpb\b|cta|warp|lane")
# A count of data (`kColsPerTile`, `HIDDEN_DIM`, `num_elems`): divided by 32, blocks of the data's layout.
_DATA_COUNT = re.compile(r"(?i)col|row|elem|byte|hidden|feature|channel|item|value")


def _data_count(dims) -> str:
    """`[kColsPerTile / 32]`: the dividend's text when it names a count of data (columns, elements, bytes) and no
    thread count; a bare `N` may be either and gives ""."""
    for dim in dims:
        dim = dim.strip()
        if _per_warp(dim):
            text = dim.children[0].strip().text.replace(" ", "")
            return text if _DATA_COUNT.search(text) and not _THREAD_COUNT.search(text) else ""
    return ""


def _data_sized(ctx, name: str) -> bool:
    """A buffer of 32 in a function that does no warp-level work and never asks for the warp's size (`warpSize`):
    32 is a size of the data there (a tile row, 32 values), no lane indexes it by the wavefront's width."""
    function = ctx.function
    if function is None or not function.runs_on_device or _WARPISH.search(name):
        return False
    return not works_per_warp(ctx, function) and not wavefront_use(ctx, function)


def check(ctx: Context) -> None:
    node = ctx.node
    if not node.is_shared or ctx.platform_guarded:
        return
    dims = [c for c in node.children if c.is_expression]
    if not dims:
        return
    if len(dims) == 1 and _is_literal(dims[0], "32") and _warp_indexed(ctx, node.name):
        return  # one slot per wavefront, numbered with warpSize: 16 at most on AMD, the 32 slots suffice
    if any(_per_warp(d) for d in dims):
        counted = _data_count(dims)
        if counted and _data_sized(ctx, node.name):
            where = f"`{ctx.function.name}`" if ctx.function.name else "this function"
            ctx.report(
                f"`{node.name}` has one slot per 32 of `{counted}`, a count of data, not of threads, "
                f"in {where}, which does no warp-level work (no shuffle, ballot, warp reduction or warpSize): 32 "
                "is a block of the data's layout (a scale per 32 columns), not a warp, so it stays correct on "
                "64-lane wavefronts. A note only.",
                severity=Severity.INFO,
            )
            return
        lane_report(
            ctx,
            f"`{node.name}`{_through(dims)} has one slot per 32-lane warp; on 64-lane wavefronts the warp count "
            "and the index disagree unless both use warpSize (or a per-platform constant).",
        )
        return
    if len(dims) == 1 and _is_literal(dims[0], "32"):
        if _data_sized(ctx, node.name):
            where = f"`{ctx.function.name}`" if ctx.function.name else "this function"
            ctx.report(
                f"`{node.name}[32]`{_through(dims)} has 32 entries in {where}, which does no warp-level work "
                "(no shuffle, ballot, warp reduction or warpSize): 32 sizes the data here, not a warp, so it "
                "stays correct on 64-lane wavefronts. A note only.",
                severity=Severity.INFO,
            )
            return
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
