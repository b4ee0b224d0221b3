"""Shared helpers of the warp-size rules (not a rule module)."""

from __future__ import annotations

import bisect
import functools
import re

import clang.cindex as ci

from scanner.analysis.ast import Node

K = ci.CursorKind

# Shuffles whose offset argument walks lanes (index 2 for the *_sync forms, 1 for the legacy forms).
SHUFFLE_OFFSET_ARG = {
    "__shfl_down_sync": 2, "__shfl_xor_sync": 2, "__shfl_up_sync": 2,
    "__shfl_down": 1, "__shfl_xor": 1, "__shfl_up": 1,
}
SHUFFLE_WIDTH_ARG = {
    "__shfl_sync": 3, "__shfl_down_sync": 3, "__shfl_xor_sync": 3, "__shfl_up_sync": 3,
    "__shfl": 2, "__shfl_down": 2, "__shfl_xor": 2, "__shfl_up": 2,
}
# Warp intrinsics whose first argument is a lane mask.
MASKED_INTRINSICS = frozenset({
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
    "__all_sync", "__uni_sync", "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
    "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync", "__syncwarp",
})
# Intrinsics that return a lane mask (64-bit on HIP: unsigned long long).
MASK_RESULTS = frozenset({"__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync",
                          "__match_any", "__match_all"})

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
    """"`WARP_SIZE` is 32" when a name in `expr` stands for a warp constant (32, 31, 16 or 5): a macro (its
    expansion's text is the macro's name), a constant, or a template parameter at its default. Empty if none."""
    for node in expr.walk():
        if node.kind in (K.INTEGER_LITERAL, K.DECL_REF_EXPR) and re.fullmatch(r"[A-Za-z_]\w*", node.text or ""):
            value = node.const_value()
            if value in (32, 31, 16, 5):
                return f"`{node.text}` is {value}"
    return ""


def peel(node: Node) -> Node:
    """Under implicit casts, parentheses and explicit casts: the expression whose value is used."""
    node = node.strip()
    while node.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR) and node.children:
        inner = [c for c in node.children if c.kind.is_expression()]
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
        if node.kind == K.CALL_EXPR:
            if node.callee_name in names:
                found.append(node)
            continue
        if node.kind == K.BINARY_OPERATOR:
            # `m | x` and `m & other_mask` stay masks; `m & 1`, `m >> lane` extract bits and fit in 32.
            if node.operator not in ("&", "|", "^"):
                continue
            if node.operator == "&" and any(int_value(c) is not None for c in node.children):
                continue
        if node.kind == K.CONDITIONAL_OPERATOR:
            stack.extend(node.children[1:])
            continue
        if node.kind in (K.UNARY_OPERATOR,) and node.operator not in ("~",):
            continue
        stack.extend(node.children)
    return found


def declaration_in(function_node: Node | None, name: str) -> Node | None:
    """The VAR_DECL or PARM_DECL called `name` in a function (the last one before use, good enough)."""
    if function_node is None or not name:
        return None
    found = None
    for node in function_node.walk():
        if node.kind in (K.VAR_DECL, K.PARM_DECL) and node.name == name:
            found = node
    return found


def declared_auto(decl: Node) -> bool:
    head = decl.text.split("=", 1)[0]
    return re.search(r"\bauto\b", head) is not None


# -- warp-size names --------------------------------------------------------------------------------
_SIZE_WORDS = frozenset({"size", "width", "lanes", "threads", "len", "sz"})
_WARP_WORDS = frozenset({"warp", "wave", "wavefront"})
_COMPOUND = re.compile(r"(warp|wave(front)?)(size|width|lanes|threads|len|sz)")
_NOT_SIZE_WORDS = frozenset({"warps", "waves", "num", "count", "cnt", "idx", "index", "id", "log", "log2",
                             "shift", "bits", "mask", "block", "blocks", "cta", "sm"})


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
        return words[at + 1:] in (["warp"], ["wave"]) and any(w in ("threads", "lanes") for w in words[:at])
    if any(w in _NOT_SIZE_WORDS for w in words):
        return False
    if any(_COMPOUND.fullmatch(w) for w in words):
        return True
    return any(w in _WARP_WORDS for w in words) and any(w in _SIZE_WORDS for w in words)


# -- tokens ----------------------------------------------------------------------------------------
_OFFSETS: list = [None, []]  # one-entry cache: (the code token list, its offsets)


def token_index(code: list, tok) -> int:
    """Index of a token in the view's code tokens (which are in offset order), or -1."""
    if _OFFSETS[0] is not code:
        _OFFSETS[0], _OFFSETS[1] = code, [t.offset for t in code]
    offsets = _OFFSETS[1]
    i = bisect.bisect_left(offsets, tok.offset)
    return i if i < len(code) and code[i].offset == tok.offset else -1


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


PLATFORM_GUARD = re.compile(r"HIP|ROCM|AMDGCN|__gfx|AMD_|__NVCC__|NVIDIA|CUDA_ARCH", re.IGNORECASE)


