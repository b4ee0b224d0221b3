"""`warpSize` used where a compile-time constant is required.

What it finds:
    `warpSize` in an array dimension (`__shared__ float s[warpSize]`), a template argument
    (`cg::tiled_partition<warpSize>(block)`, `WarpReduce<float, warpSize>`), a `static_assert`, the
    initializer of a `constexpr` variable, an `if constexpr` condition, a `case` label or an enumerator;
    also an array indexed with `warpSize` in one of those places (`constexpr int lanes = kLanes[warpSize / 64]`),
    reported as an index, not as a dimension. Runtime uses (`threadIdx.x % warpSize`, loop bounds, an index
    such as `&smem[warpSize]` or `n * buf[threadIdx.x / warpSize]`, `prop.warpSize`) are not reported. Found
    on the tokens, so it also sees HIP-only branches of `#ifdef __HIP_PLATFORM_AMD__`.

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
    Token patterns: an expression like `a < warpSize > b` can look like a template argument, and an index is
    told from a declaration by what stands before the array's name (`T *s[warpSize]` starting a statement is
    a declaration, `n * s[warpSize]` after `=` or `return` a product). Files that declare their own
    `warpSize` (a template parameter or a constant) are left alone, and so is a `warpSize` that clang resolves,
    in a function, to a constant of the project's own declared in a header it includes (a namespace's
    `constexpr unsigned warpSize = 32;` hides HIP's); outside a function (a struct member's size) such a header's
    constant is not seen.
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
_TYPE_KEYWORDS = frozenset({"float", "double", "bool", "int", "char", "short", "long", "unsigned", "signed"})
# Keywords an operand follows: `return n * s[...]` multiplies.
_OPERAND_KEYWORDS = frozenset(
    {"return", "case", "sizeof", "alignof", "throw", "new", "delete", "co_return", "co_yield"}
)


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


def _subscripted(code, i: int) -> int:
    """The index of the name that the brackets around i follow (`s` of `s[a][... warpSize ...]`), or -1."""
    j = _enclosing_open(code, i, "[", "]")
    if j <= 0:
        return -1
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
    return k if k >= 0 and code[k].kind == IDENT else -1


def _array_dimension(code, i: int) -> bool:
    """`T name[... warpSize ...]` (also further dimensions `name[a][warpSize]`) in a declaration; not an index
    (`&smem[warpSize]`, `n * smem[warpSize]`, `x > smem[warpSize]`)."""
    k = _subscripted(code, i)
    return k > 0 and _declared(code, k)


def _declared(code, k: int) -> bool:
    """Whether the name at k, followed by `[`, is what a declaration declares rather than an array indexed in an
    expression: a type before it (`float s`, `T s`, `Tile<4> s`, `float *s`, `T *const s`)."""
    before = code[k - 1]
    if before.text in ("&", "&&"):
        return False  # no array of references: the address of an element, or a bitwise and
    if before.text != "*":
        return _ends_type(code, k - 1)
    j = k - 1
    while j > 0 and code[j].text in ("*", "const", "volatile"):
        j -= 1
    if code[j].text in ("*", "const", "volatile"):
        return False
    if code[j].kind == IDENT:  # `T *s[...]` in a declaration, or `n * s[...]` in an expression
        return _starts_declaration(code, _qualified_start(code, j))
    return _ends_type(code, j)


def _ends_type(code, j: int) -> bool:
    tok = code[j]
    if tok.kind == IDENT or tok.text in _TYPE_WORDS or tok.text in _TYPE_KEYWORDS:
        return True
    return tok.text in (">", ">>") and _closes_template(code, j)


def _closes_template(code, j: int) -> bool:
    """`>` at j closes a template argument list opened after a name (`Tile<4, 2>`), not a comparison."""
    angles = 2 if code[j].text == ">>" else 1
    depth = 0
    for m in range(j - 1, max(-1, j - 40), -1):
        text = code[m].text
        if text in (")", "]"):
            depth += 1
        elif text in ("(", "["):
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0:
            if text in _STOP or text in ("=", "&&", "||", "?", "return"):
                return False
            if text == ">":
                angles += 1
            elif text == ">>":
                angles += 2
            elif text == "<":
                angles -= 1
                if angles == 0:
                    return m > 0 and code[m - 1].kind == IDENT
    return False


def _qualified_start(code, j: int) -> int:
    """The first token of the qualified name ending at j (`ns` of `ns::T`)."""
    while j >= 2 and code[j - 1].text == "::" and code[j - 2].kind == IDENT:
        j -= 2
    return j


def _starts_declaration(code, j: int) -> bool:
    """The type name at j begins a declaration (after `;`, `{`, `}`, a specifier or an attribute macro such as
    `__shared__`), not an operand (after `=`, `(`, `,`, `return` or an operator)."""
    if j == 0:
        return True
    before = code[j - 1]
    if before.text in _STOP or before.kind == IDENT:
        return True
    if before.text in (">", ">>"):
        return _closes_template(code, j - 1)
    return before.kind == KEYWORD and before.text not in _OPERAND_KEYWORDS


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
    k = _subscripted(code, i)
    if k >= 0:
        # an index (`smem[warpSize]`): a run-time use, unless the indexing itself stands where a constant is
        # required (`constexpr int lanes = kTable[warpSize / 64]`); then it is said as an index, not a dimension
        where = _constant_use(code, k)
        return where if not where or where.startswith("an array index") else f"an array index in {where}"
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


def _project_constant(ctx, token) -> bool:
    """clang resolves this `warpSize` to a constant of the project's own (`namespace mamba { constexpr unsigned
    warpSize = 32; }` in a header the file includes): it hides HIP's run-time warpSize there, so it compiles.
    Read on the syntax tree of the function around the token; HIP's own `warpSize` has no constant value."""
    function = ctx.function
    if function is None or function.node is None:
        return False
    for node in function.node.walk():
        if node.is_decl_ref and node.name == "warpSize" and node.line == token.line and node.col == token.col:
            return node.const_value() is not None
    return False


def check(ctx: Context) -> None:
    code = ctx.view.code
    i = ctx.view.index(ctx.token)
    if i < 0:
        return
    if i > 0 and code[i - 1].text in (".", "->", "::"):
        return  # hipDeviceProp_t::warpSize, prop.warpSize
    use = _constant_use(code, i)
    if not use or _file_declares(ctx) or _project_constant(ctx, ctx.token):
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
