"""Warp shuffle reduction that starts at offset 16.

What it finds:
    Shuffle reductions sized for 32 lanes: a loop `for (int o = 16; o > 0; o /= 2)` (or `o >>= 1`) whose
    body passes the offset to `__shfl_down(_sync)` / `__shfl_xor(_sync)` / `__shfl_up(_sync)`, and unrolled
    sequences whose largest literal offset is 16 (`v += __shfl_down_sync(mask, v, 16); ... 8 ...`). A loop
    from half a template parameter named for the warp (`for (int o = kWarpThreads / 2; ...)`) counts where
    the file instantiates the template with 32, and at medium where it never instantiates it; not where it
    also passes 64 or a per-platform name (a dispatch over both sizes).

Why it breaks on ROCm:
    A butterfly or tree reduction that starts at offset 16 combines 32 lanes. On AMD CDNA/Instinct GPUs a
    wavefront has 64 lanes, so lane 0 ends up with the sum of lanes 0-31 only and lanes 32-63 hold a
    second partial result that is silently dropped.

Example:
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);

Use instead:
    Start at half the wavefront size, known at run time: `for (int o = warpSize / 2; o > 0; o /= 2)`,
    or use a library reduction that adapts to the wavefront (hipCUB `WarpReduce`, rocPRIM).

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-shuffle-functions
    https://rocm.docs.amd.com/projects/hipCUB/en/latest/
    https://developer.nvidia.com/blog/using-cuda-warp-level-primitives/

    Not reported: a shuffle with an explicit width of at most 32 (the reduction covers the group it names).
    A note only (info) where the function keeps to 32-lane groups throughout: xor trees from 16 then reduce
    each half of the wavefront, which is what the rest of the code expects; and where only threads 0-31 run the
    tree (inside `if (threadIdx.x < 32) { ... }`, or after a return for the others: a scan over at most 32
    per-warp sums), which combines every lane that takes part (scanner.rules.warp._first_warp).
    A note too for a xor tree from `P / 2` where the template parameter `P` defaults to 32 and the function
    takes its lane (`% P`) and its warp (`/ P`) from it: each half of a wavefront reduces its own 32 lanes into
    its own slot.

Known problems:
    Whether only lane 0's result is used is not followed: a down tree from 16 in a function that also uses
    warpSize or a ballot stays high even where lane 0 (whose sum covers its own 32 lanes) is the only reader.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _shapes, _templates
from scanner.rules.warp._common import SHUFFLE_OFFSET_ARG, SHUFFLE_WIDTH_ARG, in_platform_macro, int_value, written_args
from scanner.rules.warp._first_warp import first_warp_note, reached_by_first_warp
from scanner.rules.warp._groups import lane_report


def _sub_warp(call) -> bool:
    """An explicit width of at most 32 (`__shfl_xor_sync(m, v, o, 32)`, a template parameter defaulted to 32): the
    reduction covers the group it names, which a 64-lane wavefront runs as two; the 32 itself is ROC104's."""
    index = SHUFFLE_WIDTH_ARG.get(call.callee_name)
    args = written_args(call)
    if index is None or index >= len(args):
        return False
    width = int_value(args[index])
    return width is not None and width <= 32


def _shuffles(root):
    for node in root.walk():
        if node.is_call and node.callee_name in SHUFFLE_OFFSET_ARG:
            yield node


def _offset(call):
    args = written_args(call)
    index = SHUFFLE_OFFSET_ARG[call.callee_name]
    return args[index] if index < len(args) else None


def _loop_var(init) -> tuple[str, int | None]:
    """The loop variable and its initial value: `int o = 16` or `o = 16`."""
    if init.is_decl_stmt:
        decls = [c for c in init.children if c.is_var_decl]
        if len(decls) == 1:
            values = [c for c in decls[0].children if c.is_expression]
            return decls[0].name, int_value(values[-1]) if values else None
    elif init.is_binary_operator and init.operator == "=" and len(init.children) == 2:
        target = init.children[0].strip()
        if target.is_decl_ref:
            return target.name, int_value(init.children[1])
    return "", None


