"""Does code that counts lanes by 32 keep to 32-lane groups? (shared by the warp rules, not a rule module)

Code written for 32-lane warps keeps working on a 64-lane wavefront when every lane operation it does stays
inside its own group of 32: `lane = tid % 32`, `warp = tid / 32`, per-warp slots indexed by that warp, xor
shuffles by 16 or less (they never cross a 32-lane half), shuffles given a width of 32, tiles of 32. The
wavefront then runs two groups side by side and the 32s agree with each other. It breaks where the code meets
the hardware's 64: `warpSize`, a ballot, `__activemask()` or `__all_sync` (they see 64 lanes), a lane id from
the hardware, cub::WarpReduce<T> without a width, an indexed shuffle at the default width (lane 40 reads lane
0's broadcast; `(lane + 1) & 31` sends lanes 32-63 to the first half). A down or up tree by at most 16 stays
consistent: lane 0 and lane 32 each get their own group's result, the only lanes such a tree defines on CUDA too.

`wavefront_use(ctx, function)` names the first such thing in a function and in the functions it calls (their
definitions wherever clang found them: a project header), or says the function calls a warp helper it cannot
read. Empty means the 32s are consistent there.
"""

from __future__ import annotations

import re

from scanner.model import Severity
from scanner.rules.libraries._judgement import other_vendor_backend
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import SHUFFLE_WIDTH_ARG, has_warp_ops, per_platform_name, texts_work_per_warp

# Names that work on the whole hardware wavefront.
_WAVEFRONT_NAMES = frozenset(
    {
        "warpSize",
        "__ballot",
        "__ballot_sync",
        "__activemask",
        "__any_sync",
        "__all_sync",
        "__any",
        "__all",
        "__uni_sync",
        "__match_any_sync",
        "__match_all_sync",
        "__popcll",
        "__lanemask_lt",
        "__lanemask_gt",
        "__lanemask_eq",
        "__lane_id",
        "LaneId",
        "getLaneId",
        "__AMDGCN_WAVEFRONT_SIZE",
        "C10_WARP_SIZE",
    }
)
# Shuffles that move values by lane number rather than by xor: at the default width they cross 32-lane halves.
_INDEXED = frozenset({"__shfl_sync", "__shfl"})
_OFFSET_ARG = {
    "__shfl_xor_sync": 2,
    "__shfl_xor": 1,
    "__shfl_down_sync": 2,
    "__shfl_down": 1,
    "__shfl_up_sync": 2,
    "__shfl_up": 1,
}
# Project shuffle helpers that read an absolute lane (ATen's `WARP_SHFL(v, srcLane)`, width warpSize by default).
_MACRO_INDEXED = re.compile(r"(?i)^\w*_shfl(?:_sync)?$")
# Helpers that work per warp by their name (warpReduceSum, block_reduce): a call clang could not resolve to a
# definition leaves the question open.
_WARP_HELPER = re.compile(
    r"(?i)warp_?(?:reduce|scan|sum|max|min|all|any|broadcast)|(?:reduce|scan)_?warp|"
    r"block_?reduce"
)
_MAX_CALLEES = 24
_CUB_WARP = frozenset({"WarpReduce", "WarpScan"})


KEEPS_32_NOTE = (
    "Consistent here, so only a note: {where} keeps to 32-lane groups (no warpSize, ballot or shuffle "
    "that crosses 32 lanes), which a 64-lane wavefront runs as two side by side. A port that wants "
    "whole-wavefront reductions changes the 32s together; one that mixes in warpSize must."
)


def lane_report(ctx, message: str, at=None, function=None, severity=None) -> None:
    """Report a 32-lane assumption of the lane rules (at `severity`, by default the rule's), unless the project sets
    the value per platform (the 32 comes through a macro it defines per platform) or the file is another vendor's
    backend (SYCL's sub-groups). Where the function keeps to 32-lane groups throughout (below) the 32s agree with
    each other on a 64-lane wavefront: the finding is a note."""
    node = ctx.node
    if node is not None and per_platform_name(ctx, node.text.split("\n", 1)[0]):
        return
    if other_vendor_backend(ctx.path):
        return
    function = function or ctx.function
    if function is not None and function.runs_on_device and keeps_to_32(ctx, function):
        where = f"`{function.name}`" if function.name else "this function"
        ctx.report(consistent_message(message, where), at=at, severity=Severity.INFO)
        return
    if function is not None and function.runs_on_device and splits_data_only(ctx, function):
        where = f"`{function.name}`" if function.name else "this function"
        ctx.report(splits_data_message(message, where), at=at, severity=Severity.LOW)
        return
    ctx.report(message, at=at, severity=severity)


