"""Lane or warp index computed with 32 from a thread id.

What it finds:
    `% 32`, `/ 32`, `& 31` and `>> 5` (and their compound assignments) applied to a value that derives
    from `threadIdx` or a lane id, such as `int lane = threadIdx.x % 32;` or `int warp = tid >> 5;`; warp
    counts made from a block's thread count (`blockDim.x / 32`, `THREADS / 32`); warp-stride loops that step a
    lane's index by 32 (`i += 32 * k`). A name the code defines as 32 (`WARP_SIZE`, `kWarpSize`, a template
    parameter defaulted to 32) counts as 32, and its uses are reported where they are: `x / WARP_SIZE`,
    `divUp(n, kWarpSize)`, `kWarpSize == 32`, `warpId * 32`, `numWarps * WARP_SIZE`, `tid < 32` (low). A
    template parameter named for the warp with no default (`template <int kWarpThreads, ...>`) counts too:
    `tid % kWarpThreads` and `tid / kWarpThreads` are reported where the file instantiates the template with
    32 (`rowmax<32, 4>`), at medium where the file never instantiates it (the value is set elsewhere), and not
    where it is instantiated with other numbers only, with 64 as well (a dispatch over both sizes) or with a
    per-platform name. In a file read as tokens only, the same shapes are matched on each line and the finding
    says so.
    A macro's body is read on its tokens for a thread count divided by 32 (`(kNumThreads / kWarpSize)` in a
    `#define` of a launch helper: clang sees only its expansions). At low severity, `laneId < 16` on a variable
    named as a lane in a file that shuffles: half of a 32-lane warp, as code that packs 32 lanes' values into
    16 slots tests.
    Not reported: a name that is 32 by coincidence (`QK8_1`, `kTileK`: data, not lanes); a constant the project defines per platform
    (scanner.port: `BNB_WARP_SIZE` is 64 on CDNA); `ip = tid / 32` stored in a variable that is no lane or warp,
    in a function that never works per warp (data layout); `(qh >> 5) & 0x1000` (a bit field of packed data);
    `iqs % 32 != 0` on a value not named as a thread or lane (a block boundary of the data); a bitmap of 32-bit
    words (`masks[i / 32] & (1u << (i % 32))`, and `cdiv(n, 32)` stored in a count that sizes `sizeof(uint32_t)`
    words). A note only, in a function for cuBLASLt's COL32/COL4 tiled layouts (`softmax_COL32`, a
    `use_ORDER_COL32_2R_4R4` parameter): `(row << 5) + (col & 31)` addresses a 32-column tile. A note only (info)
    in a function that keeps to 32-lane groups (no warpSize, ballot or shuffle across 32 lanes, in it or in what
    it calls: scanner.rules.warp._groups), where the 32s agree with each other on a 64-lane wavefront. Low in a
    device function that does nothing per warp at all (no shuffle, ballot, warp sync or warp helper, in it or in
    what it calls): the 32 only divides work among groups of 32 threads, as NCCL's copy loops split their data
    into 32-thread hunks; host code that sizes a launch by warps keeps the rule's severity.
    A note only, too, for a warp number that only staggers the order in which threads visit the peers of a
    communicating group (`int warp = blockIdx.x + (threadIdx.x >> 5);` read only beside a rank, as in
    `(i + warp + myrank) & (RANKS - 1)`) in a function that does nothing per warp: every thread still visits
    every peer.
    A note also for a tile's elements divided among a warp (`OP_M * 16 / WARP_SIZE`: a product of constants
    none of which counts threads) in a file that issues PTX matrix instructions (`mma.sync`, `ldmatrix`,
    `wmma::`): the per-thread fragment size of the instruction, which ROC120 and ROC139 report.

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

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _groups, _lanes, _shapes, _templates
from scanner.rules.warp._common import (
    defined_per_platform,
    has_warp_ops,
    is_warp_size_name,
    named_constant,
    other_named_constant,
    peel,
    per_platform_name,
)
from scanner.rules.warp._groups import lane_report

# operator -> the constant that encodes "32 lanes"
_WARP_CONSTANTS = {"%": 32, "/": 32, "&": 31, ">>": 5}


def _steps_by_32(ctx, rhs) -> bool:
    """`32` or `32 * k` (either order): the step of a loop that walks a 32-lane warp's elements."""
    if rhs is None:
        return False
    if ctx.literal_value(rhs) == 32:
        return True
    node = rhs.strip()
    return (
        node.operator == "*"
        and len(node.children) == 2
        and any(ctx.literal_value(child) == 32 for child in node.children)
    )


