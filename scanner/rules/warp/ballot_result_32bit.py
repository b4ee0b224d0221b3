"""Ballot or active-mask result kept in 32 bits.

What it finds:
    The result of `__ballot_sync`, `__ballot`, `__activemask` or `__match_any_sync`/`__match_all_sync`
    stored in a 32-bit integer (`unsigned b = __ballot_sync(...)`, `uint32_t m = __activemask()`, an
    assignment to such a variable), or passed to the 32-bit bit functions `__popc`, `__ffs`, `__clz`,
    `__brev` directly or through a variable that holds it.

Why it breaks on ROCm:
    On HIP these functions return `unsigned long long`: one bit per lane of a 64-lane wavefront on AMD
    CDNA/Instinct GPUs. Converting to 32 bits drops lanes 32-63, so vote counts (`__popc`), first-lane
    searches (`__ffs`) and leader election are silently wrong for the upper half of the wavefront.

Example:
    unsigned active = __ballot_sync(0xffffffff, pred);
    int count = __popc(active);

Use instead:
    Keep masks in `auto` or `unsigned long long` (`uint64_t`) and use the 64-bit bit functions
    `__popcll`, `__ffsll`, `__clzll`, `__brevll`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-vote-and-ballot-functions
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/math_api.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#warp-vote-functions

    A note only (info) where only threads 0-31 reach the line (after `if (threadIdx.x >= 32) return;` at the
    function's top level, or inside `if (threadIdx.x < 32) { ... }`: scanner.rules.warp._first_warp): the
    64-bit mask's upper half is always 0 there, so 32 bits lose nothing.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import declaration_in, declared_auto, in_platform_macro, mask_calls, safe_size
from scanner.rules.warp._first_warp import first_warp_note, reached_by_first_warp

_BIT32 = {"__popc": "__popcll", "__ffs": "__ffsll", "__clz": "__clzll", "__brev": "__brevll"}


def _source(ctx, node) -> str:
    """The mask intrinsic whose result flows into `node`, or ""."""
    calls = [c for c in mask_calls(node) if not in_platform_macro(ctx, c)]
    return calls[0].callee_name if calls else ""


def _report(ctx, message: str, what: str, at=None) -> None:
    """At the rule's severity, or a note where only threads 0-31 reach the line: the mask has no bit above 31."""
    why = reached_by_first_warp(ctx, at.line if at is not None else ctx.line)
    if why:
        ctx.report(
            first_warp_note(what, why, "The 64-bit mask's upper half is always 0 there, so 32 bits lose nothing"),
            at=at,
            severity=Severity.INFO,
        )
        return
    ctx.report(message, at=at)


def _check_decl(ctx) -> None:
    decl = ctx.node
    values = [c for c in decl.children if c.is_expression]
    if not values or declared_auto(decl):
        return
    source = _source(ctx, values[-1])
    if source and safe_size(decl) in (1, 2, 4):
        _report(
            ctx,
            f"`{decl.name}` keeps the {source}() mask in 32 bits ({decl.type_name}); on HIP it is "
            "64-bit and lanes 32-63 are lost. Use unsigned long long or auto.",
            f"`{decl.name}` keeps the {source}() mask in 32 bits ({decl.type_name})",
        )


def _check_assign(ctx) -> None:
    node = ctx.node
    if node.operator not in ("=", "|=", "&=", "^=") or len(node.children) != 2:
        return
    target, value = node.children
    source = _source(ctx, value)
    if source and safe_size(target) in (1, 2, 4):
        _report(
            ctx,
            f"`{target.text}` keeps the {source}() mask in 32 bits; on HIP it is 64-bit and lanes "
            "32-63 are lost. Use unsigned long long.",
            f"`{target.text}` keeps the {source}() mask in 32 bits",
        )


def _check_bitop(ctx) -> None:
    call = ctx.node
    name = call.callee_name
    wide = _BIT32.get(name)
    if wide is None or not call.arguments:
        return
    arg = call.arguments[0]
    source = _source(ctx, arg)
    if not source:
        ref = arg.strip()
        if ref.is_decl_ref:
            decl = declaration_in(ctx.function.node if ctx.function else None, ref.name)
            values = [c for c in decl.children if c.is_expression] if decl is not None else []
            # A 32-bit variable is reported at its declaration; here only the 64-bit (or auto) ones.
            if values and (declared_auto(decl) or safe_size(decl) == 8):
                source = _source(ctx, values[-1])
    if source:
        _report(
            ctx,
            f"`{name}` takes 32 bits of the {source}() mask; on HIP it is 64-bit and lanes 32-63 are "
            f"ignored. Use {wide}.",
            f"`{name}` takes 32 bits of the {source}() mask",
        )


def check(ctx: Context) -> None:
    if ctx.platform_guarded:
        return
    if ctx.event == "var_decl":
        _check_decl(ctx)
    elif ctx.event == "binary_op":
        _check_assign(ctx)
    else:
        _check_bitop(ctx)


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: a ballot kept in a 32-bit variable, or counted with the 32-bit __popc."""
    if ctx.platform_guarded:
        return
    decl = _shapes.BALLOT_IN_32.search(ctx.line_code)
    if decl:
        _report(
            ctx,
            f"`{decl.group('name')}` keeps the {decl.group('call')}() mask in 32 bits; on HIP it is "
            "64-bit and lanes 32-63 are lost. Use unsigned long long or auto.",
            f"`{decl.group('name')}` keeps the {decl.group('call')}() mask in 32 bits",
            at=ctx.token_at(decl.start("name")),
        )
        return
    bit = _shapes.POPC_OF_BALLOT.search(ctx.line_code)
    if bit:
        _report(
            ctx,
            f"`{bit.group('bit')}` counts 32 bits of the {bit.group('call')}() mask; on HIP it is 64-bit. "
            "Use the ll variant.",
            f"`{bit.group('bit')}` counts 32 bits of the {bit.group('call')}() mask",
            at=ctx.token_at(bit.start()),
        )


RULE = Rule(
    name="warp-ballot-result-32bit",
    formerly=("ballot-result-32bit",),
    summary="__ballot_sync/__activemask result stored in 32 bits or passed to __popc/__ffs/__clz",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("var_decl", "binary_op", "call"),
    requires=("__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync"),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
