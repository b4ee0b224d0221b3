"""`__CUDA_ARCH__` compared with an SM version in a preprocessor condition.

What it finds:
    `#if`/`#elif` conditions (and `#define` bodies) that compare `__CUDA_ARCH__` with a number
    (`#if __CUDA_ARCH__ >= 800`, `defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700`) and any use of the
    architecture-list and feature macros `__CUDA_ARCH_LIST__`, `__CUDA_ARCH_FEAT_SM90_ALL` (and other
    `__CUDA_ARCH_FEAT_*`), `__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`. Conditions that
    also test a HIP macro, that sit inside a HIP-aware `#if`, or that have the form
    `!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= N` (true on HIP, as on the host) are not reported.
    A plain `#ifdef __CUDA_ARCH__` (host versus device pass) is not reported by this rule. Where the project's
    own macros decide the condition under HIP whatever the SM version (`#if P_NVLS_SUPPORTED && __CUDA_ARCH__ >=
    900`, with `P_NVLS_SUPPORTED` 0 on the HIP side of its header: scanner.port_values), the finding is info.

Why it breaks on ROCm:
    HIP-Clang does not define `__CUDA_ARCH__` (nor the other macros), so in `#if` it evaluates to 0:
    every `__CUDA_ARCH__ >= N` branch is silently dropped and every `< N` branch silently taken. Fast
    paths disappear, fallback code written for old NVIDIA GPUs is compiled instead, and a branch that was
    "unreachable" (`#else` with an empty body, `assert(0)`, `__trap()`) becomes the code that runs.
    Nothing fails at build time. Where the chain has an `#else` and every branch HIP may take holds real code
    (a generic fallback), the finding is low and a performance risk: HIP computes the result another, maybe
    slower, way; with no `#else`, or one that is empty or traps among other code, it stays a silent wrong
    result. Where the branch HIP compiles is the intended, safe one, the finding is info with a note saying
    why: it is a deliberate stop (only `__trap()`, `assert(false)` or `NO_DEVICE_CODE`, maybe with a
    `return`), the branches differ only by barriers and HIP's synchronizes as much (`__syncthreads()` for
    `__syncwarp()`), or what HIP leaves out is PTX that could not run on AMD (inline `asm`, `ldmatrix` or
    `cp_async` wrappers) beside a portable branch, or a PTX hint with nothing in its place (`prefetch`,
    `griddepcontrol`), or PTX for one NVIDIA architecture only (under `__CUDA_ARCH_FEAT_SM90_ALL`, or `wgmma`)
    with nothing in its place, as an older NVIDIA GPU compiles it; or the Tensor Memory Accelerator's side (sm_90
    on) of a choice the code makes elsewhere, with nothing in its place: only declarations and
    `if (EnableTma) {...}` (a condition with a `tma` name); or the branches differ only by a
    `__launch_bounds__` that HIP's has not (in the code or in a `#define` of the same macro); or what HIP leaves
    out, with nothing in its place, calls a function the project defines only where HIP-Clang never compiles (its
    own HIP layer keeps that feature to NVIDIA: scanner.port_values). Dropped PTX that computes a value, with
    nothing in its place, still reports.

Example:
    #if __CUDA_ARCH__ >= 800
      acc = __hfma2(a, b, acc);
    #else
      // not supported before Ampere
    #endif

Use instead:
    Test features, not NVIDIA versions: the `__HIP_ARCH_HAS_*__` macros (e.g.
    `__HIP_ARCH_HAS_WARP_SHUFFLE__`, `__HIP_ARCH_HAS_DOUBLES__`), an AMD target macro such as `__gfx942__`,
    or `__HIP_DEVICE_COMPILE__` for the device pass; add the HIP case explicitly:
    `#if defined(__HIP_PLATFORM_AMD__) || __CUDA_ARCH__ >= 800`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#virtual-architecture-macros

Known problems:
    Only preprocessor lines are read: `NV_IF_TARGET(NV_PROVIDES_SM_80, ...)` from <nv/target> and macros
    that wrap the comparison (`#define ARCH __CUDA_ARCH__` then `#if ARCH >= 800`) are not seen.
"""

import re

from scanner.analysis import hip_branches
from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.port_values import defined_functions
from scanner.rules.base import Rule
from scanner.rules.kernel._arch_branches import computes, safe_choice, sm_names_as_numbers, split
from scanner.rules.kernel._common import HIP_MACRO, enclosing_conditions
from scanner.rules.libraries._judgement import cuda_code_only, judged