def _warp_size_named(expr) -> bool:
    """The expression is written as a warp-size name (`WARP_SIZE`, `kWarpSize`), not as the number."""
    text = peel(expr).text.strip() if expr is not None else ""
    return bool(re.fullmatch(r"[A-Za-z_]\w*", text)) and is_warp_size_name(text)


def _warp_size_test(ctx, lhs, rhs) -> str:
    """`kWarpSize == 32`, `prop.warpSize == 32`, `warpSize != 32`: a test that the warp has 32 lanes."""
    for side, other in ((lhs, rhs), (rhs, lhs)):
        if side is None or other is None or ctx.literal_value(other) != 32:
            continue
        name = side.strip().text.split(".")[-1].strip() or side.strip().name  # in a macro's argument: no text
        if name == "warpSize" or is_warp_size_name(name):
            return name
    return ""


def _spelled_at(ctx, name: str):
    """The token that spells `name` in the lines of a macro call the expression came from (its own location is
    the macro's name)."""
    for tok in ctx.view.code:
        if ctx.node.line <= tok.line <= ctx.node.line + 8 and tok.text == name:
            return tok
    return None


def check_call(ctx) -> None:
    """`divUp(numThreads, kWarpSize)`: a count of 32-lane warps made by a rounding helper."""
    if not _lanes.DIVIDE_UP.match(ctx.callee_name) or ctx.platform_guarded:
        return
    args = ctx.args
    if (
        len(args) == 2
        and ctx.literal_value(args[1]) == 32
        and not per_platform_name(ctx, args[1].text)
        and not _lanes.bitmap_words(ctx, ctx.node)
    ):
        through = named_constant(args[1])
        lane_report(
            ctx,
            f"`{ctx.node.text}`{f' ({through})' if through else ''} rounds to warps of 32 threads; a "
            "64-lane wavefront holds twice as many, so the count is wrong on AMD. Use warpSize.",
        )


