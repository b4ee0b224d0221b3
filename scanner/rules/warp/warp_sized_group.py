"""A block, tile or CUB warp primitive sized as one 32-lane warp.

What it finds:
    - a launch whose block is exactly 32 threads (`kernel<<<grid, 32>>>`, `<<<grid, WARP_SIZE>>>` with
      `WARP_SIZE` defined as 32): one CUDA warp per block;
    - a cooperative-groups tile of 32 (`cg::tiled_partition<32>(block)`, `thread_block_tile<WARP_SIZE>`);
    - `cub::WarpReduce<T>` and `cub::WarpScan<T>` without an explicit logical warp width: CUB's default is the
      hardware warp, 32 on NVIDIA.
    A 2-D block whose rows are 32 threads (`dim3 threads(32, 4)`) is reported at low severity, and only in a file
    that shuffles (threadIdx.x is then a lane); elsewhere it is a tile shape, not a warp.
    - a block of 32 threads that loads or stores through CUB's warp transpose (`cub::BlockLoad<T, THREADS, N,
      cub::BLOCK_LOAD_WARP_TRANSPOSE>` with `constexpr int THREADS = 32;` in the function, reported at that
      definition): rocPRIM, under hipCUB, `static_assert`s that such a block is a multiple of the hardware
      wavefront, so it does not compile for a 64-lane target; logical warps that split such a block
      (`cub::WarpReduce<float, 16>`) are a note;
    - a block of warp-size rows of warp-size threads (`dim3 block(kWarpSize, kWarpSize)`,
      `__launch_bounds__(kWarpSize * kWarpSize)`): with the 64 an AMD wavefront needs, 4096 threads, above the
      1024-thread limit.

Why it breaks on ROCm:
    Each of these says "one warp" with the number 32. On AMD CDNA/Instinct GPUs (MI100 to MI350) a wavefront has
    64 lanes: a block of 32 threads fills half a wavefront (the other half idles, and warp-wide code written for
    "the block is one warp" now shares its wavefront with nobody, so a ballot or `__activemask` sees 64 bits); a
    tile of 32 is half a wavefront, so code that takes the tile for the whole warp (a per-warp slot indexed
    by `threadIdx.x / warpSize`) mixes two tiles; hipCUB's default logical warp is the wavefront, 64 lanes, so a
    `WarpReduce<T>` reduces 64 values where the CUDA code reduced 32, and `TempStorage` arrays sized per 32-lane
    warp are too small or wrongly indexed.

Example:
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[THREADS / 32];
    kQuantize<<<blocks, 32>>>(in, out, n);

Use instead:
    Give the width explicitly where the algorithm needs 32 (`cub::WarpReduce<float, 32>`, which hipCUB supports
    on 64-lane wavefronts), or size blocks, tiles and buffers from one per-platform warp constant (64 on AMD
    CDNA) or from `warpSize` at run time.

References:
    https://rocm.docs.amd.com/projects/hipCUB/en/latest/
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/cooperative_groups.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/understand/programming_model.html

    Not reported: a launch of 32 threads of a kernel that never works per warp (no shuffle, ballot, warp
    reduction, lane id, `__syncwarp` or tile; a `cub::BlockReduce` sized by its template is CUB's, not the
    code's own warp work: it only indexes elements by threadIdx), whether the kernel is in
    the same file or in a header clang read (`fill<float, 32><<<g, 32>>>` too), nor a `dim3(32, k)` block whose
    kernel reduces through shared memory only; a launch of a kernel whose code the scan cannot read is low; a
    tile of
    32 in a function that keeps to 32-lane groups (the tile's own API, `thread_rank()`, `meta_group_rank()`,
    `cg::reduce`, and no warpSize, ballot or wide shuffle: consistent on AMD); a width the project defines per
    platform. A launch or 2-D block whose kernel keeps to 32-lane groups is a note (info).
    A tile in a device function that no code of the file calls, while a comment of the file does (its only
    call commented out: a template never instantiated), is a note too, and says so.

Known problems:
    Found on the tokens: a block size computed at run time that happens to be 32 is not seen, and a block of 32
    threads whose kernel works per warp without relying on being one warp is reported anyway.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.parsing.tokens import IDENT, LITERAL
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.warp import _groups, _shapes
from scanner.rules.warp._common import is_warp_size_name, per_platform_name, texts_work_per_warp

_TILES = frozenset({"tiled_partition", "thread_block_tile"})
_CUB = frozenset({"WarpReduce", "WarpScan"})
# CUB's block collectives that exchange through warps: rocPRIM asserts their block is whole wavefronts.
_WARP_TRANSPOSE = {"BlockLoad": "BLOCK_LOAD_WARP_TRANSPOSE", "BlockStore": "BLOCK_STORE_WARP_TRANSPOSE"}


def _is_32(tokens, values: dict[str, int]) -> str:
    """The tokens of one argument spell 32 (a literal or a name the file defines as 32, or a warp-size name
    defined elsewhere): the text, or empty."""
    texts = [t.text for t in tokens]
    if len(texts) == 1:
        text = texts[0]
        if tokens[0].kind == LITERAL and _shapes.number(text.rstrip("lL"), {}) == 32:
            return text
        # A constant's name (WARP_SIZE, kWarpSize) defined in a header counts; a variable (`warp`) may hold the
        # device's own warp size.
        constant_style = text.isupper() or (text[:1] == "k" and text[1:2].isupper())
        if tokens[0].kind == IDENT and (
            values.get(text) == 32 or (text not in values and constant_style and is_warp_size_name(text))
        ):
            return text
    return ""


def _arguments(code, start: int, opener: str, closer: str, limit: int = 80) -> list[list] | None:
    """Top-level arguments between code[start] (the opener) and its closer, or None if it does not close."""
    args, current, depth = [], [], 0
    window = code[start + 1 : start + limit]
    for k, tok in enumerate(window):
        text = tok.text
        if closer == ">>>" and text == ">>" and k + 1 < len(window) and window[k + 1].text == ">":
            text = ">>>"  # the raw lexer splits `>>>` into `>>` `>`
        if text in ("(", "[", "{") or (text == "<" and opener == "<"):
            depth += 1
        elif text in (")", "]", "}") or (text == ">" and opener == "<" and depth > 0):
            if depth == 0 and text == closer:
                args.append(current)
                return args
            depth -= 1
        elif text == closer and depth == 0:
            args.append(current)
            return args
        elif text in (">>>", ";"):
            if text == closer:
                args.append(current)
                return args
            return None
        elif text == "," and depth == 0:
            args.append(current)
            current = []
            continue
        current.append(tok)
    return None


def check(ctx: Context) -> None:
    code = ctx.view.code
    tok = ctx.token
    i = ctx.view.index(tok)
    if i < 0 or ctx.platform_guarded:
        return
    values = _shapes.file_values(ctx)
    if ctx.event == "launch":
        at = i + (1 if tok.text == "<<<" else 2)  # the raw lexer splits `<<<` into `<<` `<`
        args = _arguments(code, at - 1, "<<<", ">>>")
        if args and len(args) >= 2:
            spelled = _is_32(args[1], values)
            if not spelled or per_platform_name(ctx, spelled):
                return
            name = ctx.launch_kernel or _templated_kernel_name(code, i)
            kernel_info = next((f for f in ctx.functions if f.name == name and f.is_kernel), None)
            message = (
                f"`{name or 'the kernel'}` is launched with blocks of {spelled} threads"
                f"{_value_note(spelled)}: one CUDA warp, half a 64-lane wavefront on AMD; code that treats "
                "the block as one warp needs checking (ballots and masks see 64 lanes). Size it from a "
                "per-platform warp constant."
            )
            if kernel_info is not None:
                if not _groups.works_per_warp(ctx, kernel_info):
                    return  # the kernel only indexes elements by threadIdx: 32 threads are a block size, not a warp
                _report(ctx, kernel_info, message, at=tok)
                return
            body = _definition_elsewhere(ctx, name, tok.line)
            if body is not None and not texts_work_per_warp(body):
                return  # defined in a header clang read: element-wise, no warp-level operation
            if body is None:
                ctx.report(
                    message + " Low: the kernel's code is not in this file, so whether it works per warp is "
                    "not known here.",
                    at=tok,
                    severity=Severity.LOW,
                )
                return
            if not _groups.crossing_use(body, values):
                message = _groups.consistent_message(message, f"`{name}`")
                ctx.report(message, at=tok, severity=Severity.INFO)
                return
            ctx.report(message, at=tok)
        return
    if tok.text == "dim3":
        _check_dim3(ctx, code, i, values)
        return
    if tok.text == "__launch_bounds__":
        _check_launch_bounds(ctx, code, i, values)
        return
    if i + 1 >= len(code) or code[i + 1].text != "<":
        if tok.text in _CUB and _cub_namespace(code, i):
            ctx.report(
                f"`cub::{tok.text}` without a width uses the hardware warp: 32 lanes on NVIDIA, 64 with "
                "hipCUB on AMD CDNA; give the width explicitly (`, 32>`) or size its TempStorage per "
                "wavefront.",
                at=tok,
            )
        return
    args = _arguments(code, i + 1, "<", ">")
    if not args:
        return
    if tok.text in _TILES:
        spelled = _is_32(args[0], values)
        function = ctx.function_at(tok.line)
        why = _groups.wavefront_use(ctx, function) if function is not None else ""
        if spelled and not per_platform_name(ctx, spelled) and why and _raw_warp_code(ctx):
            dead = _only_called_in_comments(ctx, function)
            if dead:
                ctx.report(
                    f"`{tok.text}<{spelled}>`{_value_note(spelled)} makes 32-lane tiles in `{function.name}`, "
                    f"which nothing in this file calls (its only call, on line {dead}, is commented out): never "
                    "instantiated here, so nothing runs it. A note only: size its tiles per platform if it is "
                    "brought back.",
                    at=tok,
                    severity=Severity.INFO,
                )
                return
            ctx.report(
                f"`{tok.text}<{spelled}>`{_value_note(spelled)} makes 32-lane tiles, half of a 64-lane AMD "
                f"wavefront, in code that also works on the whole wavefront ({why}): code that takes the "
                "tile for the whole warp (per-warp slots, ballots) breaks. Size tiles from a per-platform "
                "warp constant.",
                at=tok,
            )
    elif tok.text in _WARP_TRANSPOSE and len(args) >= 4 and _cub_namespace(code, i):
        _check_warp_transpose(ctx, code, i, args, values)
    elif tok.text in _CUB and len(args) == 2 and _cub_namespace(code, i):
        _check_half_block_width(ctx, code, i, args, values)
    elif tok.text in _CUB and len(args) == 1 and _cub_namespace(code, i):
        ctx.report(
            f"`cub::{tok.text}<{' '.join(t.text for t in args[0])}>` uses CUB's default logical warp: 32 "
            "lanes on NVIDIA, 64 with hipCUB on AMD CDNA. Give the width (`, 32>`) where the algorithm "
            "needs 32, or size TempStorage and the block per wavefront.",
            at=tok,
        )


def _check_dim3(ctx, code, i: int, values: dict[str, int]) -> None:
    """`dim3 threads(32, 4)` / `dim3(32, 4)` in a file that shuffles: threadIdx.x is used as the lane, and a row of
    32 threads is half a wavefront on AMD."""
    at = i + 1
    if at < len(code) and code[at].kind == IDENT and at + 1 < len(code) and code[at + 1].text in ("(", "{"):
        at += 1
    if at >= len(code) or code[at].text not in ("(", "{"):
        return
    args = _arguments(code, at, code[at].text, ")" if code[at].text == "(" else "}")
    square = args[0] if args and len(args) == 2 and [t.text for t in args[0]] == [t.text for t in args[1]] else []
    name = square[0].text if len(square) == 1 and _is_32(square, values) else ""
    if name and is_warp_size_name(name) and not per_platform_name(ctx, name):
        ctx.report(_square_block_message(name), at=ctx.token)  # `dim3 block(kWarpSize, kWarpSize)`
        return
    if not args or len(args) < 2 or not _is_32(args[0], values) or per_platform_name(ctx, _is_32(args[0], values)):
        return
    if not any("shfl" in t.text.lower() for t in code if t.kind == IDENT):
        return
    kernel = _launched_with(ctx, code, i)
    if kernel is not None and not _groups.works_per_warp(ctx, kernel):
        return  # the kernel it launches reduces through shared memory only: rows of 32 are a tile shape
    message = (
        f"a block of 32 x {' '.join(t.text for t in args[1])} threads in a file that shuffles within warps: "
        "each row of 32 threads is one CUDA warp but half a 64-lane AMD wavefront, so lane arithmetic on "
        "threadIdx.x and shuffles see two rows per wavefront. Size x from a per-platform warp constant."
    )
    if kernel is not None and _groups.keeps_to_32(ctx, kernel):
        message = _groups.consistent_message(message, f"`{kernel.name}`")
        ctx.report(message, at=ctx.token, severity=Severity.INFO)
        return
    ctx.report(message, at=ctx.token, severity=Severity.LOW)


def _warp_squared(tokens, values: dict[str, int]) -> str:
    """`kWarpSize * kWarpSize`: the warp-size name, when both factors are the same one (32)."""
    texts = [t.text for t in tokens]
    if len(texts) == 3 and texts[1] == "*" and texts[0] == texts[2] and _is_32(tokens[:1], values):
        return texts[0] if is_warp_size_name(texts[0]) else ""
    return ""


def _square_block_message(name: str) -> str:
    return (
        f"a block of `{name}` x `{name}` threads (`{name}` is 32): one CUDA warp per row, 1024 threads. On AMD "
        f"CDNA the warp-level code sized by `{name}` needs it to be 64, and 64 x 64 = 4096 threads exceed the "
        "1024-thread block limit, so the launch fails; with 32 each row is half a 64-lane wavefront. Size the "
        "tile's rows and the block separately."
    )


def _check_launch_bounds(ctx, code, i: int, values: dict[str, int]) -> None:
    """`__launch_bounds__(kWarpSize * kWarpSize)`: a block of warp-size rows of warp-size threads."""
    if i + 1 >= len(code) or code[i + 1].text != "(":
        return
    args = _arguments(code, i + 1, "(", ")")
    name = _warp_squared(args[0], values) if args else ""
    if name and not per_platform_name(ctx, name):
        ctx.report(_square_block_message(name), at=ctx.token)


def _local_constant(ctx, code, i: int, name: str):
    """The token of the literal that `name` is set to in the function around code[i] (`constexpr int THREADS =
    32;`), else None."""
    function = ctx.function_at(code[i].line)
    start = function.start_line if function is not None else 0
    for j in range(i - 1, 1, -1):
        if code[j].line < start:
            break
        if code[j - 1].text == name and code[j].text in ("=", "{") and code[j + 1].kind == LITERAL:
            return code[j + 1]
    return None


def _block_threads(ctx, code, i: int, tokens, values: dict[str, int]):
    """The block size argument of a CUB block collective when it is 32: (its spelling, the token to report at)."""
    if len(tokens) != 1:
        return "", None
    text = tokens[0].text
    if tokens[0].kind == IDENT:
        own = _local_constant(ctx, code, i, text)
        if own is not None:
            return (text, own) if _shapes.number(own.text.rstrip("lL"), {}) == 32 else ("", None)
        if not is_warp_size_name(text):
            return "", None  # `THREADS` of a template, or another function's constant of that name
    spelled = _is_32(tokens, values)
    return (spelled, tokens[0]) if spelled and not per_platform_name(ctx, spelled) else ("", None)


def _check_warp_transpose(ctx, code, i: int, args, values: dict[str, int]) -> None:
    """`cub::BlockLoad<T, 32, N, cub::BLOCK_LOAD_WARP_TRANSPOSE>`: rocPRIM's warp-transpose load and store
    `static_assert` that the block is a multiple of the hardware wavefront, which a block of 32 is not on AMD
    CDNA. Reported at the block size's own definition when the function sets it (`constexpr int THREADS = 32;`)."""
    method = _WARP_TRANSPOSE[code[i].text]
    if not any(t.text == method for t in args[3]):
        return
    spelled, at = _block_threads(ctx, code, i, args[1], values)
    if not spelled:
        return
    ctx.report(
        f"a block of 32 threads (`{spelled}`) loads or stores through CUB's warp transpose "
        "(`BLOCK_LOAD_WARP_TRANSPOSE`, `BLOCK_STORE_WARP_TRANSPOSE`): hipCUB's rocPRIM asserts that the block "
        "is a multiple of the hardware wavefront, 64 lanes on AMD CDNA, so this does not compile there. Make the "
        "block a whole wavefront (64 threads) or use the plain `BLOCK_LOAD_TRANSPOSE`.",
        at=at,
    )