_ARCH = "__CUDA_ARCH__"
_ARCH_FEATURES = re.compile(r"^__CUDA_ARCH_(LIST__|FEAT_\w+|SPECIFIC__|FAMILY_SPECIFIC__|SPECIFIC|FAMILY_SPECIFIC)$")
_NUMERIC_OPERATORS = frozenset({"<", "<=", ">", ">=", "==", "!=", "/", "%", "-", "+", "*"})
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
# `!defined(__CUDA_ARCH__) || ...`: the branch is taken on HIP as on the host pass.
_HOST_OR = re.compile(r"!\s*\(?\s*defined\s*\(?\s*__CUDA_ARCH__\s*\)?\s*\)?\s*\|\|")


def check(ctx: Context) -> None:
    d = ctx.directive
    if d.name not in ("if", "elif", "define"):
        return
    tokens = d.tokens
    if d.name == "define":
        tokens = tokens[1:]  # the macro's own name may be __CUDA_ARCH_LIST__-like: skip it
    hit, feature = None, ""
    for i, tok in enumerate(tokens):
        if _ARCH_FEATURES.match(tok.text):
            hit, feature = tok, tok.text
            break
        if tok.text == _ARCH and _compared(tokens, i):
            hit = tok
            break
    if hit is None:
        return
    text = d.text
    if HIP_MACRO.search(text) or (not feature and _HOST_OR.search(text)):
        return
    if any(HIP_MACRO.search(cond) for cond in enclosing_conditions(ctx.view, d)):
        return
    what = (
        f"`{feature}` is never defined by HIP-Clang"
        if feature
        else (
            f"`{_compare_text(tokens)}` compares an NVIDIA SM version; HIP-Clang does not define __CUDA_ARCH__ (0 in #if)"
        )
    )
    decided = _decided_without_arch(ctx, tokens) if d.name != "define" else ""
    if decided:
        with judged(ctx, Severity.INFO):
            ctx.report(f"{what}, but {decided}", at=hit)
        return
    chain = _chain(ctx.view.directives, d) if d.name != "define" else []
    safe = (safe_choice(*split(ctx, chain)) or _calls_nvidia_only(ctx, *split(ctx, chain))) if chain else ""
    if safe:
        with judged(ctx, Severity.INFO):
            ctx.report(f"{what}, but {safe}", at=hit)
        return
    fallback = _fallback(ctx, d) if d.name != "define" else None
    if fallback is not None:
        with judged(ctx, Severity.LOW, Risk.PERFORMANCE):
            ctx.report(
                f"{what}, so HIP compiles the {fallback}: a fallback that computes the result "
                "another way, maybe slower than the NVIDIA path. Check it is right on AMD; test "
                "__HIP_ARCH_HAS_*__ features or an AMD target macro (`__gfx942__`) for the fast path.",
                at=hit,
            )
    elif feature:
        ctx.report(
            f"{what}, so this #{d.name} silently takes the non-NVIDIA choice; test a __HIP_ARCH_HAS_*__ "
            "feature macro or an AMD target macro.",
            at=hit,
        )
    else:
        ctx.report(
            f"{what}, so the choice silently changes on AMD. Test __HIP_ARCH_HAS_*__ features or "
            "__HIP_PLATFORM_AMD__ explicitly.",
            at=hit,
        )


def _calls_nvidia_only(ctx, taken, excluded) -> str:
    """Why leaving the branches out is the project's own choice ("" when it is not): HIP's branch is empty and every
    branch it leaves out calls a function the project defines only where HIP-Clang never compiles
    (scanner.port_values: `multimemStore` under `#if defined(P_DEVICE_CUDA)`): its HIP layer keeps that feature
    to NVIDIA, and the ROCm build has nothing there to call."""
    absent = ctx.port.hip_absent
    left_out = [b for b in excluded if b.tokens]
    if not absent or not left_out or any(b.tokens for b in taken):
        return ""
    if any(text[0] in ("define", "include") for b in left_out for text in b.directive_texts):
        return ""
    found = []
    for branch in left_out:
        texts = [t.text for t in branch.tokens]
        defined = set(defined_functions(" ".join(texts)))  # absent because defined here only: not a call
        called = next(
            (t for i, t in enumerate(texts[:-1]) if t in absent and t not in defined and texts[i + 1] in ("(", "<")),
            None,
        )
        if called is None:
            return ""
        found.append(called)
    return (
        f"what HIP leaves out calls `{found[0]}`, which the project defines only where HIP-Clang never compiles "
        "(its own HIP layer keeps that feature to NVIDIA): the ROCm build has no such function to call, so "
        "leaving the branch out is the port's choice, not a silent change."
    )


