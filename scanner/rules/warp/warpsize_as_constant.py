"""`warpSize` used where a compile-time constant is required.

What it finds:
    `warpSize` in an array dimension (`__shared__ float s[warpSize]`), a template argument
    (`cg::tiled_partition<warpSize>(block)`, `WarpReduce<float, warpSize>`), a `static_assert`, the
    initializer of a `constexpr` variable, an `if constexpr` condition, a `case` label or an enumerator.
    Runtime uses (`threadIdx.x % warpSize`, loop bounds, `prop.warpSize`) are not reported. Found on the
    tokens, so it also sees HIP-only branches of `#ifdef __HIP_PLATFORM_AMD__`.

Why it breaks on ROCm:
    Before ROCm 7.0 HIP declared `warpSize` as a `constexpr` in device code, so HIP code could size
    arrays and instantiate templates with it. Since ROCm 7.0 it is a run-time value (as in CUDA, where
    it never was a constant), and every such use is a compile error.

Example:
    __shared__ float partial[warpSize];
    auto tile = cg::tiled_partition<warpSize>(cg::this_thread_block());

Use instead:
    A compile-time constant chosen per platform (`#if defined(__GFX9__)` ... 64 ... `#else` 32) or the
    largest wavefront size (64) for buffers; keep `warpSize` for run-time arithmetic. Host code can query
    `hipDeviceProp_t::warpSize`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warpsize
    https://rocm.docs.amd.com/en/latest/about/release-notes.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/hip-7-changes.html
    https://github.com/ROCm/apex/pull/231

Known problems:
    Token patterns: an expression like `a < warpSize > b` can look like a template argument. Files
    that declare their own `warpSize` (a template parameter or a constant) are left alone.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.parsing.tokens import IDENT, KEYWORD
from scanner.rules.base import Rule

_TYPE_WORDS = frozenset(
    {
        "int",
        "unsigned",
        "signed",
        "long",
        "short",
        "char",
        "auto",
        "size_t",
        "uint32_t",
        "int32_t",
        "const",
        "constexpr",
    }
)
_STOP = frozenset({";", "{", "}"})


def _declares_warpsize(code) -> bool:
    """The file declares its own `warpSize` (`int warpSize = 32`, `template <int warpSize>`, a #define);
    a struct member `int warpSize;` (as in hipDeviceProp_t) does not count."""
    for i, tok in enumerate(code):
        if tok.text != "warpSize" or i == 0:
            continue
        before = code[i - 1]
        after = code[i + 1].text if i + 1 < len(code) else ""
        if (before.text in _TYPE_WORDS or before.kind == IDENT) and after in ("=", ",", ">"):
            return True
    return False


_DECLARES: list = [None, False]


def _file_declares(ctx) -> bool:
    code = ctx.view.code
    if _DECLARES[0] is not code:
        defined = any(d.name == "define" and d.tokens and d.tokens[0].text == "warpSize" for d in ctx.view.directives)
        _DECLARES[0], _DECLARES[1] = code, defined or _declares_warpsize(code)
    return _DECLARES[1]


def _enclosing_open(code, i: int, opener: str, closer: str, limit: int = 60) -> int:
    """Index of the unmatched `opener` before i in the same statement, or -1."""
    depth = 0
    for j in range(i - 1, max(-1, i - limit), -1):
        text = code[j].text
        if text in _STOP:
            return -1
        if text == closer:
            depth += 1
        elif text == opener:
            if depth == 0:
                return j
            depth -= 1
    return -1


def _array_dimension(code, i: int) -> bool:
    """`T name[... warpSize ...]` (also further dimensions `name[a][warpSize]`) in a declaration."""
    j = _enclosing_open(code, i, "[", "]")
    if j <= 0:
        return False
    k = j - 1
    while k > 0 and code[k].text == "]":  # earlier dimensions
        depth = 0
        while k >= 0:
            if code[k].text == "]":
                depth += 1
            elif code[k].text == "[":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        k -= 1
    if k <= 0 or code[k].kind != IDENT:
        return False
    before = code[k - 1]
    return (
        before.kind == IDENT
        or before.text in _TYPE_WORDS
        or before.text in (">", "*", "&")
        or (
            before.kind == KEYWORD
            and before.text in ("float", "double", "bool", "int", "char", "short", "long", "unsigned", "signed")
        )
    )


def _template_argument(code, i: int) -> bool:
    """`name<... warpSize ...>`: an unmatched `<` before, after a name or `template`, closed by `>`."""
    depth, angles, start = 0, 0, -1
    for j in range(i - 1, max(-1, i - 30), -1):
        text = code[j].text
        if text in (")", "]"):
            depth += 1
        elif text in ("(", "["):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            if text == ">":
                angles += 1  # a nested template argument list: `Foo<Bar<int>, warpSize>`
            elif text == "<":
                if angles == 0:
                    start = j
                    break
                angles -= 1
            elif text in _STOP or text in ("&&", "||", "?", ":", "=", "return"):
                break
    if start <= 0 or not (code[start - 1].kind == IDENT or code[start - 1].text == "template"):
        return False
    depth = 0
    for j in range(i + 1, min(len(code), i + 30)):
        text = code[j].text
        if text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and text in (">", ">>"):
            return True
        elif text in _STOP or text in ("&&", "||", "?", ":") or (text == "<" and depth == 0):
            return False
    return False


def _in_call_of(code, i: int, name: str) -> bool:
    j = i - 1
    depth = 0
    while j >= 0 and code[j].text not in _STOP:
        text = code[j].text
        if text == ")":
            depth += 1
        elif text == "(":
            if depth == 0:
                if j > 0 and code[j - 1].text == name:
                    return True
            else:
                depth -= 1
        j -= 1
    return False


def _statement_has(code, i: int, words: tuple[str, ...]) -> str:
    """The first of `words` found going back from i to the start of the statement."""
    for j in range(i - 1, max(-1, i - 40), -1):
        text = code[j].text
        if text in _STOP:
            return ""
        if text in words:
            return text
    return ""


def _enumerator(code, i: int) -> bool:
    if i < 2 or code[i - 1].text != "=":
        return False
    depth = 0
    for j in range(i - 2, max(-1, i - 200), -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{":
            if depth == 0:
                return any(code[k].text == "enum" for k in range(max(0, j - 6), j))
            depth -= 1
        elif text == ";":
            return False
    return False


def _constant_use(code, i: int) -> str:
    if _array_dimension(code, i):
        return "an array dimension"
    if _in_call_of(code, i, "static_assert"):
        return "a static_assert"
    if _template_argument(code, i):
        return "a template argument"
    found = _statement_has(code, i, ("case", "constexpr"))
    if found == "case":
        j = i - 1
        while j >= 0 and code[j].text not in (":", "case") and code[j].text not in _STOP:
            j -= 1
        if j >= 0 and code[j].text == "case":
            return "a case label"
    elif found == "constexpr":
        return "a constexpr expression"
    if _enumerator(code, i):
        return "an enumerator"
    return ""


def check(ctx: Context) -> None:
    code = ctx.view.code
    i = ctx.view.index(ctx.token)
    if i < 0:
        return
    if i > 0 and code[i - 1].text in (".", "->", "::"):
        return  # hipDeviceProp_t::warpSize, prop.warpSize
    use = _constant_use(code, i)
    if not use or _file_declares(ctx):
        return
    ctx.report(
        f"`warpSize` is used as {use}, which needs a compile-time constant; since ROCm 7.0 "
        "warpSize is a run-time value. Use a per-platform constant instead."
    )


def _severity(profile, base):
    if profile.rocm_at_least(7, 0):
        return Severity.HIGH, (
            f"ROCm {profile.rocm_text}: warpSize is not constexpr (since 7.0), so this does not compile."
        )
    return Severity.LOW, f"Compiles with ROCm {profile.rocm_text} (warpSize constexpr), but not from ROCm 7.0 on."


RULE = Rule(
    name="warp-warpsize-as-constant",
    formerly=("warpsize-as-constant",),
    summary="warpSize used as a compile-time constant (array size, template argument, static_assert)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("identifier",),
    names=frozenset({"warpSize"}),
    check=check,
    target_severity=_severity,
)
