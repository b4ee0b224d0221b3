"""Shared machinery of the library rules: a rule is a header pattern plus identifier patterns (data).

`library_rule` builds the Rule. Every include that matches is reported on its line; identifier uses are
reported once per line, once per function, or once per file (`Use.per`), so a line such as
`wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;` gives one finding, not three.
A rule that `fold`s reports a file once instead, at its first include or use, with the number of uses and
their lines: porting away from TensorRT, CUTLASS or cuDNN is one piece of work per file, and a finding per
line (hundreds in a real project) buries it. A rule's `judge` may give a use its own severity (NVML behind
`__has_include(<nvml.h>)` breaks no build); a folded finding has the severity of its strongest use.
Code in a HIP-aware #if branch (or the CUDA branch beside it) is already ported and stays quiet, and so is
another vendor's backend (`ggml-sycl/`: scanner.rules.libraries._judgement). A file that only names the library's
types (`void f(cublasHandle_t /*unused*/, ...)`, `struct cudnnContext;`), with no include of it, no call and no
`X::`, passes an opaque handle through and builds without the library: info, and nothing in vendored third-party
code (`third_party/`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.parsing.tokens import Token
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import cuda_code_only, judged, third_party_code

if TYPE_CHECKING:
    from scanner.analysis.context import Context

# What a rule's `judge` says of one use: None (the rule's own severity), or (severity, risk or None, a sentence
# saying why, appended to the message).
Judgement = tuple[Severity, "Risk | None", str] | None

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
def is_scope(ctx: Context, tok: Token) -> bool:
    """`X::`, `namespace X`, `using namespace X` or a namespace alias `namespace y = X;`."""
    nxt, prev = ctx.view.neighbour(tok, 1), ctx.view.neighbour(tok, -1)
    if (nxt is not None and nxt.text == "::") or (prev is not None and prev.text == "namespace"):
        return True
    before = ctx.view.neighbour(tok, -3)
    return prev is not None and prev.text == "=" and before is not None and before.text == "namespace"


def is_call(ctx: Context, tok: Token) -> bool:
    nxt = ctx.view.neighbour(tok, 1)
    return nxt is not None and nxt.text == "("


# -- one finding per line / function / file ---------------------------------------------------------------
def report_once(
    ctx: Context,
    message: str,
    at=None,
    per: str = "line",
    line: int | None = None,
    group: str = "",
    fold: bool = False,
    name: str = "",
) -> bool:
    """Report unless this rule already reported on this line (function, file); True when reported.

    per="file" reports the first use of `group` in a file, and nothing when the file's includes were reported.
    With `fold`, every use of the file goes into the file's one finding (`_fold`); `name` is what the use names.
    """
    seen = ctx.seen()
    if fold:
        if per == "file" and "include" in seen:
            return False  # the file includes the library in platform-aware code: such uses are ported
        _fold(ctx, message, at, name, line)
        return True
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


# -- one finding per file ---------------------------------------------------------------------------------
_LINES_SHOWN = 8
_NAMES_SHOWN = 6
# A use's message that says the library (or the name) has nothing to port to on ROCm.
_NO_EQUIVALENT = re.compile(
    r"has no (?:\w+ )?(?:ROCm|HIP|hip\w*|MIOpen|roc\w*|direct \w+) "
    r"(?:equivalent|port|counterpart)|has no ROCm|no roctx counterpart|is not in HIP",
    re.I,
)


@dataclass
class _Folded:
    report: object  # the file's one Report (scanner.analysis.context.Report), updated as uses come in
    first: str  # the message of the earliest use
    lines: set[int]
    uses: int
    names: dict[str, None]  # in order of appearance
    missing: dict[str, None]  # names whose use says there is nothing to port to


def _fold(ctx, message: str, at, name: str, line: int | None) -> None:
    """Fold this use into the file's one finding of the rule: made at the first use, moved to an earlier one,
    raised to the strongest severity among the uses, its message counting them."""
    store = ctx.memo.setdefault("rocport:folded", {})
    key = (ctx.rule.code, ctx.rule.name)
    line = ctx.line if line is None else line
    folded = store.get(key)
    if folded is None:
        ctx.report(message, at=at)
        report = ctx.reports[-1]
        folded = store[key] = _Folded(report, message, set(), 0, {}, {})
    else:
        report = folded.report
        if line < report.line:
            ctx.report(message, at=at)  # where the earlier use is: take its place, then drop the extra report
            earlier = ctx.reports.pop()
            report.line, report.col, report.end_line, report.end_col = (
                earlier.line,
                earlier.col,
                earlier.end_line,
                earlier.end_col,
            )
            report.function = earlier.function
            folded.first = message
        if ctx.rule.severity.rank > report.rule.severity.rank:
            report.rule = ctx.rule
    folded.lines.add(line)
    folded.uses += 1
    if name:
        folded.names.setdefault(name)
        if _NO_EQUIVALENT.search(message):
            folded.missing.setdefault(name)
    report.message = _folded_message(folded)


def _folded_message(folded: _Folded) -> str:
    if folded.uses == 1:
        return folded.first
    lines = sorted(folded.lines)
    shown = ", ".join(str(n) for n in lines[:_LINES_SHOWN]) + (
        f", ... {lines[-1]}" if len(lines) > _LINES_SHOWN else ""
    )
    plural = "s" if len(lines) != 1 else ""
    parts = [f"{folded.first} One finding for the file: {folded.uses} uses on {len(lines)} line{plural} ({shown})"]
    if len(folded.names) > 1:
        parts.append(f"naming {_listed(folded.names)}")
    if folded.missing:
        parts.append(f"without a ROCm counterpart: {_listed(folded.missing)}")
    return "; ".join(parts) + "."


def _listed(names: dict[str, None]) -> str:
    shown = [f"`{n}`" for n in list(names)[:_NAMES_SHOWN]]
    more = len(names) - _NAMES_SHOWN
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


# -- a library the project opens itself ------------------------------------------------------------------
_LOADERS = frozenset({"dlopen", "dlmopen", "LoadLibrary", "LoadLibraryA", "LoadLibraryW", "LoadLibraryEx"})


def opened_at_run_time(ctx, library: re.Pattern) -> tuple[str, str, int] | None:
    """(the library's file name, the loader, the line) when this file opens the library itself: it calls
    `dlopen` / `LoadLibrary` and a string names the library's file (`library` matches `"libcudnn.so.9"` from its
    opening quote). Such code builds without the library; on ROCm it fails, or falls back, when the loader runs.
    Computed once per file and pattern."""
    memo = ctx.memo.setdefault("rocport:opened-library", {})
    if library.pattern not in memo:
        found = None
        identifiers = ctx.source.identifiers
        loader = next((name for name in sorted(_LOADERS) if name in identifiers), "")
        if loader:
            for tok in ctx.view.tokens:
                if tok.kind == "literal" and (match := library.search(tok.text)):
                    found = (match.group(0)[1:], loader, tok.line)
                    break
        memo[library.pattern] = found
    return memo[library.pattern]


# -- HIP-aware #if branches ------------------------------------------------------------------------------
def hip_aware(ctx) -> bool:
    """In a branch of an #if that tests for HIP/ROCm (its HIP side, or the CUDA side beside it): ported code."""
    return ctx.hip_guarded