def _halved(init):
    """`kWarpThreads / 2` or `kWarpThreads >> 1` as a loop's initial value: the halved name, else None."""
    values = []
    if init.is_decl_stmt:
        decls = [c for c in init.children if c.is_var_decl]
        values = [c for c in decls[0].children if c.is_expression] if len(decls) == 1 else []
    elif init.is_binary_operator and init.operator == "=" and len(init.children) == 2:
        values = [init.children[1]]
    value = values[-1].strip() if values else None
    if value is None or not value.is_binary_operator or len(value.children) != 2:
        return None
    if (value.operator, int_value(value.children[1])) in (("/", 2), (">>", 1)):
        return value.children[0]
    return None


def _halves(step, var: str) -> bool:
    """`o /= 2`, `o >>= 1`, `o = o / 2`, `o = o >> 1`."""
    if len(step.children) != 2:
        return False
    target, amount = step.children[0].strip(), step.children[1]
    if not target.is_decl_ref or target.name != var:
        return False
    op = step.operator
    if op in ("/=", ">>="):
        return int_value(amount) == (2 if op == "/=" else 1)
    if op == "=":
        rhs = amount.strip()
        if rhs.is_binary_operator and rhs.operator in ("/", ">>") and len(rhs.children) == 2:
            left = rhs.children[0].strip()
            return (
                left.is_decl_ref
                and left.name == var
                and int_value(rhs.children[1]) == (2 if rhs.operator == "/" else 1)
            )
    return False


def _mentions(expr, var: str) -> bool:
    return any(n.is_decl_ref and n.name == var for n in expr.walk())


def _check_loop(ctx) -> None:
    children = ctx.node.children
    if len(children) < 3:
        return
    var, start = _loop_var(children[0])
    parameter, value, at = _templates.warp_parameter(ctx, _halved(children[0]))
    if parameter and value in ("32", "unknown"):
        start = 16  # `kWarpThreads / 2` of a template parameter named for the warp, set to 32 where it is used
    if not var or start != 16:
        return
    steps = [c for c in children[1:-1] if (c.is_binary_operator or c.is_compound_assignment)]
    if not any(_halves(s, var) for s in steps):
        return
    for call in _shuffles(children[-1]):
        offset = _offset(call)
        # A per-platform shuffle macro (WARP_SHFL_DOWN) fixes the mask, not the 16: still reported.
        if offset is not None and _mentions(offset, var) and not _sub_warp(call):
            if parameter and value in ("unknown", "32") and _groups_of_parameter(ctx, parameter, call):
                ctx.report(
                    f"shuffle reduction starts at `{parameter}` / 2 ({call.callee_name}), a template parameter "
                    "named for the warp that defaults to 32, and the function numbers its lanes and warps with the "
                    f"same `{parameter}` (`% {parameter}`, `/ {parameter}`): a xor tree never leaves its 32-lane "
                    "group, so each half of a 64-lane wavefront reduces its own 32 lanes into its own warp's slot. "
                    "Consistent here, so only a note; a port to whole wavefronts changes the parameter and the "
                    "slots together.",
                    severity=Severity.INFO,
                )
                return
            if parameter and value == "unknown":
                lane_report(
                    ctx,
                    f"shuffle reduction starts at `{parameter}` / 2 ({call.callee_name}), a template parameter "
                    "named for the warp whose value is set outside this file: with 32 it combines 32 lanes and "
                    "drops lanes 32-63 of a 64-lane wavefront; instantiate it with a per-platform warp size.",
                    severity=Severity.MEDIUM,
                )
                return
            through = f" (`{parameter}` / 2, set to 32 on line {at.line})" if parameter else ""
            if _first_warp_note(ctx, f"shuffle reduction starts at offset 16{through} ({call.callee_name})"):
                return
            lane_report(
                ctx,
                f"shuffle reduction starts at offset 16{through} ({call.callee_name}): it combines 32 lanes and "
                "drops lanes 32-63 of a 64-lane wavefront; start at warpSize / 2.",
            )
            return