def check(ctx: Context) -> None:
    if ctx.event == "call":
        check_call(ctx)
        return
    if ctx.event == "directive":
        check_define(ctx)
        return
    operator = ctx.node.operator
    if operator in ("==", "!=") and not ctx.platform_guarded:
        name = _warp_size_test(ctx, *ctx.operands())
        if name and not per_platform_name(ctx, ctx.node.text):
            at = None if ctx.node.text else _spelled_at(ctx, name)  # `ASSERT(prop.warpSize == 32, ...)`
            shown = ctx.node.text or f"{name} == 32"
            ctx.report(
                f"`{shown}` tests for a 32-lane warp: false on AMD CDNA, where {name} is 64 "
                "(or must become 64). Handle both sizes.",
                at=at,
            )
        return
    if operator == "*" and not ctx.platform_guarded:
        lhs, rhs = ctx.operands()
        for index, size in ((lhs, rhs), (rhs, lhs)):
            if index is None or size is None or ctx.literal_value(size) != 32:
                continue
            name = index.strip().text
            if _lanes.WARP_COUNT.match(name) or (ctx.literal_value(index) == 32 and _warp_size_named(index)):
                if _warp_size_named(size) or _warp_size_named(index):
                    lane_report(
                        ctx,
                        f"`{ctx.node.text}` builds a thread count from warps of 32 lanes: on AMD "
                        "a wavefront has 64, so the count changes with the warp size (and 64 x 64 exceeds "
                        "the 1024-thread block limit). Derive it from a per-platform warp constant.",
                    )
                    return
            if _lanes.WARP_INDEX.match(name):
                through = named_constant(size)
                lane_report(
                    ctx,
                    f"`{ctx.node.text}`{f' ({through})' if through else ''} scales a warp or lane index "
                    "by 32 lanes: on a 64-lane wavefront the offsets of two warps overlap. Scale by "
                    "warpSize.",
                )
                return
        return
    if operator in ("<", ">=") and not ctx.platform_guarded:
        lhs, rhs = ctx.operands()
        if _lanes.half_warp_test(ctx, lhs, rhs):
            ctx.report(
                f"`{ctx.node.text}` picks half of a 32-lane warp (lanes 0-15), as code that packs values from "
                "all 32 lanes into 16 slots does; on a 64-lane wavefront the lanes run to 63 and half of them is "
                "32, so the packing covers half the wavefront (correct only if lanes stay below 32). Derive the "
                "half from warpSize.",
                severity=Severity.LOW,
            )
            return
        if (
            ctx.literal_value(rhs) == 32
            and ctx.derives_from_thread_id(lhs)
            and has_warp_ops(ctx)
            and lhs.strip().text.replace(" ", "") in ("threadIdx.x", "tid", "threadIdx_x", "thread_id", "tx")
        ):
            ctx.report(
                f"`{ctx.node.text}` picks the first 32 threads, one CUDA warp, for warp-level work; on AMD "
                "the first wavefront has 64 lanes, so lanes 32-63 of it sit out (correct only if the data was "
                "folded to 32 values and every shuffle stays within 32). Use warpSize.",
                severity=Severity.LOW,
            )
        return
    if operator == "+=":
        lhs, rhs = ctx.operands()
        if not _steps_by_32(ctx, rhs) or ctx.platform_guarded or not ctx.derives_from_thread_id(lhs):
            return
        if not _lanes.warps_of_32(ctx):
            lane_report(
                ctx,
                f"`{ctx.node.text}` strides by a 32-lane warp from a lane's start: on a 64-lane wavefront "
                "lanes 32-63 walk the same elements as lanes 0-31. Stride by warpSize.",
            )
            return
        why = _groups.wavefront_use(ctx, ctx.function)
        if why:  # lanes 32-63 are another warp of 32 with its own rows, but something here spans all 64
            lane_report(
                ctx,
                f"`{ctx.node.text}` strides by 32 lanes within warps numbered by 32, while {why} works "
                "on the whole 64-lane wavefront: the two halves' rows meet there on AMD. Derive the stride, "
                "the warp index and the width from one per-platform warp size.",
            )
        return
    op = ctx.node.operator.rstrip("=") if ctx.node.operator not in ("==", "<=", ">=", "!=") else ""
    expected = _WARP_CONSTANTS.get(op)
    if expected is None:
        return
    lhs, rhs = ctx.operands()
    if op in ("%", "/") and ctx.literal_value(rhs) is None and not ctx.platform_guarded:
        _check_warp_parameter(ctx, op, lhs, rhs)
        return
    if ctx.literal_value(rhs) != expected or ctx.platform_guarded:
        return
    if other_named_constant(rhs):
        return  # `i % QK8_1`: a quantization block of 32, not the warp
    if op == ">>" and _lanes.bit_field(ctx, ctx.node):
        return  # `(qh >> 5) & 0x1000`: a bit of packed data moved into place
    if op == "%" and _lanes.alignment_test(ctx.node, lhs):
        return  # `if (iqs % 32 != 0) return;`: an element index tested for a block boundary
    through = named_constant(rhs)
    through = f" ({through})" if through else ""
    count = peel(lhs).text.replace(" ", "") if lhs is not None else ""
    if op == "/" and lhs is not None and _warp_size_named(rhs) and _lanes.fragment_share(ctx, lhs):
        ctx.report(
            f"`{ctx.node.text}`{through} divides a tile of `{peel(lhs).text.strip()}` elements among the 32 lanes "
            "of a PTX matrix instruction (`mma`, `ldmatrix`) this file issues: it is the per-thread fragment size "
            "of that instruction's layout, which the port to MFMA or rocWMMA replaces as a whole (ROC120, ROC139 "
            "report the instruction). A note only.",
            severity=Severity.INFO,
        )
        return
    if op in ("/", ">>") and lhs is not None and (_lanes.THREAD_COUNT.match(count) or _warp_size_named(rhs)):
        lane_report(
            ctx,
            f"`{ctx.node.text}`{through} counts warps of 32 threads; a 64-lane wavefront holds twice "
            "as many, so the count and every index built on it are wrong on AMD. Use warpSize.",
        )
        return
    if not ctx.derives_from_thread_id(lhs) and not (op in ("%", "&") and _lanes.names_a_lane(ctx.node)):
        return
    if _lanes.bitmap_bit(ctx, ctx.node, lhs):
        return  # `masks[i / 32] & (1u << (i % 32))`: a bit of a bitmap of 32-bit words
    destination = _lanes.destination(ctx.node)
    if (
        op in ("/", "%")
        and not through
        and destination
        and not _lanes.WARPISH.search(destination)
        and not has_warp_ops(ctx)
    ):
        return  # `ip = tid / 32` in a function that never works per warp: data layout (two halves of 64 threads)
    stagger = _lanes.staggers_peers(ctx, ctx.node) if op in ("/", ">>") else ""
    if stagger:
        ctx.report(
            f"`{ctx.node.text}`{through} numbers warps of 32 threads, but `{stagger}` only staggers the order "
            "in which threads visit the peers of a communicating group, and nothing in the function works per "
            "warp: on a 64-lane wavefront the order changes, not the result. A note only.",
            severity=Severity.INFO,
        )
        return
    layout = _lanes.tiled_layout(ctx, ctx.node)
    if layout:
        ctx.report(
            f"`{ctx.node.text}`{through} addresses a column or a tile of cuBLASLt's 32-column COL32/COL4 layout "
            f"(`{layout}`): the 32 is the tile's width, which stays 32 on AMD, not the warp's. A note only.",
            severity=Severity.INFO,
        )
        return
    lane_report(ctx, f"`{ctx.node.text}`{through} assumes a 32-lane warp; use warpSize.")


