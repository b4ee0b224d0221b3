"""Shared helpers of the warp-size rules (not a rule module)."""

from __future__ import annotations

import functools
import re

from scanner.analysis.ast import Node
from scanner.analysis.context import PLATFORM_GUARD

# Shuffles whose offset argument walks lanes (index 2 for the *_sync forms, 1 for the legacy forms).
SHUFFLE_OFFSET_ARG = {
    "__shfl_down_sync": 2,
    "__shfl_xor_sync": 2,
    "__shfl_up_sync": 2,
    "__shfl_down": 1,
    "__shfl_xor": 1,
    "__shfl_up": 1,
}
SHUFFLE_WIDTH_ARG = {
    "__shfl_sync": 3,
    "__shfl_down_sync": 3,
    "__shfl_xor_sync": 3,
    "__shfl_up_sync": 3,
    "__shfl": 2,
    "__shfl_down": 2,
    "__shfl_xor": 2,
    "__shfl_up": 2,
}
# Warp intrinsics whose first argument is a lane mask.
MASKED_INTRINSICS = frozenset(
    {
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__uni_sync",
        "__match_any_sync",
        "__match_all_sync",
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
        "__syncwarp",
    }
)
# Intrinsics that return a lane mask (64-bit on HIP: unsigned long long).
MASK_RESULTS = frozenset(
    {"__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync", "__match_any", "__match_all"}
)

FULL_MASK_32 = 0xFFFFFFFF


def written_args(node: Node) -> list[Node]:
    """The call's arguments as written: default arguments (no source location) are left out."""
    return [a for a in node.arguments if a.line > 0]


def safe_size(node: Node | None) -> int:
    """sizeof the node's type, or -1; never asks libclang about overloaded or dependent types (it crashes)."""
    if node is None:
        return -1
    name = node.type_name
    if not name or name.startswith("<") or "dependent" in name:
        return -1
    return node.type_size


def int_value(node: Node | None) -> int | None:
    if node is None:
        return None
    if node.type_name.startswith("<"):
        return None
    return node.const_value()


def named_constant(expr: Node) -> str:
    """ "`WARP_SIZE` is 32" when a name in `expr` stands for a warp constant (32, 31, 16 or 5): a macro (its
    expansion's text is the macro's name), a constant, or a template parameter at its default. Empty if none."""
    for node in expr.walk():
        if (node.is_integer_literal or node.is_decl_ref) and re.fullmatch(r"[A-Za-z_]\w*", node.text or ""):
            value = node.const_value()
            if value in (32, 31, 16, 5):
                return f"`{node.text}` is {value}"
    return ""


def peel(node: Node) -> Node:
    """Under implicit casts, parentheses and explicit casts: the expression whose value is used."""
    node = node.strip()
    while node.is_explicit_cast and node.children:
        inner = [c for c in node.children if c.is_expression]
        if not inner:
            break
        node = inner[-1].strip()
    return node


def mask_calls(expr: Node, names=MASK_RESULTS) -> list[Node]:
    """Calls to mask-returning intrinsics whose value flows into `expr` through bit operations and casts
    (not through other calls such as __popc, which consume the mask, nor through bit extraction)."""
    found, stack = [], [expr]
    while stack:
        node = stack.pop()
        if node.is_call:
            if node.callee_name in names:
                found.append(node)
            continue
        if node.is_binary_operator:
            # `m | x` and `m & other_mask` stay masks; `m & 1`, `m >> lane` extract bits and fit in 32.
            if node.operator not in ("&", "|", "^"):
                continue
            if node.operator == "&" and any(int_value(c) is not None for c in node.children):
                continue
        if node.is_conditional_operator:
            stack.extend(node.children[1:])
            continue
        if node.is_unary_operator and node.operator not in ("~",):
            continue
        stack.extend(node.children)
    return found


def declaration_in(function_node: Node | None, name: str) -> Node | None:
    """The VAR_DECL or PARM_DECL called `name` in a function (the last one before use, good enough)."""
    if function_node is None or not name:
        return None
    found = None
    for node in function_node.walk():
        if (node.is_var_decl or node.is_parm_decl) and node.name == name:
            found = node
    return found


def declared_auto(decl: Node) -> bool:
    head = decl.text.split("=", 1)[0]
    return re.search(r"\bauto\b", head) is not None


# -- warp-size names --------------------------------------------------------------------------------
_SIZE_WORDS = frozenset({"size", "width", "lanes", "threads", "len", "sz"})
_WARP_WORDS = frozenset({"warp", "wave", "wavefront"})
_COMPOUND = re.compile(r"(warp|wave(front)?)(size|width|lanes|threads|len|sz)")
_NOT_SIZE_WORDS = frozenset(
    {
        "warps",
        "waves",
        "num",
        "count",
        "cnt",
        "idx",
        "index",
        "id",
        "log",
        "log2",
        "shift",
        "bits",
        "mask",
        "block",
        "blocks",
        "cta",
        "sm",
    }
)