def _groups_of_parameter(ctx, parameter: str, call) -> bool:
    """The tree is a xor butterfly (`__shfl_xor_sync`: no lane leaves its 32-lane group), the parameter defaults to
    32 (`template <int WARPS, int WARP_SIZE = 32>`), and the function takes both its lane (`% P`) and its warp
    (`/ P`) from it: the 32-lane groups are consistent on a 64-lane wavefront."""
    if "xor" not in call.callee_name or _templates.default_of(ctx, parameter, ctx.function) != 32:
        return False
    function = ctx.function
    if function is None:
        return False
    texts = [t.text for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
    before = {texts[i - 1] for i in range(1, len(texts)) if texts[i] == parameter}
    return "%" in before and "/" in before


def _check_call(ctx) -> None:
    call = ctx.node
    name = call.callee_name
    if name not in SHUFFLE_OFFSET_ARG or _sub_warp(call) or in_platform_macro(ctx, call):
        return
    offset = _offset(call)
    if offset is None or int_value(offset) != 16:
        return
    if not offset.strip().is_integer_literal:
        return  # a loop variable or a named constant: the loop check and ROC104 cover those
    # A sequence that also shuffles by 32 already covers 64 lanes.
    scope = ctx.function.node if ctx.function is not None and ctx.function.node is not None else None
    if scope is not None:
        for other in _shuffles(scope):
            o = _offset(other)
            if o is not None and int_value(o) == 32:
                return
    if _first_warp_note(ctx, f"`{name}` by 16 is the widest step of a 32-lane shuffle sequence"):
        return
    lane_report(
        ctx,
        f"`{name}` by 16 is the widest step of a 32-lane shuffle sequence; lanes 32-63 of a 64-lane "
        "wavefront are never combined. Add the 32 step or loop from warpSize / 2.",
    )


def _first_warp_note(ctx, what: str) -> bool:
    """Only threads 0-31 run the shuffles (`if (threadIdx.x < 32) { ... }`, a return for the others): the tree from
    16 combines every lane that takes part; lanes 32-63 of the first wavefront sit out. Reported as a note."""
    why = reached_by_first_warp(ctx, ctx.line)
    if why:
        ctx.report(
            first_warp_note(
                what, why, "Every lane that takes part is combined, and lanes 32-63 of the first wavefront sit out"
            ),
            severity=Severity.INFO,
        )
    return bool(why)


def check(ctx: Context) -> None:
    if ctx.platform_guarded:
        return
    if ctx.event == "for":
        _check_loop(ctx)
    else:
        _check_call(ctx)


def check_tokens(ctx: Context) -> None:
    """Without a syntax tree: a loop whose step starts at 16 and halves, or a shuffle by the literal 16."""
    if ctx.platform_guarded:
        return
    names = _shapes.file_values(ctx)
    loop = _shapes.LOOP_FROM_16.search(ctx.line_code)
    if loop and _shapes.loop_start(loop, names) == 16:
        lane_report(
            ctx,
            f"`{loop.group('var')}` starts at 16: the reduction combines 32 lanes; lanes 32-63 of a "
            "64-lane wavefront are never combined. Start from warpSize / 2.",
            at=ctx.token_at(loop.start()),
        )
        return
    call = _shapes.shuffle_by_16(ctx.line_code, names)
    if call and ", 32" not in ctx.line_code:
        lane_report(
            ctx,
            f"`{call.group('name')}` by 16 is the widest step of a 32-lane shuffle sequence; lanes 32-63 "
            "of a 64-lane wavefront are never combined. Add the 32 step or loop from warpSize / 2.",
            at=ctx.token_at(call.start()),
        )


RULE = Rule(
    name="warp-reduction-offset-16",
    formerly=("reduction-offset-16",),
    summary="Warp shuffle reduction starting at offset 16 (covers 32 lanes only)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("for", "call"),
    requires=("__shfl*",),
    check=check,
    token_check=check_tokens,
    target_severity=wave64_severity,
)