def _check_half_block_width(ctx, code, i: int, args, values: dict[str, int]) -> None:
    """`cub::WarpReduce<float, 16>` in a function whose 32-thread block loads through a warp transpose (above):
    logical warps of half the block, which grow with it when the block becomes a wavefront. A note."""
    width = _shapes.number("".join(t.text for t in args[1]).rstrip("lL"), values)
    if width is None or width >= 32 or 32 % width:
        return
    function = ctx.function_at(code[i].line)
    if function is None:
        return
    for j, tok in enumerate(code):
        if not function.start_line <= tok.line <= function.end_line or tok.text not in _WARP_TRANSPOSE:
            continue
        inner = _arguments(code, j + 1, "<", ">") if j + 1 < len(code) and code[j + 1].text == "<" else None
        if (
            inner
            and len(inner) >= 4
            and any(t.text == _WARP_TRANSPOSE[tok.text] for t in inner[3])
            and _block_threads(ctx, code, j, inner[1], values)[0]
        ):
            ctx.report(
                f"`cub::{code[i].text}` with logical warps of {width} splits a block of 32 threads that loads "
                "through a warp transpose: correct on a 64-lane wavefront by itself, but the block must become "
                f"64 threads on AMD (reported at its size), and then these groups and the per-group slots grow "
                "with it. A note only.",
                at=ctx.token,
                severity=Severity.INFO,
            )
            return


