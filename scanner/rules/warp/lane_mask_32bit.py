"""32-bit lane mask passed to a warp intrinsic.

What it finds:
    The mask argument of `__shfl*_sync`, `__ballot_sync`, `__any_sync`/`__all_sync`/`__uni_sync`,
    `__match_*_sync`, `__reduce_*_sync` and `__syncwarp` when it has a 32-bit type: `0xffffffff`,
    `0xFFFFFFFFu`, `~0u`, `-1`, `(unsigned)-1`, a `FULL_MASK` macro, an `unsigned`/`uint32_t` variable.
    Also a 64-bit mask whose value is the 32-lane full mask (`(uint64_t)0xffffffff`). HIP has the warp
    reductions since ROCm 7.0, with CUDA's overloads (`__reduce_add_sync`, `__reduce_min_sync` and
    `__reduce_max_sync` on `int` and `unsigned int`; `__reduce_and_sync`, `__reduce_or_sync` and
    `__reduce_xor_sync` on `unsigned int`) and the 64-bit mask of the other `*_sync` functions; for a target
    before ROCm 7.0 every `__reduce_*_sync` call is reported, whatever its mask.

Why it breaks on ROCm:
    HIP's `*_sync` warp functions (ROCm 6.2 and later) take a 64-bit mask, one bit per lane of a 64-lane
    wavefront, and reject anything else: a `static_assert` ("The mask must be a 64-bit integer") stops
    the build for every 32-bit mask, on every AMD GPU. A 64-bit value with only the low 32 bits set
    leaves lanes 32-63 out of the mask on CDNA/Instinct GPUs, which fails HIP's mask check (all active
    lanes must be named) or silently restricts the operation to half the wavefront.

Example:
    #define FULL_MASK 0xffffffff
    val += __shfl_down_sync(FULL_MASK, val, offset);

Use instead:
    A 64-bit mask: `__activemask()` (64-bit on HIP) kept in an `auto` or `unsigned long long`, or
    `0xffffffffffffffffull`; or, in HIP-only code, the mask-free `__shfl_down(val, offset)`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-cross-lane-functions
    https://github.com/ROCm/clr/blob/develop/hipamd/include/hip/amd_detail/amd_warp_sync_functions.h
    https://github.com/ROCm/clr/blob/develop/CHANGELOG.md
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#warp-shuffle-functions

Known problems:
    `__syncwarp()` without an argument is reported at info on ROCm 7.0 and later (where it builds and waits
    for the whole wavefront) and as a build break for older targets (it needs HIP_ENABLE_WARP_SYNC_BUILTINS
    on 6.2-6.4 and does not exist before). A mask variable declared `auto` and
    initialised from `__activemask()`/`__ballot_sync()` is taken as 64-bit (it is on HIP).
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import (
    FULL_MASK_32,
    MASK_RESULTS,
    MASKED_INTRINSICS,
    declaration_in,
    declared_auto,
    in_platform_macro,
    int_value,
    mask_calls,
    per_platform_name,
    safe_size,
    written_args,
)

# The first ROCm whose HIP has CUDA's warp reductions (`__reduce_add_sync`...): HIP 7.0's changelog, "Added warp
# level primitives: `__syncwarp` and reduce intrinsics". tests/scanner/test_warp_reduce_headers.py reads the bundled
# HIP headers back against this rule's documentation.
REDUCE_SYNC_SINCE = (7, 0)


def _describe(expr, value) -> str:
    text = expr.text.strip()
    if value is not None and (not text or "(" in text and not text.startswith("(")):
        return hex(value & 0xFFFFFFFFFFFFFFFF)  # written inside a macro: show the value
    return text if len(text) <= 40 else text[:37] + "..."


def check(ctx: Context) -> None:
    call = ctx.node
    name = call.callee_name
    if name not in MASKED_INTRINSICS or ctx.platform_guarded or in_platform_macro(ctx, call):
        return
    if name in ctx.port.shims:
        return  # the project's HIP header redefines it (`#define __shfl_xor_sync(mask, ...) __shfl_xor(...)`)
    args = written_args(call)
    if not args:
        if name == "__syncwarp":
            _syncwarp(ctx)
        return
    mask = args[0].strip()
    if name.startswith("__reduce_") and not ctx.target.rocm_at_least(*REDUCE_SYNC_SINCE):
        ctx.report(
            f"HIP before ROCm 7.0 has no `{name}` (CUDA's sm_80 warp reduction), whatever its mask; the target "
            f"is ROCm {ctx.target.rocm_text}. Reduce with a shuffle loop over warpSize lanes.",
            at=args[0],
        )
        return
    if per_platform_name(ctx, args[0].text):
        return  # a mask the project defines per platform (64-bit on AMD)
    if mask.is_call and mask.callee_name in MASK_RESULTS:
        return  # __activemask() / __ballot_sync() return 64-bit masks on HIP
    if mask.is_decl_ref:
        decl = declaration_in(ctx.function.node if ctx.function else None, mask.name)
        if decl is not None and declared_auto(decl):
            values = [c for c in decl.children if c.is_expression]
            if values and mask_calls(values[-1]):
                return
    size = safe_size(mask)
    value = int_value(mask)
    if value is None and size == 8 and mask.is_decl_ref:
        decl = declaration_in(ctx.function.node if ctx.function else None, mask.name)
        values = [c for c in decl.children if c.is_expression] if decl is not None else []
        value = int_value(values[-1]) if values else None
    if size == 8:
        if value is not None and value & 0xFFFFFFFFFFFFFFFF == FULL_MASK_32:
            ctx.report(
                f"`{name}` mask {_describe(mask, value)} names lanes 0-31 only; a 64-lane wavefront has "
                "lanes 32-63 too. Use __activemask() or 0xffffffffffffffffull.",
                at=args[0],
            )
        return
    if size not in (1, 2, 4):
        return
    if value is not None and value & FULL_MASK_32 == FULL_MASK_32:
        what = f"the 32-bit full mask `{_describe(mask, value)}`"
    else:
        what = f"the 32-bit mask `{_describe(mask, value)}`"
    ctx.report(
        f"`{name}` gets {what}; HIP's *_sync functions require a 64-bit mask (static_assert) "
        "and a full wavefront has 64 lanes. Use a 64-bit mask such as __activemask().",
        at=args[0],
    )


def _syncwarp(ctx) -> None:
    """`__syncwarp()` without a mask: fine on current ROCm, a build break on ROCm before 7.0 unless enabled."""
    if ctx.target.rocm_at_least(7, 0):
        ctx.report(
            "`__syncwarp()` builds on ROCm 7.0 and later (HIP's warp-sync functions are on by default) and "
            f"waits for all 64 lanes of the wavefront; the target is ROCm {ctx.target.rocm_text}. ROCm 6.2-6.4 "
            "need -DHIP_ENABLE_WARP_SYNC_BUILTINS, older releases have no __syncwarp.",
            severity=Severity.INFO,
        )
    else:
        ctx.report(
            f"`__syncwarp()` does not build on ROCm {ctx.target.rocm_text} unless "
            "-DHIP_ENABLE_WARP_SYNC_BUILTINS is given (6.2-6.4; older releases have none). Define it, or "
            "use __builtin_amdgcn_wave_barrier() in HIP-only code."
        )


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: a warp intrinsic whose mask is 0xffffffff (or a name the file defines so)."""
    names = ctx.memo.get("rocport:full-mask-names")
    if names is None:
        names = ctx.memo["rocport:full-mask-names"] = _shapes.full_mask_names(ctx.lines)
    match = _shapes.masked_call_with_32bit_mask(ctx.line_code, names)
    if match and not ctx.platform_guarded:
        ctx.report(
            f"`{match.group('name')}` mask `{match.group('mask')}` names lanes 0-31 only; a 64-lane "
            "wavefront has lanes 32-63 too. Use __activemask() or 0xffffffffffffffffull.",
            at=ctx.token_at(match.start("mask")),
        )


RULE = Rule(
    name="warp-lane-mask-32bit",
    formerly=("lane-mask-32bit",),
    summary="32-bit lane mask (0xffffffff, unsigned) passed to a *_sync warp intrinsic",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("call",),
    requires=(
        "__shfl*",
        "__ballot*",
        "__any_sync",
        "__all_sync",
        "__uni_sync",
        "__activemask",
        "__match*",
        "__reduce*",
        "__syncwarp",
    ),
    check=check,
    token_check=check_tokens,
)