def _words(name: str) -> list[str]:
    """`kWarpSize` -> [k, warp, size]; `THREADS_PER_WARP` -> [threads, per, warp]."""
    out = []
    for part in re.split(r"[_\W]+", name):
        out.extend(w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", part))
    return [w for w in out if w]


@functools.lru_cache(maxsize=4096)
def is_warp_size_name(name: str) -> bool:
    """WARP_SIZE, kWarpSize, warp_size, WARPSIZE, THREADS_PER_WARP, WARP_LANES...; not WARPS_PER_BLOCK,
    NUM_WARPS, WARP_SIZE_LOG2 or BLOCK_SIZE."""
    lower = name.lower()
    if "warp" not in lower and "wave" not in lower:
        return False
    words = _words(name)
    if words in (["warp"], ["k", "warp"], ["wave"]):
        return True  # `#define WARP 32`
    if "per" in words:
        at = words.index("per")
        return words[at + 1 :] in (["warp"], ["wave"]) and any(w in ("threads", "lanes") for w in words[:at])
    if any(w in _NOT_SIZE_WORDS for w in words):
        return False
    if any(_COMPOUND.fullmatch(w) for w in words):
        return True
    return any(w in _WARP_WORDS for w in words) and any(w in _SIZE_WORDS for w in words)


def other_named_constant(expr: Node | None) -> bool:
    """Written as a name that is not the warp size's (`QK8_1`, `kTileK`, `TILE`): 32 by coincidence, a block of
    data (a quantization group, a tile's depth), not the lanes of a warp."""
    text = peel(expr).text.strip() if expr is not None else ""
    upper = text.upper()
    return (
        bool(re.fullmatch(r"[A-Za-z_]\w*", text))
        and not is_warp_size_name(text)
        and not any(word in upper for word in ("WARP", "WAVE", "LANE", "LOG", "BITS", "SHIFT", "MASK"))
    )


# -- directives ------------------------------------------------------------------------------------
def directive_guards(directives, line: int) -> list[str]:
    """Conditions of the #if/#ifdef/#else blocks open at a directive's own line (the conditions as text)."""
    stack: list[str] = []
    for d in directives:
        if d.line >= line:
            break
        if d.name == "if":
            stack.append(d.text)
        elif d.name == "ifdef":
            stack.append(f"defined({d.text})")
        elif d.name == "ifndef":
            stack.append(f"!defined({d.text})")
        elif d.name in ("elif", "else", "elifdef", "elifndef") and stack:
            stack[-1] = stack[-1] + " / " + d.text  # the chain's conditions all decide this branch
        elif d.name == "endif" and stack:
            stack.pop()
    return stack


def in_platform_macro(ctx, node: Node) -> bool:
    """The node comes from a macro of this file that is defined per platform
    (`#if defined(USE_ROCM) #define WARP_SHFL_DOWN(v, d) __shfl_down(v, d) #else ... #endif`)."""
    match = re.match(r"\s*([A-Za-z_]\w*)", node.text)
    if not match:
        return False
    name = match.group(1)
    if name == node.callee_name or name == node.name:
        return False
    return defined_per_platform(ctx, name)


def defined_per_platform(ctx, name: str) -> bool:
    """This file `#define`s `name` under a platform test (`#ifdef __HIP_PLATFORM_AMD__ #define WAVE 64 #else ...`)."""
    directives = ctx.view.directives
    for d in directives:
        if d.name == "define" and d.tokens and d.tokens[0].text == name:
            if any(PLATFORM_GUARD.search(g) for g in directive_guards(directives, d.line)):
                return True
    return False


def per_platform_name(ctx, text: str) -> str:
    """A name in `text` the project defines per platform (scanner.port.Port.per_platform: `BNB_WARP_SIZE` is 64
    on CDNA): its value on AMD is the project's choice, not the CUDA-side value clang sees."""
    names = ctx.port.per_platform | FRAMEWORK_PER_PLATFORM
    for name in re.findall(r"[A-Za-z_]\w*", text):
        if name in names:
            return name
    return ""


# Warp sizes a framework header defines per platform: PyTorch's C10_WARP_SIZE is 64 on ROCm (CDNA).
FRAMEWORK_PER_PLATFORM = frozenset({"C10_WARP_SIZE"})


# A rank of a communicating group (`peer`, `rank`, `gpu_id`, `myrank`): its participants, not lanes of a warp.
RANK_NAME = re.compile(
    r"(?i)^(?:peer|rank|gpu|device|dev|node)(?:_?(?:id|idx|rank))?$|^(?:src|dst|target|my)_?(?:peer|rank)$"
)


_WARP_OPS = re.compile(
    r"(?i)shfl|ballot|activemask|syncwarp|^__any|^__all|^__uni|^__match_|^__reduce_|warp_?reduce|"
    r"reduce_?warp|warp_?(?:sum|max|min|scan|all|any)|block_?reduce|tiled_partition|"
    r"thread_block_tile|^Warp(?:Reduce|Scan|Exchange|Load|Store)$|(?-i:^__lane_id$|^(?:get)?LaneId$)"
)


def texts_work_per_warp(texts: list[str]) -> bool:
    """Token spellings (a definition clang found in a header) do something per warp, as `has_warp_ops` asks."""
    return any(_WARP_OPS.search(text) for text in texts if text[:1].isalpha() or text[:1] == "_")


def has_warp_ops(ctx, function=None) -> bool:
    """The function (by default the context's) does something per warp: a shuffle, a ballot, a warp or block
    reduction helper, a tile. Without one, `tid / 32` is data layout, not a lane or warp."""
    function = function or ctx.function
    if function is None:
        return True  # nothing to judge by: keep the finding
    key = ("rocport:warp-ops", function.start_line, function.end_line)
    cache = ctx.memo
    if key not in cache:
        cub_block_reduce = _cub_block_reduce(ctx)
        cache[key] = any(
            tok.kind == "identifier"
            and _WARP_OPS.search(tok.text)
            and not (cub_block_reduce and tok.text == "BlockReduce")
            for tok in ctx.view.code
            if function.start_line <= tok.line <= function.end_line
        )
    return cache[key]


def _cub_block_reduce(ctx) -> bool:
    """The file names `cub::BlockReduce` (or hipCUB's): its `BlockReduce`, and a typedef of it of that name, is
    CUB's block-wide reduction over the template's block size, which hipCUB runs on any wavefront; not a warp
    operation of the code's own (FasterTransformer's 32-thread `batch_topk_kernel`). A project's own
    `blockReduceSum` still counts."""
    key = "rocport:cub-block-reduce"
    if key not in ctx.memo:
        code = ctx.view.code
        ctx.memo[key] = any(
            code[i].text == "BlockReduce" and code[i - 1].text == "::" and code[i - 2].text in ("cub", "hipcub")
            for i in range(2, len(code))
        )
    return ctx.memo[key]


# -- value bounds ----------------------------------------------------------------------------------
def upper_bound(ctx, expr: Node | None, depth: int = 0) -> int | None:
    """The largest value `expr` can take, when the code bounds it (`x % 2`, `4 * (il % 2)`, `lane & 31`, a loop
    variable `for (l = 0; l <= 4; ...)`, a local initialised from such an expression); None when unknown.
    Non-negative values are assumed: the lane rules ask whether a shift or index can reach 32."""
    if expr is None or depth > 4:
        return None
    node = peel(expr)
    value = int_value(node)
    if value is not None:
        return value
    if node.is_binary_operator and len(node.children) == 2:
        left, right = node.children
        op = node.operator
        if op == "%":
            divisor = int_value(right)
            return divisor - 1 if divisor is not None and divisor > 0 else None
        if op == "&":
            # The bits of `a & b` are a subset of either side's: a bounded side bounds it, whatever the other is
            # (`(threadIdx.x & 31) & ~3`, mmcv's 4-lane group masks).
            sides = (upper_bound(ctx, left, depth + 1), upper_bound(ctx, right, depth + 1))
            known = [v for v in sides if v is not None and v >= 0]
            return min(known) if known else None
        a, b = upper_bound(ctx, left, depth + 1), upper_bound(ctx, right, depth + 1)
        if a is None or b is None:
            return None
        if op in ("+", "|", "^"):
            return a + b  # for non-negative values, a | b and a ^ b are at most a + b
        if op == "*":
            return a * b
        if op in ("/", ">>"):
            return a
        if op == "<<":
            return a << b if b < 32 else None
        return None
    if node.is_decl_ref and ctx.function is not None and ctx.function.node is not None:
        return _variable_bound(ctx, node, depth)
    return None


def _variable_bound(ctx, ref: Node, depth: int) -> int | None:
    name = ref.name
    for ancestor in ref.ancestors():
        if ancestor.is_for and len(ancestor.children) >= 3:
            init, cond = ancestor.children[0], ancestor.children[1]
            declared = [c for c in init.walk() if c.is_var_decl and c.name == name]
            if (
                declared
                and cond.is_binary_operator
                and cond.operator in ("<", "<=")
                and len(cond.children) == 2
                and cond.children[0].strip().name == name
            ):
                limit = int_value(cond.children[1])
                if limit is not None:
                    return limit - 1 if cond.operator == "<" else limit
    function = ctx.function.node
    decl = declaration_in(function, name)
    if decl is None or not decl.is_var_decl:
        return None
    for node in function.walk():  # assigned again after its declaration: its bound is not the initialiser's
        if (
            (node.is_binary_operator or node.is_compound_assignment)
            and node.operator.endswith("=")
            and node.operator not in ("==", "<=", ">=", "!=")
            and node.children
            and node.children[0].strip().is_decl_ref
            and node.children[0].strip().name == name
        ):
            return None
        if (
            node.is_unary_operator
            and node.operator in ("++", "--")
            and any(c.strip().name == name for c in node.children)
        ):
            return None
    values = [c for c in decl.children if c.is_expression]
    return upper_bound(ctx, values[-1], depth + 1) if values else None
