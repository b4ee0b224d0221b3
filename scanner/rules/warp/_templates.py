"""Templates of a file whose parameters are named for the warp (shared by the warp rules, not a rule module).

`template <int kWarpThreads, int kRows> __global__ void rowmax(...)` has no value for `kWarpThreads` until it is
instantiated: `rowmax<32, 4><<<...>>>` sets it to 32 where it is launched. Read on the file's code tokens: the
template headers, the name each one declares, and the arguments every `name<...>` of the file gives it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scanner.parsing.tokens import IDENT
from scanner.rules.warp import _shapes
from scanner.rules.warp._common import is_warp_size_name, peel, per_platform_name

_DECLARERS = frozenset({"struct", "class", "union"})
# Names whose parentheses come before the declared name (`__global__ void __launch_bounds__(256) kernel(...)`).
_ATTRIBUTES = frozenset({"__launch_bounds__", "__attribute__", "alignas", "__align__", "__declspec", "decltype"})


@dataclass(frozen=True)
class Template:
    name: str
    parameters: tuple[str, ...]  # every parameter's name in order ("" when unnamed)
    line: int  # the `template` keyword's line
    body_at: int  # index in the code tokens just after the header's closing `>`


def templates(ctx) -> dict[str, Template]:
    """The file's templates by the name they declare (a function's or a class's), cached per file."""
    key = "rocport:warp-templates"
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _templates(ctx.view.code)
    return found


def holding(ctx, parameter: str, function) -> Template | None:
    """The template that declares `parameter` for `function` (a FunctionInfo): the one named like the function,
    else the closest header above it that has such a parameter (a class template around a member)."""
    found = [t for t in templates(ctx).values() if parameter in t.parameters]
    if function is not None:
        named = [t for t in found if t.name == function.name]
        if named:
            return named[0]
        found = [t for t in found if t.line <= function.start_line]
    return max(found, key=lambda t: t.line) if found else None


def warp_parameter(ctx, expr) -> tuple[str, str, object]:
    """When `expr` is a non-type template parameter named for the warp with no value here (`kWarpThreads`):
    (its name, what the file sets it to, the token that sets it). What it is set to: "32" (some `name<...>` of the
    file passes 32), "unknown" (the file never instantiates the template, or only through names it cannot
    read), or "other" (only other numbers, or 64 beside 32, or a per-platform name: the port's choice is made).
    ("", "", None) for any other expression."""
    ref = peel(expr) if expr is not None else None
    if ref is None or not ref.is_decl_ref or not is_warp_size_name(ref.name) or not _template_parameter(ref):
        return "", "", None
    template = holding(ctx, ref.name, ctx.function)
    index = warp_parameter_index(template, ref.name) if template is not None else -1
    args = instantiations(ctx, template, index) if index >= 0 else []
    values = [value_of(ctx, a) for a in args]
    if 64 in values or any(per_platform_name(ctx, " ".join(t.text for t in a)) for a in args):
        return ref.name, "other", None
    if 32 in values:
        return ref.name, "32", next(a for a, v in zip(args, values, strict=True) if v == 32)[0]
    if values and all(v is not None for v in values):
        return ref.name, "other", None  # 16 for sub-warp groups, and the like: not a 32-lane warp
    return ref.name, "unknown", None


def default_of(ctx, parameter: str, function) -> int | None:
    """The literal default of a template parameter (`template <int WARPS, int WARP_SIZE = 32>`), or None."""
    template = holding(ctx, parameter, function)
    if template is None:
        return None
    code = ctx.view.code
    for k in range(max(template.body_at - 80, 0), min(template.body_at, len(code) - 2)):
        if code[k].line >= template.line and code[k].text == parameter and code[k + 1].text == "=":
            value = code[k + 2].text.rstrip("uUlL")
            return int(value) if value.isdigit() else None
    return None


def _template_parameter(ref) -> bool:
    """`ref` names a non-type parameter of a template around it."""
    for ancestor in ref.ancestors():
        for child in ancestor.children:
            if child.kind_name == "TEMPLATE_NON_TYPE_PARAMETER" and child.name == ref.name:
                return True
    return False


def warp_parameter_index(template: Template, name: str) -> int:
    """The position of `name` among the template's parameters when it is named for the warp size, or -1."""
    if name in template.parameters and is_warp_size_name(name):
        return template.parameters.index(name)
    return -1


def instantiations(ctx, template: Template, index: int) -> list:
    """The tokens of the argument at `index` of each `name<...>` in the file other than the definition itself
    (`rowmax<32, 4>(...)`, `rowmax<32, 4><<<grid, block>>>`, `template void rowmax<32, 4>(...)`)."""
    code = ctx.view.code
    out = []
    for i, tok in enumerate(code):
        if tok.text != template.name or tok.kind != IDENT or i + 1 >= len(code) or code[i + 1].text != "<":
            continue
        if template.body_at <= i <= template.body_at + 12:
            continue  # the definition's own name
        args = template_arguments(code, i + 1)
        if args is not None and index < len(args) and args[index]:
            out.append(args[index])
    return out


def value_of(ctx, tokens) -> int | None:
    """An argument's value when it is a literal or a name the file defines as a number."""
    if len(tokens) != 1:
        return None
    return _shapes.number(tokens[0].text.rstrip("lL"), _shapes.file_values(ctx))


def template_arguments(code, open_at: int, limit: int = 60) -> list[list] | None:
    """The top-level arguments of the `<` at code[open_at], or None when it is no template argument list."""
    args, current, depth = [], [], 0
    for tok in code[open_at + 1 : open_at + limit]:
        text = tok.text
        if text in ("(", "[", "{", "<"):
            depth += 1
        elif text in (")", "]", "}") or (text == ">" and depth > 0):
            if depth == 0:
                return None
            depth -= 1
        elif text == ">" or (text == ">>" and depth == 0):
            args.append(current)
            return args
        elif text == ">>" and depth == 1:
            current.append(tok)
            args.append(current)
            return args
        elif text in (";", "&&", "||"):
            return None
        elif text == "," and depth == 0:
            args.append(current)
            current = []
            continue
        current.append(tok)
    return None


def _templates(code) -> dict[str, Template]:
    found: dict[str, Template] = {}
    for i, tok in enumerate(code):
        if tok.text != "template" or i + 1 >= len(code) or code[i + 1].text != "<":
            continue
        args = template_arguments(code, i + 1, limit=200)
        if not args:
            continue
        close = i + 1 + sum(len(a) for a in args) + len(args)  # the tokens, the commas and the closing `>`
        parameters = tuple(_parameter_name(a) for a in args)
        name = _declared_name(code, close + 1)
        if name and name not in found:
            found[name] = Template(name, parameters, tok.line, close + 1)
    return found


def _parameter_name(tokens) -> str:
    """`int kWarpThreads`, `int WARP_SIZE = 32`, `typename T`: the parameter's name."""
    head = []
    for tok in tokens:
        if tok.text == "=":
            break
        head.append(tok)
    return head[-1].text if len(head) >= 2 and head[-1].kind == IDENT else ""


def _declared_name(code, at: int) -> str:
    """The name declared after a template header: a class's after `struct`/`class`, else a function's, the
    identifier just before the first `(` of the declaration."""
    for j in range(at, min(len(code), at + 40)):
        text = code[j].text
        if text in _DECLARERS and j + 1 < len(code) and code[j + 1].kind == IDENT:
            return code[j + 1].text
        if text == "(" and j > at and code[j - 1].kind == IDENT and code[j - 1].text not in _ATTRIBUTES:
            return code[j - 1].text
        if text in (";", "{", "=", "template"):
            return ""
    return ""
