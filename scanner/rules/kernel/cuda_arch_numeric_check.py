"""`__CUDA_ARCH__` compared with an SM version in a preprocessor condition.

What it finds:
    `#if`/`#elif` conditions (and `#define` bodies) that compare `__CUDA_ARCH__` with a number
    (`#if __CUDA_ARCH__ >= 800`, `defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700`) and any use of the
    architecture-list and feature macros `__CUDA_ARCH_LIST__`, `__CUDA_ARCH_FEAT_SM90_ALL` (and other
    `__CUDA_ARCH_FEAT_*`), `__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`. Conditions that
    also test a HIP macro, that sit inside a HIP-aware `#if`, or that have the form
    `!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= N` (true on HIP, as on the host) are not reported.
    A plain `#ifdef __CUDA_ARCH__` (host versus device pass) is not reported by this rule.

Why it breaks on ROCm:
    HIP-Clang does not define `__CUDA_ARCH__` (nor the other macros), so in `#if` it evaluates to 0:
    every `__CUDA_ARCH__ >= N` branch is silently dropped and every `< N` branch silently taken. Fast
    paths disappear, fallback code written for old NVIDIA GPUs is compiled instead, and a branch that was
    "unreachable" (`#else` with an empty body, `assert(0)`, `__trap()`) becomes the code that runs.
    Nothing fails at build time.

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

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.kernel._common import HIP_MACRO, enclosing_conditions

_ARCH = "__CUDA_ARCH__"
_ARCH_FEATURES = re.compile(r"^__CUDA_ARCH_(LIST__|FEAT_\w+|SPECIFIC__|FAMILY_SPECIFIC__|SPECIFIC|FAMILY_SPECIFIC)$")
_NUMERIC_OPERATORS = frozenset({"<", "<=", ">", ">=", "==", "!=", "/", "%", "-", "+", "*"})
# `!defined(__CUDA_ARCH__) || ...`: the branch is taken on HIP as on the host pass.
_HOST_OR = re.compile(r"!\s*\(?\s*defined\s*\(?\s*__CUDA_ARCH__\s*\)?\s*\)?\s*\|\|")


def check(ctx) -> None:
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
    if any(HIP_MACRO.search(cond) for cond in enclosing_conditions(ctx.facts.view, d)):
        return
    if feature:
        ctx.report(f"`{feature}` is never defined by HIP-Clang, so this #{d.name} silently "
                   "takes the non-NVIDIA choice; test a __HIP_ARCH_HAS_*__ feature macro or an AMD target macro.",
                   at=hit)
    else:
        ctx.report(f"`{_compare_text(tokens)}` compares an NVIDIA SM version; HIP-Clang does not define "
                   "__CUDA_ARCH__, so it evaluates as 0 and the choice silently changes on AMD. Test "
                   "__HIP_ARCH_HAS_*__ features or __HIP_PLATFORM_AMD__ explicitly.", at=hit)


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
    name="cuda-arch-numeric-check",
    summary="#if comparing __CUDA_ARCH__ with an SM version (undefined, so 0, under HIP-Clang)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("directive",),
    check=check,
)