def check_define(ctx) -> None:
    """A macro's body counts warps of 32 threads (`(kNumThreads / kWarpSize)` in `#define LAUNCH_SELECT(...)`):
    clang sees the expansion where the macro is used, so the body itself is read here, on its tokens."""
    directive = ctx.directive
    if directive.name != "define" or ctx.platform_guarded:
        return
    values = _shapes.file_values(ctx)
    tokens = directive.tokens
    for k in range(1, len(tokens) - 2):
        count, op, size = tokens[k], tokens[k + 1], tokens[k + 2]
        if op.text != "/" or not _lanes.THREAD_COUNT.match(count.text) or tokens[k - 1].text in (".", "->", "::"):
            continue
        if k + 3 < len(tokens) and tokens[k + 3].text in (".", "->", "::", "(", "["):
            continue  # `THREADS / kWarp.size`, `THREADS / warps(...)`: not the name alone
        value = _shapes.number(size.text, values)
        named = (
            size.text[:1].isalpha() and (size.text.isupper() or size.text[:1] == "k") and is_warp_size_name(size.text)
        )
        if (
            (value == 32 or (value is None and named))
            and not per_platform_name(ctx, size.text)
            and not defined_per_platform(ctx, size.text)
        ):
            shown = f"{count.text} / {size.text}"
            through = "" if size.text.isdigit() else f" (`{size.text}` is 32)"
            ctx.report(
                f"`{shown}`{through} in the macro `{tokens[0].text}` counts warps of 32 threads; a 64-lane "
                "wavefront holds twice as many, so the count and every index built on it are wrong on AMD. Use "
                "warpSize.",
                at=count,
            )
            return


def _check_warp_parameter(ctx, op: str, lhs, rhs) -> None:
    """`tid % kWarpThreads`, `kThreads / kWarpThreads` where `kWarpThreads` is a template parameter named for the
    warp with no default: reported when the file instantiates the template with 32 (at the rule's severity), or
    does not instantiate it at all (medium: the value is set elsewhere); not when every instantiation the file
    makes is another number, nor when one of them is 64 or a per-platform name (`rowmax<C10_WARP_SIZE>`)."""
    name, value, at = _templates.warp_parameter(ctx, rhs)
    if not name or value == "other":
        return
    count = peel(lhs).text.replace(" ", "") if lhs is not None else ""
    if not ctx.derives_from_thread_id(lhs) and not (op == "/" and _lanes.THREAD_COUNT.match(count)):
        return
    role = "counts warps of" if op == "/" else "takes a lane from"
    if value == "32":
        lane_report(
            ctx,
            f"`{ctx.node.text}` {role} `{name}`, a template parameter named for the warp that this file sets "
            f"to 32 (on line {at.line}): 32 lanes, where a 64-lane AMD wavefront has twice as many. Instantiate "
            "it with a per-platform warp constant.",
        )
        return
    lane_report(
        ctx,
        f"`{ctx.node.text}` {role} `{name}`, a template parameter named for the warp whose value is set "
        "where the template is instantiated, outside this file's view: with 32 it is one CUDA warp, half a "
        "64-lane AMD wavefront. Instantiate it with a per-platform warp constant.",
        severity=Severity.MEDIUM,
    )


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: `threadIdx.x % 32`, `lane & 31`, `tid >> 5` on one line."""
    if ctx.platform_guarded:
        return
    names = _shapes.values_at(ctx, ctx.line)
    stride = _shapes.WARP_STRIDE.search(ctx.line_code)
    if stride:
        lane_report(
            ctx,
            f"`{stride.group('var')}` strides by a 32-lane warp from a lane's start: on a 64-lane wavefront "
            "lanes 32-63 walk the same elements as lanes 0-31. Stride by warpSize.",
            at=ctx.token_at(stride.start()),
        )
    for match in _shapes.LANE_ARITHMETIC.finditer(ctx.line_code):
        if _shapes.WARP_CONSTANT[match.group("op")] == _shapes.number(match.group("n"), names):
            lane_report(
                ctx, f"`{match.group(0)}` assumes a 32-lane warp; use warpSize.", at=ctx.token_at(match.start())
            )


RULE = Rule(
    name="warp-size-lane-arithmetic",
    summary="Lane/warp index computed with 32 (% 32, / 32, & 31, >> 5) from a thread id",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("binary_op", "call", "directive"),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