def _decided_without_arch(ctx, tokens) -> str:
    """Why the condition does not depend on the SM version under HIP ("" when it does): the project's own macros
    decide it whatever `__CUDA_ARCH__` is (`#if P_NVLS_SUPPORTED && __CUDA_ARCH__ >= 900`, with
    `P_NVLS_SUPPORTED` 0 on the HIP side of its header)."""
    port = ctx.port
    if not (port.hip_undefined or port.hip_values or port.hip_macros):
        return ""
    texts = [t.text for t in tokens]
    # NVIDIA's own macros unknown too (`CUDA_VERSION >= 11000` beside the SM test): only the project's decide here.
    nvidia = hip_branches.HIP_UNDEFINED | frozenset(t for t in texts if _ARCH_FEATURES.match(t))
    value = hip_branches.value_of(texts, port.hip_macros, port.hip_undefined, port.hip_values, unknown=nvidia)
    if value is None:
        return ""
    deciding = [
        t for t in dict.fromkeys(texts) if t in port.hip_macros or t in port.hip_undefined or t in dict(port.hip_values)
    ]
    if not deciding:
        return ""
    names = ", ".join(f"`{t}`" for t in deciding[:3])
    taken = "always taken" if value else "never taken"
    return (
        f"the project's own macros ({names}, as its HIP side sets them) decide this condition on AMD whatever "
        f"the SM version: the branch is {taken} there, so the __CUDA_ARCH__ test changes nothing for ROCm."
    )


def _fallback(ctx, directive) -> str | None:
    """The branch HIP takes ("`#else` branch at line 12") when the #if chain of `directive` has an #else and
    every branch HIP may take holds code that computes something; None when HIP may take no branch, an empty
    one or one that traps."""
    view = ctx.view
    branches = _chain(view.directives, directive)
    if not branches or branches[-1][0].name != "else":
        return None
    dead = _dead(ctx)
    taken = []
    for start, first, last in branches:
        if first > last:
            return None  # an empty branch HIP may take: nothing computes the result there
        if first in dead:
            continue
        if not computes(view, first, last):
            return None
        taken.append(start)
    return f"`#{taken[0].name}` branch at line {taken[0].line}" if taken else None


def _chain(directives, directive) -> list[tuple[object, int, int]]:
    """(directive, first body line, last body line) of each branch of the #if chain holding `directive`."""
    index = next((i for i, d in enumerate(directives) if d is directive), -1)
    if index < 0:
        return []
    depth, start = 0, -1
    for i in range(index, -1, -1):
        name = directives[i].name
        if name == "endif" and i != index:
            depth += 1
        elif name in ("if", "ifdef", "ifndef"):
            if depth == 0:
                start = i
                break
            depth -= 1
    if start < 0:
        return []
    heads, depth = [], 0
    for d in directives[start:]:
        if d.name in ("if", "ifdef", "ifndef"):
            if depth == 0:
                heads.append(d)
            depth += 1
        elif d.name in ("elif", "elifdef", "elifndef", "else") and depth == 1:
            heads.append(d)
        elif d.name == "endif":
            depth -= 1
            if depth == 0:
                heads.append(d)
                break
    if not heads or heads[-1].name != "endif":
        return []
    return [(head, head.end_line + 1, nxt.line - 1) for head, nxt in zip(heads, heads[1:])]


def _dead(ctx) -> dict:
    """Lines HIP-Clang never compiles (scanner.analysis.hip_branches), reading a name compared with
    __CUDA_ARCH__ (`__CUDA_ARCH__ >= GGML_CUDA_CC_AMPERE`) as the positive SM number it stands for."""
    memo = ctx.memo
    dead = memo.get("roc158_dead")
    if dead is None:
        directives = [
            type(d)(d.name, d.line, d.end_line, sm_names_as_numbers(d)) if d.name in ("if", "elif") else d
            for d in ctx.view.directives
        ]
        port = ctx.port
        dead = memo["roc158_dead"] = hip_branches.dead_lines(
            directives, len(ctx.lines), port.hip_macros, port.hip_undefined, values=port.hip_values
        )
    return dead


def _compared(tokens, i: int) -> bool:
    before = tokens[i - 1].text if i > 0 else ""
    after = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if after == ")" and i >= 2 and tokens[i - 1].text == "(" and tokens[i - 2].text == "defined":
        return False
    return after in _NUMERIC_OPERATORS or (before in _NUMERIC_OPERATORS and before not in ("-", "+", "*"))


def _compare_text(tokens) -> str:
    for i, tok in enumerate(tokens):
        if tok.text == _ARCH and _compared(tokens, i):
            after = tokens[i + 1].text if i + 1 < len(tokens) else ""
            if after in _NUMERIC_OPERATORS and i + 2 < len(tokens):
                return f"{_ARCH} {after} {tokens[i + 2].text}"
            return f"{tokens[i - 2].text} {tokens[i - 1].text} {_ARCH}" if i >= 2 else _ARCH
    return _ARCH


RULE = Rule(
    name="kernel-cuda-arch-numeric-check",
    formerly=("cuda-arch-numeric-check",),
    summary="#if comparing __CUDA_ARCH__ with an SM version (undefined, so 0, under HIP-Clang)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("directive",),
    check=cuda_code_only(check),
)
