"""Helpers shared by the kernel-feature rules: argument lists, guard tests, the cooperative-groups namespace."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scanner.parsing.tokens import Directive, Token

if TYPE_CHECKING:
    from scanner.analysis.code_view import CodeView
    from scanner.analysis.context import Context

# A guard that selects the host pass of a CUDA compile (`#ifndef __CUDA_ARCH__`, the #else of
# `#ifdef __CUDA_ARCH__`, `#if !defined(__CUDA_ARCH__)`): code inside never runs on the device.
_HOST_PASS = re.compile(r"!\s*\(?\s*defined\s*\(?\s*__CUDA_ARCH__\b")
HIP_MACRO = re.compile(r"HIP|ROCM|AMDGCN|__gfx", re.IGNORECASE)


def paren_arguments(code: list[Token], open_index: int, close: str = ")") -> list[list[Token]] | None:
    """The top-level comma-separated arguments after the opening token at `open_index`, or None when
    the list does not close within a few hundred tokens."""
    args: list[list[Token]] = [[]]
    depth = 0
    for tok in code[open_index + 1 : open_index + 400]:
        text = tok.text
        if text == close and depth == 0:
            return args if any(args) else []
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return None
        elif text == "," and depth == 0:
            args.append([])
            continue
        args[-1].append(tok)
    return None


def paren_arguments_with_templates(code: list[Token], open_index: int) -> list[list[Token]] | None:
    """`paren_arguments`, with a comma inside template arguments (`Traits<A, B>::kThreads`,
    `threads_for<kTma, kMath>(M)`) kept in its argument. A `<` after a name opens template arguments only when
    the list closes every one of them; otherwise the `<` is a comparison and the plain split stands."""
    plain = paren_arguments(code, open_index)
    if not plain or len(plain) < 2:
        return plain
    args: list[list[Token]] = [[]]
    depth = angle = 0
    for k in range(open_index + 1, min(open_index + 400, len(code))):
        tok = code[k]
        text = tok.text
        if text == ")" and depth == 0:
            break
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        elif text == "<" and code[k - 1].kind == "identifier":
            angle += 1
        elif text in (">", ">>") and angle:
            angle -= len(text)
            if angle < 0:
                return plain
        elif text == "," and depth == 0 and angle == 0:
            args.append([])
            continue
        args[-1].append(tok)
    return plain if angle else args


def int_of_tokens(tokens: list[Token]) -> int | None:
    """The value of an argument written as one integer literal (`2`, `0x10`, `4u`), else None."""
    if len(tokens) != 1:
        return None
    text = tokens[0].text.rstrip("uUlL")
    try:
        return int(text, 0)
    except ValueError:
        return None


def in_host_pass(ctx: Context) -> bool:
    """Inside a guard that excludes the device pass (`#ifndef __CUDA_ARCH__` and the like)."""
    return any(_HOST_PASS.search(g.condition) for g in ctx.guards)


def enclosing_conditions(view: CodeView, directive: Directive) -> list[str]:
    """Conditions of the #if blocks around `directive`, plus the earlier branches of its own chain when it
    is an #elif/#else: what the preprocessor already decided before reaching it."""
    stack: list[list[str]] = []
    for d in view.directives:
        if d is directive:
            break
        if d.name in ("if", "ifdef", "ifndef"):
            stack.append([_condition(d)])
        elif d.name in ("elif", "elifdef", "elifndef", "else") and stack:
            stack[-1].append(_condition(d))
        elif d.name == "endif" and stack:
            stack.pop()
    return [cond for chain in stack for cond in chain]


def _condition(d: Directive) -> str:
    if d.name in ("ifdef", "elifdef"):
        return f"defined({d.text})"
    if d.name in ("ifndef", "elifndef"):
        return f"!defined({d.text})"
    return d.text


# -- cooperative groups ------------------------------------------------------------------------------
CG_NAMESPACE = "cooperative_groups"


def cg_aliases(view: CodeView) -> tuple[frozenset[str], bool]:
    """Names that denote the cooperative_groups namespace in this file (`namespace cg = cooperative_groups;`),
    and whether the file has `using namespace cooperative_groups;` (or of an alias)."""
    cached = _CG_CACHE.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1], cached[2]
    code = view.code
    names = {CG_NAMESPACE}
    using = False
    for i, tok in enumerate(code):
        if tok.text != "namespace" or i + 3 >= len(code):
            continue
        if code[i + 2].text == "=" and _qualified_end(code, i + 3) == CG_NAMESPACE:
            names.add(code[i + 1].text)
    for i, tok in enumerate(code):
        if tok.text == "namespace" and i > 0 and code[i - 1].text == "using" and i + 1 < len(code):
            if _qualified_end(code, i + 1) in names:
                using = True
    _CG_CACHE.clear()
    result = frozenset(names)
    _CG_CACHE[id(view)] = (view, result, using)
    return result, using


_CG_CACHE: dict[int, tuple[CodeView, frozenset[str], bool]] = {}


def _qualified_end(code: list[Token], i: int) -> str:
    """The last name of a possibly qualified name starting at `i` (`::cooperative_groups` -> cooperative_groups)."""
    last = ""
    while i < len(code):
        text = code[i].text
        if text == "::":
            i += 1
            continue
        if code[i].kind != "identifier":
            break
        last = text
        if i + 1 < len(code) and code[i + 1].text == "::":
            i += 2
            continue
        break
    return last


def cg_qualified(code: list[Token], i: int, aliases: frozenset[str]) -> bool:
    """Whether the name at code[i] is written `cg::name` or `cg::experimental::name` for a cg alias."""
    if i < 2 or code[i - 1].text != "::":
        return False
    qualifier = code[i - 2].text
    if qualifier in aliases:
        return True
    return qualifier == "experimental" and i >= 4 and code[i - 3].text == "::" and code[i - 4].text in aliases