# -- a file that only names the library's types ----------------------------------------------------------
_TYPES_ONLY = (
    "The file only names the library's types (an opaque handle in a signature or a forward declaration): it "
    "includes none of its headers and calls nothing, so it builds without the library; port the code that creates "
    "and uses the handle."
)
_TYPE_KEYWORDS = frozenset({"struct", "class", "enum", "union", "typename"})


def _names_types_only(ctx, headers, uses) -> bool:
    """Whether the file includes none of the library's headers and every use it makes of the library is a type
    name (`cublasHandle_t`, `struct cudnnContext`): no call, no `X::`, no constant. Once per file and rule."""
    memo = ctx.memo.setdefault("rocport:types-only", {})
    key = ctx.rule.code or ctx.rule.name
    if key not in memo:
        memo[key] = bool(uses) and _types_only(ctx, headers, uses)
    return memo[key]


def _types_only(ctx, headers, uses) -> bool:
    for include in ctx.view.includes:
        base = posixpath.basename(include.header)
        if any(regex.fullmatch(include.header) or (h.basename and regex.fullmatch(base)) for regex, h in headers):
            return False
    named = False
    for tok in ctx.view.code:
        if tok.kind != "identifier" or not any(
            tok.text.startswith(use.prefix) and regex.fullmatch(tok.text) for regex, use in uses
        ):
            continue
        if _WRAPPER.search(tok.text):
            continue
        nxt, prev = ctx.view.neighbour(tok, 1), ctx.view.neighbour(tok, -1)
        if nxt is not None and nxt.text in ("(", "::"):
            return False
        if not (tok.text.endswith("_t") or (prev is not None and prev.text in _TYPE_KEYWORDS) or _a_type(ctx, tok)):
            return False
        named = True
    return named