def _launched_with(ctx, code, i: int):
    """The kernel (FunctionInfo of this file) that `dim3 NAME(...)` at code[i] is launched with: the first
    `kernel<<<grid, NAME ...>>>` after it in the same function, or the launch `dim3(x, y)` is written in; None if
    there is none here."""
    if i + 1 >= len(code) or code[i + 1].kind != IDENT:
        for j in range(i - 1, max(-1, i - 60), -1):  # `kernel<<<grid, dim3(32, k)>>>`
            if code[j].text in (";", "{", "}"):
                return None
            if code[j].text in ("<<<", "<<") and j > 0:
                name = code[j - 1].text
                return next((f for f in ctx.functions if f.name == name and f.is_kernel), None)
        return None
    name = code[i + 1].text
    here = ctx.function_at(code[i].line)
    end = here.end_line if here is not None else code[-1].line
    for j in range(i + 2, len(code)):
        tok = code[j]
        if tok.line > end:
            break
        if tok.text not in ("<<<", "<<") or j == 0 or code[j - 1].kind != IDENT:
            continue
        at = j + (1 if tok.text == "<<<" else 2)
        args = _arguments(code, at - 1, "<<<", ">>>")
        if args and len(args) >= 2 and [t.text for t in args[1]] == [name]:
            return next((f for f in ctx.functions if f.name == code[j - 1].text and f.is_kernel), None)
    return None