def in_platform_macro(ctx, node: Node) -> bool:
    """The node comes from a macro of this file that is defined per platform
    (`#if defined(USE_ROCM) #define WARP_SHFL_DOWN(v, d) __shfl_down(v, d) #else ... #endif`)."""
    match = re.match(r"\s*([A-Za-z_]\w*)", node.text)
    if not match:
        return False
    name = match.group(1)
    if name == node.callee_name or name == node.name:
        return False
    directives = ctx.facts.view.directives
    for d in directives:
        if d.name == "define" and d.tokens and d.tokens[0].text == name:
            if any(PLATFORM_GUARD.search(g) for g in directive_guards(directives, d.line)):
                return True
    return False


# -- 32-lane groups kept throughout ----------------------------------------------------------------
_WHOLE_WAVEFRONT = frozenset({"warpSize", "__ballot", "__ballot_sync", "__activemask", "__any_sync", "__all_sync",
                              "__any", "__all", "__match_any_sync", "__match_all_sync", "__popcll", "__lanemask_lt"})


def keeps_to_32_lanes(ctx) -> bool:
    """Every shuffle of the file passes an explicit width of at most 32 (`__shfl_xor_sync(m, v, o, 32)`), and
    nothing in it asks about the whole warp (`warpSize`, a ballot, `__activemask`): the code works in 32-lane
    groups, which a 64-lane wavefront runs as two independent halves. Its `% 32`, `/ 32`, `[32]` and offsets of 16
    then agree with each other on AMD too. Computed once per file."""
    cache = ctx.facts.cache
    if "rocport:keeps-32" not in cache:
        cache["rocport:keeps-32"] = _keeps_to_32(ctx.facts.view.code, ctx)
    return cache["rocport:keeps-32"]


KEEPS_32_NOTE = ("Every shuffle of this file passes a width of 32 and nothing asks for the whole warp: the code "
                 "works in 32-lane groups, which a 64-lane wavefront runs as two, so this is consistent on AMD "
                 "(lower severity); check it if the file starts to use warpSize, a ballot or a whole-warp mask.")


def lane_report(ctx, message: str, at=None) -> None:
    """Report a 32-lane assumption of ROC101-103, unless the project sets the value per platform (the 32 comes
    through a macro it defines per platform) or the file keeps to 32-lane groups throughout (consistent on a
    64-lane wavefront)."""
    node = ctx.node
    if node is not None and per_platform_name(ctx, node.text.split("\n", 1)[0]):
        return
    if keeps_to_32_lanes(ctx):
        return
    ctx.report(message, at=at)


def per_platform_name(ctx, text: str) -> str:
    """A name in `text` the project defines per platform (scanner.port.Port.per_platform: `BNB_WARP_SIZE` is 64
    on CDNA): its value on AMD is the project's choice, not the CUDA-side value clang sees."""
    names = ctx.port.per_platform
    if not names:
        return ""
    for name in re.findall(r"[A-Za-z_]\w*", text):
        if name in names:
            return name
    return ""


_WARP_OPS = re.compile(r"(?i)shfl|ballot|activemask|syncwarp|^__any|^__all|^__uni|^__match_|^__reduce_|warp_?reduce|"
                       r"reduce_?warp|warp_?(?:sum|max|min|scan|all|any)|block_?reduce|tiled_partition|"
                       r"thread_block_tile|^Warp(?:Reduce|Scan|Exchange|Load|Store)$")


def has_warp_ops(ctx, function=None) -> bool:
    """The function (by default the context's) does something per warp: a shuffle, a ballot, a warp or block
    reduction helper, a tile. Without one, `tid / 32` is data layout, not a lane or warp."""
    function = function or ctx.function
    if function is None:
        return True  # nothing to judge by: keep the finding
    key = ("rocport:warp-ops", function.start_line, function.end_line)
    cache = ctx.facts.cache
    if key not in cache:
        cache[key] = any(tok.kind == "identifier" and _WARP_OPS.search(tok.text)
                         for tok in ctx.facts.view.code if function.start_line <= tok.line <= function.end_line)
    return cache[key]


def _keeps_to_32(code, ctx) -> bool:
    from scanner.rules.warp import _shapes

    names = _shapes.file_values(ctx)
    shuffles = 0
    for i, tok in enumerate(code):
        text = tok.text
        if text in _WHOLE_WAVEFRONT:
            return False
        if text not in SHUFFLE_WIDTH_ARG or i + 1 >= len(code) or code[i + 1].text != "(":
            continue
        args, depth, current = [], 0, []
        for follow in code[i + 2:i + 200]:
            if follow.text in ("(", "[", "{"):
                depth += 1
            elif follow.text in (")", "]", "}"):
                if depth == 0:
                    break
                depth -= 1
            elif follow.text == "," and depth == 0:
                args.append(current)
                current = []
                continue
            current.append(follow.text)
        args.append(current)
        at = SHUFFLE_WIDTH_ARG[text]
        if len(args) <= at:
            return False
        width = _shapes.number("".join(args[at]), names)
        if width is None or width > 32:
            return False
        shuffles += 1
    return shuffles > 0

