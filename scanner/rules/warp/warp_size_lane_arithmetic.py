"""Lane or warp index computed with 32 from a thread id.

What it finds:
    `% 32`, `/ 32`, `& 31` and `>> 5` (and their compound assignments) applied to a value that derives
    from `threadIdx` or a lane id, such as `int lane = threadIdx.x % 32;` or `int warp = tid >> 5;`; warp
    counts made from a block's thread count (`blockDim.x / 32`, `THREADS / 32`); warp-stride loops that step a
    lane's index by 32 (`i += 32 * k`). A name the code defines as 32 (`WARP_SIZE`, `kWarpSize`) counts as 32.
    In a file read as tokens only, the same shapes are matched on each line and the finding says so.

Why it breaks on ROCm:
    AMD CDNA/Instinct GPUs (MI100 to MI350) execute 64-lane wavefronts. A lane index taken modulo 32 maps
    two lanes of one wavefront to the same slot and a warp index divided by 32 splits one wavefront in two:
    reductions and per-warp buffers then compute wrong results without any error.

Example:
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;

Use instead:
    Use `warpSize` (a runtime value since ROCm 7.0), or a constant chosen per platform:
    `int lane = threadIdx.x % warpSize;` / `#ifdef __HIP_PLATFORM_AMD__ ... 64 ... #else ... 32 ... #endif`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warpsize
    https://rocm.docs.amd.com/projects/HIP/en/latest/understand/programming_model.html
"""

import re

from scanner.model import Risk, Severity
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import lane_report, named_constant
from scanner.rules.base import Rule, wave64_severity

# A number of threads (a block's size): divided by 32 it is a warp count (`blockDim.x / 32`, `THREADS / 32`).
_THREAD_COUNT = re.compile(r"^(?:blockDim\.[xyz]|[A-Za-z_]*(?:[Tt]hreads|THREADS)(?:_?[Pp]er_?[Bb]lock|_PER_BLOCK)?"
                           r"|TPB|[kK]?(?:Num|NUM|n|N)?_?[Tt]hreads\w*|BLOCK_THREADS)$")

# operator -> the constant that encodes "32 lanes"
_WARP_CONSTANTS = {"%": 32, "/": 32, "&": 31, ">>": 5}


def _steps_by_32(ctx, rhs) -> bool:
    """`32` or `32 * k` (either order): the step of a loop that walks a 32-lane warp's elements."""
    if rhs is None:
        return False
    if ctx.literal_value(rhs) == 32:
        return True
    node = rhs.strip()
    return node.operator == "*" and len(node.children) == 2 and any(
        ctx.literal_value(child) == 32 for child in node.children)


def check(ctx) -> None:
    if ctx.node.operator == "+=":
        lhs, rhs = ctx.operands()
        if _steps_by_32(ctx, rhs) and not ctx.platform_guarded and ctx.derives_from_thread_id(lhs):
            lane_report(ctx, f"`{ctx.node.text}` strides by a 32-lane warp from a lane's start: on a 64-lane wavefront "
                       "lanes 32-63 walk the same elements as lanes 0-31. Stride by warpSize.")
        return
    op = ctx.node.operator.rstrip("=") if ctx.node.operator not in ("==", "<=", ">=", "!=") else ""
    expected = _WARP_CONSTANTS.get(op)
    if expected is None:
        return
    lhs, rhs = ctx.operands()
    if ctx.literal_value(rhs) != expected or ctx.platform_guarded:
        return
    through = named_constant(rhs)
    through = f" ({through})" if through else ""
    if op in ("/", ">>") and lhs is not None and _THREAD_COUNT.match(lhs.strip().text.replace(" ", "")):
        lane_report(ctx, f"`{ctx.node.text}`{through} counts warps of 32 threads; a 64-lane wavefront holds twice "
                    "as many, so the count and every index built on it are wrong on AMD. Use warpSize.")
        return
    if not ctx.derives_from_thread_id(lhs):
        return
    lane_report(ctx, f"`{ctx.node.text}`{through} assumes a 32-lane warp; use warpSize.")


def check_tokens(ctx) -> None:
    """Without a syntax tree: `threadIdx.x % 32`, `lane & 31`, `tid >> 5` on one line."""
    if ctx.platform_guarded:
        return
    names = _shapes.file_values(ctx)
    stride = _shapes.WARP_STRIDE.search(ctx.line_code)
    if stride:
        lane_report(ctx, f"`{stride.group('var')}` strides by a 32-lane warp from a lane's start: on a 64-lane wavefront "
                   "lanes 32-63 walk the same elements as lanes 0-31. Stride by warpSize.",
                   at=ctx.token_at(stride.start()))
    for match in _shapes.LANE_ARITHMETIC.finditer(ctx.line_code):
        if _shapes.WARP_CONSTANT[match.group("op")] == _shapes.number(match.group("n"), names):
            lane_report(ctx, f"`{match.group(0)}` assumes a 32-lane warp; use warpSize.", at=ctx.token_at(match.start()))


RULE = Rule(
    name="warp-size-lane-arithmetic",
    summary="Lane/warp index computed with 32 (% 32, / 32, & 31, >> 5) from a thread id",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("binary_op",),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