def _templated_kernel_name(code, i: int) -> str:
    """`rowmax<float, 32><<<grid, block>>>`: the name before the template arguments that end at code[i - 1]."""
    if i == 0 or code[i - 1].text not in (">", ">>"):
        return ""
    depth = 0
    for j in range(i - 1, max(-1, i - 60), -1):
        text = code[j].text
        if text in (">", ">>"):
            depth += len(text)
        elif text == "<":
            depth -= 1
            if depth <= 0:
                return code[j - 1].text if j > 0 and code[j - 1].kind == IDENT else ""
        elif text in (";", "{", "}"):
            return ""
    return ""


def _definition_elsewhere(ctx, name: str, line: int) -> list[str] | None:
    """The token spellings of a kernel launched on `line` and defined outside this file, where clang found its
    definition (a project header); None when the scan has no tree or clang knows no definition."""
    function = ctx.function
    if not name or function is None or function.node is None:
        return None
    for node in function.node.walk():
        if node.is_call and node.line == line and node.callee_name == name:
            return node.definition_tokens()
    return None


def _report(ctx, kernel, message: str, at) -> None:
    """At the rule's severity, or as a note when the launched kernel keeps to 32-lane groups."""
    if kernel is not None and _groups.keeps_to_32(ctx, kernel):
        ctx.report(_groups.consistent_message(message, f"`{kernel.name}`"), at=at, severity=Severity.INFO)
    else:
        ctx.report(message, at=at)


