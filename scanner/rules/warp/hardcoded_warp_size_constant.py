"""Warp size defined as the constant 32.

What it finds:
    A macro or constant named for the warp size whose value is 32: `#define WARP_SIZE 32`,
    `constexpr int kWarpSize = 32;`, `const int warp_size = 32;`, `static const unsigned WARPSIZE = 32;`,
    `enum { WARP_SIZE = 32 };`, `template <int kWarpSize = 32>`, in any integer type, the project's own too
    (`constexpr index_t kWarpSz = 32;`, `static constexpr my_int_t WARP_THREADS = 32;`,
    `constexpr IdxT kWarpSize{32};`); and a 32 given to a template parameter named for the warp where the
    template is used (`rowmax<32, 4>` for `template <int kWarpThreads, int kRows>`), unless the file also
    gives it 64 or a per-platform name (a dispatch over both sizes). Names count when they mention the warp
    (or wave) and a size, width, lanes or threads (`THREADS_PER_WARP`); `WARPS_PER_BLOCK`, `NUM_WARPS`
    and `BLOCK_SIZE` do not.

Why it breaks on ROCm:
    Every lane index, warp index, shuffle offset and per-warp buffer derived from this constant assumes
    32 lanes. AMD CDNA/Instinct GPUs (MI100 to MI350) run 64-lane wavefronts, so all of them are silently
    wrong there: reductions drop half the wavefront and per-warp slots are computed for the wrong count.

Example:
    #define WARP_SIZE 32
    int lane = threadIdx.x % WARP_SIZE;

Use instead:
    Choose the value per platform (`#if defined(__HIP_PLATFORM_AMD__)` ... 64 for CDNA ... `#else` 32),
    or use `warpSize` at run time; never rely on `warpSize` being a compile-time constant (it is not
    constexpr since ROCm 7.0).

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warpsize
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html

    A note only (info) where the 32 is used consistently: the function that defines it keeps to 32-lane groups
    (scanner.rules.warp._groups), or, for a file-wide definition, the file uses it in per-warp code and no
    function that uses it reaches past 32-lane groups (a header of constants alone keeps the severity), or the
    constant is local to a host function that launches no kernel (a debug dump's packed layout); for a
    32 given to a template, where the templated function keeps to 32-lane groups. Not reported: a constant
    declared in a function, or in the body of a template's specialization, and never read there (nothing is built
    on it), nor a macro a source file (not a header) defines and never names again. Not reported in another vendor's backend (`ggml-sycl/`: a SYCL sub-group of 32).
    Low where the 32 only splits data: every function that uses it is device code that does nothing per warp (no
    shuffle, ballot, warp sync or warp helper, in it or in what it calls), or a source file defines it and never
    uses it, or a header defines it, never uses it, and every repository file that includes the header and names
    it does nothing per warp (a shared-memory padding); a 64-lane wavefront then runs two groups of 32 threads,
    each on its own data.

Known problems:
    A file-wide definition is judged by the file that holds it; a header's that the header never uses, by the
    files that include it directly (by file name), read as text.
    Constants defined inside a platform test (`#ifdef __HIP_PLATFORM_AMD__ ... #else ... #endif`,
    `#if __CUDA_ARCH__`...) are taken as already ported and stay quiet.
"""

from scanner.analysis.context import PLATFORM_GUARD as _PLATFORM
from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.parsing.tokens import IDENT, LITERAL
from scanner.rules.base import Rule, wave64_severity
from scanner.rules.libraries._judgement import other_vendor_backend
from scanner.rules.warp import _groups, _templates
from scanner.rules.warp._common import directive_guards, is_warp_size_name, per_platform_name
from scanner.rules.warp._users import users_split_data_only

# Words that stand before a name without declaring it (`return WARP_SIZE = 32;` is not a declaration).
_NOT_TYPES = frozenset(
    {"return", "case", "goto", "throw", "else", "do", "sizeof", "operator", "delete", "new", "co_return", "co_yield"}
)


