"""Shared machinery of the library rules: a rule is a header pattern plus identifier patterns (data).

`library_rule` builds the Rule. Every include that matches is reported on its line; identifier uses are
reported once per line, once per function, or once per file (`Use.per`), so a line such as
`wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;` gives one finding, not three.
Code in a HIP-aware #if branch (or the CUDA branch beside it) is already ported and stays quiet.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from dataclasses import dataclass
from typing import Callable

from scanner.model import Risk, Severity
from scanner.parsing.tokens import Token
from scanner.rules.base import Rule

# A message for a use: a format string ({name}, {hip} = the HIP name from HIPIFY's table or "", {next} = the
# token after `X::`) or a function (ctx, token) -> message, or None when the token is not this use (the next
# Use of the list is tried).
Message = str | Callable[..., "str | None"]


@dataclass(frozen=True)
class Use:
    """One identifier pattern: tokens starting with `prefix` whose text fully matches `pattern`."""

    prefix: str
    message: Message
    pattern: str = ""  # regex, full match; "" means the token must equal `prefix`
    scope: bool = False  # must be a namespace: followed by `::`, or named in `namespace X` / `using namespace X`
    call: bool = False  # must be followed by `(`
    per: str = "line"  # line | function | file
    known_only: bool = False  # only names in HIPIFY's table (its library coverage is complete; this skips
    #                           user wrappers such as `cublasCheck`)


@dataclass(frozen=True)
class Header:
    pattern: str  # regex, full match against the header as written (`cub/cub.cuh`) or its basename
    message: Message  # format string: {header}, {hip} = the HIP header from HIPIFY's table or ""
    basename: bool = True  # also match `dir/cudnn.h` by its basename (off for names as common as `mma.h`)


# A project's own error-checking wrapper (`nvmlCheck`, `ncclSafeCall`), not the library's API.
_WRAPPER = re.compile(r"(Check|CHECK|Assert|SafeCall|Checked)$")


# -- token neighbourhood --------------------------------------------------------------------------------
def _offsets(facts) -> list[int]:
    cache = facts.__dict__.setdefault("_rocport_code_offsets", None)
    if cache is None:
        cache = [t.offset for t in facts.view.code]
        facts.__dict__["_rocport_code_offsets"] = cache
    return cache


def neighbour(ctx, tok: Token, step: int) -> Token | None:
    """The code token `step` positions after (positive) or before (negative) `tok`."""
    code = ctx.facts.view.code
    i = bisect.bisect_left(_offsets(ctx.facts), tok.offset) + step
    return code[i] if 0 <= i < len(code) else None


def is_scope(ctx, tok: Token) -> bool:
    """`X::`, `namespace X`, `using namespace X` or a namespace alias `namespace y = X;`."""
    nxt, prev = neighbour(ctx, tok, 1), neighbour(ctx, tok, -1)
    if (nxt is not None and nxt.text == "::") or (prev is not None and prev.text == "namespace"):
        return True
    before = neighbour(ctx, tok, -3)
    return prev is not None and prev.text == "=" and before is not None and before.text == "namespace"


def is_call(ctx, tok: Token) -> bool:
    nxt = neighbour(ctx, tok, 1)
    return nxt is not None and nxt.text == "("


# -- one finding per line / function / file ---------------------------------------------------------------
def _seen(ctx) -> set:
    store = ctx.facts.__dict__.setdefault("_rocport_reported", {})
    return store.setdefault(ctx.rule.name, set())


def report_once(ctx, message: str, at=None, per: str = "line", line: int | None = None, group: str = "") -> bool:
    """Report unless this rule already reported on this line (function, file); True when reported.

    per="file" reports the first use of `group` in a file, and nothing when the file's includes were reported.
    """
    seen = _seen(ctx)
    line = ctx.line if line is None else line
    if per == "include":
        key = "include"
        if line in seen:
            return False
    elif per == "file":
        key = ("file", group)
        if key in seen or "include" in seen or line in seen:
            return False
    elif per == "function":
        fn = ctx.function
        key = ("function", fn.start_line) if fn is not None else ("function", 0)
        if key in seen or line in seen:
            return False
    else:
        key = line
        if key in seen:
            return False
    seen.add(key)
    seen.add(line)
    ctx.report(message, at=at)
    return True


# -- HIP-aware #if branches ------------------------------------------------------------------------------
def hip_aware(ctx) -> bool:
    """In a branch of an #if that tests for HIP/ROCm (its HIP side, or the CUDA side beside it): ported code."""
    return ctx.hip_guarded