def _only_called_in_comments(ctx, function) -> int:
    """A device function (not a kernel) that no code of this file outside its own body names, while a comment of
    the file does (`// scan_warp_version<T, IdxT>(...)`, a call commented out): the comment's line, else 0."""
    if function is None or function.is_kernel or not function.name:
        return 0
    name = function.name
    if any(t.text == name for t in ctx.view.code if not function.start_line <= t.line <= function.end_line):
        return 0
    code_lines = {t.line for t in ctx.view.code if t.text == name}
    for number, text in enumerate(ctx.lines, start=1):
        if number not in code_lines and not function.start_line <= number <= function.end_line:
            if re.search(rf"//.*\b{re.escape(name)}\b", text):
                return number
    return 0


def _raw_warp_code(ctx) -> bool:
    """The file also works on the hardware warp directly (a raw shuffle, ballot or activemask, warpSize): the
    place where a 32-lane tile and a 64-lane wavefront disagree. Code that goes through the tile's own API only
    (`tile.thread_rank()`, `meta_group_rank()`, `cg::reduce(tile, ...)`) stays consistent on AMD."""
    cache = ctx.memo
    if "rocport:raw-warp" not in cache:
        cache["rocport:raw-warp"] = any(
            t.kind == IDENT and (t.text.startswith(("__shfl", "__ballot")) or t.text in ("__activemask", "warpSize"))
            for t in ctx.view.code
        )
    return cache["rocport:raw-warp"]


def _value_note(spelled: str) -> str:
    return "" if spelled.rstrip("uUlL").isdigit() else f" (`{spelled}` is 32)"


def _cub_namespace(code, i: int) -> bool:
    """`cub::WarpReduce` or `hipcub::`-less uses inside a file that includes CUB: the name is CUB's."""
    return i >= 2 and code[i - 1].text == "::" and code[i - 2].text in ("cub", "hipcub")


RULE = Rule(
    name="warp-sized-group",
    summary="Block, tile or CUB warp primitive sized as one 32-lane warp (<<<g, 32>>>, tiled_partition<32>)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("identifier", "launch"),
    names=_TILES | _CUB | set(_WARP_TRANSPOSE) | {"dim3", "__launch_bounds__"},
    check=check,
    target_severity=wave64_severity,
)