def _a_type(ctx, tok) -> bool:
    """A name HIPIFY's table calls a type (`cudnnContext*` in TensorRT's `attachToContext` signature)."""
    entry = ctx.names.get(tok.text)
    return entry is not None and entry.kind == "type"


# -- the rule -------------------------------------------------------------------------------------------
def library_rule(
    *,
    name: str,
    summary: str,
    risk: Risk,
    severity: Severity,
    headers: list[Header],
    uses: list[Use],
    extra: dict[str, Callable] | None = None,
    quiet_when: Callable | None = None,
    fold: bool = False,
    judge: Callable[..., Judgement] | None = None,
    cuda_only: bool = False,
    formerly: tuple[str, ...] = (),
) -> Rule:
    """A Rule reporting matching includes and identifier uses; `extra` adds checks for other events.

    `fold`: one finding per file (see the module docstring); `judge(ctx)`: a use's own severity; `cuda_only`:
    silent in other vendors' backends."""
    compiled_headers = [(re.compile(h.pattern), h) for h in headers]
    compiled_uses = [(re.compile(u.pattern or re.escape(u.prefix)), u) for u in uses]
    extra = dict(extra or {})
    quiet = quiet_when or hip_aware
    how = _How(fold, judge, tuple(compiled_headers), tuple(compiled_uses))

    def check(ctx: Context) -> None:
        if ctx.event == "include":
            _check_include(ctx, compiled_headers, quiet(ctx), how)
        elif quiet(ctx):
            return
        elif ctx.event == "identifier":
            _check_identifier(ctx, compiled_uses, how)
        elif ctx.event in extra:
            extra[ctx.event](ctx)

    events = tuple(e for e, wanted in (("include", headers), ("identifier", uses)) if wanted) + tuple(extra)
    return Rule(
        name=name,
        summary=summary,
        risk=risk,
        severity=severity,
        on=events,
        check=cuda_code_only(check) if cuda_only else check,
        prefixes=tuple(sorted({u.prefix for u in uses})),
        formerly=formerly,
    )


@dataclass(frozen=True)
class _How:
    """How a library rule reports: folded per file or not, and its judge of a use."""

    fold: bool
    judge: Callable[..., Judgement] | None
    headers: tuple = ()
    uses: tuple = ()

    def report(self, ctx, message: str, at=None, per: str = "line", group: str = "", name: str = "") -> None:
        if _names_types_only(ctx, self.headers, self.uses):
            if third_party_code(ctx.path):
                return  # a vendored library's signature: its vendor's code, and no use of ours
            judgement = (Severity.INFO, None, _TYPES_ONLY)
        else:
            judgement = self.judge(ctx) if self.judge is not None else None
        if judgement is None:
            report_once(ctx, message, at=at, per=per, group=group, fold=self.fold, name=name)
            return
        severity, risk, why = judgement
        with judged(ctx, severity, risk):
            report_once(ctx, f"{message} {why}", at=at, per=per, group=group, fold=self.fold, name=name)


def _check_include(ctx, headers, quiet: bool, how: _How) -> None:
    header = ctx.include.header
    base = posixpath.basename(header)
    for regex, spec in headers:
        if regex.fullmatch(header) or (spec.basename and regex.fullmatch(base)):
            if quiet:
                # The project includes the library in platform-aware code: per-file uses need no report.
                ctx.seen().add("include")
                return
            entry = ctx.names.headers.get(header)
            hip = entry.hip if entry is not None else ""
            message = (
                spec.message(ctx, header) if callable(spec.message) else spec.message.format(header=header, hip=hip)
            )
            if message:
                how.report(ctx, message, per="include", name=f"<{header}>")
            return


def _check_identifier(ctx, uses, how: _How) -> None:
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
            sep, nxt = ctx.view.neighbour(tok, 1), ctx.view.neighbour(tok, 2)
            inner = nxt.text if sep is not None and sep.text == "::" and nxt is not None else "..."
            message = use.message.format(name=text, hip=hip, next=inner)
        if not message:
            continue  # not this use: let a later pattern have the token
        how.report(ctx, message, at=tok, per=use.per, group=use.prefix, name=text)
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