_CLASS_KEYS = frozenset({"struct", "class", "union"})
_BUILTIN_TYPES = frozenset({"int", "unsigned", "signed", "long", "short", "char", "auto"})


def _declares(code, i: int) -> bool:
    """code[i] is the name a declaration introduces: after any type, the built-in ones and the project's own
    (`index_t`, `my_int_t`, `IdxT`, `ns::Index`, `Int<...>`): two names side by side only occur in a declaration."""
    before = code[i - 1] if i > 0 else None
    if before is None:
        return False
    if before.text in _BUILTIN_TYPES:
        return True
    if before.kind == IDENT:
        return before.text not in _NOT_TYPES
    if before.text == ">":  # `Int<4> kWarpSize = 32;`: a template type, in a declaration that says so
        for j in range(i - 2, max(-1, i - 30), -1):
            if code[j].text in (";", "{", "}"):
                return False
            if code[j].text in ("constexpr", "const", "static"):
                return True
    return False


def _is_32(text: str) -> bool:
    try:
        return int(text.rstrip("uUlL"), 0) == 32
    except ValueError:
        return False


def _check_define(ctx) -> None:
    d = ctx.directive
    if d.name != "define" or len(d.tokens) < 2:
        return
    name_tok = d.tokens[0]
    body = list(d.tokens[1:])
    if body[0].text == "(" and body[0].offset == name_tok.offset + len(name_tok.text):
        return  # function-like macro
    while len(body) >= 3 and body[0].text == "(" and body[-1].text == ")":
        body = body[1:-1]
    if len(body) != 1 or body[0].kind != LITERAL or not _is_32(body[0].text):
        return
    if not is_warp_size_name(name_tok.text):
        return
    guards = directive_guards(ctx.view.directives, d.line) + [g.condition for g in ctx.guards]
    if any(_PLATFORM.search(g) for g in guards):
        return
    if _unused_in_source(ctx, name_tok.text, d):
        return
    _report(
        ctx,
        f"`#define {name_tok.text} 32` hard-codes a 32-lane warp; AMD CDNA wavefronts have 64 lanes. "
        "Define it per platform or use warpSize.",
        name_tok,
    )


# Sources, as opposed to headers: a macro a source defines reaches no other file.
_SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip")


def _unused_in_source(ctx, name: str, definition) -> bool:
    """A source file's `#define WARP_SIZE 32` that nothing in the file names again (its code, another directive):
    nothing lane- or warp-sized is built on it, as with an unread local constant (LeetCUDA's elementwise kernels
    carry one by habit). A header's definition may be read by its includers and keeps its finding."""
    if not ctx.path.endswith(_SOURCE_SUFFIXES):
        return False
    if any(tok.text == name for tok in ctx.view.code):
        return False
    return not any(
        tok.text == name for directive in ctx.view.directives if directive is not definition for tok in directive.tokens
    )


def _check_tokens(ctx) -> None:
    """`type NAME = 32;`, `NAME{32}`, template defaults and enumerators, in every #if branch."""
    view = ctx.view
    code = view.code
    for i, tok in enumerate(code):
        if tok.kind != IDENT or i + 2 >= len(code) or not is_warp_size_name(tok.text):
            continue
        eq, value = code[i + 1], code[i + 2]
        after = code[i + 3] if i + 3 < len(code) else None
        if eq.text == "=" and value.kind == LITERAL and _is_32(value.text):
            if after is None or after.text not in (";", ",", "}", ">"):
                continue
        elif (
            eq.text == "{" and value.kind == LITERAL and _is_32(value.text) and after is not None and after.text == "}"
        ):
            pass
        else:
            continue
        if not _declares(code, i) and not _in_enum(code, i):
            continue
        if any(_PLATFORM.search(g.condition) for g in view.guards_at(tok.line)):
            continue
        if _never_read(ctx, code, i):
            continue
        _report(
            ctx,
            f"`{tok.text}{' = 32' if eq.text == '=' else '{32}'}` hard-codes a 32-lane warp; AMD CDNA wavefronts have 64 lanes. "
            "Choose the value per platform or use warpSize.",
            tok,
            _in_template_header(code, i),
        )