def splits_data_message(message: str, where: str) -> str:
    """The finding's first clause and the note that nothing in `where` works per warp."""
    lead = consistent_message(message, where).split(". Consistent here", 1)[0]
    return f"{lead}. {SPLITS_DATA_NOTE.format(where=where)}"


SPLITS_DATA_NOTE = (
    "Low: {where} does nothing per warp (no shuffle, ballot, warp sync or warp helper, in it or in what it calls), "
    "so the 32 only divides the work among groups of 32 threads, which a 64-lane wavefront runs as two. Review it "
    "where the host sizes launches or buffers by the same count."
)


def splits_data_only(ctx, function) -> bool:
    """A device function with no warp work at all, none in what it calls (in this file two calls deep, elsewhere
    through clang's definitions) and no whole-wavefront name: its 32s partition data, which stays correct when a
    wavefront runs two such groups. Judged false on held-out code round after round (NCCL's reduceCopy hunks,
    DeepEP's stride-32 zeroing, COL32 tiles); the one true kind, host code that sizes a launch by warps, is not a
    device function."""
    if works_per_warp(ctx, function) or wavefront_use(ctx, function) or _names_warp_code(ctx, function):
        return False
    return not _calls_warp_work(ctx, function)


_WARP_NAMED = re.compile(r"(?i)^warp_?[a-z]")