# -- the rule -------------------------------------------------------------------------------------------
def library_rule(*, name: str, summary: str, risk: Risk, severity: Severity, headers: list[Header],
                 uses: list[Use], extra: dict[str, Callable] | None = None,
                 quiet_when: Callable | None = None) -> Rule:
    """A Rule reporting matching includes and identifier uses; `extra` adds checks for other events."""
    compiled_headers = [(re.compile(h.pattern), h) for h in headers]
    compiled_uses = [(re.compile(u.pattern or re.escape(u.prefix)), u) for u in uses]
    extra = dict(extra or {})
    quiet = quiet_when or hip_aware

    def check(ctx) -> None:
        if ctx.event == "include":
            _check_include(ctx, compiled_headers, quiet(ctx))
        elif quiet(ctx):
            return
        elif ctx.event == "identifier":
            _check_identifier(ctx, compiled_uses)
        elif ctx.event in extra:
            extra[ctx.event](ctx)

    events = tuple(e for e, wanted in (("include", headers), ("identifier", uses)) if wanted) + tuple(extra)
    return Rule(name=name, summary=summary, risk=risk, severity=severity, on=events, check=check,
                prefixes=tuple(sorted({u.prefix for u in uses})))


def _check_include(ctx, headers, quiet: bool) -> None:
    header = ctx.include.header
    base = posixpath.basename(header)
    for regex, spec in headers:
        if regex.fullmatch(header) or (spec.basename and regex.fullmatch(base)):
            if quiet:
                # The project includes the library in platform-aware code: per-file uses need no report.
                _seen(ctx).add("include")
                return
            entry = ctx.names.headers.get(header)
            hip = entry.hip if entry is not None else ""
            message = spec.message(ctx, header) if callable(spec.message) else spec.message.format(
                header=header, hip=hip)
            if message:
                report_once(ctx, message, per="include")
            return


def _check_identifier(ctx, uses) -> None:
    tok = ctx.token
    text = tok.text
    for regex, use in uses:
        if not text.startswith(use.prefix) or not regex.fullmatch(text):
            continue
        if use.known_only and ctx.names.get(text) is None:
            continue
        if not use.known_only and _WRAPPER.search(text):
            continue
        if use.scope and not is_scope(ctx, tok):
            continue
        if use.call and not is_call(ctx, tok):
            continue
        if callable(use.message):
            message = use.message(ctx, tok)
        else:
            entry = ctx.names.get(text)
            hip = entry.hip if entry is not None and entry.has_hip_equivalent else ""
            sep, nxt = neighbour(ctx, tok, 1), neighbour(ctx, tok, 2)
            inner = nxt.text if sep is not None and sep.text == "::" and nxt is not None else "..."
            message = use.message.format(name=text, hip=hip, next=inner)
        if not message:
            continue  # not this use: let a later pattern have the token
        report_once(ctx, message, at=tok, per=use.per, group=use.prefix)
        return


def hip_name(ctx, name: str) -> str:
    """The HIP name HIPIFY gives `name`, or "" when it has none."""
    entry = ctx.names.get(name)
    return entry.hip if entry is not None and entry.has_hip_equivalent else ""


def named(ctx, name: str, library: str, hip_library: str, fallback: str, roc_library: str = "") -> str:
    """A sentence naming the HIP (else roc*) replacement of `name` from HIPIFY's table, or saying there is none."""
    hip = hip_name(ctx, name)
    if hip:
        return f"{library} `{name}` → {hip_library} `{hip}` (hipify renames it)."
    entry = ctx.names.get(name)
    if entry is not None and entry.roc and roc_library:
        return f"{library} `{name}` has no {hip_library} equivalent; {roc_library} has `{entry.roc}`."
    if entry is not None and (entry.unsupported or entry.status == "hip_unsupported"):
        return f"{library} `{name}` has no {hip_library} equivalent: {fallback}."
    return f"{library} `{name}`: port to {hip_library} (hipify)."