def _never_read(ctx, code, i: int) -> bool:
    """A constant declared in a function, or in the body of a template's specialization, that is never used there
    again: nothing lane- or warp-sized is built on it, so there is no finding. A constant at namespace scope or in
    a plain struct (a traits or config struct) may be read by the files that include the header: it keeps its
    finding."""
    name = code[i].text
    function = ctx.function_at(code[i].line)
    if function is not None:
        return sum(1 for t in code if t.text == name and function.start_line <= t.line <= function.end_line) == 1
    body = _class_body(code, i)
    return body is not None and sum(1 for tok in code[body[0] : body[1]] if tok.text == name) == 1


def _class_body(code, i: int) -> tuple[int, int] | None:
    """The token range of the body of a class template's specialization (`struct Conv<half, Fmt> {`) that code[i]
    sits directly in, or None."""
    depth = 0
    for j in range(i - 1, max(-1, i - 2000), -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{":
            if depth == 0:
                break
            depth -= 1
    else:
        return None
    head = list(_head(code, j))
    keys = [k for k in head if code[k].text in _CLASS_KEYS]
    if code[j].text != "{" or not keys or code[min(keys[0] + 2, j)].text != "<":
        return None  # only a template's specialization (`struct Conv<half, Fmt> {`): a traits struct is read elsewhere
    depth = 0
    for end in range(j, len(code)):
        if code[end].text == "{":
            depth += 1
        elif code[end].text == "}":
            depth -= 1
            if depth == 0:
                return j, end
    return None


def _head(code, brace: int):
    """The indices of the tokens before a `{` back to the previous statement's end."""
    for k in range(brace - 1, max(-1, brace - 80), -1):
        if code[k].text in (";", "{", "}", ")"):
            return
        yield k


def _check_instantiations(ctx) -> None:
    """`rowmax<32, 4>` where `rowmax`'s first parameter is `kWarpThreads` (a template of this file, with no default
    to report): the 32 is the warp size, set where the template is used. Not when the file also instantiates it
    with 64 or a per-platform name (a dispatch over both sizes)."""
    view = ctx.view
    for template in _templates.templates(ctx).values():
        for index, parameter in enumerate(template.parameters):
            if _templates.warp_parameter_index(template, parameter) != index:
                continue
            args = _templates.instantiations(ctx, template, index)
            values = [_templates.value_of(ctx, a) for a in args]
            if 64 in values or any(per_platform_name(ctx, " ".join(t.text for t in a)) for a in args):
                continue
            function = _function_named(ctx, template.name)
            consistent = function is not None and _groups.keeps_to_32(ctx, function)
            for arg, value in zip(args, values, strict=True):
                tok = arg[0]
                if value != 32 or tok.kind != LITERAL:
                    continue  # a name defined as 32 is reported where it is defined
                if any(_PLATFORM.search(g.condition) for g in view.guards_at(tok.line)):
                    continue
                message = (
                    f"`{template.name}<...>` sets `{parameter}`, a template parameter named for the warp, to 32: "
                    "a 32-lane warp; AMD CDNA wavefronts have 64 lanes. Instantiate it with a per-platform warp "
                    "constant."
                )
                if not consistent:
                    ctx.report(message, at=tok)
                    continue
                # One note per template is enough: every instantiation is as consistent as the template.
                ctx.report(_groups.consistent_message(message, f"`{function.name}`"), at=tok, severity=Severity.INFO)
                break


def _function_named(ctx, name: str):
    return next((f for f in ctx.functions if f.name == name and f.runs_on_device), None)


def _report(ctx, message: str, tok, template_parameter: bool = False) -> None:
    """At the rule's severity, or as a note where the 32 is used consistently: the function that defines it (a
    local constant, a template parameter) keeps to 32-lane groups, or, for a file-wide definition, the file's
    functions use it per warp and none of them reaches past 32-lane groups."""
    if other_vendor_backend(ctx.path):
        return  # another vendor's backend (SYCL's sub-group of 32): HIP never compiles it
    function = ctx.function_at(tok.line) or (_templated_function(ctx, tok.line) if template_parameter else None)
    if function is not None and not function.runs_on_device and not _launches(ctx, function):
        ctx.report(
            f"{message} Here it is a constant of `{function.name or 'a host function'}`, host code that launches "
            "no kernel: it describes a data layout the host indexes, not the lanes a kernel runs; a note only.",
            at=tok,
            severity=Severity.INFO,
        )
        return
    if function is not None and function.runs_on_device:
        where = f"`{function.name}`" if function.name else "the function that defines it"
        consistent = _groups.keeps_to_32(ctx, function)
        splits_data = not consistent and _groups.splits_data_only(ctx, function)
    else:
        where = f"every function of this file that uses `{tok.text}`"
        consistent = _groups.file_keeps_to_32(ctx, tok.text)
        in_file = not consistent and _groups.file_splits_data_only(ctx, tok.text, tok.line)
        by_users = not consistent and not in_file and _header_users_split_data(ctx, tok)
        splits_data = in_file or by_users
        if by_users:
            where = f"every file that includes this header and uses `{tok.text}`"
    if consistent:
        ctx.report(_groups.consistent_message(message, where), at=tok, severity=Severity.INFO)
    elif splits_data:
        ctx.report(_groups.splits_data_message(message, where), at=tok, severity=Severity.LOW)
    else:
        ctx.report(message, at=tok)


def _header_users_split_data(ctx, tok) -> bool:
    """A header's file-wide constant it never uses itself: the files that include it decide (scanner.rules.warp.
    _users): every one that names it does nothing per warp."""
    if not ctx.path.lower().endswith((".h", ".hpp", ".cuh", ".hh", ".hxx", ".inl", ".inc")):
        return False
    if any(t.text == tok.text and t.line != tok.line for t in ctx.view.code):
        return False  # used in the header itself: file_splits_data_only judged those uses
    return users_split_data_only(ctx, tok.text)


def _launches(ctx, function) -> bool:
    """The host function launches a kernel (`<<<`, a `...Launch...(` call): its 32 may shape the launch."""
    code = [t for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
    for i, t in enumerate(code):
        if t.text == "<<<" or (t.text == "<<" and i + 1 < len(code) and code[i + 1].text == "<"):
            return True
        if "aunch" in t.text and i + 1 < len(code) and code[i + 1].text in ("(", "<"):
            return True
    return False


def _in_template_header(code, i: int) -> bool:
    """code[i] is a parameter of `template <...>`: an unclosed `<` after `template` before it, in this statement."""
    depth = 0
    for j in range(i - 1, max(-1, i - 80), -1):
        text = code[j].text
        if text in (";", "{", "}"):
            return False
        if text == ">":
            depth += 1
        elif text == "<":
            if depth == 0:
                return j > 0 and code[j - 1].text == "template"
            depth -= 1
    return False


def _templated_function(ctx, line: int):
    """The function whose template header holds `line` (`template <int WARP_SIZE = 32>` above the kernel): the
    first function that starts within a few lines below it."""
    following = [f for f in ctx.functions if line < f.start_line <= line + 6]
    return min(following, key=lambda f: f.start_line) if following else None


def _in_enum(code, i: int) -> bool:
    depth = 0
    for j in range(i - 1, max(-1, i - 200), -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{":
            if depth == 0:
                for k in range(j - 1, max(-1, j - 6), -1):
                    if code[k].text == "enum":
                        return True
                    if code[k].text in (";", "}", "{", ")"):
                        return False
                return False
            depth -= 1
        elif text == ";" and depth == 0:
            return False
    return False


def check(ctx: Context) -> None:
    if ctx.event == "directive":
        _check_define(ctx)
    else:
        _check_tokens(ctx)
        _check_instantiations(ctx)


RULE = Rule(
    name="warp-hardcoded-warp-size-constant",
    formerly=("hardcoded-warp-size-constant",),
    summary="Warp size macro or constant defined as 32 (#define WARP_SIZE 32, kWarpSize = 32)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("directive", "file"),
    check=check,
    target_severity=wave64_severity,
)