def _names_warp_code(ctx, function) -> bool:
    """The function calls or instantiates code named for the warp (`WarpPackedBits<T, 6>::write(...)`,
    `warpSelect<...>(...)`): a dependent call clang leaves unresolved, whose per-warp work the scan cannot read."""
    code = [t for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
    return any(
        _WARP_NAMED.match(tok.text) and tok.text != function.name and nxt.text in ("(", "<", "::")
        for tok, nxt in zip(code, code[1:], strict=False)
    )


def _calls_warp_work(ctx, function) -> bool:
    """A callee defined outside the file (clang found its definition) that does per-warp work."""
    if function.node is None:
        return True  # nothing to read the calls from: keep the finding
    return any(texts_work_per_warp(_definition_texts(ctx, call) or []) for call in _calls(function.node))


def consistent_message(message: str, where: str) -> str:
    """The finding's first clause (what the code does: "`tid % 32` assumes a 32-lane warp") and the note that it is
    consistent here, without the rest's claim that it breaks."""
    lead, in_code = message, False
    for i, char in enumerate(message):
        if char == "`":
            in_code = not in_code
        elif not in_code and char in ":;." and message[i + 1 : i + 2] in (" ", ""):
            lead = message[:i]
            break
    return f"{lead}. {KEEPS_32_NOTE.format(where=where)}"


def crossing_use(texts: list[str], values: dict[str, int]) -> str:
    """The first token of `texts` (spellings) that reaches past a 32-lane group, or ""."""
    own_warp_size = _declares_warp_size(texts)
    for i, text in enumerate(texts):
        if text in _WAVEFRONT_NAMES:
            if text == "warpSize" and own_warp_size:
                continue  # `int warpSize = blockDim.x - ...;`: the code's own variable hides HIP's
            if text == "warpSize" and 0 < i < len(texts) - 1 and texts[i - 1] == "=" and texts[i + 1] in (",", ")"):
                continue  # a default argument (`int width = warpSize`): the callers' widths decide
            return text
        if text in _CUB_WARP and i + 1 < len(texts) and texts[i + 1] == "<" and _one_template_argument(texts, i + 1):
            return f"{text}<...> without a width"  # CUB's logical warp defaults to the hardware's: 64 on AMD
        opens = i + 1 < len(texts) and texts[i + 1] == "("
        if not opens or (i > 0 and texts[i - 1] in (".", "->")):
            continue  # a tile's own `tile.shfl_down(v, 1)` stays in the tile
        if text in SHUFFLE_WIDTH_ARG:
            args = _arguments(texts, i + 1)
            width_at = SHUFFLE_WIDTH_ARG[text]
            if len(args) > width_at:
                width = _shapes.number("".join(args[width_at]), values)
                if width is not None and width > 32:
                    return text
                continue  # an explicit width: the author chose the group
            if text in _INDEXED and not _broadcasts_block_total(texts, i, args):
                return text  # `__shfl_sync(m, v, 0)` or `(lane + 1) & 31`: lanes 32-63 read the first half
            if text in _INDEXED:
                continue
            offset_at = _OFFSET_ARG[text]
            offset = _shapes.number("".join(args[offset_at]), values) if len(args) > offset_at else None
            if offset is not None and offset >= 32:
                return text
            # xor by less than 32 never leaves its half; a down or up tree by at most 16 gives lane 0 (and lane 32)
            # the sum of its own 32 lanes, the only lanes whose result such a tree defines on CUDA too.
            continue
        if _MACRO_INDEXED.match(text):
            return text
    return ""


_LANE = re.compile(r"(?i)^lane(?:_?id|_?idx)?$")
_XOR = frozenset({"__shfl_xor_sync", "__shfl_xor"})


def _broadcasts_block_total(texts: list[str], at: int, args: list[list[str]]) -> bool:
    """`__shfl_sync(m, v, 0)` closing a block reduction (FasterTransformer's `block_sum`): `v` was reloaded from
    shared memory at the lane's index (`if (lane < WARPS) v = red_smem[lane];`) and only xor-shuffled since, so
    every 32-lane group holds the same total and lane 0's is lane 32's: the broadcast agrees on a 64-lane
    wavefront."""
    if len(args) < 3 or args[2] != ["0"] or len(args[1]) != 1:
        return False
    value = args[1][0]
    reload = None
    for k in range(at - 6, -1, -1):
        if (
            texts[k : k + 2] == [value, "="]
            and texts[k + 3 : k + 4] == ["["]
            and _LANE.match(texts[k + 4] if k + 4 < len(texts) else "")
            and texts[k + 5 : k + 7] == ["]", ";"]
        ):
            reload = k
            break
    if reload is None:
        return False
    for k in range(reload + 7, at):
        if texts[k] != value or k + 1 >= at or texts[k + 1] not in ("=", "+=", "*=", "-=", "|=", "&=", "^="):
            continue
        # `v += __shfl_xor_sync(...)`, `v = fmaxf(v, __shfl_xor_sync(...))`: a xor tree, nothing else
        if not _XOR.intersection(texts[k + 2 : k + 7]):
            return False
    return True


_DECLARING = frozenset({"int", "unsigned", "auto", "uint32_t", "int32_t", "size_t", "long", "short", "uint"})


def _declares_warp_size(texts: list[str]) -> bool:
    """The code declares a variable of its own named `warpSize` (`int warpSize = blockDim.x - base;`), which hides
    HIP's in that scope: its uses are the code's count, not the wavefront's width."""
    return any(
        text == "warpSize" and 0 < i < len(texts) - 1 and texts[i - 1] in _DECLARING and texts[i + 1] in ("=", "{")
        for i, text in enumerate(texts)
    )


def _one_template_argument(texts: list[str], open_at: int) -> bool:
    depth = 0
    for text in texts[open_at + 1 : open_at + 40]:
        if text in ("<", "(", "["):
            depth += 1
        elif text in (">", ")", "]"):
            if depth == 0:
                return True
            depth -= 1
        elif text == ">>":
            return depth <= 1
        elif text == "," and depth == 0:
            return False
    return False


def _arguments(texts: list[str], open_at: int) -> list[list[str]]:
    args, current, depth = [], [], 0
    for text in texts[open_at + 1 : open_at + 200]:
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            if depth == 0:
                break
            depth -= 1
        elif text == "," and depth == 0:
            args.append(current)
            current = []
            continue
        current.append(text)
    args.append(current)
    return args


def wavefront_use(ctx, function) -> str:
    """Why `function` (a scanner.analysis.context.FunctionInfo) does not keep to 32-lane groups: the first
    whole-wavefront use in it or in what it calls (`warpSize`, `__shfl_down_sync` at the default width, "calls
    warpReduceSum, which it cannot read"), or "" when it keeps to them. Cached per function."""
    if function is None:
        return "no function"
    key = ("rocport:wavefront-use", function.start_line, function.end_line)
    cache = ctx.memo
    if key not in cache:
        cache[key] = "?"  # recursion through the file's own functions stops here
        cache[key] = _wavefront_use(ctx, function)
    return cache[key]


def keeps_to_32(ctx, function) -> bool:
    """The function works per warp (a shuffle, a warp helper, a tile) and all of it stays within 32-lane groups.
    A function with no warp work at all proves nothing either way: its findings keep their severity."""
    return works_per_warp(ctx, function) and not wavefront_use(ctx, function)


def works_per_warp(ctx, function, depth: int = 0) -> bool:
    """The function, or a function of this file it calls (two calls deep), does something per warp
    (`has_warp_ops`): a kernel that hands its lanes to `cuWelfordMuSigma2` works per warp too."""
    if function is None:
        return True
    if has_warp_ops(ctx, function):
        return True
    if depth >= 2:
        return False
    own = {f.name: f for f in ctx.functions if f is not function}
    code = ctx.view.code
    texts = [t.text for t in code if function.start_line <= t.line <= function.end_line]
    called = {texts[i] for i in range(len(texts) - 1) if texts[i] in own and texts[i + 1] in ("(", "<")}
    return any(works_per_warp(ctx, own[name], depth + 1) for name in sorted(called))


def file_keeps_to_32(ctx, name: str) -> bool:
    """A device function of the file that works per warp uses `name`, and none of the device functions that use
    it reaches past 32-lane groups (in itself or in what it calls). A kernel elsewhere in the file that works on
    the whole wavefront without the name does not make the name's own 32-lane code wrong."""
    key = ("rocport:file-keeps-32", name)
    cache = ctx.memo
    if key not in cache:
        code = ctx.view.code
        uses = {t.line for t in code if t.text == name}
        users = [
            f for f in ctx.functions if f.runs_on_device and any(f.start_line <= line <= f.end_line for line in uses)
        ]
        cache[key] = any(works_per_warp(ctx, f) for f in users) and not any(wavefront_use(ctx, f) for f in users)
    return cache[key]


def _wavefront_use(ctx, function) -> str:
    code = ctx.view.code
    texts = [t.text for t in code if function.start_line <= t.line <= function.end_line]
    found = crossing_use(texts, _shapes.file_values(ctx))
    if found:
        return f"`{found}`"
    # What it calls: the file's own functions by name, others through clang's reference to their definition.
    own = {f.name: f for f in ctx.functions if f is not function}
    called = {texts[i] for i in range(len(texts) - 1) if texts[i + 1] in ("(", "<") and texts[i] in own}
    for name in sorted(called):
        inner = wavefront_use(ctx, own[name])
        if inner and inner != "?":
            return f"{inner} (in `{name}`)"
    resolved: set[str] = set()
    if function.node is not None:
        for call in _calls(function.node):
            name = call.callee_name
            if name in own or name in resolved or len(resolved) >= _MAX_CALLEES:
                continue
            body = _definition_texts(ctx, call)
            if body is None:
                continue
            resolved.add(name)
            inner = crossing_use(body, _shapes.file_values(ctx))
            if inner:
                return f"`{inner}` (in `{name}`)"
    for i in range(len(texts) - 1):
        name = texts[i]
        if (
            texts[i + 1] == "("
            and name != function.name
            and name not in own
            and name not in resolved
            and _WARP_HELPER.search(name)
        ):
            return f"a call to `{name}`, whose code the scan could not read"
    return ""


def _calls(root):
    for node in root.walk():
        if node.is_call:
            yield node


def _definition_texts(ctx, call) -> list[str] | None:
    """The token spellings of the called function's definition, cached per file; None when clang has none."""
    cache = ctx.memo.setdefault("rocport:callee-bodies", {})
    name = call.callee_name
    if name not in cache:
        cache[name] = call.definition_tokens()
    return cache[name]


def file_splits_data_only(ctx, name: str, defined_at: int) -> bool:
    """A file-wide `name` (a macro or constant defined as 32) that splits data only: every use of it after its
    definition is in a device function that does nothing per warp (`splits_data_only`). A source file that never
    uses it at all counts too (`#define WARP_SIZE 32` beside element-wise kernels); a header does not, since the
    files that include it may."""
    code = ctx.view.code
    uses = {t.line for t in code if t.text == name and t.line != defined_at}
    if not uses:
        return not ctx.path.lower().endswith((".h", ".hpp", ".cuh", ".hh", ".hxx", ".inl", ".inc"))
    users = []
    for line in uses:
        function = next((f for f in ctx.functions if f.start_line <= line <= f.end_line), None)
        if function is None or not function.runs_on_device:
            return False  # a file-scope size or host code: it may shape a launch or a buffer
        users.append(function)
    return all(splits_data_only(ctx, f) for f in users)
